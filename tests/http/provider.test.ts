import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startAppServer } from "../../scripts/lib/services.mjs";
import { emulatorHost, signUpDirect } from "../support/emulator";
import { HttpClient, landing, uniqueEmail } from "../support/http";
import { startOfferProvider } from "../support/offer-provider";

const SECRET = "postback-secret-for-tests";

/** The provider's side of the protocol, written independently of the server's code. */
function signedQuery(params: Record<string, string>, secret = SECRET) {
  const canonical = Object.keys(params)
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join("&");
  const sig = createHmac("sha256", secret).update(canonical).digest("hex");
  return new URLSearchParams({ ...params, sig }).toString();
}

// A second app server, configured with an offer provider played by a local HTTP server.
describe("an offer provider: offers, completion and postbacks over HTTP", () => {
  let provider: Awaited<ReturnType<typeof startOfferProvider>>;
  let app: { url: string; stop(): Promise<void> };
  let dataDir: string;
  let user: { client: HttpClient; uid: string };

  /** The balance Home shows, in cents (each test compares with its own starting point). */
  async function balanceCents(client: HttpClient) {
    const { html } = await client.visit("/");
    return Math.round(Number(html.match(/data-testid="balance"[^>]*>\$([^<]+)</)![1]!.replace(/,/g, "")) * 100);
  }

  beforeAll(async () => {
    provider = await startOfferProvider();
    dataDir = mkdtempSync(path.join(os.tmpdir(), "provider-app-"));
    app = await startAppServer({
      port: await freePort(),
      env: {
        NODE_ENV: "production",
        SESSION_SECRET: "provider-test-secret-of-32-characters",
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
        PGLITE_DATA_DIR: path.join(dataDir, "pglite"),
        OFFER_PROVIDER: "acme",
        OFFER_PROVIDER_API_URL: provider.url,
        OFFER_POSTBACK_SECRET: SECRET,
      },
    });
    const email = uniqueEmail("provider");
    const { localId } = await signUpDirect(email, "provider-pass");
    const client = new HttpClient(app.url);
    client.cookies.set("hasSeenOnboarding", "true");
    await client.post("/auth", { intent: "signin", email, password: "provider-pass" });
    user = { client, uid: localId };
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await provider?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists the provider's offers on /earn and through GET /api/acme/offers", async () => {
    const page = await (await user.client.get("/earn")).text();
    expect(page).toContain("Daily Poll");
    expect(page).toContain("Install Chess Pro");
    expect(page).not.toContain("Shopping Habits Survey");
    const offers = await user.client.get("/api/acme/offers");
    expect(offers.status).toBe(200);
    expect(
      ((await offers.json()) as { offers: { offer_id: unknown }[] }).offers.map((offer) => offer.offer_id),
    ).toEqual(["acme-1", "acme-2", 3, "acme-4"]);
    expect((await new HttpClient(app.url).get("/api/acme/offers")).status).toBe(401);
    expect((await user.client.get("/api/other/offers")).status).toBe(404);
  });

  it("completes through POST /api/acme/complete with the server's reward and the session's user", async () => {
    const before = await balanceCents(user.client);
    const notStarted = await user.client.post("/api/acme/complete", { taskId: "acme-1" });
    expect(notStarted.status).toBe(400);
    expect(await notStarted.json()).toEqual({ success: false, error: "Task was not started" });
    await user.client.post("/earn?task=acme-2", { intent: "start", taskId: "acme-2" });
    await new Promise((resolve) => setTimeout(resolve, 5_200));
    const response = await fetch(new URL("/api/acme/complete", app.url), {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `__session=${user.client.cookies.get("__session")}` },
      body: JSON.stringify({ taskId: "acme-2", userId: "someone-else", reward: 1_000_000 }),
    });
    expect(await response.json()).toEqual({ success: true, reward: 300 });
    const again = await user.client.post("/api/acme/complete", { taskId: "acme-2" });
    expect(await again.json()).toEqual({ success: true, reward: 0 });
    expect(await balanceCents(user.client)).toBe(before + 300);
    const unknown = await user.client.post("/api/acme/complete", { taskId: "task-001" });
    expect(unknown.status).toBe(404);
  });

  it("credits a signed postback once, refuses a bad signature, and reverses within the balance", async () => {
    const before = await balanceCents(user.client);
    const params = { user_id: user.uid, transaction_id: `tx-${Date.now()}`, amount: "250" };
    const get = (query: string) => fetch(new URL(`/api/acme/postback?${query}`, app.url));

    const forged = await get(signedQuery(params, "wrong-secret"));
    expect(forged.status).toBe(403);
    expect(await forged.text()).toBe("Invalid signature");
    const unsigned = await get(new URLSearchParams(params).toString());
    expect(unsigned.status).toBe(403);
    expect(await balanceCents(user.client)).toBe(before);

    const first = await get(signedQuery(params));
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await first.text()).toBe("OK");
    const repeat = await get(signedQuery(params));
    expect(await repeat.text()).toBe("OK");
    expect(await balanceCents(user.client)).toBe(before + 250);

    const reversal = await fetch(new URL("/api/acme/postback", app.url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: signedQuery({ ...params, status: "reversed" }),
    });
    expect(await reversal.text()).toBe("OK");
    expect(await balanceCents(user.client)).toBe(before);
  });

  it("treats a negative amount as a reversal of that transaction", async () => {
    const transaction = `tx-negative-${Date.now()}`;
    const get = (amount: string) =>
      fetch(
        new URL(
          `/api/acme/postback?${signedQuery({ user_id: user.uid, transaction_id: transaction, amount })}`,
          app.url,
        ),
      );
    const before = await balanceCents(user.client);
    expect(await (await get("100")).text()).toBe("OK");
    expect(await balanceCents(user.client)).toBe(before + 100);
    expect(await (await get("-100")).text()).toBe("OK");
    expect(await balanceCents(user.client)).toBe(before);
  });

  it("answers bad postbacks with a plain-text error and changes nothing", async () => {
    const before = await balanceCents(user.client);
    const get = (params: Record<string, string>) =>
      fetch(new URL(`/api/acme/postback?${signedQuery(params)}`, app.url));
    const unknownUser = await get({ user_id: "nobody-here", transaction_id: "tx-x", amount: "10" });
    expect([unknownUser.status, await unknownUser.text()]).toEqual([400, "Unknown user"]);
    const badAmount = await get({ user_id: user.uid, transaction_id: "tx-y", amount: "12.5" });
    expect([badAmount.status, await badAmount.text()]).toEqual([400, "Invalid postback"]);
    const badStatus = await get({ user_id: user.uid, transaction_id: "tx-z", amount: "10", status: "maybe" });
    expect([badStatus.status, await badStatus.text()]).toEqual([400, "Invalid status"]);
    expect(await balanceCents(user.client)).toBe(before);
  });

  it("shows the Home quick tasks from the provider", async () => {
    const { html } = await landing(
      user.client,
      await user.client.post("/?index", { intent: "start-task", taskId: "acme-1" }),
    );
    expect(html).toContain("Daily Poll");
  });
});
