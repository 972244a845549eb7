import { createHmac } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleMessage } from "~/domain/rules";
import { VERIFIED_CHECK_PATH } from "~/domain/verification-form";
import { googleIdToken, openOobLink, sentOobCodes } from "../support/emulator";
import { html, HttpClient, landing, uniqueEmail } from "../support/http";
import { ledgerAudit } from "../support/ledger-audit";
import { signedPostbackQuery, startOfferProvider } from "../support/offer-provider";
import { runOperator } from "../support/operator";
import { startPayPalStandIn, type PayPalStandIn } from "../support/paypal";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { eventually } from "../support/wait";

// The money flows over HTTP with the app on Supabase: SUPABASE_URL and the service-role key, every
// database call through supabase-js to the PostgREST stand-in (tests/support/postgrest.ts) over
// Postgres. One test per flow, driven as a person or a network drives it, each checking the money
// (balance and ledger) and a refusal raised in SQL that comes back through PostgREST's 400 and
// supabase-js as the person's or the network's answer. The flows' details are the other HTTP
// files' (checkin, provider, walls, referral, withdraw, payouts, profile), on DATABASE_URL; the
// transport itself is tests/integration/supabase-transport.test.ts and
// tests/http/supabase-deployment.test.ts.

const SECRET = "postback-secret-for-the-supabase-smoke";
const BITLABS_SECRET = "bitlabs-app-secret-supabase";
const PASSWORD = "s3cret-pass";

