import { expect, test } from "@playwright/test";
import { uniqueEmail } from "./support";

test("a sign-in slowed down past ten failures answers 429 and the form's banner says Too many attempts. Please try again in N seconds.", async ({
  page,
  request,
  context,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  const email = uniqueEmail("limited");
  await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: baseURL }]);
  await page.goto("/auth");
  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByPlaceholder("Enter your password").fill("wrong-password");

  // Ten failures at full speed, then an eleventh at the slowed-down pace's turn (one per 10 s);
  // nobody else is affected.
  for (let attempt = 0; attempt < 11; attempt++) {
    const response = await request.post("/auth", {
      form: { intent: "signin", email, password: "wrong-password" },
      headers: { origin: new URL(baseURL).origin },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
  }

  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: "Sign In" }).click();
  expect((await answer).status()).toBe(429);
  await expect(page.getByRole("alert")).toHaveText(/^Too many attempts\. Please try again in \d+ seconds?\.$/);
  await expect(page).toHaveURL(/\/auth/);
  // The email stays in the form.
  await expect(page.getByPlaceholder("Enter your email")).toHaveValue(email);
});
