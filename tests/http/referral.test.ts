import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFERRAL_MESSAGES } from "~/domain/referrals";
import { emulatorHost, googleIdToken, signUpDirect } from "../support/emulator";
import { HttpClient, html, uniqueEmail } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// Refer & Earn and sign-up with a referral code, over plain HTTP, on an app with its own
// Postgres database (so a friend can be given coins and a verified email directly).
describe("Refer & Earn and referral sign-up over plain HTTP", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp();
  }, 120_000);
  afterAll(() => app?.stop());

  async function profile(email: string) {
    const [row] = await app.sql<{ id: string; referral_code: string }>(
      "select id, referral_code from user_profiles where email = $1",
      [email],
    );
    return row!;
  }

  /** Whether the Auth emulator has an account for `email`. */
  async function accountExists(email: string) {
    try {
      await signUpDirect(email, "probe-password");
    } catch (error) {
      if (String(error).includes("EMAIL_EXISTS")) return true;
      throw error;
    }
    return false;
  }

  async function referrer() {
    const { client, email } = await app.signUp();
    return { client, email, ...(await profile(email)) };
  }

  it("shows the banner, the code with its share link, How it Works and an empty list", async () => {
    const { client, referral_code: code } = await referrer();
    const { html: page, response } = await client.visit("/referral");
    expect(response.status).toBe(200);
    expect(page).toContain(REFERRAL_MESSAGES.banner);
    expect(page).toMatch(new RegExp(`data-testid="referral-code">${code}<`));
    expect(page).toContain(`/auth?ref=${code}`);
    expect(page).toContain("How it Works");
    expect(page).toContain("Friends sign up and enter it");
    expect(page).toContain("Your Referrals");
    expect(page).toContain("Total: <!-- -->0");
    expect(page).toContain(REFERRAL_MESSAGES.empty);
    expect(page).toContain("once your friend has verified their email address and earned <!-- -->100 coins");
    // Copy and share need JavaScript: disabled in the server's HTML.
    expect(page).toMatch(/<button[^>]*disabled=""[^>]*aria-label="Copy Code"/);
    expect(page).toMatch(/<button[^>]*disabled=""[^>]*>.*Share with Friends<\/button>/s);
    expect((await new HttpClient(app.url).get("/referral")).headers.get("location")).toBe(
      "/auth?redirectTo=%2Freferral",
    );
  });

  it("opens Sign Up from a share link with the code filled in, and a sign-up with it is listed as pending", async () => {
    const { client, referral_code: code, id: referrerId } = await referrer();
    const visitor = new HttpClient(app.url);
    const link = await visitor.visit(`/auth?ref=${code.toLowerCase()}`);
    expect(link.html).toMatch(/<button[^>]*value="signup"[^>]*>Create Account<\/button>/);
    expect(link.html).toMatch(
      new RegExp(`name="referralCode"[^>]*value="${code}"|value="${code}"[^>]*name="referralCode"`),
    );

    const friend = await app.signUp({ email: uniqueEmail("friend"), referralCode: code });
    expect(friend.response.status).toBe(302);
    const friendId = (await profile(friend.email)).id;
    expect(await app.sql("select referrer_user_id from referrals where referred_user_id = $1", [friendId])).toEqual([
      { referrer_user_id: referrerId },
    ]);
    const page = (await client.visit("/referral")).html;
    expect(page).toContain("Total: <!-- -->1");
    expect(page).toContain(html(friend.email.split("@")[0]!));
    expect(page).toContain("Joined today");
    expect(page).toContain("$5.00<!-- --> pending");
  });

  it("refuses an unknown or malformed code on its field and makes no account", async () => {
    for (const referralCode of ["ZZZZZZZ", "not-a-code"]) {
      const email = uniqueEmail("nocode");
      const { response } = await app.signUp({ email, referralCode });
      expect(response.status).toBe(400);
      const body = await response.text();
      expect(body).toContain("This referral code is not valid");
      expect(body).toMatch(/aria-invalid="true"[^>]*name="referralCode"|name="referralCode"[^>]*aria-invalid="true"/);
      expect(await accountExists(email)).toBe(false);
      expect(await app.sql("select 1 from user_profiles where email = $1", [email])).toEqual([]);
    }
  });

  it("pays $5.00 to the referrer and $1.00 to the friend once the friend is verified and has earned 100 coins", async () => {
    const { client, referral_code: code, id: referrerId } = await referrer();
    const friend = await app.signUp({ referralCode: code });
    const friendId = (await profile(friend.email)).id;
    await app.sql("select add_user_coins($1, 100)", [friendId]);
    expect((await client.visit("/referral")).html).toContain("pending"); // not verified yet
    await app.sql("select record_email_verified($1)", [friendId]);

    const home = await client.visit("/");
    expect(home.html).toContain("Referral bonus earned");
    expect(home.html).toMatch(/data-testid="referral-bonus">\$5\.00</);
    expect(home.html).toMatch(/data-testid="balance">\$5\.00</);
    const list = (await client.visit("/referral")).html;
    expect(list).not.toContain("pending");
    expect(list).toContain("$5.00");
    const friendHome = await friend.client.visit("/");
    expect(friendHome.html).toContain("Welcome bonus");
    expect(friendHome.html).toMatch(/data-testid="balance">\$2\.00</);
    expect(
      await app.sql(
        "select count(*)::int as n from transaction_history where user_id = $1 and transaction_type = 'referral'",
        [referrerId],
      ),
    ).toEqual([{ n: 1 }]);
    expect((await app.sql("select verify_all_balances() as audit"))[0]).toEqual({ audit: [] });
  });

  it("ignores a code sent with a sign-in to an existing account (a referrer cannot be attached later)", async () => {
    const { referral_code: code } = await referrer();
    const existing = await referrer();
    const client = new HttpClient(app.url);
    client.cookies.set("hasSeenOnboarding", "true");
    const response = await client.post("/auth", {
      intent: "signin",
      email: existing.email,
      password: "s3cret-pass",
      referralCode: code,
    });
    expect(response.status).toBe(302);
    expect(await app.sql("select 1 from referrals where referred_user_id = $1", [existing.id])).toEqual([]);
  });

  it("keeps a code through Google sign-up, and deletes the Google account the popup made when the code is refused", async () => {
    const { referral_code: code, id: referrerId } = await referrer();
    const good = await googleIdToken({ sub: `g-ref-${Date.now()}`, email: uniqueEmail("google-ref"), name: "Gia Ref" });
    const accepted = await new HttpClient(app.url).post("/auth", {
      intent: "google",
      idToken: good.idToken,
      referralCode: code,
    });
    expect(accepted.status).toBe(302);
    expect(await app.sql("select referrer_user_id from referrals where referred_user_id = $1", [good.localId])).toEqual(
      [{ referrer_user_id: referrerId }],
    );

    const email = uniqueEmail("google-bad");
    const bad = await googleIdToken({ sub: `g-bad-${Date.now()}`, email, name: "No Code" });
    const refused = await new HttpClient(app.url).post("/auth", {
      intent: "google",
      idToken: bad.idToken,
      referralCode: "ZZZZZZZ",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("This referral code is not valid");
    const lookup = await fetch(
      `http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/accounts:lookup?key=demo-api-key`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ idToken: bad.idToken }),
      },
    );
    expect(lookup.ok).toBe(false); // the account is gone
    expect(await app.sql("select 1 from user_profiles where id = $1", [bad.localId])).toEqual([]);
  });

  it("answers GET /api/referral-codes/{code} with whether the code exists", async () => {
    const { referral_code: code } = await referrer();
    const ask = async (value: string) =>
      (await (await fetch(`${app.url}/api/referral-codes/${value}`)).json()) as unknown;
    expect(await ask(code)).toEqual({ exists: true });
    expect(await ask(code.toLowerCase())).toEqual({ exists: true });
    expect(await ask("ZZZZZZZ")).toEqual({ exists: false });
    expect(await ask("bad")).toEqual({ exists: false });
  });
});
