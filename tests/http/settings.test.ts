import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOTIFICATION_MESSAGES } from "~/domain/notifications";
import { UNREADABLE_FORM_MESSAGE } from "~/server/http/forms.server";
import { CROSS_SITE_MESSAGE } from "~/server/http/same-origin.server";
import { SETTINGS_MESSAGES } from "~/routes/settings/settings-forms";
import { newMember } from "../support/console";
import { HttpClient, html } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

const PASSWORD = "s3cret-pass";
const FOREIGN = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };

// The Settings screen over plain form posts (no JavaScript), on an app with its own Postgres
// database (docs/decisions/071-settings-is-a-real-page.md).
describe("Settings over plain HTTP", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp();
  }, 120_000);
  afterAll(() => app?.stop());

  // newMember fails the test unless the sign-up redirects (302).
  async function account() {
    const { client, email, uid } = await newMember(app);
    return { client, email, id: uid };
  }

  /** A second session of the same account: another browser that signs in. */
  async function secondSession(email: string) {
    const other = new HttpClient(app.url);
    other.cookies.set("hasSeenOnboarding", "true");
    expect((await other.post("/auth", { intent: "signin", email, password: PASSWORD })).status).toBe(302);
    expect(other.cookies.get("__session")).toBeTruthy();
    return other;
  }

  /** A browser that carries only this session cookie. */
  function withSession(value: string) {
    const client = new HttpClient(app.url);
    client.cookies.set("hasSeenOnboarding", "true");
    client.cookies.set("__session", value);
    return client;
  }

  const preferences = async (id: string) =>
    (
      await app.sql<{ marketing_notifications: boolean }>(
        "select marketing_notifications from notification_preferences where user_id = $1",
        [id],
      )
    )[0]?.marketing_notifications ?? true;

  it("sends a signed-out visitor's GET and post to /auth, the GET with redirectTo=/settings", async () => {
    const visitor = new HttpClient(app.url);
    visitor.cookies.set("hasSeenOnboarding", "true");
    const page = await visitor.get("/settings");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/auth?redirectTo=%2Fsettings");
    const post = await visitor.post("/settings", { intent: "sign-out-everywhere" });
    expect(post.status).toBe(302);
    expect(post.headers.get("location")).toMatch(/^\/auth/);
  });

  it("answers a signed-in GET with 200: the Settings header with Back to /profile, the five switches, Sign out of every device, Account Management and the Terms, Privacy and Cookies links", async () => {
    const { client } = await account();
    const { response, html: page } = await client.visit("/settings");
    expect(response.status).toBe(200);
    expect(page).toContain("<title>Settings");
    expect(page).toMatch(/<h1[^>]*>Settings<\/h1>/);
    expect(page).toMatch(/<a[^>]*href="\/profile"[^>]*aria-label="Back"|aria-label="Back"[^>]*href="\/profile"/);
    expect(page).not.toContain("Oops! Page not found");
    expect(page).toContain("Notification Settings");
    expect([...page.matchAll(/role="switch" aria-checked="true"/g)]).toHaveLength(5);
    // The switches post to Settings, so without JavaScript the person comes back here.
    expect([...page.matchAll(/<form method="post" action="\/settings"/g)].length).toBeGreaterThanOrEqual(6);
    expect(page).toContain(NOTIFICATION_MESSAGES.pushNeedsJavaScript);
    expect(page).toMatch(
      /<button[^>]*name="intent"[^>]*value="sign-out-everywhere"[^>]*>.*Sign out everywhere<\/button>/s,
    );
    expect(page).toContain("Account Management");
    expect(page).toContain("Delete account permanently");
    expect(page).toMatch(/href="\/settings\?confirm=deactivate"/);
    for (const [tab, title] of [
      ["terms", "Terms of Service"],
      ["privacy", "Privacy Policy"],
      ["cookies", "Cookie Policy"],
    ]) {
      expect(page).toMatch(new RegExp(`<a[^>]*href="/legal\\?tab=${tab}"[^>]*>${title}`));
    }
    // Profile's gear leads here.
    expect((await client.visit("/profile")).html).toMatch(/href="\/settings"/);
  });

  it("saves a switch by plain form post and comes back to /settings#notification-settings saying Notification preferences updated; an unknown switch or value is refused and changes nothing", async () => {
    const { client, id } = await account();
    const off = await client.post("/settings", { intent: "notification", kind: "marketing", enabled: "off" });
    expect(off.status).toBe(302);
    expect(off.headers.get("location")).toBe("/settings#notification-settings");
    const after = await client.visit("/settings");
    expect(after.html).toContain(NOTIFICATION_MESSAGES.updated);
    expect([...after.html.matchAll(/role="switch" aria-checked="true"/g)]).toHaveLength(4);
    expect(await preferences(id)).toBe(false);

    for (const fields of [
      { intent: "notification", kind: "sms", enabled: "on" },
      { intent: "notification", kind: "marketing", enabled: "maybe" },
    ]) {
      const refused = await client.post("/settings", fields);
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("Unknown notification setting");
    }
    expect(await preferences(id)).toBe(false);
  });

  it("deactivates from Settings only with the confirmation: without it the page says Please confirm, with it /auth says Your account has been deactivated", async () => {
    const { client, id } = await account();
    const confirming = await client.visit("/settings?confirm=deactivate");
    expect(confirming.html).toContain("Deactivate your account now?");
    expect(confirming.html).toMatch(/<a[^>]*href="\/settings"[^>]*>Cancel<\/a>/);

    const unconfirmed = await client.post("/settings?confirm=deactivate", { intent: "deactivate" });
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain("Please confirm that you want to deactivate");
    expect(
      await app.sql("select preferences->>'is_active' as active from user_profiles where id = $1", [id]),
    ).not.toEqual([{ active: "false" }]);

    const done = await client.post("/settings?confirm=deactivate", { intent: "deactivate", confirm: "yes" });
    expect(done.headers.get("location")).toBe("/auth");
    expect((await client.visit("/auth")).html).toContain("Your account has been deactivated");
    expect(await app.sql("select preferences->>'is_active' as active from user_profiles where id = $1", [id])).toEqual([
      { active: "false" },
    ]);
  });

  it("deletes from Settings only with the account's password: a wrong one is refused and keeps the account, the right one deletes it", async () => {
    const { client, id } = await account();
    const wrong = await client.post("/settings", { intent: "delete-account", password: "not-my-password" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain(html("Failed to delete account. Please check your password and try again."));
    expect(await app.sql("select id from user_profiles where id = $1", [id])).toHaveLength(1);

    const deleted = await client.post("/settings", { intent: "delete-account", password: PASSWORD });
    expect(deleted.headers.get("location")).toBe("/auth");
    expect((await client.visit("/auth")).html).toContain("Your account has been deleted");
    expect(await app.sql("select id from user_profiles where id = $1", [id])).toHaveLength(0);
  });

  it("Sign out of every device revokes every session of the account: afterwards this browser's cookie and a second browser's are both refused, and /auth says Signed out of every device", async () => {
    const { client, email } = await account();
    const other = await secondSession(email);
    const mine = client.cookies.get("__session")!;
    const theirs = other.cookies.get("__session")!;
    expect(mine).not.toBe(theirs);
    // Both sessions work (and the server has just verified the second one).
    expect((await client.get("/settings")).status).toBe(200);
    expect((await other.get("/settings")).status).toBe(200);

    const response = await client.post("/settings", { intent: "sign-out-everywhere" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth");
    expect(response.headers.getSetCookie().find((cookie) => cookie.startsWith("__session="))).toMatch(/Max-Age=0/);
    const landing = await client.visit("/auth");
    expect(landing.html).toContain(SETTINGS_MESSAGES.signedOutEverywhere);
    expect(landing.html).toContain(html(SETTINGS_MESSAGES.signedOutEverywhereDetail));

    for (const [who, cookie] of [
      ["this browser's old cookie", mine],
      ["the second browser's cookie", theirs],
    ] as const) {
      const page = await withSession(cookie).get("/settings");
      expect(page.status, who).toBe(302);
      expect(page.headers.get("location"), who).toBe("/auth?redirectTo=%2Fsettings");
      const withdraw = await withSession(cookie).get("/withdraw");
      expect(withdraw.headers.get("location"), who).toMatch(/^\/auth/);
    }
    // Signing in again works as usual.
    expect((await (await secondSession(email)).get("/settings")).status).toBe(200);
  });

  it("refuses a Sign out of every device that the page cannot have sent (the intent twice) with a message, and every session stays", async () => {
    const { client, email } = await account();
    const other = await secondSession(email);
    const refused = await client.post("/settings", {}, {}, "intent=sign-out-everywhere&intent=sign-out-everywhere");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(html(UNREADABLE_FORM_MESSAGE));
    expect((await client.get("/settings")).status).toBe(200);
    expect((await other.get("/settings")).status).toBe(200);
  });

  it("refuses each of Settings' forms posted from another site with the 403 page, changing nothing: the sessions stay, the switch stays, the account stays active", async () => {
    const { client, email, id } = await account();
    const other = await secondSession(email);
    const forms: Record<string, string>[] = [
      { intent: "sign-out-everywhere" },
      { intent: "notification", kind: "marketing", enabled: "off" },
      { intent: "deactivate", confirm: "yes" },
      { intent: "delete-account", password: PASSWORD },
    ];
    for (const fields of forms) {
      const response = await client.post("/settings", fields, FOREIGN);
      expect(response.status, fields.intent).toBe(403);
      expect(await response.text(), fields.intent).toContain(html(CROSS_SITE_MESSAGE));
    }
    expect((await client.get("/settings")).status).toBe(200);
    expect((await other.get("/settings")).status).toBe(200);
    expect(await preferences(id)).toBe(true);
    expect(
      await app.sql("select preferences->>'is_active' as active from user_profiles where id = $1", [id]),
    ).not.toEqual([{ active: "false" }]);
  });
});
