import { expect, type Page } from "@playwright/test";
import { test, PASSWORD } from "./support";

// Every page under its Content-Security-Policy with JavaScript on: nothing is refused (no
// `securitypolicyviolation` event, no console message about the policy, the Permissions-Policy or
// a failed hydration), and each page still does something only JavaScript can do.

interface Problem {
  url: string;
  text: string;
}

/** Collects every policy violation and policy-related console message of `page`, across its documents. */
async function watchPolicy(page: Page): Promise<Problem[]> {
  const problems: Problem[] = [];
  // A binding and an init script reach the page through the DevTools protocol, outside its policy.
  await page.exposeFunction("__reportViolation", (url: string, text: string) => problems.push({ url, text }));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __reportViolation(url: string, text: string): void }).__reportViolation;
      void report(location.href, `${event.effectiveDirective} refused ${event.blockedURI || "inline"}`);
    });
  });
  page.on("console", (message) => {
    if (/Content.Security.Policy|Permissions-Policy|Refused to|Minified React error|hydrat/i.test(message.text())) {
      problems.push({ url: page.url(), text: `console ${message.type()}: ${message.text()}` });
    }
  });
  page.on("pageerror", (error) => problems.push({ url: page.url(), text: `page error: ${error.message}` }));
  return problems;
}

/** Marks the current document; `stillSameDocument` then says whether a navigation happened in the page (JavaScript). */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { __marked: boolean }).__marked = true));
}
async function stillSameDocument(page: Page) {
  return page.evaluate(() => (window as unknown as { __marked?: boolean }).__marked === true);
}

/** The loaders the page runs from now on (GET requests for `.data`), rather than leaving them to a document load. */
function watchDataRequests(page: Page): string[] {
  const requests: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "GET" && new URL(request.url()).pathname.endsWith(".data")) requests.push(request.url());
  });
  return requests;
}

/** Waits until React has taken over the page and its requests are done. */
async function hydrated(page: Page) {
  await page.waitForLoadState("networkidle");
}

test("onboarding, then /auth (entered with a document load: its policy allows Google sign-in): slides and tabs switch in the page, client-side validation and Google sign-in run, nothing is refused", async ({
  page,
}) => {
  const problems = await watchPolicy(page);
  // Google's servers are outside this machine: the policy lets the request go, the network fails it.
  const googleRequests: string[] = [];
  await page.route("https://apis.google.com/**", (route) => {
    googleRequests.push(route.request().url());
    return route.abort("internetdisconnected");
  });

  await page.goto("/");
  await hydrated(page);
  await markDocument(page);
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/slide=1/);
  expect(await stillSameDocument(page)).toBe(true);

  // Get Started posts in the page; its redirect to /auth loads a new document.
  const documentLoad = page.waitForRequest((request) => request.resourceType() === "document");
  await page.getByRole("button", { name: "Skip" }).click();
  expect(new URL((await documentLoad).url()).pathname).toBe("/auth");
  await expect(page).toHaveURL(/\/auth$/);
  await hydrated(page);
  expect(await stillSameDocument(page)).toBe(false);

  await markDocument(page);
  await page.getByRole("link", { name: "Sign Up" }).click();
  await expect(page).toHaveURL(/tab=signup/);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please fill in all fields");
  await page.getByRole("link", { name: "Sign In" }).click();
  // The tab switches in the page: wait for it, or the Google button clicked is the Sign Up tab's.
  await expect(page).not.toHaveURL(/tab=signup/);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await expect(page.getByRole("alert")).toHaveText("An error occurred during authentication.", { timeout: 30_000 });
  expect(googleRequests.length).toBeGreaterThan(0);
  expect(await stillSameDocument(page)).toBe(true);

  expect(problems).toEqual([]);
});

