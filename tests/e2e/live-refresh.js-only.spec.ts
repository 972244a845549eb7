import { expect } from "@playwright/test";
import { test } from "./support";

/** The page's events stream, whatever it asks for (Home adds ?feed=1: the recent cash-outs). */
const isEventStream = (url: string) => new URL(url).pathname === "/api/events";

test("an open Earn page shows a task completed in another tab without a reload", async ({
  page,
  signedIn,
  context,
}) => {
  await signedIn("live", "/earn");
  const row = page.getByRole("link", { name: /Cooking Tips Video/ });
  await expect(row).not.toContainText("Done");
  let loads = 0;
  page.on("load", () => (loads += 1));

  // Another tab of the same person completes the task.
  const other = await context.newPage();
  await other.goto("/earn?task=task-006");
  await other.getByRole("dialog").getByRole("button", { name: "Start Task" }).click();
  await expect(other.getByText("You earned 80 coins ($0.80) — available to withdraw.")).toBeVisible({
    timeout: 15_000,
  });

  await expect(row).toContainText("Done", { timeout: 10_000 });
  expect(loads).toBe(0);
});

test("a live refresh in one tab leaves the flash message of another tab's action to that tab", async ({
  page,
  signedIn,
  context,
}) => {
  await signedIn("flash");
  const watcher = await context.newPage();
  const streamOpen = watcher.waitForResponse((response) => isEventStream(response.url()));
  await watcher.goto("/earn");
  await streamOpen;

  // The acting tab's requests, stopped at the redirect: the completion's message waits in its cookie.
  const start = await page.request.post("/earn?task=task-006", {
    form: { intent: "start", taskId: "task-006" },
    maxRedirects: 0,
  });
  expect(start.status()).toBe(302);
  await page.waitForTimeout(5_200); // the five-second rule under test elsewhere; here only its cost
  const completion = await page.request.post("/earn?task=task-006&started=1", {
    form: { intent: "complete", taskId: "task-006" },
    maxRedirects: 0,
  });
  expect(completion.status()).toBe(302);

  // The watching tab hears of the completion and reloads its data...
  await expect(watcher.getByRole("link", { name: /Cooking Tips Video/ })).toContainText("Done", { timeout: 10_000 });
  // ...without taking the message that belongs to the tab that acted.
  expect((await context.cookies()).map((cookie) => cookie.name)).toContain("__flash");
  await page.goto(completion.headers().location!);
  await expect(page.getByText("You earned 80 coins ($0.80) — available to withdraw.")).toBeVisible();
  await expect(watcher.getByText("You earned 80 coins ($0.80) — available to withdraw.")).toHaveCount(0);
});

test("an open Home page goes to the sign-in screen when its person logs out in another tab, without reconnecting", async ({
  page,
  signedIn,
  context,
}) => {
  const streamOpen = page.waitForResponse((response) => isEventStream(response.url()));
  await signedIn("ended");
  await streamOpen;
  let reconnects = 0;
  page.on("request", (request) => {
    if (isEventStream(request.url())) reconnects += 1;
  });

  const other = await context.newPage();
  await other.goto("/profile");
  await other.getByRole("button", { name: "Log out" }).click();
  await expect(other).toHaveURL(/\/auth$/);

  // Told "signed-out" by the server, the Home tab reloads its data and lands where a signed-out
  // visitor belongs, instead of knocking on the event stream again.
  await expect(page).toHaveURL(/\/auth/, { timeout: 10_000 });
  expect(reconnects).toBe(0);
});
