import { createHash, createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ageSession, consoleTableCells, newMember, newOperator } from "../support/console";
import { visibleText } from "../support/bad-input";
import { startTestApp } from "../support/app-server";
import { HttpClient } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { eventually } from "../support/wait";

// The operator console's Walls section (docs/operator-console.md, "Walls"), on two production
// servers (A and B) sharing one Postgres database, as behind a load balancer: an owner changes a
// wall on A and both servers take, or refuse, the network's postbacks at once. The postbacks are
// signed here from each network's documented formula, apart from the app's code.

const ENV_REVLUM_SECRET = "revlum-secret-from-the-environment";
const CONSOLE_REVLUM_SECRET = "revlum-secret-set-in-the-console";
const CONSOLE_BITLABS_SECRET = "bitlabs-secret-set-in-the-console";
const ENV_ADGATE_TOKEN = "adgate-token-from-the-environment";
const CONSOLE_ADGATE_TOKEN = "adgate-token-set-in-the-console";
const SECRETS = [
  ENV_REVLUM_SECRET,
  CONSOLE_REVLUM_SECRET,
  CONSOLE_BITLABS_SECRET,
  ENV_ADGATE_TOKEN,
  CONSOLE_ADGATE_TOKEN,
];

const ENV = {
  WALL_REVLUM_ENABLED: "true",
  WALL_REVLUM_APP_ID: "rv-app",
  WALL_REVLUM_SECRET: ENV_REVLUM_SECRET,
  // The test sends the networks' postbacks from this machine, with no proxy: loopback is their sender.
  WALL_REVLUM_ALLOWED_ADDRESSES: "127.0.0.1",
  WALL_ADGATE_ENABLED: "true",
  WALL_ADGATE_WALL_CODE: "nq6Upw",
  WALL_ADGATE_POSTBACK_TOKEN: ENV_ADGATE_TOKEN,
  WALL_ADGATE_ALLOWED_ADDRESSES: "127.0.0.1",
  // BitLabs is not turned on by the environment; its token is there, its secret is not.
  WALL_BITLABS_APP_TOKEN: "bitlabs-token-from-the-environment",
};

const md5 = (text: string) => createHash("md5").update(text).digest("hex");
const hmacSha1 = (key: string, text: string) => createHmac("sha1", key).update(text).digest("hex");

let seq = 0;
const newTx = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

/** A BitLabs callback to the app at `base`, signed with `secret` over the whole URL as BitLabs signs it. */
function bitlabs(base: string, secret: string, wallId: string, tx: string, coins = 40) {
  const unsigned = `${base}/api/bitlabs/postback?${new URLSearchParams({ uid: wallId, tx, val: String(coins), type: "COMPLETE" })}`;
  return fetch(`${unsigned}&hash=${hmacSha1(secret, unsigned)}`);
}

/** A Revlum postback (a POST form), signed md5(subId + transId + reward + secret). */
function revlum(base: string, secret: string, wallId: string, tx: string, reward = "30") {
  const fields = { subId: wallId, transId: tx, reward, status: "1" };
  return fetch(`${base}/api/revlum/postback`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...fields, signature: md5(`${wallId}${tx}${reward}${secret}`) }),
  });
}

/** An AdGate postback: unsigned, carrying the operator's token in its URL. */
function adgate(base: string, token: string, wallId: string, tx: string) {
  const query = new URLSearchParams({ token, conversion_id: tx, user_id: wallId, points: "25", state: "approved" });
  return fetch(`${base}/api/adgate/postback?${query}`);
}

const answer = async (response: Response) => [response.status, await response.text()];

