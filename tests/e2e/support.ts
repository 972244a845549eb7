import { test as base, expect, type Page } from "@playwright/test";
import { uniqueEmail } from "../support/http";

// One maker of test addresses for every suite.
export { uniqueEmail } from "../support/http";

/** The password of the accounts made by `signedIn`. */
export const PASSWORD = "e2e-password";

/**
 * Posts the sign-in screen's form (`intent` signup or signin) as a returning visitor (onboarding
 * seen) over HTTP, then opens `landOn` (Home unless told). Like `signedInClient` of the HTTP tests
 * it uses the app's own post, but from the browser context's request client: that shares the
 * browser's cookie jar, so the session (and the post's flash message) land in the browser with the
 * attributes the server gave them. Another page than Home is asked for as a person who followed a
 * link while signed out does (`/auth?redirectTo=`), so a test that starts elsewhere loads one page,
 * not Home first. The form itself is tested by the sign-up and sign-in specs.
 */
async function postAuthForm(page: Page, baseURL: string, fields: Record<string, string>, landOn = "/") {
  const context = page.context();
  await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: baseURL }]);
  const auth = landOn === "/" ? "/auth" : `/auth?${new URLSearchParams({ redirectTo: landOn })}`;
  const response = await context.request.post(new URL(auth, baseURL).href, {
    form: fields,
    // What a browser's form post says of where it comes from.
    headers: { origin: new URL(baseURL).origin, "sec-fetch-site": "same-origin" },
    maxRedirects: 0,
  });
  expect(response.status(), `the ${fields.intent} post of ${fields.email}`).toBe(302);
  const location = new URL(response.headers().location ?? "", baseURL);
  expect(location.pathname + location.search, "where the post sends the browser").toBe(landOn);
  await page.goto(new URL(landOn, baseURL).href);
  await expect(page).toHaveURL(new URL(landOn, baseURL).href);
  // The page's scripts start after its first paint (docs/decisions/101): hand the test a live page.
  await settled(page);
}

/** A brand-new account, signed in and on `landOn` (Home unless told); returns its email. */
export async function signUpOverHttp(
  page: Page,
  prefix = "e2e",
  baseURL = base.info().project.use.baseURL!,
  landOn = "/",
) {
  const email = uniqueEmail(prefix);
  await postAuthForm(page, baseURL, { intent: "signup", email, password: PASSWORD }, landOn);
  return email;
}

/** An existing account, signed in and on Home. */
export async function signInOverHttp(page: Page, email: string, password: string, baseURL: string) {
  await postAuthForm(page, baseURL, { intent: "signin", email, password });
}

/**
 * Specs' `test`, with `signedIn(prefix?, landOn?)`: a new account signed in on Home, or on the page
 * `landOn` (signUpOverHttp); returns its email.
 */
export const test = base.extend<{ signedIn: (prefix?: string, landOn?: string) => Promise<string> }>({
  signedIn: async ({ page, baseURL }, provide) => {
    await provide((prefix, landOn) => signUpOverHttp(page, prefix, baseURL, landOn));
  },
});

/**
 * With E2E_SCREENSHOTS set (`E2E_SCREENSHOTS=1 npm test -- e2e`), a full-page screenshot at the
 * test's viewport (390 px) in the test's output folder, for a person to look at. It asserts nothing,
 * and a full-page capture costs Chromium about a second of CPU, a fifth of a spec's, so a plain run
 * takes none. Either way the toasts' entrance is played to its end, so what follows sees the same page.
 */
export async function screenshot(page: Page, name: string) {
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      if ((animation as CSSAnimation).animationName === "toast-in" && animation.playState === "running") {
        animation.finish();
      }
    }
  });
  if (process.env.E2E_SCREENSHOTS)
    await page.screenshot({ path: base.info().outputPath(`${name}.png`), fullPage: true });
}

/**
 * With E2E_SCREENSHOTS set, screenshots of the page at 320, 390 and 1280 px (`name-320` and so on),
 * `before` run at each width first (scrolling something into view); the viewport is 390 px after.
 * Without it nothing is done.
 */
