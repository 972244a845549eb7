import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { noticeMessage } from "~/domain/notices";
import { FALLBACK_TASKS } from "~/domain/tasks";
import { startFcmStandIn, testServiceAccount, type FcmStandIn } from "../support/fcm";
import { landing, type HttpClient } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startSmtpStandIn, type SmtpStandIn } from "../support/smtp";
import { eventually } from "../support/wait";

const PUBLIC_URL = "https://rewards.example";
const FROM = "notices@rewards.example";

interface NoticeRow {
  id: string;
  kind: string;
  push_status: string;
  email_status: string;
  push_attempts: number;
  email_attempts: number;
  push_detail: string | null;
  email_detail: string | null;
}

// An app server on a scratch Postgres database whose push and email go to local servers speaking
// FCM HTTP v1 (with Google's token endpoint) and SMTP. Money moves the way it does in production
// (SQL functions, HTTP form posts); what arrives at the stand-ins is checked word for word.
describe("notices arrive by push and email: an app on Postgres with a local FCM and SMTP server", () => {
  let app: PostgresApp;
  let fcm: FcmStandIn;
  let smtp: SmtpStandIn;

  beforeAll(async () => {
    const account = testServiceAccount();
    fcm = await startFcmStandIn({ publicKey: account.publicKey, clientEmail: account.json.client_email });
    smtp = await startSmtpStandIn();
    app = await startPostgresApp({
      FIREBASE_SERVICE_ACCOUNT: account.text,
      ...fcm.env,
      SMTP_URL: smtp.url,
      EMAIL_FROM: `Rewards <${FROM}>`,
      PUBLIC_URL,
      NOTIFY_RETRY_SECONDS: "1",
    });
  }, 120_000);

  afterEach(() => fcm.clearFailures());

  afterAll(async () => {
    await app?.stop();
    await fcm?.close();
    await smtp?.close();
  });

  // ---------------------------------------------------------------------------------------------
  // Arranging

  /**
   * A new account signed up over HTTP, with `devices` push tokens stored as the browser would, and
   * (unless `verified: false`) its email verified, as the app records once Firebase says so.
   */
  async function person({
    devices = 2,
    referralCode,
    verified = true,
  }: { devices?: number; referralCode?: string; verified?: boolean } = {}) {
    const { client, email, response } = await app.signUp(referralCode ? { referralCode } : {});
    expect(response.status).toBe(302);
    const [profile] = await app.sql<{ id: string; referral_code: string }>(
      "select id, referral_code from user_profiles where email = $1",
      [email],
    );
    if (verified) await app.sql("select record_email_verified($1)", [profile!.id]);
    const tokens = Array.from({ length: devices }, () => `fcm-${randomUUID()}`);
    for (const token of tokens) {
      await app.sql("insert into user_fcm_tokens (user_id, fcm_token) values ($1, $2)", [profile!.id, token]);
    }
    return { client, email, userId: profile!.id, referralCode: profile!.referral_code, tokens };
  }

  async function setPreferences(userId: string, switches: Record<string, boolean>) {
    const columns = Object.keys(switches);
    await app.sql(
      `update notification_preferences set ${columns.map((column, i) => `${column} = $${i + 2}`).join(", ")} where user_id = $1`,
      [userId, ...columns.map((column) => switches[column])],
    );
  }

  /** A verified account's $5.00 PayPal withdrawal, settled as `status`; the notice's id. */
  async function settledWithdrawal(userId: string, status: "completed" | "failed" = "completed") {
    await app.sql("select record_email_verified($1)", [userId]);
    await app.sql("select add_user_coins($1, 1000)", [userId]);
    const [created] = await app.sql<{ result: { id: string } }>(
      `select create_withdrawal(p_user_id => $1, amount_param => 5, payment_method_param => 'paypal',
                                recipient_email_param => 'payee@example.com') as result`,
      [userId],
    );
    await app.sql("select settle_withdrawal(p_withdrawal_id => $1, p_status => $2)", [created!.result.id, status]);
    return latestNotice(userId);
  }

  async function postback(userId: string, coins = 250) {
    await app.sql(
      `select record_postback(p_provider => 'acme', p_transaction_id => $1, p_user_id => $2, p_coins => $3,
                              p_reversal => false, p_description => 'Offer completed via acme')`,
      [`tx-${randomUUID()}`, userId, coins],
    );
    return latestNotice(userId);
  }

  async function latestNotice(userId: string): Promise<string> {
    const [row] = await app.sql<{ id: string }>(
      "select id from user_notices where user_id = $1 order by id desc limit 1",
      [userId],
    );
    return row!.id;
  }

  async function noticeRow(id: string): Promise<NoticeRow> {
    const [row] = await app.sql<NoticeRow>(
      `select id, kind, push_status, email_status, push_attempts, email_attempts, push_detail, email_detail
         from user_notices where id = $1`,
      [id],
    );
    return row!;
  }

  /** The notice once both channels are done (sent, skipped or failed). */
  function finished(id: string, timeoutMs = 10_000) {
    return eventually(
      async () => {
        const row = await noticeRow(id);
        return row.push_status !== "pending" && row.email_status !== "pending" && row;
      },
      { what: `notice ${id} to be delivered`, timeoutMs },
    );
  }

  function expectPushes(
    tokens: string[],
    noticeId: string,
    kind: string,
    words: { title: string; body: string },
    path: string,
  ) {
    for (const token of tokens) {
      expect(fcm.pushesTo(token)).toEqual([
        {
          projectId: "demo-rewards",
          token,
          notification: words,
          webpush: { fcm_options: { link: PUBLIC_URL + path } },
          data: { kind, notice_id: noticeId, link: PUBLIC_URL + path },
          messageName: expect.stringMatching(/^projects\/demo-rewards\/messages\//),
        },
      ]);
    }
  }

  function expectEmail(address: string, words: { title: string; body: string }, path: string) {
    const mail = smtp.mailTo(address);
    expect(mail).toHaveLength(1);
    const { envelope, parsed } = mail[0]!;
    expect(envelope).toEqual({ from: FROM, to: [address] });
    expect(parsed.subject).toBe(words.title);
    expect(parsed.from?.value).toEqual([{ address: FROM, name: "Rewards" }]);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value.map((to) => to.address) : []).toEqual([address]);
    expect(parsed.text).toContain(words.body);
    expect(parsed.text).toContain(`Open Rewards: ${PUBLIC_URL}${path}`);
    expect(parsed.html).toContain(`<h1 style="font-size:20px">${escapeHtml(words.title)}</h1>`);
    expect(parsed.html).toContain(escapeHtml(words.body));
  }

  const escapeHtml = (text: string) =>
    text
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&#39;");

  // ---------------------------------------------------------------------------------------------
  // Each kind of notice

  it("signs people up through firebase-admin holding the test service account (the Auth emulator needs no Google token)", async () => {
    const { client } = await person({ devices: 0 });
    const home = await client.visit("/");
    expect(home.response.status).toBe(200);
    expect(home.html).toContain("Available Balance");
    expect(fcm.refusedAssertions).toEqual([]);
    expect(app.stderr()).not.toMatch(/notifications: no (push|email)/);
  });

  it("a settled withdrawal reaches each of the owner's devices and their email address once, and is still a toast on the next visit", async () => {
    const owner = await person();
    const id = await settledWithdrawal(owner.userId);
    expect(await finished(id)).toMatchObject({ push_status: "sent", email_status: "sent", push_attempts: 1 });
    const words = { title: "Withdrawal completed", body: "Your $5.00 PayPal withdrawal has been paid." };
    expectPushes(owner.tokens, id, "withdrawal_completed", words, "/withdraw?history=1");
    expectEmail(owner.email, words, "/withdraw?history=1");
    expect((await owner.client.visit("/")).html).toContain("Withdrawal completed");
  });

  it("a failed withdrawal says the money is back, by push and email", async () => {
    const owner = await person({ devices: 1 });
    const id = await settledWithdrawal(owner.userId, "failed");
    await finished(id);
    const words = {
      title: "Withdrawal not paid",
      body: "Your $5.00 PayPal withdrawal could not be paid — $5.00 refunded to your balance.",
    };
    expectPushes(owner.tokens, id, "withdrawal_failed", words, "/withdraw?history=1");
    expectEmail(owner.email, words, "/withdraw?history=1");
  });

  it("a referral credit tells the referrer and the friend, each on their own devices and address", async () => {
    const referrer = await person();
    const friend = await person({ referralCode: referrer.referralCode, devices: 1 });
    await app.sql("select add_user_coins($1, 100)", [friend.userId]);
    await app.sql("select record_email_verified($1)", [friend.userId]);
    const credited = await latestNotice(referrer.userId);
    const welcome = await latestNotice(friend.userId);
    expect(await finished(credited)).toMatchObject({
      kind: "referral_credited",
      push_status: "sent",
      email_status: "sent",
    });
    expect(await finished(welcome)).toMatchObject({ kind: "welcome_bonus", push_status: "sent", email_status: "sent" });
    const creditWords = {
      title: "Referral bonus earned",
      body: "A friend you referred qualified: $5.00 referral bonus — available to withdraw.",
    };
    expectPushes(referrer.tokens, credited, "referral_credited", creditWords, "/referral");
    expectEmail(referrer.email, creditWords, "/referral");
    const welcomeWords = {
      title: "Welcome bonus",
      body: "You earned $1.00 for joining with a referral code — available to withdraw.",
    };
    expectPushes(friend.tokens, welcome, "welcome_bonus", welcomeWords, "/");
    expectEmail(friend.email, welcomeWords, "/");
  });

  it("a referral credit carries no text the friend chose: a phishing display name is not in the stored notice, the toast, the push or the email, and no email greets by the recipient's own display name", async () => {
    const phishing = "Rewards Security Team: confirm your UPI PIN now";
    const referrer = await person({ devices: 1 });
    const friend = await person({ referralCode: referrer.referralCode, devices: 0 });
    // Each sets a name through the Profile form; the referrer's own name is anyone's to set too
    // (an account can be made with someone else's address).
    const ownName = "Dear customer, your card is blocked";
    for (const [client, displayName] of [
      [friend.client, phishing],
      [referrer.client, ownName],
    ] as const) {
      expect((await client.post("/profile", { intent: "update-name", displayName })).status).toBe(302);
    }
    const [named] = await app.sql<{ display_name: string }>("select display_name from user_profiles where id = $1", [
      friend.userId,
    ]);
    expect(named!.display_name).toBe(phishing);

    await app.sql("select add_user_coins($1, 100)", [friend.userId]);
    await app.sql("select record_email_verified($1)", [friend.userId]);
    const credited = await latestNotice(referrer.userId);
    expect(await finished(credited)).toMatchObject({
      kind: "referral_credited",
      push_status: "sent",
      email_status: "sent",
    });

    const [stored] = await app.sql<{ data: unknown }>("select data from user_notices where id = $1", [credited]);
    expect(stored!.data).toEqual({ amount: 5, locked: false });
    const pushes = fcm.pushesTo(referrer.tokens[0]!);
    expect(pushes).toHaveLength(1);
    const mail = smtp.mailTo(referrer.email);
    expect(mail).toHaveLength(1);
    const toast = await referrer.client.visit("/");
    expect(toast.html).toContain("A friend you referred qualified: $5.00 referral bonus — available to withdraw.");
    const activity = await referrer.client.visit("/profile");
    expect(activity.html).toContain("Referral bonus");
    const texts = {
      notice: JSON.stringify(stored!.data),
      push: JSON.stringify(pushes),
      emailText: mail[0]!.parsed.text ?? "",
      emailHtml: String(mail[0]!.parsed.html),
      emailSubject: mail[0]!.parsed.subject ?? "",
      toast: toast.html,
      activity: activity.html.slice(activity.html.indexOf('aria-label="Recent activity"')),
    };
    for (const [where, text] of Object.entries(texts)) {
      expect(text, where).not.toContain("Rewards Security Team");
      expect(text, where).not.toContain("UPI PIN");
    }
    expect(texts.emailText.startsWith("Hi there,\n")).toBe(true);
    expect(texts.emailText).not.toContain("Dear customer");
    expect(texts.emailHtml).not.toContain("Dear customer");
  });

  it("a postback credit goes out by push and email with the words of notices.ts", async () => {
    const earner = await person();
    const id = await postback(earner.userId, 250);
    await finished(id);
    const [stored] = await app.sql<{ data: { available_at: string } }>("select data from user_notices where id = $1", [
      id,
    ]);
    const { title, description } = noticeMessage({ kind: "postback_reward", data: stored!.data });
    const words = { title, body: description! };
    // Demo settings: no hold, so the credit is available at once.
    expect(words.body).toBe("You earned 250 coins ($2.50) for completing an offer — available to withdraw.");
    expectPushes(earner.tokens, id, "postback_reward", words, "/");
    expectEmail(earner.email, words, "/");
  });

  it("a task completed over HTTP is pushed and emailed, and not shown again as a toast", async () => {
    const earner = await person();
    const task = FALLBACK_TASKS.find((candidate) => candidate.id === "task-004")!;
    await earner.client.post("/earn?task=task-004", { intent: "start", taskId: "task-004" });
    // The five seconds pass in the database instead of in the test.
    await app.sql("update task_starts set started_at = started_at - interval '6 seconds' where user_id = $1", [
      earner.userId,
    ]);
    const done = await landing(
      earner.client,
      await earner.client.post("/earn?task=task-004&started=1", { intent: "complete", taskId: "task-004" }),
    );
    expect(done.html).toContain("Task Completed");
    const id = await latestNotice(earner.userId);
    expect(await finished(id)).toMatchObject({ kind: "task_reward", push_status: "sent", email_status: "sent" });
    const words = {
      title: "Task Completed",
      body: `You earned 150 coins ($1.50) for "${task.title}" — available to withdraw.`,
    };
    expectPushes(earner.tokens, id, "task_reward", words, "/earn");
    expectEmail(earner.email, words, "/earn");
    expect((await earner.client.visit("/")).html).not.toContain("Task Completed");
  });

  // ---------------------------------------------------------------------------------------------
  // The switches

  it("sends nothing for a kind whose category is off, while the other category still goes out", async () => {
    const owner = await person();
    await setPreferences(owner.userId, { withdrawal_notifications: false });
    const withdrawal = await settledWithdrawal(owner.userId);
    expect(await finished(withdrawal)).toMatchObject({
      push_status: "skipped",
      email_status: "skipped",
      push_detail: "withdrawal notifications are off",
      email_detail: "withdrawal notifications are off",
    });
    const reward = await postback(owner.userId);
    expect(await finished(reward)).toMatchObject({ push_status: "sent", email_status: "sent" });
    for (const token of owner.tokens)
      expect(fcm.pushesTo(token).map((push) => push.data.kind)).toEqual(["postback_reward"]);
    expect(smtp.mailTo(owner.email).map((mail) => mail.parsed.subject)).toEqual(["Offer completed"]);
  });

  it("with reward notifications off, a referral credit is neither pushed nor emailed", async () => {
    const referrer = await person();
    await setPreferences(referrer.userId, { reward_notifications: false });
    const friend = await person({ referralCode: referrer.referralCode, devices: 0 });
    await app.sql("select record_email_verified($1)", [friend.userId]);
    await app.sql("select add_user_coins($1, 100)", [friend.userId]);
    const credited = await latestNotice(referrer.userId);
    expect(await finished(credited)).toMatchObject({ push_status: "skipped", email_status: "skipped" });
    for (const token of referrer.tokens) expect(fcm.pushesTo(token)).toEqual([]);
    expect(smtp.mailTo(referrer.email)).toEqual([]);
    // The friend has no device: email only.
    expect(await finished(await latestNotice(friend.userId))).toMatchObject({
      push_status: "skipped",
      push_detail: "no device to send to",
      email_status: "sent",
    });
  });

  it("push off means email only, and email off means push only", async () => {
    const emailOnly = await person();
    await setPreferences(emailOnly.userId, { push_notifications: false });
    const pushOnly = await person();
    await setPreferences(pushOnly.userId, { email_notifications: false });
    const [first, second] = [await postback(emailOnly.userId), await postback(pushOnly.userId)];
    expect(await finished(first)).toMatchObject({
      push_status: "skipped",
      push_detail: "push notifications are off",
      email_status: "sent",
    });
    expect(await finished(second)).toMatchObject({
      push_status: "sent",
      email_status: "skipped",
      email_detail: "email notifications are off",
    });
    for (const token of emailOnly.tokens) expect(fcm.pushesTo(token)).toEqual([]);
    expect(smtp.mailTo(emailOnly.email)).toHaveLength(1);
    for (const token of pushOnly.tokens) expect(fcm.pushesTo(token)).toHaveLength(1);
    expect(smtp.mailTo(pushOnly.email)).toEqual([]);
  });

  // ---------------------------------------------------------------------------------------------
  // Which account a device's push token belongs to

  /** Registers `token` as this browser's, as the Profile screen does; the answer's JSON. */
  async function registerToken(client: HttpClient, token: string) {
    const response = await client.post("/api/push-tokens", { intent: "register", token });
    expect(response.status).toBe(200);
    return { response, body: (await response.json()) as Record<string, unknown> };
  }

  async function tokenOwners(token: string) {
    return (
      await app.sql<{ user_id: string }>("select user_id from user_fcm_tokens where fcm_token = $1", [token])
    ).map((row) => row.user_id);
  }

  it("log out deletes this browser's push token (remembered in its __push_device cookie), so the account's next notice reaches no device", async () => {
    const owner = await person({ devices: 0 });
    const token = `fcm-${randomUUID()}`;
    const { response, body } = await registerToken(owner.client, token);
    expect(body).toMatchObject({ success: true, registered: true, refresh: false });
    expect(await tokenOwners(token)).toEqual([owner.userId]);

    const loggedOut = await owner.client.post("/logout", {});
    expect(loggedOut.status).toBe(302);
    expect(await tokenOwners(token)).toEqual([]);
    expect(await finished(await postback(owner.userId))).toMatchObject({
      push_status: "skipped",
      push_detail: "no device to send to",
    });
    expect(fcm.pushesTo(token)).toEqual([]);
    // The browser's cookie: set with the token (not readable by scripts), cleared by the log out.
    const cookie = response.headers.getSetCookie().find((header) => header.startsWith("__push_device="));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(loggedOut.headers.getSetCookie().find((header) => header.startsWith("__push_device="))).toMatch(/Max-Age=0/);
  });

  it("a push token belongs to one account: another account registering it on the same browser moves it, and the first account's notices no longer reach it", async () => {
    const first = await person({ devices: 0 });
    const second = await person({ devices: 0 });
    const token = `fcm-${randomUUID()}`;
    await registerToken(first.client, token);
    await registerToken(second.client, token);
    expect(await tokenOwners(token)).toEqual([second.userId]);
    expect(await finished(await postback(first.userId))).toMatchObject({ push_detail: "no device to send to" });
    const reward = await postback(second.userId);
    expect(await finished(reward)).toMatchObject({ push_status: "sent" });
    expect(fcm.pushesTo(token).map((push) => push.data.notice_id)).toEqual([reward]);
  });

  it("signing in as another account on a browser whose account never logged out deletes that account's push token there", async () => {
    const first = await person({ devices: 0 });
    const second = await person({ devices: 0 });
    const token = `fcm-${randomUUID()}`;
    await registerToken(first.client, token);
    // The first account's session ran out on this browser; the second signs in on it.
    first.client.cookies.delete("__session");
    const signedIn = await first.client.post("/auth", {
      intent: "signin",
      email: second.email,
      password: "s3cret-pass",
    });
    expect(signedIn.status).toBe(302);
    expect(await tokenOwners(token)).toEqual([]);
    // Signing in again as the account that holds it keeps it.
    await registerToken(first.client, token);
    first.client.cookies.delete("__session");
    await first.client.post("/auth", { intent: "signin", email: second.email, password: "s3cret-pass" });
    expect(await tokenOwners(token)).toEqual([second.userId]);
  });

  it("deactivation deletes every push token of the account (it signs out every device), and its notices reach no device", async () => {
    const owner = await person({ devices: 2 });
    const token = `fcm-${randomUUID()}`;
    await registerToken(owner.client, token);
    const deactivated = await owner.client.post("/profile", { intent: "deactivate", confirm: "yes" });
    expect(deactivated.headers.get("location")).toBe("/auth");
    expect(await app.sql("select fcm_token from user_fcm_tokens where user_id = $1", [owner.userId])).toEqual([]);
    expect(await finished(await postback(owner.userId))).toMatchObject({ push_detail: "no device to send to" });
    for (const device of [...owner.tokens, token]) expect(fcm.pushesTo(device)).toEqual([]);
  });

  // ---------------------------------------------------------------------------------------------
  // What FCM and the mail server answer

  it("drops a token FCM reports as UNREGISTERED or not a registration token, and still reaches the other device", async () => {
    const owner = await person({ devices: 3 });
    const [alive, uninstalled, garbled] = owner.tokens as [string, string, string];
    fcm.unregister(uninstalled);
    fcm.markInvalid(garbled);
    const id = await postback(owner.userId);
    expect(await finished(id)).toMatchObject({ push_status: "sent", push_attempts: 1 });
    expect(fcm.pushesTo(alive)).toHaveLength(1);
    expect(await app.sql("select fcm_token from user_fcm_tokens where user_id = $1", [owner.userId])).toEqual([
      { fcm_token: alive },
    ]);
  });

  it("a 500 from FCM is tried again and the push is delivered once", async () => {
    const owner = await person({ devices: 1 });
    const before = fcm.requests.length;
    fcm.failNext(1, { status: 500 }, /messages:send$/);
    const id = await postback(owner.userId);
    expect(await finished(id)).toMatchObject({ push_status: "sent", push_attempts: 2, email_status: "sent" });
    expect(fcm.pushesTo(owner.tokens[0]!)).toHaveLength(1);
    const sends = fcm.requests.slice(before).filter((request) => request.path.endsWith("messages:send"));
    expect(sends.map((request) => request.status)).toEqual([500, 200]);
  });

  it("an access token FCM stops accepting (401) is replaced, and the push goes out at the first try", async () => {
    const owner = await person({ devices: 1 });
    const issued = fcm.state.tokensIssued;
    fcm.expireAccessTokens();
    const id = await postback(owner.userId);
    expect(await finished(id)).toMatchObject({ push_status: "sent", push_attempts: 1 });
    expect(fcm.state.tokensIssued).toBe(issued + 1);
    expect(fcm.pushesTo(owner.tokens[0]!)).toHaveLength(1);
  });

  it("a notice written while the mail server was down is emailed once it is back", async () => {
    const owner = await person({ devices: 1 });
    await smtp.stop();
    let id = "";
    try {
      id = await postback(owner.userId);
      const waiting = await eventually(
        async () => {
          const row = await noticeRow(id);
          return row.email_attempts >= 1 && row.email_status === "pending" && row.push_status === "sent" && row;
        },
        { what: "a failed first email" },
      );
      expect(waiting.email_detail).toMatch(/^SMTP: .*ECONNREFUSED/);
      expect(smtp.mailTo(owner.email)).toEqual([]);
    } finally {
      await smtp.start();
    }
    expect(await finished(id, 20_000)).toMatchObject({ email_status: "sent" });
    expect(smtp.mailTo(owner.email)).toHaveLength(1);
    expect(fcm.pushesTo(owner.tokens[0]!)).toHaveLength(1);
  });

  // ---------------------------------------------------------------------------------------------
  // Whose address gets email, and how much

  it("an unverified account's notices are pushed but not emailed (email skipped: the email address is not verified); once verified, its next notice is emailed", async () => {
    const stranger = await person({ verified: false });
    const first = await postback(stranger.userId);
    expect(await finished(first)).toMatchObject({
      push_status: "sent",
      email_status: "skipped",
      email_detail: "the email address is not verified",
    });
    for (const token of stranger.tokens) expect(fcm.pushesTo(token)).toHaveLength(1);
    expect(smtp.mailTo(stranger.email)).toEqual([]);
    // The toast still shows on the next visit.
    expect((await stranger.client.visit("/")).html).toContain("Offer completed");

    await app.sql("select record_email_verified($1)", [stranger.userId]);
    const second = await postback(stranger.userId);
    expect(await finished(second)).toMatchObject({ push_status: "sent", email_status: "sent", email_detail: null });
    expect(smtp.mailTo(stranger.email)).toHaveLength(1);
  });

  it("after app_config.notice_emails_per_address_per_day emails to one address in 24 hours (shared by every account with that address), the next notice's email is skipped and its push still goes out", async () => {
    expect(await app.sql("select notice_emails_per_address_per_day as n from app_config")).toEqual([{ n: 10 }]);
    const owner = await person({ devices: 1 });
    // Another profile with the same address (in other letters' case), as Firebase can hold two.
    const twin = `twin-${randomUUID()}`;
    await app.sql(
      "select provision_user(p_user_id => $1, p_email => $2, p_display_name => 'Twin', p_email_verified => true)",
      [twin, owner.email.toUpperCase()],
    );
    await app.sql("update app_config set notice_emails_per_address_per_day = 3");
    try {
      for (const userId of [owner.userId, twin, owner.userId]) {
        expect(await finished(await postback(userId))).toMatchObject({ email_status: "sent" });
      }
      for (const userId of [owner.userId, twin]) {
        expect(await finished(await postback(userId))).toMatchObject({
          email_status: "skipped",
          email_detail:
            "this address had its 3 notice emails of the last 24 hours (app_config.notice_emails_per_address_per_day)",
        });
      }
      expect(smtp.mailTo(owner.email)).toHaveLength(3);
      expect(fcm.pushesTo(owner.tokens[0]!)).toHaveLength(3);
      // A day later the address gets email again.
      await app.sql(
        "update user_notices set email_reserved_at = email_reserved_at - interval '24 hours' where email_address = $1",
        [owner.email.toLowerCase()],
      );
      expect(await finished(await postback(owner.userId))).toMatchObject({ email_status: "sent" });
      expect(smtp.mailTo(owner.email)).toHaveLength(4);
    } finally {
      await app.sql("update app_config set notice_emails_per_address_per_day = 10");
    }
  });

  it("an address the mail server refuses for good (550) is not tried again", async () => {
    const owner = await person({ devices: 0 });
    smtp.refuseRecipient(owner.email);
    const id = await postback(owner.userId);
    expect(await finished(id)).toMatchObject({ email_status: "failed", email_attempts: 1 });
    expect((await noticeRow(id)).email_detail).toMatch(/550/);
  });
});

