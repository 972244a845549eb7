import { expect, type Page } from "@playwright/test";
import { screenshot, settled, test } from "./support";

// Runs with JavaScript on and off: every earning form must work both ways.
const tasks = (page: Page) => page.getByRole("list", { name: "Tasks" }).getByRole("listitem");

test("daily check-in credits 10 coins once", async ({ page, signedIn }) => {
  await signedIn();
  await page.getByRole("button", { name: "Check In Now (+10 coins)" }).click();
  await expect(page.getByText("You earned 10 coins ($0.10) — available to withdraw.")).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$0.10");
  await expect(page.getByTestId("total-earned")).toHaveText("$0.10");
  await expect(page.getByRole("button", { name: "Checked In Today" })).toBeDisabled();
  await expect(page.getByText(/^Next check-in in \d+ (h|min)$/)).toBeVisible();
  await screenshot(page, "home-checked-in");
});

test("buttons keep their variant's size: the small Start and Edit Profile are 44 px (a tap target's least), the full-width ones 48 px", async ({
  page,
  signedIn,
}) => {
  await signedIn();
  const height = async (role: "button" | "link", name: string) =>
    (await page.getByRole(role, { name, exact: true }).first().boundingBox())!.height;
  expect(await height("button", "Start")).toBe(44);
  expect(await height("button", "Check In Now (+10 coins)")).toBe(48);
  await page.goto("/profile");
  expect(await height("link", "Edit Profile")).toBe(44);
  expect(await height("button", "Log out")).toBe(48);
});

