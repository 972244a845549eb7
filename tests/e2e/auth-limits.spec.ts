import { expect, test } from "@playwright/test";
import { uniqueEmail } from "./support";

test("a sign-in over the per-email limit answers 429 and the form's banner says Too many attempts. Please try again in N minutes.", async ({
  page,
  request,
  context,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  // Ten wrong guesses use up this (new) address's sign-ins for 15 minutes; nobody else is affected.
  const email = uniqueEmail("limited");
  for (let attempt = 0; attempt < 10; attempt++) {
    const response = await request.post("/auth", {
      form: { intent: "signin", email, password: "wrong-password" },
      headers: { origin: new URL(baseURL).origin },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
  }

  await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: baseURL }]);
  await page.goto("/auth");
  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByPlaceholder("Enter your password").fill("wrong-password");
  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: "Sign In" }).click();
  expect((await answer).status()).toBe(429);
  await expect(page.getByRole("alert")).toHaveText(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
  await expect(page).toHaveURL(/\/auth/);
  // The email stays in the form.
  await expect(page.getByPlaceholder("Enter your email")).toHaveValue(email);
});
