import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notVerifiedYet, VERIFIED_CHECK_PATH } from "~/domain/verification-form";
import { continueUrlOf, emulatorHost, openOobLink, sentOobCodes } from "../support/emulator";
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

/**
 * The Auth emulator behind a relay that checks a continue URL's host against `authorised`, as the
 * real provider does with the project's authorised domains (the emulator accepts any): another
 * host is refused with the provider's UNAUTHORIZED_DOMAIN.
 */
async function startAuthorisedDomainsRelay(authorised: Set<string>) {
  const [targetHost, targetPort] = emulatorHost().split(":");
  const server = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      if (incoming.url?.includes("/accounts:sendOobCode")) {
        const { continueUrl } = JSON.parse(body.toString() || "{}") as { continueUrl?: string };
        if (continueUrl && !authorised.has(new URL(continueUrl).hostname)) {
          outgoing.writeHead(400, { "content-type": "application/json" });
          outgoing.end(
            JSON.stringify({
              error: { code: 400, message: "UNAUTHORIZED_DOMAIN : Domain not allowlisted by project" },
            }),
          );
          return;
        }
      }
      const upstream = http.request(
        {
          host: targetHost,
          port: Number(targetPort),
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: `${targetHost}:${targetPort}` },
        },
        (response) => {
          outgoing.writeHead(response.statusCode ?? 502, response.headers);
          response.pipe(outgoing);
        },
      );
      upstream.on("error", () => outgoing.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("the verification email's way back with PUBLIC_URL, and the provider's authorised domains", () => {
  const PUBLIC_URL = "https://rewards.example";
  const authorised = new Set(["rewards.example"]);
  let relay: Awaited<ReturnType<typeof startAuthorisedDomainsRelay>>;
  let app: PostgresApp;

  beforeAll(async () => {
    relay = await startAuthorisedDomainsRelay(authorised);
    app = await startPostgresApp({ PUBLIC_URL, FIREBASE_AUTH_EMULATOR_HOST: relay.host });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await relay?.close();
  });

  it("returns to PUBLIC_URL's /?verified=1, not to the address the request came by", async () => {
    const { client, email } = await app.signUp();
    const link = await sendVerificationEmail(client, email);
    expect(continueUrlOf(link)).toBe(`${PUBLIC_URL}/?verified=1`);
    expect(new URL(app.url).origin).not.toBe(PUBLIC_URL);
  });

  it("still sends the email, without the way back and with a warning, when the provider refuses the domain", async () => {
    authorised.clear();
    const { client, email } = await app.signUp();
    const link = await sendVerificationEmail(client, email);
    expect(continueUrlOf(link)).toBeNull();
    expect(app.stderr()).toContain('verification email: "rewards.example" is not an authorised domain');
  });
});
