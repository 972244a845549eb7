import { expect, test, type Page } from "@playwright/test";

export function uniqueEmail(prefix: string) {
  return `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/** A returning visitor (onboarding seen) who creates an account through the form and lands on Home. */
export async function signUp(page: Page, prefix = "e2e") {
  const baseURL = test.info().project.use.baseURL!;
  await page.context().addCookies([{ name: "hasSeenOnboarding", value: "true", url: baseURL }]);
  await page.goto("/auth?tab=signup");
  const email = uniqueEmail(prefix);
  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByPlaceholder("Enter your password").fill("e2e-password");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/$/);
  return email;
}

/** A full-page screenshot at the test's viewport (390 px), once the start spinner and the toast's entrance are over. */
export async function screenshot(page: Page, name: string) {
  await expect(page.locator(".start-spinner")).toBeHidden();
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => {
      const name = (animation as CSSAnimation).animationName;
      return name !== "toast-in" || animation.playState === "finished";
    }),
  );
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}
