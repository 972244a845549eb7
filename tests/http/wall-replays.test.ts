import { createHash, createHmac } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newMember, newOperator } from "../support/console";
import type { HttpClient } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// Issue 32: no coins without a completion the network vouches for. Every wall's postbacks are built
// here from the network's documented formula (written out with node:crypto, apart from the app's
// signers), sent to the running production build behind one proxy (TRUST_PROXY=1, the sender in
// X-Forwarded-For), and what the database then holds is read back: credit, repeat, reversal, wrong
// signature, wrong and missing sender, and the replays of one seen postback (a new transaction id,
// moved digits, a changed amount, a mismatched reversal before the genuine one).

const md5 = (text: string) => createHash("md5").update(text).digest("hex");
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const hmac = (algorithm: string, key: string, text: string) => createHmac(algorithm, key).update(text).digest("hex");

const KEY = {
  bitlabs: "bitlabs-replay-secret",
  ayetstudios: "ayet-replay-api-key",
  adgate: "adgate-replay-token-0123456789",
  torox: "torox-replay-secret",
  lootably: "lootably-replay-secret",
  revlum: "revlum-replay-secret",
  adgem: "adgem-replay-key",
  cpx: "cpx-replay-secure-hash",
  custom: "custom-replay-secret-0123456789",
};
/** Each network's sender: its published address, or the operator's list where it publishes none. */
const SENDER = {
  bitlabs: "203.0.113.11",
  ayetstudios: "158.69.185.134",
  adgate: "52.42.57.125",
  torox: "54.175.173.245",
  lootably: "203.0.113.15",
  revlum: "209.159.156.198",
  adgem: "203.0.113.17",
  cpx: "188.40.3.73",
  custom: "203.0.113.19",
} as const;
type Network = keyof typeof SENDER;

/** A postback as the network sends it: the request target (path and query) and, for a POST, its form body. */
interface Sent {
  method: "GET" | "POST";
  target: string;
  body?: string;
  headers?: Record<string, string>;
}

interface Postback {
  tx: string;
  coins: number;
  wallId: string;
}

/** What one network's documentation says its postbacks look like. */
interface WallSpec {
  credit(p: Postback, key?: string): Sent;
  /** Its own reversal form; null for a network that documents none (AdGem). */
  reversal(p: Postback, key?: string): Sent | null;
  /** Its reversal field is not covered by the signature: the reversal waits for an operator. */
  reversalHeld: boolean;
  /** The answer that means "taken". */
  accepted: string;
  /**
   * Replays of a seen credit `seen` that an outsider can build without the key (a new transaction id,
   * moved digits, a changed amount): none may pay. `fresh` is a transaction id never sent.
   */
  replays(seen: Postback, fresh: string): Sent[];
}

let app: PostgresApp;
const base = () => app.url;
/** Every signature value this file sends: no console page may show one. */
const signatures = new Set<string>();
const keep = (signature: string) => {
  signatures.add(signature);
  return signature;
};

const get = (network: Network, params: [string, string][]): Sent => ({
  method: "GET",
  target: `/api/${network}/postback?${new URLSearchParams(params)}`,
});

/** A URL-signing network (BitLabs, AdGem): the signature of the app's address and the target, appended as `name`. */
function urlSigned(network: Network, params: [string, string][], name: string, algorithm: string, key: string): Sent {
  const unsigned = get(network, params).target;
  return { method: "GET", target: `${unsigned}&${name}=${keep(hmac(algorithm, key, `${base()}${unsigned}`))}` };
}