test("search and filter chips narrow the task list", async ({ page }) => {
  await page.goto("/earn");
  await expect(page.getByRole("heading", { name: "Earn Rewards" })).toBeVisible();
  await expect(tasks(page)).toHaveCount(11);
  await page.getByRole("link", { name: "Videos", exact: true }).click();
  await expect(page.getByRole("link", { name: "Videos", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(tasks(page)).toHaveCount(3);
  await expect(page.getByTestId("earning-potential")).toHaveText("285 coins");
  await page.getByRole("link", { name: "All", exact: true }).click();
  // The search form carries the chosen filter: search once All's page has arrived, not Videos'.
  await expect(page.getByRole("link", { name: "All", exact: true })).toHaveAttribute("aria-current", "page");
  const search = page.getByRole("searchbox", { name: "Search for tasks" });
  await search.fill("survey");
  await search.press("Enter");
  await expect(page).toHaveURL(/q=survey/);
  await expect(tasks(page)).toHaveCount(3);
  await search.fill("no such task anywhere");
  await search.press("Enter");
  await expect(page.getByText("No tasks found matching your criteria")).toBeVisible();
});

test("the task dialog starts a task and completes it five seconds later", async ({
  page,
  signedIn,
  javaScriptEnabled,
}) => {
  await signedIn(undefined, "/earn");
  // With JavaScript the dialog counts down in the page: start it once React runs the page.
  await settled(page);
  await page.getByRole("link", { name: /Try a Budgeting App/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Try a Budgeting App" })).toBeVisible();
  await expect(dialog.getByText("150 coins")).toBeVisible();
  await screenshot(page, "task-dialog");
  await settled(page);
  await dialog.getByRole("button", { name: "Start Task" }).click();
  if (javaScriptEnabled) {
    // The page sends the completion by itself when the five seconds are up.
    await expect(dialog.getByRole("button", { name: /Wait \ds/ })).toBeDisabled();
  } else {
    await expect(dialog.getByRole("button", { name: "Complete Task" })).toBeVisible();
    await page.waitForTimeout(5_200);
    await dialog.getByRole("button", { name: "Complete Task" }).click();
  }
  await expect(page.getByText("Task Completed")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("You earned 150 coins ($1.50) — available to withdraw.")).toBeVisible();
  await expect(page.getByRole("link", { name: /Try a Budgeting App/ })).toContainText("Done");
  await page.getByRole("link", { name: "Home" }).click();
  await expect(page.getByTestId("balance")).toHaveText("$1.50");
});

test("a started task left and opened again offers Complete Task: a live count with JavaScript, the time it can be completed without", async ({
  page,
  signedIn,
  javaScriptEnabled,
}) => {
  await signedIn(undefined, "/earn?task=task-009");
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Start Task" }).click();
  await expect(dialog.getByTestId("task-started")).toBeVisible();
  // Left before the five seconds are up, then opened again from the list.
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByRole("link", { name: /Streaming Services Survey/ }).click();
  await expect(dialog.getByRole("button", { name: "Start Task" })).toHaveCount(0);
  await expect(dialog.getByTestId("task-started")).toHaveText(
    /^You started this task\. You can complete it (from \d\d:\d\d:\d\d UTC|now)\.$/,
  );
  if (javaScriptEnabled) {
    // Time left when it opened: the count goes on from it and sends the completion by itself when
    // it ends, so the earned message below comes with no press. (The count's "Wait Ns" is checked
    // where a task starts; here it may end before any look.) A machine too busy to reopen it within
    // the five seconds finds it ready, and a ready task waits for the press.
    const said = await dialog.getByTestId("task-started").textContent();
    if (!said?.includes(" from ")) await dialog.getByRole("button", { name: "Complete Task" }).click();
  } else {
    await page.waitForTimeout(5_200);
    await page.reload();
    await expect(dialog.getByTestId("task-started")).toHaveText("You started this task. You can complete it now.");
    await dialog.getByRole("button", { name: "Complete Task" }).click();
  }
  await expect(page.getByText("You earned 160 coins ($1.60) — available to withdraw.")).toBeVisible({
    timeout: 15_000,
  });
  // Finished: under Done, and its dialog offers only Close.
  await expect(page.getByRole("list", { name: "Done tasks" })).toContainText("Streaming Services Survey");
  await page.getByRole("link", { name: /Streaming Services Survey/ }).click();
  await expect(dialog.getByRole("link", { name: "Cancel" })).toHaveCount(0);
  await dialog.getByRole("link", { name: "Close" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("cancel closes the dialog", async ({ page }) => {
  await page.goto("/earn?task=task-006");
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.getByRole("dialog").getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/earn$/);
});

test("the leaderboard lists this month's earners with the user's own row", async ({ page, signedIn }) => {
  await signedIn();
  await page.getByRole("button", { name: "Check In Now (+10 coins)" }).click();
  await expect(page.getByRole("button", { name: "Checked In Today" })).toBeVisible();
  await page.getByRole("link", { name: "View Leaderboard" }).click();
  await expect(page.getByRole("heading", { name: "Leaderboard", exact: true, level: 1 })).toBeVisible();
  const mine = page.locator('tr[aria-current="true"]');
  await expect(mine).toContainText("You");
  await expect(page.getByRole("columnheader", { name: "Rank" })).toBeVisible();
  await screenshot(page, "leaderboard");
  await page.getByRole("link", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/$/);
});

// Issue 36, point 10 (docs/decisions/085): times in the person's own zone. The browser's script
// tells the server its zone (the tz cookie); without JavaScript the server knows none until a page
// with it has run, and writes UTC, labelled.
test.describe("in a browser on Kiritimati time (UTC+14, no summer time)", () => {
  test.use({ timezoneId: "Pacific/Kiritimati" });

  test("a started task says when it can be completed in the browser's time zone with JavaScript, in UTC labelled without until the tz cookie names the zone", async ({
    page,
    context,
    signedIn,
    javaScriptEnabled,
  }) => {
    // With JavaScript the task sends its completion by itself five seconds after the start: held
    // (never answered), so the started line stays to be read however busy the machine is.
    await page.route(
      (url) => url.pathname === "/earn" || url.pathname === "/earn.data",
      async (route) =>
        route.request().method() === "POST" && route.request().postData()?.includes("intent=complete")
          ? undefined
          : route.continue(),
    );
    await signedIn(undefined, "/earn?task=task-010");
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Start Task" }).click();
    const started = dialog.getByTestId("task-started");
    if (javaScriptEnabled) {
      await expect(started).toHaveText(/^You started this task\. You can complete it from \d{1,2}:\d\d:\d\d [AP]M\.$/);
      const cookies = await context.cookies();
      expect(cookies.find((cookie) => cookie.name === "tz")?.value).toBe("Pacific/Kiritimati:-840");
      await screenshot(page, "task-started-local-time");
      return;
    }
    const utc = /from (\d\d):(\d\d):(\d\d) UTC\.$/.exec((await started.textContent()) ?? "");
    expect(utc, "a UTC time, labelled").not.toBeNull();
    const [hours, minutes, seconds] = utc!.slice(1).map(Number) as [number, number, number];
    // As a page with JavaScript would have left it: the server now writes Kiritimati's time.
    await context.addCookies([{ name: "tz", value: "Pacific/Kiritimati", url: page.url() }]);
    await page.reload();
    const local = (hours + 14) % 24;
    const twelve = local % 12 === 0 ? 12 : local % 12;
    const pad = (value: number) => String(value).padStart(2, "0");
    await expect(started).toHaveText(
      `You started this task. You can complete it from ${twelve}:${pad(minutes)}:${pad(seconds)} ${local < 12 ? "AM" : "PM"}.`,
    );
    await screenshot(page, "task-started-local-time");
  });
});
