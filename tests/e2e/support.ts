import { expect, test, type Page } from "@playwright/test";
import { uniqueEmail } from "../support/http";

// One maker of test addresses for every suite.
export { uniqueEmail } from "../support/http";

/** A returning visitor (onboarding seen) who creates an account through the form and lands on Home. */
export async function signUp(page: Page, prefix = "e2e", baseURL = test.info().project.use.baseURL!) {
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

/** Opens the link of the newest verification email the Auth emulator "sent" to `email`. */
export async function openVerificationLink(email: string) {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const response = await fetch(`http://${host}/emulator/v1/projects/demo-rewards/oobCodes`);
  const { oobCodes } = (await response.json()) as {
    oobCodes: { email: string; requestType: string; oobLink: string }[];
  };
  const code = oobCodes.findLast((oob) => oob.email === email && oob.requestType === "VERIFY_EMAIL");
  expect(code, "a verification email").toBeDefined();
  expect((await fetch(code!.oobLink)).ok).toBe(true);
}

/** Earns $6.30 the way a person does: three tasks (started together, completed after the five seconds). */
export async function earnSixDollars(page: Page) {
  const tasks = ["task-008", "task-003", "task-007"]; // 250 + 200 + 180 coins
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