const ayetSorted = (params: [string, string][]) =>
  new URLSearchParams([...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString();
function ayet(params: [string, string][], key: string): Sent {
  return {
    ...get("ayetstudios", params),
    headers: { "X-Ayetstudios-Security-Hash": keep(hmac("sha256", key, ayetSorted(params))) },
  };
}

/** A number from a transaction id: each credit here is its own offer (Torox) or its own revenue (Lootably). */
const numberOf = (tx: string) => [...tx].reduce((sum, character) => (sum * 31 + character.charCodeAt(0)) % 90_000, 7);
/** The offer a Torox credit names: one per transaction, as a person completes an offer once. */
const offerOf = (tx: string) => String(10_000 + numberOf(tx));
/**
 * A Lootably credit's revenue, two decimals ("1.37"), a different one for each transaction of the
 * file: Lootably's hash covers the person, the revenue and the reward but not the transaction, so
 * two of Ana's 50-coin credits with the same revenue carry the same signature, and the second is
 * rightly held (a hash of the id chose among 90 values, and sometimes chose one twice).
 */
const revenues = new Map<string, string>();
const revenueOf = (tx: string) => {
  if (!revenues.has(tx)) {
    const n = revenues.size;
    revenues.set(tx, `${1 + Math.floor(n / 90)}.${10 + (n % 90)}`);
  }
  return revenues.get(tx)!;
};

const torox = (p: Postback, amount: string, key = KEY.torox, oid = offerOf(p.tx)): Sent =>
  get("torox", [
    ["id", p.tx],
    ["oid", oid],
    ["amount", amount],
    ["user_id", p.wallId],
    ["sig", keep(md5(`${oid}-${p.wallId}-${key}`))],
  ]);

function lootably(p: Postback, fields: { revenue: string; reward: string; status: string }, key = KEY.lootably) {
  const ip = "198.51.100.23";
  return get("lootably", [
    ["userID", p.wallId],
    ["transactionID", p.tx],
    ["ip", ip],
    ["revenue", fields.revenue],
    ["currencyReward", fields.reward],
    ["status", fields.status],
    ["hash", keep(sha256(`${p.wallId}${ip}${fields.revenue}${fields.reward}${key}`))],
  ]);
}

const revlum = (p: Postback, status: string, key = KEY.revlum, reward = String(p.coins)): Sent =>
  get("revlum", [
    ["subId", p.wallId],
    ["transId", p.tx],
    ["reward", reward],
    ["payout", "0.10"],
    ["status", status],
    ["signature", keep(md5(`${p.wallId}${p.tx}${reward}${key}`))],
  ]);

const cpx = (p: Postback, status: string, key = KEY.cpx, amount = String(p.coins)): Sent =>
  get("cpx", [
    ["status", status],
    ["trans_id", p.tx],
    ["user_id", p.wallId],
    ["amount_local", amount],
    ["amount_usd", "0.50"],
    ["offer_id", "7"],
    ["type", "complete"],
    ["secure_hash", keep(md5(`${p.tx}-${key}`))],
  ]);

/** The app's own protocol: HMAC-SHA256 of every other parameter, RFC 3986-encoded, sorted by key. */
function custom(params: [string, string][], key = KEY.custom): Sent {
  const encode = (text: string) =>
    encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const canonical = params
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  return get("custom", [...params, ["sig", keep(hmac("sha256", key, canonical))]]);
}

const WALLS: Record<Network, WallSpec> = {
  bitlabs: {
    credit: (p, key = KEY.bitlabs) =>
      urlSigned(
        "bitlabs",
        [
          ["uid", p.wallId],
          ["tx", p.tx],
          ["val", String(p.coins)],
          ["raw", "0.50"],
          ["type", "COMPLETE"],
        ],
        "hash",
        "sha1",
        key,
      ),
    // Stateless: the reconciliation's own tx, the completion in ref, a negative value.
    reversal: (p, key = KEY.bitlabs) =>
      urlSigned(
        "bitlabs",
        [
          ["uid", p.wallId],
          ["tx", `or${p.tx}`],
          ["val", `-${p.coins}`],
          ["ref", p.tx],
          ["type", "RECONCILIATION"],
        ],
        "hash",
        "sha1",
        key,
      ),
    reversalHeld: false,
    accepted: "OK",
    replays: (seen, fresh) => {
      const signed = WALLS.bitlabs.credit(seen);
      return [
        { method: "GET", target: signed.target.replace(`tx=${seen.tx}`, `tx=${fresh}`) },
        { method: "GET", target: signed.target.replace(`val=${seen.coins}`, "val=10000") },
      ];
    },
  },
  ayetstudios: {
    credit: (p, key = KEY.ayetstudios) =>
      ayet(
        [
          ["transaction_id", p.tx],
          ["external_identifier", p.wallId],
          ["currency_amount", String(p.coins)],
          ["is_chargeback", "0"],
        ],
        key,
      ),
    reversal: (p, key = KEY.ayetstudios) =>
      ayet(
        [
          ["transaction_id", `r-${p.tx}`],
          ["external_identifier", p.wallId],
          ["currency_amount", `-${p.coins}`],
          ["is_chargeback", "1"],
        ],
        key,
      ),
    reversalHeld: false,
    accepted: "OK",
    replays: (seen, fresh) => {
      const signed = WALLS.ayetstudios.credit(seen);
      return [
        { ...signed, target: signed.target.replace(`transaction_id=${seen.tx}`, `transaction_id=${fresh}`) },
        { ...signed, target: signed.target.replace(`currency_amount=${seen.coins}`, "currency_amount=10000") },
      ];
    },
  },
  adgate: {
    credit: (p, key = KEY.adgate) =>
      get("adgate", [
        ["token", key],
        ["conversion_id", p.tx],
        ["user_id", p.wallId],
        ["points", String(p.coins)],
        ["payout", "0.50"],
        ["state", "approved"],
      ]),
    reversal: (p, key = KEY.adgate) =>
      get("adgate", [
        ["token", key],
        ["conversion_id", p.tx],
        ["user_id", p.wallId],
        ["points", String(p.coins)],
        ["state", "rejected"],
      ]),
    reversalHeld: false,
    accepted: "OK",
    // AdGate signs nothing: its published sender is all that vouches for a postback, and the
    // sender tests below show a replay from anywhere else is refused.
    replays: () => [],
  },
  torox: {
    credit: (p, key) => torox(p, String(p.coins), key),
    reversal: (p, key) => torox(p, `-${p.coins}`, key),
    reversalHeld: true,
    accepted: "1",
    // sig = md5(oid-user_id-secret): the same sig with a new conversion id and any amount.
    replays: (seen, fresh) => [torox({ ...seen, tx: fresh }, "10000", KEY.torox, offerOf(seen.tx))],
  },
  lootably: {
    credit: (p, key) => lootably(p, { revenue: revenueOf(p.tx), reward: String(p.coins), status: "1" }, key),
    // Lootably's signed chargeback: a negative reward.
    reversal: (p, key) => lootably(p, { revenue: `-${revenueOf(p.tx)}`, reward: `-${p.coins}`, status: "0" }, key),
    reversalHeld: false,
    accepted: "1",
    replays: (seen, fresh) => {
      const revenue = revenueOf(seen.tx);
      const again = (tx: string) => lootably({ ...seen, tx }, { revenue, reward: String(seen.coins), status: "1" });
      return [
        // The same hash on new transaction ids.
        again(fresh),
        again(`${fresh}-b`),
        // A digit moved from revenue to currencyReward keeps the hash: 1.37 + 50 → 1.3 + 750.
        {
          method: "GET",
          target: again(`${fresh}-c`)
            .target.replace(`revenue=${revenue}`, `revenue=${revenue.slice(0, -1)}`)
            .replace(`currencyReward=${seen.coins}`, `currencyReward=${revenue.slice(-1)}${seen.coins}`),
        },
      ];
    },
  },
  revlum: {
    credit: (p, key) => revlum(p, "1", key),
    reversal: (p, key) => revlum(p, "2", key),
    reversalHeld: true,
    accepted: "ok",
    replays: (seen) => {
      // md5(subId + transId + reward + secret) has no separators: transId …12 with reward 50 is
      // signed as transId …1 with reward 250. (seen.tx ends in 2 and seen.coins is 50: see below.)
      const signed = revlum(seen, "1");
      return [
        {
          method: "GET",
          target: signed.target
            .replace(`transId=${seen.tx}`, `transId=${seen.tx.slice(0, -1)}`)
            .replace(`reward=${seen.coins}`, `reward=${seen.tx.slice(-1)}${seen.coins}`),
        },
      ];
    },
  },
  adgem: {
    credit: (p, key = KEY.adgem) =>
      urlSigned(
        "adgem",
        [
          ["transaction_id", p.tx],
          ["player_id", p.wallId],
          ["amount", String(p.coins)],
          ["payout", "0.50"],
          ["request_id", `req-${p.tx}`],
        ],
        "verifier",
        "sha256",
        key,
      ),
    reversal: () => null,
    reversalHeld: false,
    accepted: "OK",
    replays: (seen, fresh) => {
      const signed = WALLS.adgem.credit(seen);
      return [
        { method: "GET", target: signed.target.replace(`transaction_id=${seen.tx}`, `transaction_id=${fresh}`) },
        { method: "GET", target: signed.target.replace(`amount=${seen.coins}`, "amount=10000") },
      ];
    },
  },
  cpx: {
    credit: (p, key) => cpx(p, "1", key),
    reversal: (p, key) => cpx(p, "2", key),
    reversalHeld: true,
    accepted: "OK",
    replays: (seen, fresh) => {
      const signed = cpx(seen, "1");
      return [
        // The hash covers trans_id alone: a new one does not match; the same one is a repeat, whatever its amount.
        { method: "GET", target: signed.target.replace(`trans_id=${seen.tx}`, `trans_id=${fresh}`) },
        { method: "GET", target: signed.target.replace(`amount_local=${seen.coins}`, "amount_local=10000") },
      ];
    },
  },
  custom: {
    credit: (p, key) =>
      custom(
        [
          ["user_id", p.wallId],
          ["transaction_id", p.tx],
          ["amount", String(p.coins)],
        ],
        key,
      ),
    reversal: (p, key) =>
      custom(
        [
          ["user_id", p.wallId],
          ["transaction_id", p.tx],
          ["amount", `-${p.coins}`],
          ["status", "reversed"],
        ],
        key,
      ),
    reversalHeld: false,
    accepted: "OK",
    replays: (seen, fresh) => {
      const signed = WALLS.custom.credit(seen);
      return [
        { method: "GET", target: signed.target.replace(`transaction_id=${seen.tx}`, `transaction_id=${fresh}`) },
        { method: "GET", target: signed.target.replace(`amount=${seen.coins}`, "amount=10000") },
      ];
    },
  },
};

/** Sends `sent` from `sender` (X-Forwarded-For, as our one proxy writes it); null: no header at all. */
async function send(sent: Sent, sender: string | null): Promise<[number, string]> {
  const response = await fetch(`${base()}${sent.target}`, {
    method: sent.method,
    headers: { ...(sender === null ? {} : { "x-forwarded-for": sender }), ...sent.headers },
    body: sent.body,
  });
  return [response.status, await response.text()];
}

let seq = 0;
/** A new transaction id ending in the digit 2 (the Revlum replay moves it into the reward). */
const newTx = (network: string) => `${network}-${Date.now().toString(36)}-${++seq}2`;

describe("offer walls, round 2: every network's postbacks built from its documented formula, behind one proxy", () => {
  let ana: { uid: string; wallId: string };
  let ben: { uid: string; wallId: string };
  let finance: { client: HttpClient; uid: string };
  let support: { client: HttpClient; uid: string };

  const wallId = async (uid: string) =>
    (await app.sql<{ wall_id: string }>("select wall_id from user_profiles where id = $1", [uid]))[0]!.wall_id;
  const recorded = (network: string, tx: string) =>
    app.sql<{ kind: string; coins: number; user_id: string }>(
      "select kind, coins, user_id from provider_postbacks where provider = $1 and transaction_id = $2 order by id",
      [network, tx],
    );
  const held = (network: string, tx: string) =>
    app.sql<{ id: string; kind: string; coins: number; user_id: string; status: string }>(
      "select id::text, kind, coins, user_id, status from held_postbacks where network = $1 and transaction_id = $2 order by id",
      [network, tx],
    );
  const balance = async (uid: string) =>
    Number(
      (await app.sql<{ b: string }>("select balance::text as b from user_balance where user_id = $1", [uid]))[0]?.b,
    );

  beforeAll(async () => {
    const env: Record<string, string> = { TRUST_PROXY: "1" };
    const settings: Record<Network, Record<string, string>> = {
      bitlabs: { APP_TOKEN: "bitlabs-token", APP_SECRET: KEY.bitlabs },
      ayetstudios: { API_KEY: KEY.ayetstudios, ADSLOT_ID: "923" },
      adgate: { WALL_CODE: "nq6Upw", POSTBACK_TOKEN: KEY.adgate },
      torox: { PUBLISHER_ID: "14", APP_ID: "5", SECRET: KEY.torox },
      lootably: { PLACEMENT_ID: "pl-1", POSTBACK_SECRET: KEY.lootably },
      revlum: { APP_ID: "rv-app", SECRET: KEY.revlum },
      adgem: { APP_ID: "31", POSTBACK_KEY: KEY.adgem },
      cpx: { APP_ID: "1234", SECURE_HASH: KEY.cpx },
      custom: { SECRET: KEY.custom },
    };
    for (const [network, values] of Object.entries(settings)) {
      const prefix = `WALL_${network.toUpperCase()}_`;
      env[`${prefix}ENABLED`] = "true";
      env[`${prefix}HOLD_DAYS`] = "0";
      // The published address where there is one (the default), the operator's list elsewhere.
      if (["bitlabs", "lootably", "adgem", "custom"].includes(network)) {
        env[`${prefix}ALLOWED_ADDRESSES`] = SENDER[network as Network];
      }
      for (const [suffix, value] of Object.entries(values)) env[`${prefix}${suffix}`] = value;
    }
    app = await startPostgresApp(env);
    const a = await newMember(app);
    const b = await newMember(app);
    ana = { uid: a.uid, wallId: await wallId(a.uid) };
    ben = { uid: b.uid, wallId: await wallId(b.uid) };
    finance = await newOperator(app, "finance");
    support = await newOperator(app, "support");
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  for (const network of Object.keys(WALLS) as Network[]) {
    const wall = WALLS[network];
    const sender = SENDER[network];

    it(`${network}: a credit pays once; its repeat is answered the same and changes nothing`, async () => {
      const p = { tx: newTx(network), coins: 50, wallId: ana.wallId };
      const before = await balance(ana.uid);
      expect(await send(wall.credit(p), sender)).toEqual([200, wall.accepted]);
      expect(await send(wall.credit(p), sender)).toEqual([200, wall.accepted]);
      expect(await recorded(network, p.tx)).toEqual([{ kind: "credit", coins: 50, user_id: ana.uid }]);
      expect(await balance(ana.uid)).toBeCloseTo(before + 0.5, 2);
    });

    it(`${network}: a wrong signature is refused 403 and records nothing`, async () => {
      const p = { tx: newTx(network), coins: 50, wallId: ana.wallId };
      expect((await send(wall.credit(p, "a-guessed-secret-0123456789"), sender))[0]).toBe(403);
      expect(await recorded(network, p.tx)).toEqual([]);
    });

    it(`${network}: a sender off the list is refused 403, and so is a postback whose sender the proxy does not name (fail closed)`, async () => {
      const p = { tx: newTx(network), coins: 50, wallId: ana.wallId };
      expect(await send(wall.credit(p), "203.0.113.250")).toEqual([403, "Sender not allowed"]);
      expect(await send(wall.credit(p), null)).toEqual([403, "Sender unknown"]);
      expect(await send(wall.credit(p), "unknown")).toEqual([403, "Sender unknown"]);
      expect(await recorded(network, p.tx)).toEqual([]);
      const [log] = await app.sql<{ reason: string }>(
        "select reason from postback_log where network = $1 and verdict = 'refused' and query like $2 order by id desc limit 1",
        [network, `%${p.tx}%`],
      );
      expect(log?.reason).toBe("sender unknown (no address the configured proxies vouch for)");
    });

    it(`${network}: replays of a seen credit (a new transaction id, moved digits, a changed amount) pay nothing`, async () => {
      const seen = { tx: newTx(network), coins: 50, wallId: ana.wallId };
      expect(await send(wall.credit(seen), sender)).toEqual([200, wall.accepted]);
      const after = await balance(ana.uid);
      const fresh = newTx(network);
      for (const replay of wall.replays(seen, fresh)) {
        const [status] = await send(replay, sender);
        // Refused where the signature binds what changed; taken and held (never paid) where it does not.
        expect([200, 403], replay.target).toContain(status);
      }
      expect(await balance(ana.uid)).toBeCloseTo(after, 2);
      const paid = await app.sql<{ transaction_id: string }>(
        "select transaction_id from provider_postbacks where provider = $1 and transaction_id like $2 and kind = 'credit'",
        [network, `${fresh.slice(0, -1)}%`],
      );
      expect(paid).toEqual([]);
      expect(await recorded(network, seen.tx)).toEqual([{ kind: "credit", coins: 50, user_id: ana.uid }]);
    });

    // AdGem documents no reversal postback.
    if (network !== "adgem") {
      it(`${network}: a reversal naming the credit with another person is refused 400 and leaves the id to the genuine reversal, which takes the credit back${wall.reversalHeld ? " once an operator approves it (its reversal field is unsigned)" : ""}`, async () => {
        const credit = { tx: newTx(network), coins: 50, wallId: ana.wallId };
        expect(await send(wall.credit(credit), sender)).toEqual([200, wall.accepted]);
        const paid = await balance(ana.uid);
        // Signed with the key, even: the person is not the credit's.
        const [status, body] = await send(wall.reversal!({ ...credit, wallId: ben.wallId })!, sender);
        expect([status, body]).toEqual([400, "Invalid postback"]);
        // More than the credit paid: refused the same way.
        expect((await send(wall.reversal!({ ...credit, coins: 51 })!, sender))[0]).toBe(400);
        const [log] = await app.sql<{ reason: string }>(
          "select reason from postback_log where network = $1 and transaction_id = $2 and verdict = 'refused' order by id limit 1",
          [network, credit.tx],
        );
        expect(log?.reason).toBe("refused by the ledger: reversal_names_no_credit");
        expect(await recorded(network, credit.tx)).toEqual([{ kind: "credit", coins: 50, user_id: ana.uid }]);

        expect(await send(wall.reversal!(credit)!, sender)).toEqual([200, wall.accepted]);
        if (wall.reversalHeld) {
          // Waiting for an operator: nothing taken back yet; finance approves it in the console.
          const [waiting] = await held(network, credit.tx);
          expect(waiting).toMatchObject({ kind: "reversal", coins: 50, user_id: ana.uid, status: "held" });
          expect(await balance(ana.uid)).toBeCloseTo(paid, 2);
          const decided = await finance.client.post(`/admin/walls/${network}`, {
            intent: "held",
            held: waiting!.id,
            decision: "approve",
            reason: "The network's dashboard shows the chargeback",
          });
          expect(decided.status).toBe(302);
          expect((await held(network, credit.tx))[0]!.status).toBe("approved");
        }
        expect((await recorded(network, credit.tx)).map((row) => row.kind)).toEqual(["credit", "reversal"]);
        expect(await balance(ana.uid)).toBeCloseTo(paid - 0.5, 2);
        // The reversal again: a repeat, nothing more taken.
        expect(await send(wall.reversal!(credit)!, sender)).toEqual([200, wall.accepted]);
        expect(await balance(ana.uid)).toBeCloseTo(paid - 0.5, 2);
      });
    }
  }

  it("torox: the replayed sig on a new conversion is held for review, and finance rejects it: nothing is paid, and the audit log says who and why", async () => {
    const seen = { tx: newTx("torox"), coins: 50, wallId: ben.wallId };
    expect(await send(WALLS.torox.credit(seen), SENDER.torox)).toEqual([200, "1"]);
    const before = await balance(ben.uid);
    const fresh = newTx("torox");
    expect(await send(torox({ ...seen, tx: fresh }, "10000", KEY.torox, offerOf(seen.tx)), SENDER.torox)).toEqual([
      200,
      "1",
    ]);
    const [waiting] = await held("torox", fresh);
    expect(waiting).toMatchObject({ kind: "credit", coins: 10000, user_id: ben.uid, status: "held" });
    const { html } = await finance.client.visit("/admin/walls/torox");
    expect(html).toContain(`its signature already paid transaction ${seen.tx}`);
    const decided = await finance.client.post("/admin/walls/torox", {
      intent: "held",
      held: waiting!.id,
      decision: "reject",
      reason: "Torox lists one conversion only",
    });
    expect(decided.status).toBe(302);
    expect((await held("torox", fresh))[0]!.status).toBe("rejected");
    expect(await balance(ben.uid)).toBeCloseTo(before, 2);
    const [audit] = await app.sql<{ actor_user_id: string; action: string; reason: string }>(
      "select actor_user_id, action, reason from operator_actions where record_kind = 'held_postback' and record_id = $1",
      [waiting!.id],
    );
    expect(audit).toEqual({
      actor_user_id: finance.uid,
      action: "reject_held_postback",
      reason: "Torox lists one conversion only",
    });
  });

  it("revlum: status=2 on a seen credit is held for an operator, never a reversal by itself", async () => {
    const seen = { tx: newTx("revlum"), coins: 50, wallId: ben.wallId };
    expect(await send(revlum(seen, "1"), SENDER.revlum)).toEqual([200, "ok"]);
    const paid = await balance(ben.uid);
    expect(await send(revlum(seen, "2"), SENDER.revlum)).toEqual([200, "ok"]);
    expect((await recorded("revlum", seen.tx)).map((row) => row.kind)).toEqual(["credit"]);
    expect((await held("revlum", seen.tx)).map((row) => [row.kind, row.status])).toEqual([["reversal", "held"]]);
    expect(await balance(ben.uid)).toBeCloseTo(paid, 2);
  });

  it("an operator cannot approve a held postback that pays their own account: another operator must", async () => {
    const financeWall = await wallId(finance.uid);
    const seen = { tx: newTx("torox"), coins: 50, wallId: financeWall };
    await send(WALLS.torox.credit(seen), SENDER.torox);
    const fresh = newTx("torox");
    await send(torox({ ...seen, tx: fresh }, "50", KEY.torox, offerOf(seen.tx)), SENDER.torox);
    const [waiting] = await held("torox", fresh);
    const response = await finance.client.post("/admin/walls/torox", {
      intent: "held",
      held: waiting!.id,
      decision: "approve",
      reason: "Mine, honestly",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Operators cannot do this to their own account");
    expect((await held("torox", fresh))[0]!.status).toBe("held");
    expect(await recorded("torox", fresh)).toEqual([]);
  });

  it("support reads the held postbacks but cannot decide them (404, as every change of the console)", async () => {
    const seen = { tx: newTx("torox"), coins: 50, wallId: ana.wallId };
    await send(torox(seen, "50", KEY.torox, "4242"), SENDER.torox);
    const fresh = newTx("torox");
    await send(torox({ ...seen, tx: fresh }, "50", KEY.torox, "4242"), SENDER.torox);
    const [waiting] = await held("torox", fresh);
    const { html } = await support.client.visit("/admin/walls/torox");
    expect(html).toContain(fresh);
    expect(html).not.toContain('name="decision"');
    const response = await support.client.post("/admin/walls/torox", {
      intent: "held",
      held: waiting!.id,
      decision: "approve",
      reason: "Trying",
    });
    expect(response.status).toBe(404);
    expect((await held("torox", fresh))[0]!.status).toBe("held");
  });

  it("bitlabs: a PENDING stateful callback is logged and not paid; COMPLETED of the same tx pays; RECONCILED of the same tx (with no ref) takes it back", async () => {
    const tx = newTx("bitlabs");
    const callback = (state: string, type: string) =>
      urlSigned(
        "bitlabs",
        [
          ["uid", ana.wallId],
          ["tx", tx],
          ["val", "80"],
          ["raw", "0.80"],
          ["ref", ""],
          ["type", type],
          ["offer_state", state],
        ],
        "hash",
        "sha1",
        KEY.bitlabs,
      );
    expect(await send(callback("PENDING", "COMPLETE"), SENDER.bitlabs)).toEqual([200, "OK"]);
    expect(await recorded("bitlabs", tx)).toEqual([]);
    const [pending] = await app.sql<{ verdict: string; reason: string }>(
      "select verdict, reason from postback_log where network = 'bitlabs' and transaction_id = $1",
      [tx],
    );
    expect(pending).toEqual({ verdict: "ignored", reason: "a PENDING offer: paid when BitLabs sends COMPLETED" });
    expect(await send(callback("COMPLETED", "COMPLETE"), SENDER.bitlabs)).toEqual([200, "OK"]);
    expect(await send(callback("RECONCILED", "RECONCILIATION"), SENDER.bitlabs)).toEqual([200, "OK"]);
    expect((await recorded("bitlabs", tx)).map((row) => [row.kind, row.coins])).toEqual([
      ["credit", 80],
      ["reversal", 80],
    ]);
  });

  it("bitlabs: a callback whose offer name holds ' \" < > a space, + and non-ASCII, hashed over the URL as BitLabs sends it, is paid and logged as received", async () => {
    const tx = newTx("bitlabs");
    // As BitLabs sends it: ' " < > unescaped, the space, + and é percent-encoded (new URL() would re-escape the first four).
    const unsigned = `/api/bitlabs/postback?uid=${ana.wallId}&tx=${tx}&val=75&type=COMPLETE&offer_name=Bob's%20"Best"%20<Quiz>%20%2B%20caf%C3%A9`;
    const target = `${unsigned}&hash=${keep(hmac("sha1", KEY.bitlabs, `${base()}${unsigned}`))}`;
    const url = new URL(base());
    const [status, body] = await new Promise<[number, string]>((resolve, reject) => {
      const sent = httpRequest(
        { host: url.hostname, port: url.port, path: target, headers: { "x-forwarded-for": SENDER.bitlabs } },
        (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk.toString()));
          response.on("end", () => resolve([response.statusCode ?? 0, text]));
        },
      );
      sent.on("error", reject);
      sent.end();
    });
    expect([status, body]).toEqual([200, "OK"]);
    const [row] = await app.sql<{ coins: number; offer_name: string }>(
      "select coins, offer_name from provider_postbacks where provider = 'bitlabs' and transaction_id = $1",
      [tx],
    );
    expect(row).toEqual({ coins: 75, offer_name: `Bob's "Best" <Quiz> + café` });
    const [log] = await app.sql<{ query: string }>(
      "select query from postback_log where network = 'bitlabs' and transaction_id = $1",
      [tx],
    );
    expect(log?.query).toBe(`${unsigned.split("?")[1]}&hash=[removed]`);
  });

  it("adgem: nonpayable_install_goal=true appended after the verifier is taken and pays nothing", async () => {
    const tx = newTx("adgem");
    const signed = WALLS.adgem.credit({ tx, coins: 40, wallId: ana.wallId });
    const flagged = { ...signed, target: `${signed.target}&nonpayable_install_goal=true` };
    expect(await send(flagged, SENDER.adgem)).toEqual([200, "OK"]);
    expect(await recorded("adgem", tx)).toEqual([]);
    // Anything else after the verifier was not signed: refused.
    expect((await send({ ...signed, target: `${signed.target}&amount=9999` }, SENDER.adgem))[0]).toBe(403);
  });

  it("refuses an amount over the cap with its own reason", async () => {
    const tx = newTx("custom");
    const [status, body] = await send(
      custom([
        ["user_id", ana.wallId],
        ["transaction_id", tx],
        ["amount", "10000001"],
      ]),
      SENDER.custom,
    );
    expect([status, body]).toEqual([400, "Invalid postback: amount over the cap of 10,000,000 coins a postback"]);
  });

  it("keeps no signature: the log holds a keyed digest of each, and no console page shown to support holds a signature sent", async () => {
    const logged = await app.sql<{ query: string; body: string; signature_digest: string | null }>(
      "select query, body, signature_digest from postback_log",
    );
    const text = logged.map((row) => `${row.query} ${row.body}`).join("\n");
    for (const signature of signatures) expect(text).not.toContain(signature);
    expect(logged.filter((row) => row.signature_digest !== null).length).toBeGreaterThan(50);
    for (const row of logged) if (row.signature_digest) expect(signatures.has(row.signature_digest)).toBe(false);

    // Every console page support can open: the dashboard, people, withdrawals, support, settings,
    // the audit log, and each wall's page (its log, refused ones too).
    const pages = [
      "/admin",
      "/admin/people",
      `/admin/people/${ana.uid}`,
      `/admin/people/${ben.uid}`,
      "/admin/withdrawals",
      "/admin/support",
      "/admin/settings",
      "/admin/audit",
      "/admin/walls",
    ];
    for (const network of Object.keys(WALLS)) {
      pages.push(`/admin/walls/${network}`, `/admin/walls/${network}?refused=1`);
    }
    for (const path of pages) {
      const { response, html } = await support.client.visit(path);
      expect(response.status, path).toBe(200);
      for (const signature of signatures) expect(html, `${path} shows a signature`).not.toContain(signature);
      for (const key of Object.values(KEY)) expect(html, `${path} shows a key`).not.toContain(key);
    }
  });
});

describe("TRUST_PROXY naming the proxies by address: a postback sent straight to the app's port cannot pass as a network", () => {
  let direct: PostgresApp;

  beforeAll(async () => {
    direct = await startPostgresApp({
      // The proxy is at 10.9.9.9; the test connects from loopback, around it.
      TRUST_PROXY: "10.9.9.9",
      WALL_ADGATE_ENABLED: "true",
      WALL_ADGATE_WALL_CODE: "nq6Upw",
      WALL_ADGATE_POSTBACK_TOKEN: KEY.adgate,
    });
  }, 120_000);

  afterAll(async () => {
    await direct?.stop();
  });

  it("judges the connection by its own address, whatever X-Forwarded-For claims, and refuses it", async () => {
    const { uid } = await newMember(direct);
    const [row] = await direct.sql<{ wall_id: string }>("select wall_id from user_profiles where id = $1", [uid]);
    const tx = newTx("adgate");
    const query = new URLSearchParams({
      token: KEY.adgate,
      conversion_id: tx,
      user_id: row!.wall_id,
      points: "150",
      state: "approved",
    });
    const response = await fetch(`${direct.url}/api/adgate/postback?${query}`, {
      headers: { "x-forwarded-for": SENDER.adgate },
    });
    expect([response.status, await response.text()]).toEqual([403, "Sender not allowed"]);
    const [log] = await direct.sql<{ reason: string }>(
      "select reason from postback_log where network = 'adgate' and query like $1",
      [`%${tx}%`],
    );
    expect(log?.reason).toBe("sender 127.0.0.1 not allowed");
    expect(await direct.sql("select 1 from provider_postbacks where transaction_id = $1", [tx])).toEqual([]);
  });
});
