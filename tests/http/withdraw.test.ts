import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleMessage } from "~/domain/rules";
import { VERIFIED_CHECK_PATH } from "~/domain/verification-form";
import { CROSS_SITE_MESSAGE } from "~/server/http/same-origin.server";
import { openOobLink, sentOobCodes } from "../support/emulator";
import { newMember } from "../support/console";
import { HttpClient, html } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// Withdraw Money over plain form posts (no JavaScript), on an app server with its own Postgres
// database so the tests can give an account money and look at what the app wrote.
describe("Withdraw Money over plain HTTP", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp();
  }, 120_000);
  afterAll(() => app?.stop());

  /** A signed-in account with a verified email and `dollars` to withdraw (credited as bonus coins). */
  async function account(dollars: number, { verified = true } = {}) {
    const { client, email, uid: id } = await newMember(app);
    if (verified) await app.sql("select record_email_verified($1)", [id]);
    if (dollars > 0) await app.sql("select add_user_coins($1, $2)", [id, Math.round(dollars * 100)]);
    return { client, email, id };
  }

  async function balance(id: string) {
    const [row] = await app.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [id]);
    return Number(row!.balance);
  }

  async function withdrawalCount(id: string) {
    const [row] = await app.sql<{ n: number }>("select count(*)::int as n from withdrawals where user_id = $1", [id]);
    return row!.n;
  }

  async function refused(client: HttpClient, fields: Record<string, string>, message: string) {
    const response = await client.post("/withdraw", { intent: "withdraw", ...fields });
    expect(response.status, JSON.stringify(fields)).toBe(400);
    const body = await response.text();
    expect(body, JSON.stringify(fields)).toContain(html(message));
    return body;
  }

  it("says on Home and Withdraw how much more is needed to cash out with UPI, and the coin rate, until $1.00 is available", async () => {
    const { client, id } = await account(0);
    const home = (await client.visit("/")).html;
    expect(home).toContain("$1.00 more to cash out with UPI");
    expect(home).toContain("Amounts are in dollars: 100 coins = $1.00.");
    expect(home).toContain("Come back every day to earn 10 coins ($0.10).");
    // Withdraw says it before anything is typed, and its form cannot be sent (issue 36).
    const empty = (await client.visit("/withdraw")).html;
    expect(empty).toMatch(
      /id="cash-out-notice"[^>]*>.*Earn \$1\.00 more.*UPI&#x27;s minimum is \$1\.00 and you have \$0\.00 available\./s,
    );
    expect(empty).toMatch(/<fieldset disabled=""[^>]*aria-describedby="cash-out-notice"/);
    await app.sql("select add_user_coins($1, 15)", [id]);
    expect((await client.visit("/")).html).toContain("$0.85 more to cash out with UPI");
    expect((await client.visit("/withdraw")).html).toContain("Earn $0.85 more");
    await app.sql("select add_user_coins($1, 85)", [id]);
    expect((await client.visit("/")).html).not.toContain("more to cash out");
    const open = (await client.visit("/withdraw")).html;
    expect(open).not.toContain("cash-out-notice");
    expect(open).not.toMatch(/<fieldset disabled/);
  });

  it("sends a signed-out visitor to /auth, and a signed-out post too", async () => {
    const visitor = new HttpClient(app.url);
    expect((await visitor.get("/withdraw")).headers.get("location")).toBe("/auth?redirectTo=%2Fwithdraw");
    const post = await visitor.post("/withdraw", { intent: "withdraw", amount: "5", method: "paypal" });
    expect(post.status).toBe(302);
    expect(post.headers.get("location")).toMatch(/^\/auth/);
  });

  it("shows the balance, the amount field, PayPal and UPI (India) with their minimums, the notice and Withdraw Funds", async () => {
    const { client } = await account(12.5);
    const { html: page, response } = await client.visit("/withdraw");
    expect(response.status).toBe(200);
    expect(page).toContain("Available Balance");
    expect(page).toMatch(/data-testid="balance">\$12\.50</);
    expect(page).toMatch(/<input[^>]*name="amount"[^>]*>/);
    expect(page).toMatch(/placeholder="0\.00"/);
    expect(page).toMatch(/inputMode="decimal"|inputmode="decimal"/);
    expect(page).toContain("PayPal");
    expect(page).toContain("UPI (India)");
    expect(page).toContain("Min. $5.00");
    expect(page).toContain("Min. $1.00");
    expect(page).not.toContain("Bank transfer"); // docs/product.md, "Withdraw: fields": bank is not offered
    expect(page).toContain("PayPal email");
    expect(page).toContain("UPI ID");
    expect(page).toContain("name@okhdfcbank");
    expect(page).toContain("Withdrawals are typically processed within 24-48 hours.");
    // Demo settings review no first cash-out: nothing is said of one.
    expect(page).not.toContain("Your first cash-out is reviewed first");
    expect(page).toMatch(/<button[^>]*value="withdraw"[^>]*>Withdraw Funds<\/button>/);
  });

  it("refuses every invalid amount with the spec's message and changes nothing", async () => {
    const { client, id } = await account(12);
    const invalid = [
      "",
      "0",
      "0.00",
      "-5",
      "abc",
      "5.001",
      "1e309",
      "1e3",
      "NaN",
      "٥",
      "5,00",
      "9".repeat(400),
      "12345678901",
    ];
    for (const amount of invalid) {
      await refused(client, { amount, method: "paypal", paypalEmail: "me@example.com" }, ruleMessage("invalid_amount"));
    }
    // A form with the field missing altogether, or sent twice.
    await refused(client, { method: "paypal", paypalEmail: "me@example.com" }, ruleMessage("invalid_amount"));
    const twice = await client.post(
      "/withdraw",
      {},
      { "content-type": "application/x-www-form-urlencoded" },
      "intent=withdraw&amount=5&amount=6&method=paypal&paypalEmail=me%40example.com",
    );
    expect(twice.status).toBe(400);
    expect(await balance(id)).toBe(12);
    expect(await withdrawalCount(id)).toBe(0);
  });

  it("checks in the spec's order: valid amount, then balance, then the method's minimum, then the recipient", async () => {
    const { client, id } = await account(12);
    // 99999 is a valid amount, above the balance: the balance message, though no email is given.
    await refused(client, { amount: "99999", method: "paypal" }, ruleMessage("amount_exceeds_balance"));
    await refused(client, { amount: "4.99", method: "paypal" }, "Minimum withdrawal amount is $5.00");
    await refused(client, { amount: "0.99", method: "upi" }, "Minimum withdrawal amount is $1.00");
    await refused(client, { amount: "9.99", method: "bank" }, "Minimum withdrawal amount is $10.00");
    await refused(client, { amount: "5", method: "paypal", paypalEmail: "  " }, "Please enter your PayPal email");
    await refused(client, { amount: "1", method: "upi" }, "Please enter your UPI ID");
    await refused(client, { amount: "10", method: "bank", bankDetails: " " }, "Please enter your bank account details");
    await refused(client, { amount: "5", method: "crypto" }, "Please choose a payment method");
    expect(await balance(id)).toBe(12);
    expect(await withdrawalCount(id)).toBe(0);
  });

  it("refuses a malformed PayPal email or UPI ID (money sent to a typo is lost)", async () => {
    const { client, id } = await account(12);
    for (const paypalEmail of ["me@", "me@example", "a b@example.com", "@example.com"]) {
      await refused(client, { amount: "5", method: "paypal", paypalEmail }, ruleMessage("invalid_paypal_email"));
    }
    for (const upiId of ["name", "name@", "name@ok1bank", "n@ok", `${"a".repeat(257)}@ybl`]) {
      await refused(client, { amount: "1", method: "upi", upiId }, ruleMessage("invalid_upi_id"));
    }
    expect(await withdrawalCount(id)).toBe(0);
  });

  it("refuses a recipient with ESC, CR, DEL, a C1 control or a bidi or zero-width character in its field, and changes nothing", async () => {
    const { client, id } = await account(30);
    const message = ruleMessage("recipient_hidden_characters");
    expect(message).toBe("Payment details cannot contain invisible or control characters");
    for (const hidden of ["\u001b[2K", "\u001b[8m", "\r", "\u007f", "\u009b", "\u202e", "\u2066", "\u200b", "\ufeff"]) {
      const cases: Record<string, string>[] = [
        { amount: "5", method: "paypal", paypalEmail: `pay${hidden}ee@example.com` },
        { amount: "1", method: "upi", upiId: `pay${hidden}ee@okhdfcbank` },
        { amount: "10", method: "bank", bankDetails: `A/C 1234${hidden}5678, HDFC0001234` },
      ];
      for (const fields of cases) {
        const body = await refused(client, fields, message);
        // On the field of the chosen method.
        const field = Object.keys(fields).find((name) => !["amount", "method"].includes(name))!;
        expect(body, JSON.stringify(fields)).toMatch(
          new RegExp(`id="[^"]*${field}[^"]*error"[^>]*><li>${message}</li>`),
        );
      }
    }
    expect(await balance(id)).toBe(30);
    expect(await withdrawalCount(id)).toBe(0);
  });

  it("keeps the line breaks a bank-details textarea sends (CR LF) as line breaks", async () => {
    const { client, id } = await account(15);
    const response = await client.post("/withdraw?method=bank", {
      intent: "withdraw",
      amount: "10",
      method: "bank",
      bankDetails: "A. Person\r\n1234567890\r\nHDFC0001234\r\n",
    });
    expect(response.status).toBe(302);
    const [row] = await app.sql<{ details: string }>(
      "select recipient_bank_details ->> 'details' as details from withdrawals where user_id = $1",
      [id],
    );
    expect(row!.details).toBe("A. Person\n1234567890\nHDFC0001234");
  });

  it("withdraws to PayPal: the form clears, the balance and history show it, with the TEST MODE toast", async () => {
    const { client, id } = await account(12.5);
    const response = await client.post("/withdraw", {
      intent: "withdraw",
      amount: "5.25",
      method: "paypal",
      paypalEmail: " Me@Example.com ",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/withdraw");
    const { html: page } = await client.visit("/withdraw");
    expect(page).toContain("Withdrawal request submitted successfully (TEST MODE)");
    // Demo settings review no first cash-out: the toast says it is on its way, not in review.
    expect(page).toContain(
      "Your $5.25 withdrawal has been initiated. It is sending: on its way to your PayPal account.",
    );
    expect(page).toMatch(/data-testid="balance">\$7\.25</);
    expect(page).not.toContain('value="5.25"'); // a fresh form
    expect(await balance(id)).toBe(7.25);
    const [row] = await app.sql<{ recipient_email: string; status: string }>(
      "select recipient_email, status from withdrawals where user_id = $1",
      [id],
    );
    expect(row).toEqual({ recipient_email: "Me@Example.com", status: "pending" });

    const history = await client.visit("/withdraw?history=1");
    expect(history.html).toContain("Withdrawal History");
    expect(history.html).toContain("View all your past withdrawal requests.");
    expect(history.html).toMatch(/<th[^>]*>Date<\/th>/);
    expect(history.html).toContain("$5.25");
    expect(history.html).toMatch(/bg-amber-50 text-amber-800[^"]*"[^>]*>Sending</);
    expect(history.html).toMatch(
      /href="\/withdraw"[^>]*aria-label="Close history"|aria-label="Close history"[^>]*href="\/withdraw"/,
    );
    expect((await app.sql("select verify_all_balances() as audit"))[0]).toEqual({ audit: [] });
  });

  it("withdraws to UPI, and the history lists withdrawals newest first with their status colours", async () => {
    const { client, id } = await account(20);
    await client.post("/withdraw", { intent: "withdraw", amount: "1", method: "upi", upiId: "name@okhdfcbank" });
    await client.post("/withdraw", { intent: "withdraw", amount: "2.50", method: "upi", upiId: "9876543210@ybl" });
    const [first] = await app.sql<{ id: string }>("select id from withdrawals where user_id = $1 and amount = 1", [id]);
    await app.sql("select settle_withdrawal($1, 'completed', 'UTR123')", [first!.id]);
    const { html: page } = await client.visit("/withdraw?history=1");
    const amounts = [...page.matchAll(/<td[^>]*>(\$\d+\.\d\d)<\/td>/g)].map((match) => match[1]);
    expect(amounts).toEqual(["$2.50", "$1.00"]);
    expect(page).toMatch(/bg-emerald-50 text-emerald-700[^"]*"[^>]*>Paid [A-Z][a-z]{2} \d{1,2}</);
    expect(page).toContain(">UPI<");
    expect(await balance(id)).toBe(16.5);
  });

  it("shows the settlement's notice as a toast on the next visit, once", async () => {
    const { client, id } = await account(10);
    await client.post("/withdraw", { intent: "withdraw", amount: "6", method: "upi", upiId: "me@okaxis" });
    const [withdrawal] = await app.sql<{ id: string }>("select id from withdrawals where user_id = $1", [id]);
    await app.sql("select settle_withdrawal($1, 'failed', null, 'Account closed')", [withdrawal!.id]);
    const next = await client.visit("/");
    expect(next.html).toContain("Withdrawal not paid");
    expect(next.html).toContain("Your $6.00 UPI withdrawal could not be paid — $6.00 refunded to your balance.");
    expect(next.html).toMatch(/data-testid="balance">\$10\.00</);
    expect((await client.visit("/")).html).not.toContain("Withdrawal not paid");
  });

  /** The history sheet's table: what it shows, without the form around it. */
  async function historyTable(client: HttpClient) {
    const { html: page } = await client.visit("/withdraw?history=1");
    const table = /<table[\s\S]*<\/table>/.exec(page);
    expect(table, "the history's table").not.toBeNull();
    return table![0];
  }

  /** "Nov 26": the UTC day 48 hours after `iso`, as en-US writes it. */
  function dayAfter48Hours(iso: string) {
    return new Date(new Date(iso).getTime() + 48 * 3600 * 1000).toLocaleDateString("en-US", {
      month: "short",
      day: "numeric",
      timeZone: "UTC",
    });
  }

  // Issue 36, point 10 (docs/decisions/085): the day in the person's zone. Kiritimati (UTC+14) and
  // Pago Pago (UTC-11) are 25 hours apart, so their days always differ.
  it("writes a pending withdrawal's Expected by day in the person's time zone (tz cookie), UTC without one", async () => {
    const { client, id } = await account(20);
    await client.post("/withdraw", {
      intent: "withdraw",
      amount: "5",
      method: "paypal",
      paypalEmail: "me@example.com",
    });
    const [row] = await app.sql<{ created_at: Date }>("select created_at from withdrawals where user_id = $1", [id]);
    const due = new Date(row!.created_at.getTime() + 48 * 3600 * 1000);
    const shown = new Map<string, string>();
    for (const zone of ["Pacific/Kiritimati", "Pacific/Pago_Pago", null]) {
      if (zone) client.cookies.set("tz", zone);
      else client.cookies.delete("tz");
      const day = /Expected by ([A-Z][a-z]{2} \d{1,2})/.exec(await historyTable(client))?.[1];
      expect(day).toBe(due.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: zone ?? "UTC" }));
      shown.set(zone ?? "UTC", day!);
    }
    expect(shown.get("Pacific/Kiritimati")).not.toBe(shown.get("Pacific/Pago_Pago"));
  });

  it("shows each withdrawal's recipient masked in the history (j•••@example.com, ab•••@upi), never the whole address, nor another account's", async () => {
    const { client } = await account(20);
    await client.post("/withdraw", {
      intent: "withdraw",
      amount: "5",
      method: "paypal",
      paypalEmail: "john.smith@example.com",
    });
    await client.post("/withdraw", { intent: "withdraw", amount: "1", method: "upi", upiId: "abcdef@upi" });
    const table = await historyTable(client);
    expect(table).toContain("j•••@example.com");
    expect(table).toContain("ab•••@upi");
    expect(table).not.toContain("john.smith");
    expect(table).not.toContain("abcdef");

    const other = await account(20);
    await other.client.post("/withdraw", { intent: "withdraw", amount: "2", method: "upi", upiId: "zyxw@okaxis" });
    const page = (await other.client.visit("/withdraw?history=1")).html;
    expect(page).toContain("zy•••@okaxis");
    for (const theirs of ["john.smith", "j•••@example.com", "abcdef", "ab•••@upi"]) expect(page).not.toContain(theirs);
  });

  it("says what a pending withdrawal's step means and when it is expected: 48 hours after the request, longer in review", async () => {
    try {
      await app.sql("update app_config set review_first_withdrawal = true");
      const { client, id } = await account(20);
      // Beside the spec's 24-48 hours, before anything was paid: the first cash-out is reviewed first.
      const before = (await client.visit("/withdraw")).html;
      expect(before).toContain("Withdrawals are typically processed within 24-48 hours.");
      expect(before).toContain("Your first cash-out is reviewed first, which can take longer.");
      await client.post("/withdraw", {
        intent: "withdraw",
        amount: "5",
        method: "paypal",
        paypalEmail: "me@example.com",
      });
      const [row] = await app.sql<{ id: string; created_at: Date }>(
        "select id, created_at from withdrawals where user_id = $1",
        [id],
      );
      const expected = dayAfter48Hours(row!.created_at.toISOString());
      const inReview = await historyTable(client);
      expect(inReview).toContain("In review");
      expect(inReview).toContain("We check first cash-outs and unusual ones by hand before anything is sent.");
      expect(inReview).toContain(`Expected by ${expected}; a review can take longer.`);

      await app.sql("select approve_withdrawals(jsonb_build_array($1::text), 'ops-test')", [row!.id]);
      const sending = await historyTable(client);
      expect(sending).toContain("Sending");
      expect(sending).toContain("We are sending it to your PayPal account.");
      expect(sending).not.toContain("In review");
      expect(sending).toContain(`Expected by ${expected}<`);
      // Once one is paid, the next is no first cash-out: the line goes.
      await app.sql("select settle_withdrawal($1, 'completed', 'PAID-1')", [row!.id]);
      expect((await client.visit("/withdraw")).html).not.toContain("Your first cash-out is reviewed first");
    } finally {
      await app.sql("select apply_demo_settings()");
    }
  });

  it("shows a failed withdrawal's reason in the history and no expected date; a paid one the day it was paid", async () => {
    const { client, id } = await account(20);
    await client.post("/withdraw", { intent: "withdraw", amount: "6", method: "upi", upiId: "me@okaxis" });
    await client.post("/withdraw", { intent: "withdraw", amount: "2", method: "upi", upiId: "me@okaxis" });
    // A second cash-out minutes after the first waits for review (its risk score): approve both first.
    await app.sql(
      "select approve_withdrawals((select jsonb_agg(id) from withdrawals where user_id = $1), 'ops-test')",
      [id],
    );
    const rows = await app.sql<{ id: string; amount: string }>(
      "select id, amount from withdrawals where user_id = $1",
      [id],
    );
    await app.sql("select settle_withdrawal($1, 'failed', null, 'Account closed')", [
      rows.find((row) => Number(row.amount) === 6)!.id,
    ]);
    await app.sql("select settle_withdrawal($1, 'completed', 'UTR9')", [
      rows.find((row) => Number(row.amount) === 2)!.id,
    ]);
    const table = await historyTable(client);
    expect(table).toContain("Not paid — $6.00 refunded");
    expect(table).toContain(html("UPI could not pay it: Account closed. The money is back in your balance."));
    expect(table).toMatch(/>Paid [A-Z][a-z]{2} \d{1,2}</);
    expect(table).toContain("The money went to your UPI account.");
    expect(table).not.toContain("Expected by");
  });

  it("starts the form with the last withdrawal's method and recipient, and after a refused post keeps what was typed", async () => {
    const { client } = await account(20);
    const fresh = (await client.visit("/withdraw")).html;
    expect(fresh).toMatch(/<input[^>]*(checked=""[^>]*value="paypal"|value="paypal"[^>]*checked="")/);
    await client.post("/withdraw", { intent: "withdraw", amount: "1", method: "upi", upiId: "name@okhdfcbank" });
    const next = (await client.visit("/withdraw")).html;
    expect(next).toMatch(/<input[^>]*(checked=""[^>]*value="upi"|value="upi"[^>]*checked="")/);
    expect(next).not.toMatch(/<input[^>]*(checked=""[^>]*value="paypal"|value="paypal"[^>]*checked="")/);
    expect(next).toMatch(
      /<input[^>]*name="upiId"[^>]*value="name@okhdfcbank"|value="name@okhdfcbank"[^>]*name="upiId"/,
    );
    expect(next).not.toMatch(/name="amount"[^>]*value="1/);

    const refused = await client.post("/withdraw", {
      intent: "withdraw",
      amount: "500",
      method: "paypal",
      paypalEmail: "typed@example.com",
    });
    expect(refused.status).toBe(400);
    const body = await refused.text();
    expect(body).toMatch(/<input[^>]*(checked=""[^>]*value="paypal"|value="paypal"[^>]*checked="")/);
    expect(body).toContain('value="typed@example.com"');
    expect(body).not.toContain('value="name@okhdfcbank"');
  });

  it("offers bank transfer only through ?method=bank, with its $10.00 minimum and account details", async () => {
    const { client, id } = await account(15);
    const { html: page } = await client.visit("/withdraw?method=bank");
    expect(page).toContain("Bank transfer");
    expect(page).toContain("Min. $10.00");
    expect(page).toMatch(/<textarea[^>]*name="bankDetails"/);
    const response = await client.post("/withdraw", {
      intent: "withdraw",
      amount: "10",
      method: "bank",
      bankDetails: "A. Person, 1234567890, HDFC0001234",
    });
    expect(response.status).toBe(302);
    expect(await balance(id)).toBe(5);
  });

  it("shows No withdrawal history yet for an account without withdrawals", async () => {
    const { client } = await account(0);
    expect((await client.visit("/withdraw?history=1")).html).toContain("No withdrawal history yet");
  });

  it("allows at most five withdrawal requests an hour (app_config), counting only requests that pass every rule", async () => {
    const { client, id } = await account(20);
    // Refused requests (typos) use up nothing.
    for (let attempt = 0; attempt < 6; attempt++) {
      await refused(client, { amount: "1", method: "upi", upiId: "typo" }, ruleMessage("invalid_upi_id"));
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await client.post("/withdraw", {
        intent: "withdraw",
        amount: "1",
        method: "upi",
        upiId: "me@okicici",
      });
      expect(response.status).toBe(302);
    }
    const sixth = await client.post("/withdraw", {
      intent: "withdraw",
      amount: "1",
      method: "upi",
      upiId: "me@okicici",
    });
    expect(sixth.status).toBe(400);
    expect(await sixth.text()).toMatch(/Too many attempts\. Please try again in \d+ minutes?\./);
    expect(await withdrawalCount(id)).toBe(5);
  });

  it("refuses a withdrawal posted from another site", async () => {
    const { client, id } = await account(10);
    const response = await client.post(
      "/withdraw",
      { intent: "withdraw", amount: "5", method: "paypal", paypalEmail: "thief@example.com" },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toContain(html(CROSS_SITE_MESSAGE));
    expect(await withdrawalCount(id)).toBe(0);
  });

  it("asks an unverified account to verify its email, sends the link, and lets it cash out once verified", async () => {
    const { client, email, id } = await account(10, { verified: false });
    const gate = await client.visit("/withdraw");
    expect(gate.html).toContain("Verify your email to cash out");
    expect(gate.html).toContain(html(email));
    expect(gate.html).toMatch(/<button[^>]*value="send-verification"[^>]*>Send verification email<\/button>/);
    expect(gate.html).not.toContain("Withdraw Funds");
    // The form cannot be posted around the gate.
    await refused(
      client,
      { amount: "5", method: "paypal", paypalEmail: "me@example.com" },
      ruleMessage("email_not_verified"),
    );

    const sent = await client.post("/withdraw", { intent: "send-verification" });
    expect(sent.status).toBe(302);
    expect((await client.visit("/withdraw")).html).toContain("Verification email sent");
    const code = (await sentOobCodes()).findLast((oob) => oob.email === email && oob.requestType === "VERIFY_EMAIL");
    expect(code).toBeDefined();
    // The link returns to Home's check, wherever the email was asked for.
    expect(await openOobLink(code!.oobLink)).toBe(new URL(VERIFIED_CHECK_PATH, app.url).href);

    const after = await client.visit("/withdraw");
    expect(after.html).toContain("Withdraw Funds");
    expect((await app.sql("select email_verified from user_profiles where id = $1", [id]))[0]).toEqual({
      email_verified: true,
    });
  });
});
