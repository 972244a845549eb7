import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../support/app-server";
import { HttpClient, uniqueEmail } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startSmtpStandIn, type SmtpStandIn } from "../support/smtp";

// Codes by email (issue 38, point 1; docs/decisions/092), over HTTP on Postgres with a local SMTP
// server, the way a browser without JavaScript posts: a sign-in from a device the account has not
// used starts no session until the emailed code is typed; five wrong codes lock that code; the
// sends and the tries are counted in the database, so a second server shares them; the email says
// where the request came from and carries a link that ends every session.

const PASSWORD = "s3cret-pass";

describe("codes by email at sign-in", () => {
  let smtp: SmtpStandIn;
  let app: PostgresApp;
  let second: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    app = await startPostgresApp({ SMTP_URL: smtp.url, TRUST_PROXY: "true", EMAIL_CODES: "on" });
    await app.sql("update app_config set signin_code_default = true");
    // Another server on the same database: the limits are the database's, not one server's.
    second = await startTestApp({ ...app.databaseEnv, SMTP_URL: smtp.url, TRUST_PROXY: "true", EMAIL_CODES: "on" });
  }, 120_000);
  afterAll(async () => {
    await second?.stop();
    await app?.stop();
    await smtp?.close();
  });

  /** An account made on one browser (which it then knows), and its address. */
  async function account() {
    const email = uniqueEmail("code");
    const home = new HttpClient(app.url);
    home.cookies.set("hasSeenOnboarding", "true");
    const made = await home.post("/auth?tab=signup", { intent: "signup", email, password: PASSWORD });
    expect(made.status).toBe(302);
    return { email, home };
  }

  /** A browser the account has never used, on `url`. */
  function newDevice(url = app.url) {
    const client = new HttpClient(url);
    client.cookies.set("hasSeenOnboarding", "true");
    return client;
  }

  const signIn = (client: HttpClient, email: string, headers: Record<string, string> = {}) =>
    client.post("/auth", { intent: "signin", email, password: PASSWORD }, { "user-agent": PHONE, ...headers });

  /** The digits of the newest code mailed to `email`. */
  function lastCode(email: string): string {
    const mail = smtp.mailTo(email).at(-1);
    const code = /\n([0-9]{6})\n/.exec(mail?.parsed.text ?? "")?.[1];
    if (!code) throw new Error(`no code mailed to ${email}`);
    return code;
  }
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");
  const typeCode = (client: HttpClient, code: string) =>
    client.post("/auth?step=code", { intent: "signin-code", emailCode: code });
  const hasSession = (client: HttpClient) => Boolean(client.cookies.get("__session"));

  it("a sign-in from a new device asks for the code and starts no session; the right code lets in, and that device is not asked again", async () => {
    const { email } = await account();
    const phone = newDevice();
    const asked = await signIn(phone, email, { "x-forwarded-for": "203.0.113.77" });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe("/auth?step=code");
    expect(hasSession(phone)).toBe(false);
    const step = await phone.visit("/auth?step=code");
    expect(step.html).toContain("Check your email");
    expect(step.html).toContain(`We sent a 6-digit code to ${email[0]}•••@`);
    // Without the code, the account's pages send the browser back to sign in.
    expect((await phone.get("/withdraw")).status).toBe(302);

    const mail = smtp.mailTo(email).at(-1)!;
    expect(mail.parsed.subject).toMatch(/^[0-9]{6} is your Rewards code$/);
    expect(mail.parsed.text).toContain("Your code to sign in on a new device is:");
    expect(mail.parsed.text).toContain("from Chrome on Android, at 203.0.113.77");
    expect(mail.parsed.text).toMatch(/End every session of your account:\nhttp:\/\/[^\n]+\/end-sessions\?link=/);

    const passed = await typeCode(phone, lastCode(email));
    expect(passed.status).toBe(302);
    expect(passed.headers.get("location")).toBe("/");
    expect(hasSession(phone)).toBe(true);
    expect((await phone.visit("/")).response.status).toBe(200);

    // Signed out and in again on the same phone: it is a device the account has used.
    await phone.post("/logout", {});
    const sent = smtp.mailTo(email).length;
    const again = await signIn(phone, email);
    expect(again.headers.get("location")).toBe("/");
    expect(smtp.mailTo(email)).toHaveLength(sent);
  });

  it("five wrong codes lock that code, whichever server they are typed on; the right one then fails too; a new code works and the old one never again", async () => {
    const { email } = await account();
    const laptop = newDevice();
    await signIn(laptop, email);
    const first = lastCode(email);
    // The same browser, half its tries on the other server (the challenge cookie goes with it).
    const other = new HttpClient(second.url, laptop.cookies);
    const answers: string[] = [];
    for (const [index, client] of [laptop, other, laptop, other, laptop].entries()) {
      const response = await typeCode(client, wrong(first));
      expect(response.status, `try ${index + 1}`).toBe(400);
      answers.push(await response.text());
    }
    expect(answers[0]).toContain("That code is not right. 4 tries are left");
    expect(answers[3]).toContain("1 try is left");
    expect(answers[4]).toContain("Too many wrong codes. Send yourself a new code.");
    const locked = await typeCode(laptop, first);
    expect(locked.status).toBe(400);
    expect(hasSession(laptop)).toBe(false);

    const resent = await laptop.post("/auth?step=code", { intent: "signin-code-resend" });
    expect(resent.status).toBe(302);
    const second_ = lastCode(email);
    expect((await typeCode(laptop, first)).status).toBe(400);
    expect((await typeCode(laptop, second_)).status).toBe(302);
    expect(hasSession(laptop)).toBe(true);
  });

  it("at most five codes an hour per account, counted across both servers; the sixth is refused with the wait, and nothing is mailed", async () => {
    const { email } = await account();
    const tablet = newDevice();
    expect((await signIn(tablet, email)).status).toBe(302);
    const other = new HttpClient(second.url, tablet.cookies);
    for (const client of [other, tablet, other, tablet]) {
      expect((await client.post("/auth?step=code", { intent: "signin-code-resend" })).status).toBe(302);
    }
    expect(smtp.mailTo(email)).toHaveLength(5);
    const refused = await other.post("/auth?step=code", { intent: "signin-code-resend" });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Too many attempts");
    expect(smtp.mailTo(email)).toHaveLength(5);
  });

  it("a code is only good on the browser that asked for it: another browser with the digits gets no session", async () => {
    const { email } = await account();
    const victim = newDevice();
    await signIn(victim, email);
    const thief = newDevice();
    const response = await typeCode(thief, lastCode(email));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth");
    expect(hasSession(thief)).toBe(false);
  });

  it("the database keeps only keyed hashes: neither the digits nor the browser's challenge are stored", async () => {
    const { email } = await account();
    const client = newDevice();
    await signIn(client, email);
    const code = lastCode(email);
    const [row] = await app.sql<{ code_hash: string; challenge_hash: string }>(
      "select c.code_hash, c.challenge_hash from email_codes c join user_profiles p on p.id = c.user_id where p.email = $1",
      [email],
    );
    expect(row!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.code_hash).not.toContain(code);
    expect(row!.challenge_hash).not.toBe(client.cookies.get("__code_signin"));
  });

  it("someone who cannot reach their email writes to support from the code step; the message reaches the console's inbox", async () => {
    const { email } = await account();
    const client = newDevice();
    await signIn(client, email);
    const response = await client.post("/auth?step=code", {
      intent: "signin-code-help",
      contact: "other-address@example.net",
      message: "I lost access to my old mailbox.",
    });
    expect(response.status).toBe(302);
    const [ticket] = await app.sql<{ email: string; name: string }>(
      "select f.email, f.name from user_feedback f join user_profiles p on p.id = f.user_id where p.email = $1",
      [email],
    );
    expect(ticket).toEqual({ email: "other-address@example.net", name: "Can't get the sign-in code" });
  });

  it("the email's link ends every session of the account and every code waiting, without signing in", async () => {
    const { email, home } = await account();
    expect((await home.visit("/")).response.status).toBe(200);
    const intruder = newDevice();
    await signIn(intruder, email);
    const link = /(\/end-sessions\?link=[^\s]+)/.exec(smtp.mailTo(email).at(-1)!.parsed.text ?? "")![1]!;
    const stranger = newDevice();
    const page = await stranger.visit(link);
    expect(page.html).toContain("End every session");
    const ended = await stranger.post(link, {});
    expect(ended.status).toBe(200);
    expect(await ended.text()).toContain("Every session of your account has ended");
    // The owner's own browser is signed out, and the intruder's code no longer works.
    expect((await home.get("/withdraw")).status).toBe(302);
    expect((await typeCode(intruder, lastCode(email))).headers.get("location")).toBe("/auth");
    // A forged link does nothing.
    const forged = await stranger.post("/end-sessions?link=1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", {});
    expect(forged.status).toBe(400);
  });

  it("turning the sign-in code off takes the code from the email (a session alone cannot); turning it on does not", async () => {
    const { email, home } = await account();
    const asked = await home.post("/settings", { intent: "signin-code-off" });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe("/settings?confirm=signin-code-off");
    expect((await home.visit("/settings?confirm=signin-code-off")).html).toContain("To turn codes at sign-in off");
    const refused = await home.post("/settings", { intent: "signin-code-off-code", emailCode: wrong(lastCode(email)) });
    expect(refused.status).toBe(400);
    const setting = async () =>
      (
        await app.sql<{ signin_code: boolean | null }>("select signin_code from user_profiles where email = $1", [
          email,
        ])
      )[0]!.signin_code;
    expect(await setting()).toBeNull();
    const off = await home.post("/settings", { intent: "signin-code-off-code", emailCode: lastCode(email) });
    expect(off.status).toBe(302);
    expect(await setting()).toBe(false);
    expect((await home.post("/settings", { intent: "signin-code-on" })).status).toBe(302);
    expect(await setting()).toBe(true);
    // The database itself refuses "off" without a code passed for it in the last 10 minutes.
    await app.sql("update email_codes set passed_at = now() - interval '11 minutes' where purpose = 'signin_code_off'");
    const [row] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    await expect(app.sql("select set_signin_code($1, false)", [row!.id])).rejects.toThrow("A code is needed");
  });

  it("deleting the account takes the password and then the code from the email; the password alone deletes nothing", async () => {
    const { email, home } = await account();
    const asked = await home.post("/settings", { intent: "delete-account", password: PASSWORD });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe("/settings?confirm=delete-code");
    const step = await home.visit("/settings?confirm=delete-code");
    expect(step.html).toContain("To delete your account for good, type the code we emailed you.");
    const exists = async () =>
      (await app.sql<{ n: number }>("select count(*)::int as n from user_profiles where email = $1", [email]))[0]!.n;
    expect(
      (await home.post("/settings", { intent: "delete-account-code", emailCode: wrong(lastCode(email)) })).status,
    ).toBe(400);
    expect(await exists()).toBe(1);
    // Another browser of the account, without this one's challenge, cannot use the code.
    const elsewhere = new HttpClient(app.url);
    for (const [name, value] of home.cookies) if (name !== "__code_delete_account") elsewhere.cookies.set(name, value);
    expect(
      (await elsewhere.post("/settings", { intent: "delete-account-code", emailCode: lastCode(email) })).status,
    ).toBe(400);
    expect(await exists()).toBe(1);
    const deleted = await home.post("/settings", { intent: "delete-account-code", emailCode: lastCode(email) });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe("/auth");
    expect(await exists()).toBe(0);
  });

  it("a person who turned the sign-in code off is not asked; the setting off asks nobody who never chose", async () => {
    const { email } = await account();
    await app.sql("update user_profiles set signin_code = false where email = $1", [email]);
    expect((await signIn(newDevice(), email)).headers.get("location")).toBe("/");
    const other = await account();
    await app.sql("update app_config set signin_code_default = false");
    try {
      expect((await signIn(newDevice(), other.email)).headers.get("location")).toBe("/");
      await app.sql("update user_profiles set signin_code = true where email = $1", [other.email]);
      expect((await signIn(newDevice(), other.email)).headers.get("location")).toBe("/auth?step=code");
    } finally {
      await app.sql("update app_config set signin_code_default = true");
    }
  });
});

