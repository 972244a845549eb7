import { createHash, createHmac } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statusCounts, type HttpClient } from "../support/http";
import { withinOneMinute } from "../support/wait";
import { REFUSALS_LOGGED_PER_MINUTE } from "~/server/walls/postbacks.server";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// Offer walls turned on by configuration (WALL_{NAME}_…, docs/offer-walls.md), their postbacks sent
// to the running app as each network signs them, and what the database then holds. The signatures
// are made here from each network's documented formula, apart from the app's code.

const KEYS = {
  bitlabs: "bitlabs-app-secret-1",
  ayet: "ayet-publisher-api-key-1",
  revlum: "revlum-secret-1",
  torox: "torox-secret-1",
  lootably: "lootably-postback-secret-1",
  adgate: "adgate-token-0123456789",
  adgem: "adgem-postback-key-1",
};
const AYET_SENDER = "158.69.185.134";
const REVLUM_SENDER = "209.159.156.198";
const TOROX_SENDER = "54.175.173.245";
const ADGATE_SENDER = "52.42.57.125";
// Lootably publishes no addresses: the operator lists theirs (here, one of the documentation range).
const LOOTABLY_SENDER = "203.0.113.60";

const md5 = (text: string) => createHash("md5").update(text).digest("hex");
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const hmac = (algorithm: string, key: string, text: string) => createHmac(algorithm, key).update(text).digest("hex");