describe("the console's Walls section: configuration, postback log and test postbacks on two servers", () => {
  let a: PostgresApp;
  let b: Awaited<ReturnType<typeof startTestApp>>;
  let owner: HttpClient;
  let ownerId: string;
  let ownerEmail: string;
  let person: { client: HttpClient; email: string; uid: string; wallId: string };

  /** Everything the owner's save form sends, with `fields` over it. */
  const saveForm = (fields: Record<string, string>) => ({
    intent: "save",
    enabled: "environment",
    reason: "Configuring the wall for the test",
    ...fields,
  });
  const save = (network: string, fields: Record<string, string>, client = owner) =>
    client.post(`/admin/walls/${network}`, saveForm(fields));
  const page = async (path: string, client = owner) => {
    const response = await client.get(path);
    return { status: response.status, html: await response.text() };
  };
  const credits = (network: string, tx: string) =>
    a.sql<{ user_id: string; coins: number }>(
      "select user_id, coins from provider_postbacks where provider = $1 and transaction_id = $2",
      [network, tx],
    );
  const wallRow = async (network: string) =>
    (await a.sql("select * from wall_settings where network = $1", [network]))[0] ?? null;
  const audits = (network: string) =>
    a.sql<{ action: string; actor_user_id: string; before: unknown; after: unknown; reason: string }>(
      "select action, actor_user_id, before, after, reason from operator_actions where record_kind = 'wall' and record_id = $1 order by id",
      [network],
    );

  beforeAll(async () => {
    a = await startPostgresApp(ENV);
    b = await startTestApp({ DATABASE_URL: a.scratchUrl, ...ENV });
    const made = await newOperator(a, "owner");
    owner = made.client;
    ownerId = made.uid;
    ownerEmail = made.email;
    const member = await newMember(a);
    const [row] = await a.sql<{ wall_id: string }>("select wall_id from user_profiles where id = $1", [member.uid]);
    person = { ...member, wallId: row!.wall_id };
  }, 180_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it("lists every network on or off, where each setting comes from, secrets masked and the postback URL to paste", async () => {
    const { status, html } = await page("/admin/walls");
    expect(status).toBe(200);
    expect(html.match(/data-testid="wall-card"/g)).toHaveLength(9);
    const text = visibleText(html);
    expect(text).toContain("Revlum On");
    // The environment's secret: masked to its last four characters, and where it comes from.
    expect(text).toContain(`Secret •••• ${ENV_REVLUM_SECRET.slice(-4)} Environment`);
    expect(text).toContain("App token bitlabs-token-from-the-environment Environment");
    expect(text).toContain("App secret Not set Default");
    expect(text).toContain(
      "/api/bitlabs/postback?uid=[%UID%]&tx=[%TX%]&val=[%VAL%]&raw=[%RAW%]&ref=[%REF%]&type=[%TYPE%]&offer_state=[%OFFER_STATE%]&offer_id=[%OFFER_ID%]&offer_name=[%OFFER_NAME%]",
    );
    // AdGate's token goes in its URL: the console shows where, never the token.
    expect(text).toContain("/api/adgate/postback?token={your postback token}&conversion_id=");
    for (const secret of SECRETS) expect(html).not.toContain(secret);
  });

  it("an owner turns BitLabs on with its secret in the console: A and then B credit a callback signed with it (B told at once, not after its 30 s copy)", async () => {
    // B has read the walls already: BitLabs is not one of them.
    expect(await answer(await bitlabs(b.url, CONSOLE_BITLABS_SECRET, person.wallId, newTx("b0")))).toEqual([
      404,
      "Unknown provider",
    ]);
    const saved = await save("bitlabs", { enabled: "on", setting_APP_SECRET: CONSOLE_BITLABS_SECRET });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/admin/walls/bitlabs");
    expect(visibleText((await owner.visit("/admin/walls/bitlabs")).html)).toContain("Wall saved");

    const onA = newTx("a");
    expect(await answer(await bitlabs(a.url, CONSOLE_BITLABS_SECRET, person.wallId, onA))).toEqual([200, "OK"]);
    expect(await credits("bitlabs", onA)).toEqual([{ user_id: person.uid, coins: 40 }]);

    const onB = newTx("b");
    await eventually(
      async () => (await bitlabs(b.url, CONSOLE_BITLABS_SECRET, person.wallId, onB)).status === 200 || undefined,
      { what: "B to take BitLabs' callbacks", timeoutMs: 10_000 },
    );
    expect(await credits("bitlabs", onB)).toEqual([{ user_id: person.uid, coins: 40 }]);
    // Signed with another secret: refused.
    expect((await bitlabs(a.url, "some-other-secret", person.wallId, newTx("x"))).status).toBe(403);

    const [entry] = await audits("bitlabs");
    expect(entry).toMatchObject({
      action: "set_wall",
      actor_user_id: ownerId,
      before: null,
      after: { enabled: true, secrets: ["APP_SECRET"], settings: {} },
      reason: "Configuring the wall for the test",
    });
  });

  it("Revlum: a secret set in the console replaces the environment's, whose postbacks are then refused; Reset gives the environment's back", async () => {
    const before = newTx("env");
    expect(await answer(await revlum(a.url, ENV_REVLUM_SECRET, person.wallId, before))).toEqual([200, "ok"]);
    expect((await save("revlum", { setting_SECRET: CONSOLE_REVLUM_SECRET })).status).toBe(302);

    const stale = newTx("env");
    expect((await revlum(a.url, ENV_REVLUM_SECRET, person.wallId, stale)).status).toBe(403);
    expect(await credits("revlum", stale)).toEqual([]);
    const fresh = newTx("console");
    expect(await answer(await revlum(a.url, CONSOLE_REVLUM_SECRET, person.wallId, fresh))).toEqual([200, "ok"]);
    await eventually(
      async () => (await revlum(b.url, ENV_REVLUM_SECRET, person.wallId, newTx("b"))).status === 403 || undefined,
      {
        what: "B to refuse the environment's secret",
      },
    );

    const table = visibleText((await page("/admin/walls/revlum")).html);
    expect(table).toContain(`Secret •••• ${CONSOLE_REVLUM_SECRET.slice(-4)} Console WALL_REVLUM_SECRET`);

    const reset = await owner.post("/admin/walls/revlum", { intent: "reset", reason: "Back to the environment" });
    expect(reset.status).toBe(302);
    expect(await wallRow("revlum")).toBeNull();
    expect((await revlum(a.url, CONSOLE_REVLUM_SECRET, person.wallId, newTx("console"))).status).toBe(403);
    expect((await revlum(a.url, ENV_REVLUM_SECRET, person.wallId, newTx("env"))).status).toBe(200);
    expect((await audits("revlum")).map((entry) => entry.action)).toEqual(["set_wall", "reset_wall"]);
  });

  it("AdGate: the console's token replaces the environment's, and the log shows neither (removed from what was sent)", async () => {
    expect((await save("adgate", { setting_POSTBACK_TOKEN: CONSOLE_ADGATE_TOKEN })).status).toBe(302);
    const old = newTx("old");
    expect((await adgate(a.url, ENV_ADGATE_TOKEN, person.wallId, old)).status).toBe(403);
    const taken = newTx("new");
    expect(await answer(await adgate(a.url, CONSOLE_ADGATE_TOKEN, person.wallId, taken))).toEqual([200, "OK"]);
    const { html } = await page("/admin/walls/adgate");
    expect(html.match(/data-testid="postback-entry"/g)?.length).toBeGreaterThanOrEqual(2);
    expect(consoleTableCells(html)).toMatchObject({ unlabelled: 0 });
    expect(html).toContain("token=[removed]");
    expect(html).not.toContain(ENV_ADGATE_TOKEN);
    expect(html).not.toContain(CONSOLE_ADGATE_TOKEN);
  });

  it("no secret is in any Walls or audit page, or in their data, for an owner or a support operator", async () => {
    const support = (await newOperator(a, "support")).client;
    const paths = [
      "/admin/walls",
      "/admin/walls.data",
      "/admin/walls/bitlabs",
      "/admin/walls/bitlabs.data",
      "/admin/walls/revlum",
      "/admin/walls/revlum.data",
      "/admin/walls/adgate",
      "/admin/walls/adgate.data",
      "/admin/walls/adgate?refused=1",
      "/admin/audit",
      "/admin/audit.data",
    ];
    for (const client of [owner, support]) {
      for (const path of paths) {
        const { status, html } = await page(path, client);
        expect(status, path).toBe(200);
        for (const secret of SECRETS) expect(html, `${path} holds a secret`).not.toContain(secret);
        expect(html, path).not.toMatch(/"sealed"|v1\.[A-Za-z0-9_-]{30}/);
      }
    }
  });

  it("turning Lootably on without its placement id is refused with what is missing; the secret typed is not sent back; nothing changes", async () => {
    const typed = "lootably-secret-typed-in-the-form";
    const response = await save("lootably", { enabled: "on", setting_POSTBACK_SECRET: typed });
    expect(response.status).toBe(400);
    const html = await response.text();
    const text = visibleText(html);
    expect(text).toContain("Not saved: Lootably cannot run with these settings.");
    expect(text).toContain("Needed to turn Lootably on: the placement's id.");
    expect(html).not.toContain(typed);
    expect(await wallRow("lootably")).toBeNull();
    expect(await audits("lootably")).toEqual([]);
  });

  it("bad values are refused on their field and change nothing: hold days, senders, a reason left out", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ holdDays: "366" }, "Enter a whole number of days from 0 to 365, or leave it blank."],
      [{ allowedAddresses: "52.42.57.125, not-an-ip" }, "Not an IP address: not-an-ip."],
      [{ reason: "   " }, "Please say why you are making this change."],
      [{ enabled: "maybe" }, "Choose on, off, or the environment's setting."],
    ];
    for (const [fields, message] of cases) {
      const response = await save("torox", fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(visibleText(await response.text())).toContain(message);
    }
    expect(await wallRow("torox")).toBeNull();
    expect(await audits("torox")).toEqual([]);
  });

  it("turning BitLabs off in the console refuses its callbacks and takes it off Earn, on A and on B", async () => {
    expect((await save("bitlabs", { enabled: "on", setting_APP_SECRET: CONSOLE_BITLABS_SECRET })).status).toBe(302);
    expect((await person.client.visit("/earn")).html).toContain('href="/earn/walls/bitlabs"');
    expect((await save("bitlabs", { enabled: "off" })).status).toBe(302);

    expect(await answer(await bitlabs(a.url, CONSOLE_BITLABS_SECRET, person.wallId, newTx("off")))).toEqual([
      404,
      "Unknown provider",
    ]);
    const earn = (await person.client.visit("/earn")).html;
    expect(earn).not.toContain('href="/earn/walls/bitlabs"');
    expect(earn).toContain('href="/earn/walls/revlum"');
    expect((await person.client.get("/earn/walls/bitlabs")).status).toBe(404);
    await eventually(
      async () =>
        (await bitlabs(b.url, CONSOLE_BITLABS_SECRET, person.wallId, newTx("off-b"))).status === 404 || undefined,
      { what: "B to refuse BitLabs' callbacks" },
    );
    const onB = new HttpClient(b.url);
    for (const [name, value] of person.client.cookies) onB.cookies.set(name, value);
    expect((await onB.visit("/earn")).html).not.toContain('href="/earn/walls/bitlabs"');
  });

  it("the postback log filters by URL: refused only, one person by email or id, one transaction, paged by entry", async () => {
    const other = await newMember(a);
    const [row] = await a.sql<{ wall_id: string }>("select wall_id from user_profiles where id = $1", [other.uid]);
    const mine = [newTx("mine"), newTx("mine")];
    for (const tx of mine) await revlum(a.url, ENV_REVLUM_SECRET, person.wallId, tx);
    await revlum(a.url, ENV_REVLUM_SECRET, person.wallId, mine[0]!); // a repeat: "duplicate"
    const theirs = newTx("theirs");
    await revlum(a.url, ENV_REVLUM_SECRET, row!.wall_id, theirs);
    for (let i = 0; i < 52; i++) await revlum(a.url, "forged", person.wallId, newTx("forged"));

    const entries = (html: string) => html.match(/data-testid="postback-entry"[\s\S]*?<\/tr>/g) ?? [];
    const refused = await page("/admin/walls/revlum?refused=1");
    const first = entries(refused.html);
    expect(first).toHaveLength(50);
    for (const entry of first) expect(entry).toContain(">refused<");
    const older = /href="\/admin\/walls\/revlum\?refused=1&amp;before=(\d+)"/.exec(refused.html);
    expect(older).not.toBeNull();
    const second = entries((await page(`/admin/walls/revlum?refused=1&before=${older![1]}`)).html);
    expect(second.length).toBeGreaterThanOrEqual(2);
    for (const entry of second) expect(entry).toContain(">refused<");

    const byTx = entries((await page(`/admin/walls/revlum?tx=${mine[0]}`)).html);
    expect(byTx.map((entry) => />(credited|duplicate)</.exec(entry)?.[1])).toEqual(["duplicate", "credited"]);

    for (const user of [other.email.toUpperCase(), other.uid]) {
      const theirsOnly = entries((await page(`/admin/walls/revlum?user=${encodeURIComponent(user)}`)).html);
      expect(theirsOnly).toHaveLength(1);
      expect(theirsOnly[0]).toContain(theirs);
    }
    expect(entries((await page(`/admin/walls/revlum?user=${person.uid}&refused=1`)).html)).toEqual([]);

    const nobody = await page("/admin/walls/revlum?user=nobody-at-all%40example.com");
    expect(nobody.status).toBe(200);
    expect(visibleText(nobody.html)).toContain("No account has this email.");
    expect(entries(nobody.html)).toEqual([]);
    const longTx = await page(`/admin/walls/revlum?tx=${"t".repeat(201)}`);
    expect(visibleText(longTx.html)).toContain("A transaction id is 1 to 200 characters");
    // A page that is no entry id starts at the newest.
    expect((await page("/admin/walls/revlum?before=abc&refused=2")).status).toBe(200);
  });

  it("a test postback credits test coins to the account the owner names (no ledger row, no balance, shown as test in My offers), once even when the form is sent twice, and the audit log says so", async () => {
    expect((await save("bitlabs", { enabled: "on", setting_APP_SECRET: CONSOLE_BITLABS_SECRET })).status).toBe(302);
    const form = (await page("/admin/walls/bitlabs")).html;
    const transaction = /name="transaction" value="(sim-[0-9a-f-]{36})"/.exec(form)?.[1];
    expect(transaction).toBeDefined();
    const fields = {
      intent: "test-postback",
      email: person.email.toUpperCase(),
      coins: "120",
      transaction: transaction!,
    };
    const [before] = await a.sql<{ balance: number }>(
      "select balance::float as balance from user_balance where user_id = $1",
      [person.uid],
    );

    const sent = await owner.post("/admin/walls/bitlabs", fields);
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe(`/admin/walls/bitlabs?tx=${transaction}`);
    const shown = await owner.visit(sent.headers.get("location")!);
    const text = visibleText(shown.html);
    expect(text).toContain(`Test postback taken: 120 test coins to ${person.email} (not withdrawable)`);
    expect(text).toContain("The app answered 200 OK.");
    expect(shown.html.match(/data-testid="postback-entry"/g)).toHaveLength(1);
    expect(shown.html).toContain(">credited<");

    const again = await owner.post("/admin/walls/bitlabs", fields);
    expect(again.status).toBe(302);
    expect(visibleText((await owner.visit(again.headers.get("location")!)).html)).toContain(
      "This test postback was sent already",
    );
    // Test money: its own ledger, never a balance, a total or an offer credit.
    expect(await credits("bitlabs", transaction!)).toEqual([]);
    expect(
      await a.sql(
        "select user_id, coins, amount::float from test_credits where network = 'bitlabs' and transaction_id = $1",
        [transaction],
      ),
    ).toEqual([{ user_id: person.uid, coins: 120, amount: 1.2 }]);
    expect(
      await a.sql(
        "select count(*)::int as n from transaction_history where user_id = $1 and description like '%operator console%'",
        [person.uid],
      ),
    ).toEqual([{ n: 0 }]);
    expect(await a.sql("select balance::float as balance from user_balance where user_id = $1", [person.uid])).toEqual([
      before,
    ]);
    const offers = visibleText((await person.client.visit("/earn/offers")).html);
    expect(offers).toContain("Test · not withdrawable");

    const audit = await a.sql<{ actor_user_id: string; record_kind: string; after: Record<string, unknown> }>(
      "select actor_user_id, record_kind, after from operator_actions where action = 'test_postback' and user_id = $1",
      [person.uid],
    );
    expect(audit).toEqual([
      {
        actor_user_id: ownerId,
        record_kind: "account",
        after: { network: "bitlabs", transaction_id: transaction, coins: 120, email: person.email },
      },
    ]);
    expect(visibleText((await page(`/admin/people/${person.uid}`)).html)).toContain("test postback");
  });

  it("an owner's test postback to their own account is refused on its field, and a wall takes only the day's allowance of test postbacks; each refusal is audited and credits nothing", async () => {
    expect((await save("bitlabs", { enabled: "on", setting_APP_SECRET: CONSOLE_BITLABS_SECRET })).status).toBe(302);
    const nextTransaction = async () =>
      /name="transaction" value="(sim-[0-9a-f-]{36})"/.exec((await page("/admin/walls/bitlabs")).html)![1]!;
    const own = await owner.post("/admin/walls/bitlabs", {
      intent: "test-postback",
      email: ownerEmail,
      coins: "1000",
      transaction: await nextTransaction(),
    });
    expect(own.status).toBe(400);
    expect(visibleText(await own.text())).toContain("Operators cannot do this to their own account");
    expect(await a.sql("select count(*)::int as n from test_credits where user_id = $1", [ownerId])).toEqual([
      { n: 0 },
    ]);

    // One more today, then the allowance is spent.
    const [{ sent }] = (await a.sql<{ sent: number }>(
      "select count(*)::int as sent from operator_actions where action = 'test_postback' and detail->>'network' = 'bitlabs'",
    )) as [{ sent: number }];
    await a.sql("update app_config set test_postbacks_per_wall_per_day = $1", [sent + 1]);
    try {
      const fields = { intent: "test-postback", email: person.email, coins: "5" };
      expect(
        (await owner.post("/admin/walls/bitlabs", { ...fields, transaction: await nextTransaction() })).status,
      ).toBe(302);
      const spent = await owner.post("/admin/walls/bitlabs", { ...fields, transaction: await nextTransaction() });
      expect(spent.status).toBe(400);
      expect(visibleText(await spent.text())).toContain("No more test postbacks through this wall today");
    } finally {
      await a.sql("update app_config set test_postbacks_per_wall_per_day = 5");
    }
    expect(
      (
        await a.sql<{ rule: string }>(
          "select detail->>'rule' as rule from operator_actions where action = 'refused' and actor_user_id = $1 order by id",
          [ownerId],
        )
      ).map((row) => row.rule),
    ).toEqual(["operator_self_action", "test_postbacks_exhausted"]);
  });

  it("a test postback to an email no account has, or of 1,001 coins, is refused on its field and credits and records nothing", async () => {
    const html = (await page("/admin/walls/bitlabs")).html;
    const transaction = /name="transaction" value="(sim-[0-9a-f-]{36})"/.exec(html)![1]!;
    const cases: [Record<string, string>, string][] = [
      [{ email: "nobody-at-all@example.com", coins: "10" }, "No account has this email."],
      [{ email: person.email, coins: "1001" }, "Enter a whole number of coins from 1 to 1,000."],
      [{ email: "not an email", coins: "10" }, "Enter the email of the account to credit."],
    ];
    for (const [fields, message] of cases) {
      const response = await owner.post("/admin/walls/bitlabs", { intent: "test-postback", transaction, ...fields });
      expect(response.status).toBe(400);
      expect(visibleText(await response.text())).toContain(message);
    }
    expect(await credits("bitlabs", transaction)).toEqual([]);
    expect(
      await a.sql("select 1 from operator_actions where action = 'test_postback' and detail->>'transaction_id' = $1", [
        transaction,
      ]),
    ).toEqual([]);
  });

  it("support and finance read the walls and the log without the owner's forms, and get the 404 page for every change; a member gets 404 for all", async () => {
    const before = await wallRow("bitlabs");
    for (const role of ["support", "finance"] as const) {
      const { client } = await newOperator(a, role);
      const { status, html } = await page("/admin/walls/bitlabs", client);
      expect(status).toBe(200);
      expect(visibleText(html)).toContain("Postback log");
      expect(html).not.toMatch(/Change the configuration|Send a test postback|name="intent"/);
      const changes: Record<string, string>[] = [
        saveForm({ enabled: "off" }),
        { intent: "reset", reason: "no" },
        { intent: "test-postback", email: person.email, coins: "5", transaction: `sim-${crypto.randomUUID()}` },
      ];
      for (const fields of changes) {
        const response = await client.post("/admin/walls/bitlabs", fields);
        expect(response.status, `${role} ${fields.intent}`).toBe(404);
        expect(await response.text()).toContain("Oops! Page not found");
      }
    }
    const member = (await newMember(a)).client;
    for (const path of ["/admin/walls", "/admin/walls/bitlabs", "/admin/walls/bitlabs.data"]) {
      expect((await member.get(path)).status, path).toBe(404);
    }
    expect((await member.post("/admin/walls/bitlabs", saveForm({ enabled: "off" }))).status).toBe(404);
    expect(await wallRow("bitlabs")).toEqual(before);
  });

  it("an owner whose sign-in is over 15 minutes old gives the password again in the same post before a change", async () => {
    const { client, uid } = await newOperator(a, "owner");
    await ageSession(client, uid, 16 * 60);
    const page = visibleText((await client.visit("/admin/walls/torox")).html);
    expect(page).toContain("You signed in more than 15 minutes ago");
    const change = saveForm({ holdDays: "3" });
    const without = await client.post("/admin/walls/torox", change);
    expect(without.status).toBe(403);
    expect(visibleText(await without.text())).toContain("Enter your password");
    const wrong = await client.post("/admin/walls/torox", { ...change, password: "not-the-password" });
    expect(wrong.status).toBe(403);
    expect(await wallRow("torox")).toBeNull();
    const right = await client.post("/admin/walls/torox", { ...change, password: "s3cret-pass" });
    expect(right.status).toBe(302);
    expect(await wallRow("torox")).toMatchObject({ hold_days: 3 });
  });

  it("a network the app does not know is the console's 404", async () => {
    const { status, html } = await page("/admin/walls/nosuch");
    expect(status).toBe(404);
    expect(visibleText(html)).toContain("No such wall");
    expect((await owner.post("/admin/walls/nosuch", saveForm({}))).status).toBe(404);
  });
});
