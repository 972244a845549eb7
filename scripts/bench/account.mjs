// @ts-check
// The benchmark's signed-in person: an account in the Auth emulator (made before the database is
// seeded, so the seed can give it a history), then a real sign-in through the app's /auth form,
// whose session cookie every signed-in measurement sends.

/**
 * Makes the account in the emulator at `emulatorHost`; returns its uid, email and password.
 * @param {string} emulatorHost
 * @returns {Promise<{ id: string, email: string, password: string }>}
 */
export async function createAccount(emulatorHost) {
  const email = `bench.${Date.now().toString(36)}@example.com`;
  const password = "bench-pass-1";
  const response = await fetch(
    `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  const payload = await response.json();
  if (!response.ok) throw new Error(`emulator sign-up failed: ${JSON.stringify(payload)}`);
  return { id: payload.localId, email, password };
}

/**
 * Signs in through the app's form, as a browser without JavaScript would; returns the cookies
 * of a signed-in returning visitor (the session, and onboarding seen), as a Cookie header and as
 * a list for a browser.
 * @param {string} appUrl
 * @param {{ email: string, password: string }} account
 */
export async function signIn(appUrl, { email, password }) {
  const response = await fetch(`${appUrl}/auth`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: new URL(appUrl).origin,
      "sec-fetch-site": "same-origin",
    },
    body: new URLSearchParams({ intent: "signin", email, password }),
    redirect: "manual",
  });
  const session = response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0] ?? "")
    .find((pair) => pair.startsWith("__session="));
  if (response.status !== 302 || !session) throw new Error(`sign-in through /auth answered ${response.status}`);
  const pairs = [session, "hasSeenOnboarding=true"];
  return {
    header: pairs.join("; "),
    list: pairs.map((pair) => {
      const index = pair.indexOf("=");
      return { name: pair.slice(0, index), value: pair.slice(index + 1), url: appUrl };
    }),
  };
}
