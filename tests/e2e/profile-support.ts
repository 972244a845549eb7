import { expect, type Page } from "@playwright/test";
import { signUpOverHttp, test } from "./support";

// Helpers of the Profile specs.

/**
 * With JavaScript, waits until React has taken over My Account (its switches turn from the no-JS
 * form buttons into toggles), so a click exercises the enhanced page rather than the HTML form.
 */
export async function waitForHydration(page: Page) {
  if (!test.info().project.use.javaScriptEnabled) return;
  await expect(page.getByRole("switch", { name: /^Email notifications/ })).toHaveAttribute("type", "button");
}

/** A fresh account on Profile; returns its email and display name (the part before the @). */
export async function openProfile(page: Page, prefix: string) {
  const email = await signUpOverHttp(page, prefix);
  const name = email.split("@")[0]!;
  await page.goto("/profile");
  await expect(page.getByRole("heading", { level: 1, name: `${name}'s Profile` })).toBeVisible();
  await waitForHydration(page);
  return { email, name };
}

/**
 * Holds every `method` request to `path` until `release()`, so a pending state can be seen;
 * `held()` counts the requests waiting. With JavaScript, Remix (single fetch) posts to
 * `<path>.data` and reads the page's data again with a GET of it.
 */
export async function holdRequests(page: Page, path: string, method: "GET" | "POST") {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(
    (url) => url.pathname === path || url.pathname === `${path}.data`,
    async (route) => {
      if (route.request().method() === method) {
        held += 1;
        await released;
      }
      await route.continue();
    },
  );
  return { release, held: () => held };
}

export const toasts = (page: Page, text: string) => page.getByTestId("flash").filter({ hasText: text });
