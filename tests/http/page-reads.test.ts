import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../support/app-server";
import { emulatorHost } from "../support/emulator";
import { HttpClient, uniqueEmail } from "../support/http";
import { startRecordingProxy } from "../support/recording-proxy";

// What a page view costs outside the app: an app whose Firebase is reached through a relay that
// records every call. Its session checks are kept for ten minutes, so every lookup left is the
// page's own.
const LOOKUP_PATH = "/identitytoolkit.googleapis.com/v1/projects/demo-rewards/accounts:lookup";

describe("page views and Firebase", () => {
  let firebase: Awaited<ReturnType<typeof startRecordingProxy>>;
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let client: HttpClient;

  beforeAll(async () => {
    const [host, port] = emulatorHost().split(":");
    firebase = await startRecordingProxy({ host: host!, port: Number(port) });
    app = await startTestApp({ FIREBASE_AUTH_EMULATOR_HOST: firebase.host, SESSION_VERIFY_CACHE_MS: "600000" });
    client = new HttpClient(app.url);
    client.cookies.set("hasSeenOnboarding", "true");
    const signUp = await client.post("/auth?tab=signup", {
      intent: "signup",
      email: uniqueEmail("reads"),
      password: "s3cret-pass",
    });
    expect(signUp.status).toBe(302);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await firebase?.close();
  });

  it("asks Firebase for the account's sign-in methods once, not on every view of My Account", async () => {
    const first = await client.visit("/profile");
    expect(first.response.status).toBe(200);
    expect(first.html).toContain("Delete account permanently");
    firebase.clear();
    for (let view = 0; view < 5; view++) {
      const again = await client.visit("/profile");
      expect(again.response.status).toBe(200);
      // Still the password form: the answer kept is the account's.
      expect(again.html).toContain("Delete account permanently");
    }
    expect(firebase.requests().filter((call) => call.path === LOOKUP_PATH)).toEqual([]);
  });
});