describe("codes by email before a cash-out", () => {
  let smtp: SmtpStandIn;
  let app: PostgresApp;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    app = await startPostgresApp({ SMTP_URL: smtp.url, EMAIL_CODES: "on" });
    // Cash-outs ask codes; sign-ins from a new device do not, so the thief below gets in with the password.
    await app.sql("update app_config set withdrawal_codes = true, signin_code_default = false");
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
  });

  /** A verified account with $20, signed up on `home`. */
  async function funded() {
    const { client: home, email, response } = await app.signUp();
    expect(response.status).toBe(302);
    const [row] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    await app.sql("select record_email_verified($1)", [row!.id]);
    await app.sql("select add_user_coins($1, 2000)", [row!.id]);
    return { home, email, uid: row!.id };
  }
  const withdrawals = async (uid: string) =>
    (await app.sql<{ n: number }>("select count(*)::int as n from withdrawals where user_id = $1", [uid]))[0]!.n;
  const form = (paypalEmail: string) => ({ amount: "5", method: "paypal", paypalEmail });
  const lastCode = (email: string) => /\n([0-9]{6})\n/.exec(smtp.mailTo(email).at(-1)?.parsed.text ?? "")![1]!;

  it("a withdrawal to a new address asks for the code and keeps what was typed; the right code makes it; the same address and device then ask none; a new address asks again", async () => {
    const { home, email, uid } = await funded();
    const asked = await home.post("/withdraw", { intent: "withdraw", ...form("me@example.com") });
    expect(asked.status).toBe(200);
    const page = await asked.text();
    expect(page).toContain("Check your email");
    expect(page).toContain("This payout address is new for your account.");
    expect(page).toContain("Cash-out: $5.00 by PayPal.");
    // The typed values ride along, hidden, for the code's post.
    expect(page).toMatch(/<input type="hidden" name="paypalEmail" value="me@example.com"\/>/);
    expect(await withdrawals(uid)).toBe(0);
    expect(smtp.mailTo(email).at(-1)!.parsed.text).toContain("Your code to confirm a cash-out of $5.00 by PayPal is:");

    const made = await home.post("/withdraw", {
      intent: "withdraw-code",
      emailCode: lastCode(email),
      ...form("me@example.com"),
    });
    expect(made.status).toBe(302);
    expect(await withdrawals(uid)).toBe(1);

    const sent = smtp.mailTo(email).length;
    expect((await home.post("/withdraw", { intent: "withdraw", ...form("me@example.com") })).status).toBe(302);
    expect(await withdrawals(uid)).toBe(2);
    expect(smtp.mailTo(email)).toHaveLength(sent);

    const other = await home.post("/withdraw", { intent: "withdraw", ...form("someone-else@example.com") });
    expect(other.status).toBe(200);
    expect(await withdrawals(uid)).toBe(2);
  });

  it("a stolen password alone cannot cash out: from the thief's device, to the thief's address, no code means no withdrawal, and a code for one address does not pay another", async () => {
    const { email, uid } = await funded();
    const thief = new HttpClient(app.url);
    thief.cookies.set("hasSeenOnboarding", "true");
    const signedIn = await thief.post("/auth", { intent: "signin", email, password: "s3cret-pass" });
    expect(signedIn.headers.get("location")).toBe("/");
    expect((await thief.post("/withdraw", { intent: "withdraw", ...form("thief@example.net") })).status).toBe(200);
    for (const guess of ["000000", "123456", "", "12345a"]) {
      const response = await thief.post("/withdraw", {
        intent: "withdraw-code",
        emailCode: guess,
        ...form("thief@example.net"),
      });
      expect(response.status).toBe(400);
    }
    // The owner's code, had the thief seen it, was sent for the thief's address: it pays no other.
    const code = lastCode(email);
    const swapped = await thief.post("/withdraw", {
      intent: "withdraw-code",
      emailCode: code,
      ...form("another-mule@example.net"),
    });
    expect(swapped.status).toBe(400);
    // ... nor does its misuse confirm anything: the thief's address still asks a code.
    expect((await thief.post("/withdraw", { intent: "withdraw", ...form("thief@example.net") })).status).toBe(200);
    expect(await withdrawals(uid)).toBe(0);
    const [balance] = await app.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [uid]);
    expect(Number(balance!.balance)).toBe(20);
  });

  it("the owner's own trusted device and address ask again once the last code is older than withdrawal_code_days", async () => {
    const { home, email, uid } = await funded();
    await home.post("/withdraw", { intent: "withdraw", ...form("me@example.com") });
    await home.post("/withdraw", { intent: "withdraw-code", emailCode: lastCode(email), ...form("me@example.com") });
    expect(await withdrawals(uid)).toBe(1);
    await app.sql("update email_codes set passed_at = now() - interval '31 days' where user_id = $1", [uid]);
    const asked = await home.post("/withdraw", { intent: "withdraw", ...form("me@example.com") });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain("It has been a while since you last confirmed a code.");
    expect(await withdrawals(uid)).toBe(1);
  });
});

const PHONE =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