describe("the money flows over HTTP with the app on supabase-js (PostgREST over Postgres)", () => {
  let app: PostgresApp;
  let provider: Awaited<ReturnType<typeof startOfferProvider>>;
  let paypal: PayPalStandIn;
  let seq = 0;
  const tx = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

  beforeAll(async () => {
    [provider, paypal] = await Promise.all([startOfferProvider(), startPayPalStandIn()]);
    app = await startPostgresApp(
      {
        OFFER_PROVIDER: "acme",
        OFFER_PROVIDER_API_URL: provider.url,
        OFFER_POSTBACK_SECRET: SECRET,
        WALL_BITLABS_ENABLED: "true",
        WALL_BITLABS_APP_TOKEN: "bitlabs-token",
        WALL_BITLABS_APP_SECRET: BITLABS_SECRET,
        ...paypal.env,
      },
      { transport: "supabase" },
    );
  }, 120_000);

  afterAll(async () => {
    try {
      if (app) expect((await ledgerAudit(app.sql)).problems, "the ledger audit").toEqual([]);
    } finally {
      await app?.stop();
      await provider?.close();
      await paypal?.close();
    }
  });

  // ---------------------------------------------------------------------------------------------
  // Helpers

  /** A person signed up through the form (a referral code among `fields`), with their ids. */
  async function person(fields: Record<string, string> = {}) {
    const { client, email, response } = await app.signUp(fields);
    expect(response.status).toBe(302);
    const [row] = await app.sql<{ id: string; wall_id: string; referral_code: string }>(
      "select id, wall_id, referral_code from user_profiles where email = $1",
      [email],
    );
    return { client, email, ...row! };
  }

  /** Verifies the email as the person does: Home's button, the emailed link, then Home again. */
  async function verifyEmail({ client, email, id }: { client: HttpClient; email: string; id: string }) {
    const sent = await landing(client, await client.post("/?index", { intent: "send-verification" }));
    expect(sent.html).toContain("Verification email sent");
    const code = (await sentOobCodes()).findLast((oob) => oob.email === email && oob.requestType === "VERIFY_EMAIL");
    await openOobLink(code!.oobLink);
    await client.visit(VERIFIED_CHECK_PATH);
    expect(await app.sql("select email_verified from user_profiles where id = $1", [id])).toEqual([
      { email_verified: true },
    ]);
  }

  /** The offer provider's signed postback, as its server sends it: [status, body]. */
  async function postback(params: Record<string, string>) {
    const response = await fetch(`${app.url}/api/acme/postback?${signedPostbackQuery(params, SECRET)}`);
    return [response.status, await response.text()];
  }

  /** A BitLabs callback: the hex HMAC-SHA1 of the whole URL, keyed with the app secret, appended. */
  async function bitlabs(params: Record<string, string>) {
    const unsigned = `${app.url}/api/bitlabs/postback?${new URLSearchParams(params)}`;
    const response = await fetch(
      `${unsigned}&hash=${createHmac("sha1", BITLABS_SECRET).update(unsigned).digest("hex")}`,
    );
    return [response.status, await response.text()];
  }

  async function balance(id: string) {
    const [row] = await app.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [id]);
    return Number(row!.balance);
  }

  /** The person's ledger, oldest first: each movement's type and dollars. */
  function ledger(id: string) {
    return app.sql<{ type: string; amount: number }>(
      "select transaction_type as type, amount::float8 as amount from transaction_history where user_id = $1 order by id",
      [id],
    );
  }

  /** The calls of SQL function `fn` the PostgREST stand-in received (its newest 200 requests). */
  function rpcCalls(fn: string) {
    return app.postgrest!.requests.filter((request) => request.path === `/rest/v1/rpc/${fn}`);
  }

  /** The status PostgREST answered the newest call of `fn` with. */
  function lastCallStatus(fn: string) {
    return rpcCalls(fn).at(-1)?.status;
  }

  /** Why the postback log says a network's transaction was refused. */
  async function loggedRefusal(network: string, transaction: string) {
    const rows = await app.sql<{ reason: string }>(
      "select reason from postback_log where network = $1 and verdict = 'refused' and query like $2 order by id",
      [network, `%${transaction}%`],
    );
    return rows.map((row) => row.reason);
  }

  // ---------------------------------------------------------------------------------------------
  // The flows

  it("daily check-in: the first post pays 10 coins ($0.10, one checkin row); a second the same day is refused by daily_checkin in SQL (PostgREST 400) with 'Already checked in today!' and pays nothing", async () => {
    const { client, id } = await person();
    const first = await landing(client, await client.post("/?index", { intent: "checkin" }));
    expect(first.html).toContain("You earned 10 coins ($0.10) — available to withdraw.");
    expect(await balance(id)).toBe(0.1);
    expect(await ledger(id)).toEqual([{ type: "checkin", amount: 0.1 }]);

    const second = await client.post("/?index", { intent: "checkin" });
    expect(second.status).toBe(400);
    expect(await second.text()).toContain(html(ruleMessage("already_checked_in")));
    expect(lastCallStatus("daily_checkin")).toBe(400);
    expect(await balance(id)).toBe(0.1);
    expect(await ledger(id)).toEqual([{ type: "checkin", amount: 0.1 }]);
  });

  it("offer provider: a signed postback credits 250 coins once (its replay answers OK and pays nothing); a reversal of more than it paid is refused in SQL (400 Invalid postback, logged reversal_exceeds_credit); its reversal takes the $2.50 back, once", async () => {
    const { id } = await person();
    const credit = { user_id: id, transaction_id: tx("acme"), amount: "250" };
    expect(await postback(credit)).toEqual([200, "OK"]);
    expect(await postback(credit)).toEqual([200, "OK"]);
    expect(await balance(id)).toBe(2.5);
    expect(await ledger(id)).toEqual([{ type: "postback", amount: 2.5 }]);

    expect(await postback({ ...credit, amount: "300", status: "reversed" })).toEqual([400, "Invalid postback"]);
    expect(lastCallStatus("take_postback")).toBe(400);
    expect(await loggedRefusal("acme", credit.transaction_id)).toEqual([
      "refused by the ledger: reversal_exceeds_credit",
    ]);
    expect(await balance(id)).toBe(2.5);

    const reversal = { ...credit, status: "reversed" };
    expect(await postback(reversal)).toEqual([200, "OK"]);
    expect(await postback(reversal)).toEqual([200, "OK"]);
    expect(await balance(id)).toBe(0);
    expect(await ledger(id)).toEqual([
      { type: "postback", amount: 2.5 },
      { type: "postback_reversal", amount: -2.5 },
    ]);
  });

  it("offer wall (BitLabs): a callback signed over its URL credits 150 coins once to the person its wall id names; a reconciliation naming a completion never credited is refused in SQL (400 Invalid postback, logged reversal_names_no_credit) and changes nothing", async () => {
    const { id, wall_id: wallId } = await person();
    const completion = tx("o");
    const callback = {
      uid: wallId,
      tx: completion,
      val: "150.00",
      raw: "1.50",
      type: "COMPLETE",
      offer_name: "Puzzle",
    };
    expect(await bitlabs(callback)).toEqual([200, "OK"]);
    expect(await bitlabs(callback)).toEqual([200, "OK"]);
    expect(await balance(id)).toBe(1.5);
    expect(await ledger(id)).toEqual([{ type: "postback", amount: 1.5 }]);
    expect(
      await app.sql(
        "select description from transaction_history where user_id = $1 and transaction_type = 'postback'",
        [id],
      ),
    ).toEqual([{ description: "Offer completed via BitLabs: Puzzle" }]);

    const never = tx("o");
    expect(await bitlabs({ uid: wallId, tx: `r${never}`, val: "-80", ref: never, type: "RECONCILIATION" })).toEqual([
      400,
      "Invalid postback",
    ]);
    expect(lastCallStatus("take_postback")).toBe(400);
    expect(await loggedRefusal("bitlabs", never)).toEqual(["refused by the ledger: reversal_names_no_credit"]);
    expect(await balance(id)).toBe(1.5);
    expect(await ledger(id)).toEqual([{ type: "postback", amount: 1.5 }]);
  });

  it("referral: a friend who signs up with the code, verifies their email and earns 100 coins from an offer brings the referrer $5.00 and the friend a $1.00 bonus, once; a Google sign-up with an unknown code is refused in SQL with 'This referral code is not valid' and leaves no account", async () => {
    const referrer = await person();
    const friend = await person({ referralCode: referrer.referral_code });
    expect(await app.sql("select referrer_user_id from referrals where referred_user_id = $1", [friend.id])).toEqual([
      { referrer_user_id: referrer.id },
    ]);
    await verifyEmail(friend);
    expect(await ledger(referrer.id)).toEqual([]);
    expect(await postback({ user_id: friend.id, transaction_id: tx("friend"), amount: "100" })).toEqual([200, "OK"]);

    const home = await referrer.client.visit("/");
    expect(home.html).toContain("Referral bonus earned");
    expect(home.html).toMatch(/data-testid="balance">\$5\.00</);
    expect(await ledger(referrer.id)).toEqual([{ type: "referral", amount: 5 }]);
    expect(await balance(referrer.id)).toBe(5);
    // The friend's next earnings pay nobody else.
    expect(await postback({ user_id: friend.id, transaction_id: tx("friend"), amount: "40" })).toEqual([200, "OK"]);
    expect(await ledger(friend.id)).toEqual([
      { type: "postback", amount: 1 },
      { type: "referral_bonus", amount: 1 },
      { type: "postback", amount: 0.4 },
    ]);
    expect(await balance(friend.id)).toBe(2.4);
    expect(await ledger(referrer.id)).toEqual([{ type: "referral", amount: 5 }]);

    // The Google sign-up's code is checked by provision_user (the form's, before the account is made).
    const email = uniqueEmail("google-bad-code");
    const google = await googleIdToken({ sub: `g-smoke-${Date.now()}`, email, name: "No Code" });
    const refused = await new HttpClient(app.url).post("/auth", {
      intent: "google",
      idToken: google.idToken,
      referralCode: "ZZZZZZZ",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(html(ruleMessage("invalid_referral_code")));
    expect(lastCallStatus("provision_user")).toBe(400);
    expect(await app.sql("select 1 from user_profiles where id = $1 or email = $2", [google.localId, email])).toEqual(
      [],
    );
  });

  it("PayPal withdrawal: $7.01 of $7.00 is refused in SQL with 'Amount exceeds your available balance'; $5.25 requested on Withdraw is sent by the payouts command through the PayPal stand-in and completed by PayPal's signed webhook, once: $1.75 stays and the ledger keeps the -$5.25", async () => {
    const payee = await person();
    await verifyEmail(payee);
    expect(await postback({ user_id: payee.id, transaction_id: tx("payee"), amount: "700" })).toEqual([200, "OK"]);
    const paypalEmail = `payee.${Date.now().toString(36)}@example.com`;

    const over = await payee.client.post("/withdraw", {
      intent: "withdraw",
      amount: "7.01",
      method: "paypal",
      paypalEmail,
    });
    expect(over.status).toBe(400);
    expect(await over.text()).toContain(html(ruleMessage("amount_exceeds_balance")));
    expect(lastCallStatus("create_withdrawal")).toBe(400);
    expect(await app.sql("select 1 from withdrawals where user_id = $1", [payee.id])).toEqual([]);
    expect(await balance(payee.id)).toBe(7);

    const requested = await payee.client.post("/withdraw", {
      intent: "withdraw",
      amount: "5.25",
      method: "paypal",
      paypalEmail,
    });
    expect(requested.status).toBe(302);
    expect(requested.headers.get("location")).toBe("/withdraw");
    const [withdrawal] = await app.sql<{ id: string; status: string; review_state: string }>(
      "select id, status, review_state from withdrawals where user_id = $1",
      [payee.id],
    );
    // Not held for review: a new account's first earnings score under the threshold (demo settings).
    expect(withdrawal).toMatchObject({ status: "pending", review_state: "approved" });
    expect(await balance(payee.id)).toBe(1.75);

    // The operator's command sends it, on the app's transport: its calls go through PostgREST too.
    const sent = await runOperator(app.databaseEnv, ["send", withdrawal!.id, "--json"], paypal.env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toEqual([expect.objectContaining({ id: withdrawal!.id, result: "sent" })]);
    expect(lastCallStatus("claim_payout")).toBeDefined();

    paypal.setItemStatus(withdrawal!.id, "SUCCESS");
    const event = paypal.itemEvent(withdrawal!.id, "PAYMENT.PAYOUTS-ITEM.SUCCEEDED");
    for (const changed of [true, false]) {
      const delivered = await fetch(`${app.url}/api/paypal/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", ...paypal.signedHeaders(event) },
        body: JSON.stringify(event),
      });
      expect(delivered.status).toBe(200);
      expect(await delivered.json()).toEqual({
        received: true,
        withdrawal: withdrawal!.id,
        status: "completed",
        changed,
      });
    }
    expect(
      await app.sql("select status, reference, recipient_email from withdrawals where id = $1", [withdrawal!.id]),
    ).toEqual([
      { status: "completed", reference: paypal.item(withdrawal!.id).payout_item_id, recipient_email: paypalEmail },
    ]);
    expect(paypal.payoutsMade(withdrawal!.id)).toBe(1);
    expect(paypal.item(withdrawal!.id).payout_item.amount).toEqual({ value: "5.25", currency: "USD" });
    expect(
      await app.sql("select kind from user_notices where data ->> 'withdrawal_id' = $1", [withdrawal!.id]),
    ).toEqual([{ kind: "withdrawal_completed" }]);
    expect(await balance(payee.id)).toBe(1.75);
    expect(await ledger(payee.id)).toEqual([
      { type: "postback", amount: 7 },
      { type: "withdrawal", amount: -5.25 },
    ]);
  });

  it("profile: a new display name is saved and shown; deletion is refused by delete_account in SQL ('You have a withdrawal on its way…') when a withdrawal is made while the password is checked, and once that is paid the account goes and its ledger rows stay without it", async () => {
    const owner = await person();
    const saved = await owner.client.post("/profile", { intent: "update-name", displayName: "  Smoke Tester  " });
    expect(saved.status).toBe(302);
    expect((await owner.client.visit("/profile")).html).toContain("Smoke Tester&#x27;s Profile");
    expect(await app.sql("select display_name from user_profiles where id = $1", [owner.id])).toEqual([
      { display_name: "Smoke Tester" },
    ]);

    await verifyEmail(owner);
    expect(await postback({ user_id: owner.id, transaction_id: tx("owner"), amount: "600" })).toEqual([200, "OK"]);
    // A withdrawal being made (its transaction holds the profile) when the deletion asks: the
    // deletion's first look finds none pending, and delete_account waits for it, then refuses.
    const racing = new pg.Client({ connectionString: app.scratchUrl });
    await racing.connect();
    let withdrawalId: string;
    try {
      await racing.query("begin");
      const { rows } = await racing.query<{ id: string }>(
        `select (create_withdrawal(p_user_id => $1, amount_param => 5, payment_method_param => 'upi',
                                   recipient_email_param => null, recipient_upi_param => 'owner@okaxis',
                                   recipient_bank_details_param => null)) ->> 'id' as id`,
        [owner.id],
      );
      withdrawalId = rows[0]!.id;
      const asked = () => rpcCalls("delete_account").length;
      const before = asked();
      // The person gave up the $6.00 the page showed; the withdrawal still comes first.
      const deletion = owner.client.post("/profile", { intent: "delete-account", password: PASSWORD, giveUp: "6.00" });
      await eventually(() => asked() > before, { what: "the deletion's call of delete_account" });
      await racing.query("commit");
      const refused = await deletion;
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain(html(ruleMessage("withdrawal_pending")));
    } finally {
      await racing.end();
    }
    expect(lastCallStatus("delete_account")).toBe(400);
    expect(await app.sql("select 1 as kept from user_profiles where id = $1", [owner.id])).toEqual([{ kept: 1 }]);
    expect(await balance(owner.id)).toBe(1);

    // Paid by hand (UPI) with the operator's command, then the deletion goes through.
    const settled = await runOperator(app.databaseEnv, ["settle", withdrawalId, "completed", "--reference", "UTR 77"]);
    expect(settled.code, settled.stderr).toBe(0);
    expect(lastCallStatus("settle_withdrawal")).toBe(200);
    const rows = await app.sql<{ id: string }>("select id from transaction_history where user_id = $1", [owner.id]);
    expect(await ledger(owner.id)).toEqual([
      { type: "postback", amount: 6 },
      { type: "withdrawal", amount: -5 },
    ]);

    const deleted = await owner.client.post("/profile", {
      intent: "delete-account",
      password: PASSWORD,
      giveUp: "1.00",
    });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe("/auth");
    expect((await owner.client.visit("/auth")).html).toContain("Your account has been deleted");
    expect(await app.sql("select 1 from user_profiles where id = $1", [owner.id])).toEqual([]);
    expect(await app.sql("select 1 from user_balance where user_id = $1", [owner.id])).toEqual([]);
    expect(
      await app.sql<{ user_id: string | null; amount: number }>(
        "select user_id, amount::float8 as amount from transaction_history where id = any($1::bigint[]) order by id",
        [rows.map((row) => row.id)],
      ),
    ).toEqual([
      { user_id: null, amount: 6 },
      { user_id: null, amount: -5 },
    ]);
  });
});