describe("offer walls: postbacks from BitLabs, ayeT-Studios, AdGate, Torox, Lootably, Revlum and AdGem over HTTP", () => {
  let app: PostgresApp;
  let person: { uid: string; wallId: string; email: string; client: HttpClient };
  let seq = 0;
  const tx = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

  /** GET /api/{network}/postback?{query}, from `sender` (the proxy's X-Forwarded-For). */
  const send = (network: string, query: string, init: { sender?: string; headers?: Record<string, string> } = {}) =>
    fetch(`${app.url}/api/${network}/postback?${query}`, {
      headers: { ...(init.sender ? { "x-forwarded-for": init.sender } : {}), ...init.headers },
    });

  const bitlabs = (params: Record<string, string>) => {
    const unsigned = `${app.url}/api/bitlabs/postback?${new URLSearchParams(params)}`;
    return fetch(`${unsigned}&hash=${hmac("sha1", KEYS.bitlabs, unsigned)}`);
  };

  const ayet = (params: Record<string, string>, sender = AYET_SENDER) => {
    const sorted = new URLSearchParams(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1))).toString();
    return send("ayetstudios", new URLSearchParams(params).toString(), {
      sender,
      headers: { "X-Ayetstudios-Security-Hash": hmac("sha256", KEYS.ayet, sorted) },
    });
  };

  /** What the ledger holds for a network's transaction: its credits and reversals. */
  const recorded = (network: string, transaction: string) =>
    app.sql<{ kind: string; coins: number; user_id: string; amount: string }>(
      "select kind, coins, user_id, amount::text from provider_postbacks where provider = $1 and transaction_id = $2 order by id",
      [network, transaction],
    );

  beforeAll(async () => {
    app = await startPostgresApp({
      TRUST_PROXY: "1",
      WALL_BITLABS_ENABLED: "true",
      WALL_BITLABS_APP_TOKEN: "bitlabs-token",
      WALL_BITLABS_APP_SECRET: KEYS.bitlabs,
      WALL_BITLABS_HOLD_DAYS: "0",
      WALL_AYETSTUDIOS_ENABLED: "true",
      WALL_AYETSTUDIOS_API_KEY: KEYS.ayet,
      WALL_AYETSTUDIOS_ADSLOT_ID: "923",
      WALL_REVLUM_ENABLED: "true",
      WALL_REVLUM_APP_ID: "rv-app",
      WALL_REVLUM_SECRET: KEYS.revlum,
      WALL_TOROX_ENABLED: "true",
      WALL_TOROX_PUBLISHER_ID: "14",
      WALL_TOROX_APP_ID: "5",
      WALL_TOROX_SECRET: KEYS.torox,
      WALL_LOOTABLY_ENABLED: "true",
      WALL_LOOTABLY_PLACEMENT_ID: "pl-1",
      WALL_LOOTABLY_POSTBACK_SECRET: KEYS.lootably,
      WALL_LOOTABLY_POSTBACKS_PER_MINUTE: "3",
      WALL_LOOTABLY_ALLOWED_ADDRESSES: LOOTABLY_SENDER,
      WALL_ADGATE_ENABLED: "true",
      WALL_ADGATE_WALL_CODE: "nq6Upw",
      WALL_ADGATE_POSTBACK_TOKEN: KEYS.adgate,
      WALL_ADGEM_ENABLED: "true",
      WALL_ADGEM_APP_ID: "31",
      WALL_ADGEM_POSTBACK_KEY: KEYS.adgem,
    });
    const { email, client } = await app.signUp();
    const [row] = await app.sql<{ id: string; wall_id: string }>(
      "select id, wall_id from user_profiles where email = $1",
      [email],
    );
    person = { uid: row!.id, wallId: row!.wall_id, email, client };
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it("gives each person a random wall id that is neither their account id nor their email", () => {
    expect(person.wallId).toMatch(/^w[0-9a-f]{32}$/);
    expect(person.wallId).not.toContain(person.uid);
    expect(person.wallId).not.toContain(person.email.split("@")[0]!);
  });

  it("BitLabs: a signed callback credits the person once; its repeat is answered the same and changes nothing", async () => {
    const id = tx("o");
    const params = { uid: person.wallId, tx: id, val: "150.00", raw: "1.50", type: "COMPLETE", offer_name: "Puzzle" };
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await bitlabs(params);
      expect([response.status, await response.text()]).toEqual([200, "OK"]);
    }
    expect(await recorded("bitlabs", id)).toEqual([
      { kind: "credit", coins: 150, user_id: person.uid, amount: "1.50" },
    ]);
    const [ledger] = await app.sql<{ n: number; description: string; cleared: boolean }>(
      "select count(*)::int as n, max(description) as description, bool_and(available_at <= now()) as cleared from transaction_history where user_id = $1 and transaction_type = 'postback'",
      [person.uid],
    );
    expect(ledger).toMatchObject({ description: "Offer completed via BitLabs: Puzzle", cleared: true });
  });

  it("BitLabs: a reconciliation (its own tx, negative value, ref) takes back the completion it names", async () => {
    const id = tx("o");
    await bitlabs({ uid: person.wallId, tx: id, val: "80" });
    const response = await bitlabs({ uid: person.wallId, tx: `r${id}`, val: "-80", ref: id, type: "RECONCILIATION" });
    expect(response.status).toBe(200);
    expect((await recorded("bitlabs", id)).map((row) => [row.kind, row.amount])).toEqual([
      ["credit", "0.80"],
      ["reversal", "-0.80"],
    ]);
  });

  it("BitLabs: a changed value, an unknown wall id and the account's own id are refused, and nothing is recorded", async () => {
    const id = tx("o");
    const unsigned = `${app.url}/api/bitlabs/postback?${new URLSearchParams({ uid: person.wallId, tx: id, val: "10" })}`;
    const tampered = await fetch(
      `${unsigned.replace("val=10", "val=9999")}&hash=${hmac("sha1", KEYS.bitlabs, unsigned)}`,
    );
    expect([tampered.status, await tampered.text()]).toEqual([403, "Invalid signature"]);
    const stranger = await bitlabs({ uid: "w00000000000000000000000000000000", tx: id, val: "10" });
    expect([stranger.status, await stranger.text()]).toEqual([400, "Unknown user"]);
    const byAccountId = await bitlabs({ uid: person.uid, tx: id, val: "10" });
    expect(byAccountId.status).toBe(400);
    expect(await recorded("bitlabs", id)).toEqual([]);
  });

  it("ayeT-Studios: credits from a published address with the header signature, and reverses an r- chargeback", async () => {
    const id = tx("ay");
    const credit = await ayet({
      transaction_id: id,
      external_identifier: person.wallId,
      currency_amount: "360",
      is_chargeback: "0",
    });
    expect([credit.status, await credit.text()]).toEqual([200, "OK"]);
    const chargeback = await ayet({
      transaction_id: `r-${id}`,
      external_identifier: person.wallId,
      currency_amount: "-360",
      is_chargeback: "1",
    });
    expect(chargeback.status).toBe(200);
    expect((await recorded("ayetstudios", id)).map((row) => row.kind)).toEqual(["credit", "reversal"]);
  });

  it("ayeT-Studios: a correctly signed postback from an address ayeT does not publish is refused with 403", async () => {
    const id = tx("ay");
    const response = await ayet(
      { transaction_id: id, external_identifier: person.wallId, currency_amount: "10", is_chargeback: "0" },
      "203.0.113.50",
    );
    expect([response.status, await response.text()]).toEqual([403, "Sender not allowed"]);
    expect(await recorded("ayetstudios", id)).toEqual([]);
  });

  it("Revlum: answers ok, takes the form as a POST too, and status 2 (unsigned) is held for an operator, not reversed", async () => {
    const id = tx("REV");
    const fields = (status: string) => ({
      subId: person.wallId,
      transId: id,
      reward: "25.0",
      payout: "0.25",
      status,
      signature: md5(`${person.wallId}${id}25.0${KEYS.revlum}`),
    });
    const credit = await fetch(`${app.url}/api/revlum/postback`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": REVLUM_SENDER },
      body: new URLSearchParams(fields("1")),
    });
    expect([credit.status, await credit.text()]).toEqual([200, "ok"]);
    const reversal = await send("revlum", new URLSearchParams(fields("2")).toString(), { sender: REVLUM_SENDER });
    expect([reversal.status, await reversal.text()]).toEqual([200, "ok"]);
    expect((await recorded("revlum", id)).map((row) => [row.kind, row.coins])).toEqual([["credit", 25]]);
    expect(
      await app.sql("select kind, coins, status from held_postbacks where network = 'revlum' and transaction_id = $1", [
        id,
      ]),
    ).toEqual([{ kind: "reversal", coins: 25, status: "held" }]);
  });

  it("Torox: md5(oid-user_id-secret) credits the conversion and is answered 1", async () => {
    const id = tx("tx");
    const query = new URLSearchParams({
      id,
      oid: "9001",
      amount: "35",
      user_id: person.wallId,
      sig: md5(`9001-${person.wallId}-${KEYS.torox}`),
    });
    const response = await send("torox", query.toString(), { sender: TOROX_SENDER });
    expect([response.status, await response.text()]).toEqual([200, "1"]);
    expect((await recorded("torox", id)).map((row) => row.coins)).toEqual([35]);
  });

  it("AdGate: the operator's token in the URL; approved credits, pending pays nothing, another token is refused", async () => {
    const id = tx("ag");
    const query = (state: string, token = KEYS.adgate) =>
      new URLSearchParams({
        token,
        conversion_id: id,
        user_id: person.wallId,
        points: "250",
        payout: "2.50",
        state,
      }).toString();
    const adgate = (text: string) => send("adgate", text, { sender: ADGATE_SENDER });
    expect((await adgate(query("pending"))).status).toBe(200);
    expect(await recorded("adgate", id)).toEqual([]);
    expect((await adgate(query("approved", "adgate-token-9999999999"))).status).toBe(403);
    expect((await adgate(query("approved"))).status).toBe(200);
    expect((await recorded("adgate", id)).map((row) => row.coins)).toEqual([250]);
  });

  it("Lootably: sha256 postbacks are taken up to the network's own allowance a minute, then 429 with Retry-After", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) {
      const fields = {
        userID: person.wallId,
        transactionID: tx("lt"),
        ip: "198.51.100.7",
        // Each its own hash: the same hash on another transaction would be held, not paid.
        revenue: `0.1${index}`,
        currencyReward: "10",
      };
      const hash = sha256(`${fields.userID}${fields.ip}${fields.revenue}${fields.currencyReward}${KEYS.lootably}`);
      const response = await send("lootably", new URLSearchParams({ ...fields, status: "1", hash }).toString(), {
        sender: LOOTABLY_SENDER,
      });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("scopes transaction ids per network: the same id from two networks is two credits", async () => {
    const id = tx("shared");
    await bitlabs({ uid: person.wallId, tx: id, val: "5" });
    const query = new URLSearchParams({
      id,
      oid: "1",
      amount: "5",
      user_id: person.wallId,
      sig: md5(`1-${person.wallId}-${KEYS.torox}`),
    });
    await send("torox", query.toString(), { sender: TOROX_SENDER });
    const rows = await app.sql<{ provider: string }>(
      "select provider from provider_postbacks where transaction_id = $1 order by provider",
      [id],
    );
    expect(rows.map((row) => row.provider)).toEqual(["bitlabs", "torox"]);
  });

  it("Earn lists a card per wall that has a page, each linking to /earn/walls/{network}", async () => {
    const page = await (await person.client.get("/earn")).text();
    expect(page).toContain("Offer walls");
    const links = [...page.matchAll(/href="\/earn\/walls\/([a-z0-9]+)"/g)].map((match) => match[1]);
    expect(links).toEqual(["bitlabs", "ayetstudios", "adgate", "torox", "lootably", "revlum", "adgem"]);
  });

  it("/earn/walls/bitlabs frames the person's wall by wall id, and its policy allows that origin's frames only", async () => {
    const response = await person.client.get("/earn/walls/bitlabs");
    expect(response.status).toBe(200);
    const page = await response.text();
    const src = `https://web.bitlabs.ai/?uid=${person.wallId}&amp;token=bitlabs-token`;
    expect(page).toContain(`<iframe src="${src}"`);
    expect(page).toContain(`href="${src}" target="_blank" rel="noopener noreferrer"`);
    expect(page).not.toContain(person.uid);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("frame-src https://web.bitlabs.ai;");
    const earnPolicy = (await person.client.get("/earn")).headers.get("content-security-policy") ?? "";
    expect(earnPolicy).toContain("frame-src 'none'");
  });

  it("answers 404 for a network that is not turned on, and sends a signed-out visitor to sign in", async () => {
    expect((await person.client.get("/earn/walls/cpxresearch")).status).toBe(404);
    expect((await person.client.get("/earn/walls/custom")).status).toBe(404);
    const signedOut = await fetch(`${app.url}/earn/walls/bitlabs`, { redirect: "manual" });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe("/auth?redirectTo=%2Fearn%2Fwalls%2Fbitlabs");
  });

  it("logs every postback with its verdict, person and coins, with the wall's secret token removed", async () => {
    const id = tx("log");
    const query = (state: string, token = KEYS.adgate) =>
      new URLSearchParams({ token, conversion_id: id, user_id: person.wallId, points: "40", state }).toString();
    const adgate = (text: string) => send("adgate", text, { sender: ADGATE_SENDER });
    await adgate(query("approved"));
    await adgate(query("approved"));
    await adgate(query("rejected"));
    await adgate(query("approved", "adgate-token-9999999999"));
    const rows = await app.sql<{
      verdict: string;
      reason: string | null;
      user_id: string | null;
      coins: number | null;
      query: string;
    }>(
      "select verdict, reason, user_id, coins, query from postback_log where network = 'adgate' and query like $1 order by id",
      [`%${id}%`],
    );
    expect(rows.map((row) => [row.verdict, row.user_id, row.coins])).toEqual([
      ["credited", person.uid, 40],
      ["duplicate", person.uid, 40],
      ["reversed", person.uid, 40],
      ["refused", null, null],
    ]);
    expect(rows[3]!.reason).toBe("the postback token does not match");
    for (const row of rows.slice(0, 3)) {
      expect(row.query).toContain("token=[removed]");
      expect(row.query).not.toContain(KEYS.adgate);
    }
  });

  it("AdGem: a postback verified over its whole URL credits once, a repeat changes nothing, a changed amount is refused, and a negative amount (no documented reversal) is refused", async () => {
    const adgem = (params: Record<string, string>, key = KEYS.adgem) => {
      const unsigned = `${app.url}/api/adgem/postback?${new URLSearchParams(params)}`;
      return fetch(`${unsigned}&verifier=${hmac("sha256", key, unsigned)}`);
    };
    const id = tx("ag");
    const params = {
      transaction_id: id,
      player_id: person.wallId,
      amount: "120",
      payout: "1.20",
      request_id: `r-${id}`,
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await adgem(params);
      expect([response.status, await response.text()]).toEqual([200, "OK"]);
    }
    expect(await recorded("adgem", id)).toEqual([{ kind: "credit", coins: 120, user_id: person.uid, amount: "1.20" }]);
    const forged = await adgem({ ...params, transaction_id: tx("ag") }, "a-guessed-key");
    expect(forged.status).toBe(403);
    const unsigned = `${app.url}/api/adgem/postback?${new URLSearchParams({ ...params, transaction_id: tx("ag") })}`;
    const changed = await fetch(
      `${unsigned.replace("amount=120", "amount=12000")}&verifier=${hmac("sha256", KEYS.adgem, unsigned)}`,
    );
    expect(changed.status).toBe(403);
    const negative = await adgem({ ...params, amount: "-120" });
    expect([negative.status, await negative.text()]).toEqual([
      400,
      "Invalid postback: AdGem documents no reversal postback: a negative amount",
    ]);
    expect(await recorded("adgem", id)).toHaveLength(1);
  });

  it("logs a refused sender with its address and the reason", async () => {
    const id = tx("ay");
    await ayet(
      { transaction_id: id, external_identifier: person.wallId, currency_amount: "10", is_chargeback: "0" },
      "203.0.113.77",
    );
    const [row] = await app.sql<{ verdict: string; reason: string; client_address: string }>(
      "select verdict, reason, client_address from postback_log where network = 'ayetstudios' and query like $1",
      [`%${id}%`],
    );
    expect(row).toEqual({
      verdict: "refused",
      reason: "sender 203.0.113.77 not allowed",
      client_address: "203.0.113.77",
    });
  });

  it("answers a postback sent by another method than GET or POST 405 and logs it refused: TRACE too, which a Fetch Request cannot carry, and the server goes on", async () => {
    const marker = tx("method");
    const statusOf = (method: string) =>
      new Promise<number>((resolve, reject) => {
        const sent = httpRequest(
          `${app.url}/api/bitlabs/postback?uid=${person.wallId}&tx=${marker}-${method}`,
          { method },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        sent.on("error", reject);
        sent.end();
      });
    expect(await statusOf("TRACE")).toBe(405);
    expect(await statusOf("PUT")).toBe(405);
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    const rows = await app.sql<{ verdict: string; reason: string }>(
      "select verdict, reason from postback_log where network = 'bitlabs' and query like $1 order by id",
      [`%${marker}%`],
    );
    expect(rows).toEqual([
      { verdict: "refused", reason: "method TRACE" },
      { verdict: "refused", reason: "method PUT" },
    ]);
  });

  it("records at most REFUSALS_LOGGED_PER_MINUTE refusals a minute per network: a flood of forged postbacks past it is answered 403 and written nowhere, and one line says so", async () => {
    // The allowance counts clock minutes: flood within one, or it starts over midway.
    const seen = await withinOneMinute(
      async () => {
        const marker = tx("flood");
        const forged = () =>
          send(
            "revlum",
            new URLSearchParams({
              subId: person.wallId,
              transId: `${marker}-${++seq}`,
              reward: "5",
              status: "1",
              signature: "0".repeat(32),
            }).toString(),
            {
              sender: REVLUM_SENDER,
            },
          );
        const total = REFUSALS_LOGGED_PER_MINUTE + 50;
        const statuses = await statusCounts(forged, total);
        const [found] = await app.sql<{ n: number }>(
          "select count(*)::int as n from postback_log where network = 'revlum' and query like $1",
          [`%${marker}%`],
        );
        return { statuses, logged: found!.n, total };
      },
      { needMs: 15_000 },
    );
    expect(seen.statuses).toEqual({ 403: seen.total });
    // Earlier refusals of this minute (other tests') count too: at most the allowance is recorded.
    expect(seen.logged).toBeLessThanOrEqual(REFUSALS_LOGGED_PER_MINUTE);
    expect(seen.logged).toBeGreaterThan(0);
    expect(app.stderr()).toContain(
      `postback from revlum: over ${REFUSALS_LOGGED_PER_MINUTE} refused this minute; the rest of this minute's are not logged`,
    );
  }, 240_000);
});