export async function screenshotsAtWidths(page: Page, name: string, before?: () => Promise<void>) {
  if (!process.env.E2E_SCREENSHOTS) return;
  for (const [width, height] of [
    [320, 568],
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await before?.();
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

/** The link of the newest verification email the Auth emulator "sent" to `email`. */
export async function verificationLink(email: string): Promise<string> {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const response = await fetch(`http://${host}/emulator/v1/projects/demo-rewards/oobCodes`);
  const { oobCodes } = (await response.json()) as {
    oobCodes: { email: string; requestType: string; oobLink: string }[];
  };
  const code = oobCodes.findLast((oob) => oob.email === email && oob.requestType === "VERIFY_EMAIL");
  expect(code, "a verification email").toBeDefined();
  return code!.oobLink;
}

/**
 * Opens the link of the newest verification email the Auth emulator "sent" to `email`, out of the
 * browser: the address is verified; where the provider's page then sends a browser (the app's
 * /?verified=1) is not followed.
 */
export async function openVerificationLink(email: string) {
  const response = await fetch(await verificationLink(email), { redirect: "manual" });
  expect([200, 303], "the verification link's answer").toContain(response.status);
}

/** Earns $6.30 the way a person does: three tasks (started together, completed after the five seconds). */
export async function earnSixDollars(page: Page) {
  await completeTasks(page, ["task-008", "task-003", "task-007"]); // 250 + 200 + 180 coins
}

/** Starts and completes the app's own `tasks` over HTTP, as the Earn forms post them. */
export async function completeTasks(page: Page, tasks: string[]) {
  for (const task of tasks) {
    const start = await page.request.post(`/earn?task=${task}`, {
      form: { intent: "start", taskId: task },
      maxRedirects: 0,
    });
    expect(start.status()).toBe(302);
  }
  await page.waitForTimeout(5_200); // the five-second rule
  for (const task of tasks) {
    const done = await page.request.post(`/earn?task=${task}&started=1`, {
      form: { intent: "complete", taskId: task },
      maxRedirects: 0,
    });
    expect(done.status()).toBe(302);
  }
}

/** The page's controls (and its balance card) that the first shown toast overlaps: their names. */
export const coveredByToast = (page: Page) =>
  page.evaluate(() => {
    const toast = document.querySelector("#toasts > details[open]")?.getBoundingClientRect();
    if (!toast) return ["no toast"];
    return [
      ...document.querySelectorAll(
        "main :is(a[href], button, input, select, textarea, summary, [aria-labelledby='balance-heading'])",
      ),
    ]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.height > 0 && box.bottom > toast.top && box.top < toast.bottom;
      })
      .map((element) => element.getAttribute("aria-label") ?? element.textContent?.trim().slice(0, 40) ?? "");
  });

/**
 * A new member on Withdraw who has just asked for the verification email: its toast, "Verification
 * email sent", shown (the toast specs' common start).
 */
export async function verificationSentToast(
  page: Page,
  signedIn: (prefix?: string) => Promise<string>,
  prefix: string,
) {
  await signedIn(prefix);
  await page.goto("/withdraw");
  await page.getByRole("button", { name: "Send verification email" }).click();
  const toast = page.getByTestId("flash").filter({ hasText: "Verification email sent" });
  await expect(toast).toBeVisible();
  return toast;
}

/**
 * With JavaScript: until the page is hydrated and its router idle (no navigation, no revalidation),
 * so that what the test types or clicks next lands in the live page, not in a document about to be
 * hydrated or replaced. Without JavaScript: at once.
 */
export async function settled(page: Page) {
  if (!base.info().project.use.javaScriptEnabled) return;
  await page.waitForFunction(() => {
    const router = (
      window as unknown as {
        __remixRouter?: { state: { initialized: boolean; navigation: { state: string }; revalidation: string } };
      }
    ).__remixRouter;
    return (
      router !== undefined &&
      router.state.initialized &&
      router.state.navigation.state === "idle" &&
      router.state.revalidation === "idle"
    );
  });
}

/** Holds every request for the app's scripts until `release()`. */
export async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(
    (url) => url.pathname.startsWith("/build/") && url.pathname.endsWith(".js"),
    async (route) => {
      held += 1;
      await released;
      await route.continue();
    },
  );
  return { release, held: () => held };
}

/**
 * Opens `path` with the scripts held: the server's page, painted, with nothing listening yet (what
 * a slow phone shows between the first paint and hydration, docs/decisions/101 and 105).
 */
export async function openBeforeScripts(page: Page, path: string) {
  const scripts = await holdScripts(page);
  await page.goto(path, { waitUntil: "domcontentloaded" });
  await expect.poll(scripts.held, "the scripts were asked for, and are held").toBeGreaterThan(0);
  return scripts;
}
