import { expect, type Page } from "@playwright/test";
import { test, PASSWORD } from "./support";
import { FULL_BROWSER } from "./full-browser";

// Log out deletes this browser's push token on the server (through the __push_device cookie that
// registering it set). No FCM is reachable here, so the token is registered the way the Profile
// screen does once FCM has given one: a same-origin fetch to /api/push-tokens, and the token kept
// in localStorage.

test.use({ launchOptions: FULL_BROWSER });

const STORED_PUSH_TOKEN = "rewards:push-token";
const notEnabledHere = (page: Page) => page.getByText("On this device: not enabled yet.");
const enabledHere = (page: Page) => page.getByText("On this device: enabled.");

test("after a log out, this browser's push token is gone: signed in again, Profile says push is not enabled on this device and does not register the old token unasked", async ({
  page,
  signedIn,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["notifications"], { origin: baseURL });
  const email = await signedIn("pushlogout");
  const token = `fcm-e2e-${Date.now().toString(36)}-${"x".repeat(40)}`;
  await page.goto("/profile");
  const status = await page.evaluate(
    async ([key, value]) => {
      const response = await fetch("/api/push-tokens", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ intent: "register", token: value }),
      });
      localStorage.setItem(key!, value!);
      return response.status;
    },
    [STORED_PUSH_TOKEN, token],
  );
  expect(status).toBe(200);
  expect((await context.cookies()).map((cookie) => cookie.name)).toContain("__push_device");

  // Registered: Profile finds this device's token on the server and says it is enabled here.
  await page.reload();
  await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
  await expect(enabledHere(page)).toBeVisible();
  await expect(notEnabledHere(page)).toHaveCount(0);

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain("__push_device");
  // Every call about push tokens from here on: signed in again, nothing registers the old token.
  const intents: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/push-tokens") {
      intents.push((JSON.parse(request.postData() ?? "{}") as { intent?: string }).intent ?? "");
    }
  });
  await page.getByPlaceholder("Enter your email").fill(email);
  await page.getByPlaceholder("Enter your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto("/profile");
  await expect(notEnabledHere(page)).toBeVisible();
  await expect(enabledHere(page)).toHaveCount(0);
  expect(await page.evaluate((key) => localStorage.getItem(key), STORED_PUSH_TOKEN)).toBeNull();
  // At most the check that finds the old token gone (no register).
  expect(intents.filter((intent) => intent !== "status")).toEqual([]);
});
