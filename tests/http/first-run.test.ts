import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visibleText } from "../support/bad-input";
import { newMember } from "../support/console";
import { HttpClient, html } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// The first-run hook and the invitation's page over plain HTTP (issue 39, point 6;
// docs/decisions/096), on an app with its own Postgres and the demo settings: the app's own tasks
// are listed, the best paying 250 coins.
describe("the first-run hook and the invitation page", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp();
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  const visitor = () => {
    const client = new HttpClient(app.url);
    client.cookies.set("hasSeenOnboarding", "true");
    return client;
  };
  const FIRST_OFFER = "Your first offer can pay up to 250 coins ($2.50).";

  it("says on Sign Up, before an account exists, what a first offer can pay; not on Sign In, nor with an invitation's code", async () => {
    const client = visitor();
    expect(visibleText((await client.visit("/auth?tab=signup")).html)).toContain(FIRST_OFFER);
    expect(visibleText((await client.visit("/auth")).html)).not.toContain(FIRST_OFFER);
    const { uid } = await newMember(app);
    const [{ code }] = (await app.sql<{ code: string }>(
      "select referral_code as code from user_profiles where id = $1",
      [uid],
    )) as [{ code: string }];
    expect(visibleText((await client.visit(`/auth?ref=${code}`)).html)).not.toContain(FIRST_OFFER);
  });

  it("shows a new account its first step on Home until its first offer is credited", async () => {
    const { client, uid } = await newMember(app);
    const home = visibleText((await client.visit("/")).html);
    for (const line of [
      "Your first step",
      FIRST_OFFER,
      "Pick an offer on Earn: a survey, an app or a game.",
      "After the offer's hold, the coins are yours to cash out, from $1.00 with UPI.",
      "Find your first offer",
    ])
      expect(home).toContain(line);
    await app.sql("select record_postback('acme', $1, $2, 100, false, 'Offer completed')", [`${uid}-first`, uid]);
    expect(visibleText((await client.visit("/")).html)).not.toContain("Your first step");
  });

  it("shows an invited account its invitation's steps instead of the first step", async () => {
    const referrer = await newMember(app);
    const [{ code }] = (await app.sql<{ code: string }>(
      "select referral_code as code from user_profiles where id = $1",
      [referrer.uid],
    )) as [{ code: string }];
    const { client } = await newMember(app, { referralCode: code });
    const home = visibleText((await client.visit("/")).html);
    expect(home).toContain("Your welcome bonus");
    expect(home).not.toContain("Your first step");
  });

  it("lands a share link on a page that says what the friend gets and how, from the settings, and never the referrer's own words", async () => {
    const referrer = await newMember(app);
    await app.sql("update user_profiles set display_name = 'Totally Official Rewards Team' where id = $1", [
      referrer.uid,
    ]);
    const [{ code }] = (await app.sql<{ code: string }>(
      "select referral_code as code from user_profiles where id = $1",
      [referrer.uid],
    )) as [{ code: string }];
    const { html: page, response } = await visitor().visit(`/join/${code.toLowerCase()}`);
    expect(response.status).toBe(200);
    const text = visibleText(page);
    for (const line of [
      "You're invited",
      "Join with this invitation: you get $1.00, and the friend who invited you gets $5.00.",
      "Create your account with this invitation",
      "Verify your email",
      "Earn 100 coins",
      "Both bonuses are paid together once every step is done.",
      FIRST_OFFER,
      "100 coins = $1.00",
    ])
      expect(text).toContain(line);
    expect(text).not.toContain("Totally Official Rewards Team");
    expect(page).toContain(`href="${html(`/auth?tab=signup&ref=${code}`)}"`);
  });

  it("says an invitation link whose code belongs to no account is not valid, and still offers Sign Up without a code", async () => {
    const { html: page, response } = await visitor().visit("/join/ZZZZZZZ");
    expect(response.status).toBe(200);
    const text = visibleText(page);
    expect(text).toContain("This invitation link is not valid");
    expect(text).toContain("The code in this link belongs to no account. You can still create an account.");
    expect(page).toContain('href="/auth?tab=signup"');
    expect(text).not.toContain("Join with this invitation");
  });

  it("tells someone signed in that an invitation is for new accounts", async () => {
    const { client } = await newMember(app);
    const text = visibleText((await client.visit("/join/ZZZZZZZ")).html);
    expect(text).toContain("An invitation is for new accounts. Your own invitation link is on Refer.");
    expect(text).toContain("Go to Home");
  });
});
