import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notVerifiedYet, VERIFIED_CHECK_PATH } from "~/domain/verification-form";
import { continueUrlOf, openOobLink, sentOobCodes } from "../support/emulator";
import { appUrl, html, landing, signedInClient, type HttpClient } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// Home's verification card over plain HTTP (JavaScript off): "Check again" and the verification
// email's way back to the app (docs/product.md, "Home: verifying the email"), on the app server of
// `npm test` (no PUBLIC_URL: the link returns to the address the browser used) and on one with
// PUBLIC_URL.

const CARD = "Verify your email</h2>";

/** "Send verification email" on Home; the link of the email the Auth emulator "sent". */
async function sendVerificationEmail(client: HttpClient, email: string): Promise<string> {
  const sent = await landing(client, await client.post("/?index", { intent: "send-verification" }));
  expect(sent.html).toContain("Verification email sent");
  const code = (await sentOobCodes()).findLast((oob) => oob.email === email && oob.requestType === "VERIFY_EMAIL");
  expect(code, "the verification email the emulator sent").toBeDefined();
  return code!.oobLink;
}

describe("Home's verification card over plain HTTP", () => {
  it("links Check again to the check, which says the address is not verified yet, naming it, and keeps the card", async () => {
    const { client, email } = await signedInClient();
    const home = (await client.visit("/")).html;
    expect(home).toContain(CARD);
    expect(home).toMatch(/<a [^>]*href="\/\?verified=1"[^>]*>Check again<\/a>/);
    expect(home).not.toContain("Not verified yet");

    const check = await client.visit(VERIFIED_CHECK_PATH);
    expect(check.url, "no redirect: the page answers").toBe(VERIFIED_CHECK_PATH);
    expect(check.response.status).toBe(200);
    expect(check.html).toContain(html(`Not verified yet — open the link we sent to ${email}`));
    expect(check.html).toContain(html(notVerifiedYet(email)));
    expect(check.html).toContain(CARD);
    expect(check.html).not.toContain("Email verified");
    // The parameter only asks the identity provider: nothing was recorded, and a plain Home view
    // afterwards says nothing of the check.
    const after = (await client.visit("/")).html;
    expect(after).toContain(CARD);
    expect(after).not.toContain("Not verified yet");
  });

  it("sends an email whose link returns to /?verified=1, where Home says Email verified and drops the card", async () => {
    const { client, email } = await signedInClient();
    const link = await sendVerificationEmail(client, email);
    const back = new URL(VERIFIED_CHECK_PATH, appUrl()).href;
    expect(continueUrlOf(link), "the link's continue URL").toBe(back);

    // Before the link is opened, the way back says so.
    expect((await client.visit(VERIFIED_CHECK_PATH)).html).toContain(html(notVerifiedYet(email)));

    // The provider's page verifies the address, then sends the browser back to the app.
    expect(await openOobLink(link)).toBe(back);
    const arrival = await client.get(VERIFIED_CHECK_PATH);
    expect(arrival.status).toBe(302);
    expect(arrival.headers.get("location")).toBe("/");
    const home = await landing(client, arrival);
    expect(home.html).toContain("Email verified");
    expect(home.html).not.toContain(CARD);
    expect(home.html).not.toContain("Not verified yet");

    // Remembered: a plain Home view shows no card, and the message was shown once.
    const later = (await client.visit("/")).html;
    expect(later).not.toContain(CARD);
    expect(later).not.toContain("Email verified");
  });
});

describe("the verification email's way back with PUBLIC_URL", () => {
  const PUBLIC_URL = "https://rewards.example";
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp({ PUBLIC_URL });
  }, 120_000);
  afterAll(() => app?.stop());

  it("returns to PUBLIC_URL's /?verified=1, not to the address the request came by", async () => {
    const { client, email } = await app.signUp();
    const link = await sendVerificationEmail(client, email);
    expect(continueUrlOf(link)).toBe(`${PUBLIC_URL}/?verified=1`);
    expect(new URL(app.url).origin).not.toBe(PUBLIC_URL);
  });
});