test("Home, Earn, Leaderboard, Withdraw and Refer work in one document, the task countdown and Copy Code included, nothing is refused", async ({
  page,
  signedIn,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const problems = await watchPolicy(page);
  await signedIn("csp");
  await hydrated(page);
  await markDocument(page);

  await page.getByRole("button", { name: "Check In Now" }).click();
  await expect(page.getByText("Checked in!")).toBeVisible();

  await page.getByRole("link", { name: "View Leaderboard" }).click();
  await expect(page).toHaveURL(/\/leaderboard$/);
  await expect(page.getByRole("heading", { name: "Leaderboard", exact: true })).toBeVisible();

  await page.getByRole("link", { name: "Earn", exact: true }).click();
  await page.getByRole("link", { name: /Try a Budgeting App/ }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Start Task" }).click();
  // The countdown runs in the page only.
  await expect(dialog.getByRole("button", { name: /Wait \ds/ })).toBeDisabled();
  await expect(page.getByText("Task Completed")).toBeVisible({ timeout: 15_000 });

  await page.getByRole("link", { name: "Withdraw", exact: true }).first().click();
  await expect(page.getByRole("heading", { name: "Withdraw Money" })).toBeVisible();

  await page.getByRole("link", { name: "Refer", exact: true }).click();
  await page.getByRole("button", { name: "Copy Code" }).click();
  await expect(page.getByText("Referral code copied to clipboard!")).toBeVisible();

  expect(await stillSameDocument(page)).toBe(true);
  expect(problems).toEqual([]);
});

test("each page loaded as a document of its own carries a policy it keeps to: /, /earn, /leaderboard, /withdraw, /referral, /legal and the 404 page", async ({
  page,
  signedIn,
}) => {
  const problems = await watchPolicy(page);
  await signedIn("csp-pages");
  for (const path of ["/", "/earn", "/leaderboard", "/withdraw", "/referral", "/legal?tab=privacy", "/no/such/page"]) {
    const response = await page.goto(path);
    expect(response!.headers()["content-security-policy"], path).toContain("'nonce-");
    await hydrated(page);
  }
  // The 404 page's link back is followed in the page.
  await markDocument(page);
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await stillSameDocument(page)).toBe(true);

  await page.goto("/legal");
  await hydrated(page);
  await markDocument(page);
  await page.getByRole("link", { name: "Cookies", exact: true }).click();
  await expect(page).toHaveURL(/tab=cookies/);
  expect(await stillSameDocument(page)).toBe(true);

  expect(problems).toEqual([]);
});

test("Profile is entered with a document load (its policy allows web push), its tabs switch in the page, and turning push on registers the service worker without a refusal", async ({
  page,
  signedIn,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["notifications"], { origin: baseURL });
  const problems = await watchPolicy(page);
  await signedIn("csp-profile");
  await hydrated(page);
  await markDocument(page);

  // From Home (a document whose policy has no web push), the Profile button loads a new document,
  // and no loader runs in the page left behind.
  const dataRequests = watchDataRequests(page);
  const documentLoad = page.waitForRequest((request) => request.resourceType() === "document");
  await page.getByRole("link", { name: "Profile" }).first().click();
  expect(new URL((await documentLoad).url()).pathname).toBe("/profile");
  await expect(page.getByRole("heading", { name: /Profile/ })).toBeVisible();
  expect(await stillSameDocument(page)).toBe(false);
  expect(dataRequests).toEqual([]);
  await hydrated(page);

  // Between its tabs the document stays.
  await markDocument(page);
  for (const tab of ["Referrals", "Help & Support", "My Account"]) {
    await page.getByRole("link", { name: tab }).click();
    await expect(page.getByRole("link", { name: tab })).toHaveAttribute("aria-current", "page");
  }
  expect(await stillSameDocument(page)).toBe(true);

  // Push: permission, then /service-worker.js is registered; the FCM step fails here (no FCM).
  const pushSwitch = page.getByRole("switch", { name: /^Push notifications/ });
  await expect(pushSwitch).toHaveAttribute("type", "button");
  await pushSwitch.click();
  await expect(page.getByTestId("flash").filter({ hasText: "Notification preferences updated" })).toBeVisible();
  await expect(pushSwitch).toHaveAttribute("aria-checked", "false");
  await expect(pushSwitch).toBeEnabled();
  await pushSwitch.click();
  await expect(page.getByTestId("flash").filter({ hasText: "Could not enable notifications" })).toBeVisible();
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length))
    .toBeGreaterThan(0);

  // Back to Home and to Profile again: this document's policy already allows it, so no reload.
  await page.getByRole("link", { name: "Home", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole("link", { name: "Profile" }).first().click();
  await expect(page).toHaveURL(/\/profile$/);
  expect(await stillSameDocument(page)).toBe(true);

  expect(problems).toEqual([]);
});

test("signing in from /auth?redirectTo=/profile lands on Profile through a document load, with the sign-in's message", async ({
  page,
  signedIn,
}) => {
  const problems = await watchPolicy(page);
  const email = await signedIn("csp-return", "/profile");
  await page.getByRole("button", { name: "Log Out" }).click();
  await expect(page).toHaveURL(/\/auth/);

  await page.goto("/profile");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fprofile$/);
  await hydrated(page);
  await markDocument(page);
  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByPlaceholder("Enter your password").fill(PASSWORD);
  const dataRequests = watchDataRequests(page);
  const documentLoad = page.waitForRequest((request) => request.resourceType() === "document");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  expect(new URL((await documentLoad).url()).pathname).toBe("/profile");
  await expect(page).toHaveURL(/\/profile$/);
  // No loader ran in the /auth page: the root's would have taken the message (and the notices).
  expect(dataRequests).toEqual([]);
  // The message the sign-in left for the next page is shown there, not taken by the page left behind.
  await expect(page.getByTestId("flash").filter({ hasText: "Signed in successfully!" })).toBeVisible();
  expect(await stillSameDocument(page)).toBe(false);
  expect(problems).toEqual([]);
});

test("an offer wall's page is entered from Earn with a document load: its policy frames that network's wall, the wall shows, nothing is refused", async ({
  page,
  signedIn,
}) => {
  const problems = await watchPolicy(page);
  // The wall is outside this machine: a stand-in answers for it.
  await page.route("https://web.bitlabs.ai/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<p>BitLabs stand-in</p>" }),
  );
  await signedIn("walls", "/earn");
  await hydrated(page);
  await markDocument(page);

  const documentLoad = page.waitForResponse((response) => response.request().resourceType() === "document");
  await page.getByRole("link", { name: /BitLabs/ }).click();
  const response = await documentLoad;
  expect(new URL(response.url()).pathname).toBe("/earn/walls/bitlabs");
  expect(response.headers()["content-security-policy"]).toContain("frame-src https://web.bitlabs.ai;");
  await expect(page.getByRole("heading", { name: "BitLabs offers" })).toBeVisible();
  await hydrated(page);
  expect(await stillSameDocument(page)).toBe(false);
  await expect(page.frameLocator('iframe[title="BitLabs offer wall"]').getByText("BitLabs stand-in")).toBeVisible();
  expect(problems).toEqual([]);
});