// The same app without a service account: no push (said once in the log), email as before.
describe("notices on an app with SMTP but no service account", () => {
  let app: PostgresApp;
  let smtp: SmtpStandIn;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    app = await startPostgresApp({ SMTP_URL: smtp.url, NOTIFY_RETRY_SECONDS: "1" });
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
  });

  it("emails the notice from the default sender, records push as not configured, and says once that there is no push", async () => {
    const { email } = await app.signUp();
    const [profile] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    await app.sql("select record_email_verified($1)", [profile!.id]);
    await app.sql("insert into user_fcm_tokens (user_id, fcm_token) values ($1, 'a-device')", [profile!.id]);
    await app.sql(
      `select record_postback(p_provider => 'acme', p_transaction_id => 'tx-email-only', p_user_id => $1,
                              p_coins => 120, p_reversal => false, p_description => 'Offer completed via acme')`,
      [profile!.id],
    );
    const row = await eventually(
      async () => {
        const [found] = await app.sql<{ push_status: string; email_status: string; push_detail: string }>(
          "select push_status, email_status, push_detail from user_notices where user_id = $1",
          [profile!.id],
        );
        return found && found.email_status !== "pending" && found;
      },
      { what: "the notice to be emailed" },
    );
    expect(row).toEqual({
      push_status: "skipped",
      email_status: "sent",
      push_detail: "push is not configured (FIREBASE_SERVICE_ACCOUNT)",
    });
    const [mail] = smtp.mailTo(email);
    expect(mail!.parsed.from?.value).toEqual([{ address: "no-reply@localhost", name: "Rewards" }]);
    expect(mail!.parsed.subject).toBe("Offer completed");
    // Without PUBLIC_URL the email has no link.
    expect(mail!.parsed.text).not.toContain("Open Rewards");
    expect(app.stderr().match(/notifications: no push: FIREBASE_SERVICE_ACCOUNT is not set/g)).toHaveLength(1);
    expect(app.stderr()).not.toContain("notifications: no email");
  });
});
