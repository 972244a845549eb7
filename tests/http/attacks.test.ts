import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleMessage } from "~/domain/rules";
import { endHolds } from "../support/holds";
import { type HttpClient, html, landing } from "../support/http";
import { ledgerAudit } from "../support/ledger-audit";
import { startPostgresApp, startPostgresAppWithProvider, type PostgresApp } from "../support/postgres-app";

// Issue 17's attacks replayed on the production build with the production settings (holds of 7
// days, bonus money unlocked only by cleared earnings, the referral bonus on the friend's cleared
// earnings, first withdrawals reviewed): plain form posts, the real Auth emulator, Postgres.
const OWN_TASKS = Array.from({ length: 11 }, (_, index) => `task-${String(index + 1).padStart(3, "0")}`);
const EXCEEDS = ruleMessage("amount_exceeds_balance");
const SECRET = "attacks-postback-secret";

let stamp = 0;
const unique = (local: string) => `${local}${Date.now().toString(36)}${++stamp}`;

async function idOf(app: PostgresApp, email: string) {
  const [row] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
  return row!.id;
}

async function moneyOf(app: PostgresApp, id: string) {
  const [row] = await app.sql<{ summary: { balance: number; available: number; pending: number } }>(
    "select get_user_summary($1) as summary",
    [id],
  );
  const { balance, available, pending } = row!.summary;
  return { balance: Number(balance), available: Number(available), pending: Number(pending) };
}

describe("issue 17's alias farm on the production settings, without an offer provider", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp({}, { settings: "production" });
  }, 120_000);
  afterAll(() => app?.stop());

  /** Starts every fallback task, lets the minimum time pass (in the database), completes them all. */
  async function completeOwnTasks(client: HttpClient, userId: string) {
    for (const taskId of OWN_TASKS) await client.post(`/earn?task=${taskId}`, { intent: "start", taskId });
    await app.sql("update task_starts set started_at = now() - interval '10 seconds' where user_id = $1", [userId]);
    for (const taskId of OWN_TASKS) {
      await landing(client, await client.post(`/earn?task=${taskId}&started=1`, { intent: "complete", taskId }));
    }
  }

  it("a farm of one inbox and a catch-all domain, referred by the farmer, earns bonus money but can withdraw none of it, and pays the farmer nothing", async () => {
    const domain = `${unique("farm")}.test`;
    const farmer = await app.signUp({ email: `farmer@${domain}` });
    const code = (
      await app.sql<{ referral_code: string }>("select referral_code from user_profiles where email = $1", [
        farmer.email,
      ])
    )[0]!.referral_code;
    // The same inbox under a +tag is the same person: refused.
    const alias = await app.signUp({ email: `farmer+1@${domain}`, referralCode: code });
    expect(alias.response.status).toBe(400);

    const farm = [];
    for (const name of ["anna", "ben", "cleo"]) {
      const member = await app.signUp({ email: `${name}@${domain}`, referralCode: code });
      expect(member.response.status).toBe(302);
      const id = await idOf(app, member.email);
      await app.sql("select record_email_verified($1)", [id]);
      await completeOwnTasks(member.client, id);
      farm.push({ ...member, id });
    }

    for (const member of farm) {
      // $16.15 of the app's own tasks: bonus money, locked until offer earnings clear.
      expect(await moneyOf(app, member.id)).toEqual({ balance: 16.15, available: 0, pending: 0 });
      for (const amount of ["16.15", "1"]) {
        const refused = await member.client.post("/withdraw", {
          intent: "withdraw",
          amount,
          method: "upi",
          upiId: `farm@okaxis`,
        });
        expect(refused.status).toBe(400);
        expect(await refused.text()).toContain(html(EXCEEDS));
      }
    }
    const farmerId = await idOf(app, farmer.email);
    expect(await moneyOf(app, farmerId)).toEqual({ balance: 0, available: 0, pending: 0 });
    const [withdrawals] = await app.sql<{ n: number }>("select count(*)::int as n from withdrawals");
    expect(withdrawals!.n).toBe(0);
    expect((await ledgerAudit(app.sql)).problems).toEqual([]);
  });
});

describe("issue 17's reversal after a cash-out on the production settings, with an offer provider", () => {
  let app: PostgresApp;
  let postback: (params: Record<string, string>) => Promise<string>;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ app, postback, stop } = await startPostgresAppWithProvider(SECRET, { settings: "production" }));
  }, 120_000);
  afterAll(async () => {
    await stop?.();
  });

  it("a signed 1,000-coin credit is pending for its hold and cannot be cashed out; the network's reversal in the hold takes it back and nothing is lost", async () => {
    const { client, email } = await app.signUp();
    const id = await idOf(app, email);
    await app.sql("select record_email_verified($1)", [id]);
    const transaction = unique("tx-held-");
    expect(await postback({ user_id: id, transaction_id: transaction, amount: "1000" })).toBe("OK");
    expect(await moneyOf(app, id)).toEqual({ balance: 10, available: 0, pending: 10 });

    const refused = await client.post("/withdraw", {
      intent: "withdraw",
      amount: "10",
      method: "upi",
      upiId: "me@okaxis",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(html(EXCEEDS));

    expect(await postback({ user_id: id, transaction_id: transaction, amount: "-1000" })).toBe("OK");
    expect(await moneyOf(app, id)).toEqual({ balance: 0, available: 0, pending: 0 });
    expect((await ledgerAudit(app.sql)).problems).toEqual([]);
  });

  it("once the hold has passed the credit can be cashed out, and the first cash-out waits for review", async () => {
    const { client, email } = await app.signUp();
    const id = await idOf(app, email);
    await app.sql("select record_email_verified($1)", [id]);
    expect(await postback({ user_id: id, transaction_id: unique("tx-cleared-"), amount: "1000" })).toBe("OK");
    await endHolds(app, id);
    expect(await moneyOf(app, id)).toEqual({ balance: 10, available: 10, pending: 0 });

    const accepted = await client.post("/withdraw", {
      intent: "withdraw",
      amount: "10",
      method: "upi",
      upiId: "me@okaxis",
    });
    expect(accepted.status).toBe(302);
    const [withdrawal] = await app.sql("select review_state from withdrawals where user_id = $1", [id]);
    expect(withdrawal).toEqual({ review_state: "review" });
    expect((await client.visit("/withdraw?history=1")).html).toContain("In review");
  });
});
