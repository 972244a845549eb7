import { describe, expect, it } from "vitest";
import { FALLBACK_TASKS } from "~/domain/tasks";
import { HttpClient, html, landing, signedInClient } from "../support/http";

describe("earning over plain HTTP", () => {
  it("shows Home with balance, tiles, check-in, two quick tasks and the leaderboard teaser", async () => {
    const { client } = await signedInClient();
    const { html: body } = await client.visit("/");
    expect(body).toContain("Available Balance");
    expect(body).toContain("Total Earned");
    expect(body).toContain("Referral Bonus");
    // The tile shows what referrals really paid (nothing yet), not the original's fixed 9.25.
    expect(body).toMatch(/data-testid="referral-bonus">\$0\.00</);
    for (let day = 1; day <= 7; day++) expect(body).toContain(`>D<!-- -->${day}<`);
    expect(body).toContain("Check In Now (+10 coins)");
    expect(body).toContain(html(FALLBACK_TASKS[0]!.title));
    expect(body).toContain(html(FALLBACK_TASKS[1]!.title));
    expect(body).not.toContain(html(FALLBACK_TASKS[2]!.title));
    expect(body).toMatch(/>Watch</);
    expect(body).toContain("View All");
    expect(body).toContain("See All");
    expect(body).toContain("View Leaderboard");
  });

  it("checks in once: 10 coins, then Checked In Today, and a second post is refused with Already checked in today! in the card", async () => {
    const { client } = await signedInClient();
    const first = await landing(client, await client.post("/?index", { intent: "checkin" }));
    expect(first.html).toContain("Checked in!");
    expect(first.html).toContain("You earned 10 coins ($0.10) — available to withdraw.");
    expect(first.html).toContain("$0.10");
    expect(first.html).toMatch(/<button[^>]*disabled=""[^>]*>Checked In Today<\/button>/);
    expect(first.html).toMatch(/Next check-in in <!-- -->\d+ (h|min)/);
    const second = await client.post("/?index", { intent: "checkin" });
    expect(second.status).toBe(400);
    const body = await second.text();
    expect(body).toContain("Failed to check in. Please try again.");
    expect(body).toContain("Already checked in today!");
    expect(body).toContain("$0.10");
  });

  it("refuses a check-in without a session", async () => {
    const client = new HttpClient();
    client.cookies.set("hasSeenOnboarding", "true");
    const response = await client.post("/?index", { intent: "checkin" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth");
  });

  it("starts a quick task from Home: an info message, then its dialog on /earn", async () => {
    const { client } = await signedInClient();
    const { location, html: body } = await landing(
      client,
      await client.post("/?index", { intent: "start-task", taskId: "task-001" }),
    );
    expect(location).toBe("/earn?task=task-001");
    expect(body).toContain(html(`Starting "${FALLBACK_TASKS[0]!.title}"`));
    expect(body).toContain("<dialog");
    const unknown = await client.post("/?index", { intent: "start-task", taskId: "task-999" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("This task is no longer available");
  });

  it("says on Earn, beside the earning potential, what coins are worth: 100 coins = $1.00", async () => {
    const { client } = await signedInClient();
    const body = await (await client.get("/earn")).text();
    expect(body).toContain('data-testid="coin-value">Rewards are in coins: 100 coins = $1.00.</span>');
  });

  it("searches and filters tasks through the URL, with the earning potential of what is listed", async () => {
    const client = new HttpClient();
    const all = await (await client.get("/earn")).text();
    expect(all).toContain('placeholder="Search for tasks..."');
    for (const task of FALLBACK_TASKS) expect(all).toContain(html(task.title));
    expect(all).toContain("1,615 coins");
    const surveys = await (await client.get("/earn?type=survey")).text();
    const surveyTasks = FALLBACK_TASKS.filter((task) => task.type === "survey");
    for (const task of FALLBACK_TASKS) expect(surveys.includes(html(task.title))).toBe(task.type === "survey");
    expect(surveys).toContain(`${surveyTasks.reduce((sum, task) => sum + task.reward, 0)} coins`);
    const search = await (await client.get("/earn?q=SURVEY&type=all")).text();
    expect(search).toContain(html("Streaming Services Survey"));
    expect(search).not.toContain(html("Try a Budgeting App"));
    const byDescription = await (await client.get("/earn?q=level%205")).text();
    expect(byDescription).toContain(html("Reach Level 5 in Puzzle Quest"));
    const none = await (await client.get("/earn?q=zzz-nothing&type=game")).text();
    expect(none).toContain("No tasks found matching your criteria");
  });

  it("opens the task dialog from the URL with its details and requirement", async () => {
    const body = await (await new HttpClient().get("/earn?task=task-002")).text();
    expect(body).toContain("<dialog");
    expect(body).toContain(html("Watch a Product Trailer"));
    expect(body).toContain("75 coins");
    expect(body).toContain("2 min");
    expect(body).toContain("Watch the whole video");
    expect(body).toContain(">Cancel<");
    // Signed out: the dialog offers sign-in instead of Start Task.
    expect(body).toContain(">Sign in<");
  });

  it("asks a signed-out visitor to sign in before starting a task", async () => {
    const client = new HttpClient();
    const { html: body } = await landing(
      client,
      await client.post("/earn?task=task-001", { intent: "start", taskId: "task-001" }),
    );
    expect(body).toContain("Authentication required");
    expect(body).toContain("Please sign in to complete this task");
  });

  it("completes a task only five seconds after its start, once, with the server's reward", async () => {
    const { client } = await signedInClient();
    const started = await client.post("/earn?task=task-004", { intent: "start", taskId: "task-004" });
    expect(started.headers.get("location")).toBe("/earn?task=task-004&started=1");
    const tooEarly = await client.post("/earn?task=task-004&started=1", { intent: "complete", taskId: "task-004" });
    expect(tooEarly.status).toBe(400);
    const tooEarlyBody = await tooEarly.text();
    expect(tooEarlyBody).toContain("Task is not finished yet");
    expect(tooEarlyBody).toContain("<dialog");
    await new Promise((resolve) => setTimeout(resolve, 5_200));
    // A reward field in the form is ignored: the server decides.
    const done = await landing(
      client,
      await client.post("/earn?task=task-004&started=1", { intent: "complete", taskId: "task-004", reward: "999999" }),
    );
    expect(done.location).toBe("/earn");
    expect(done.html).toContain("Task Completed");
    expect(done.html).toContain("You earned 150 coins ($1.50) — available to withdraw.");
    expect(done.html).toContain(">Done</span>");
    const home = await client.visit("/");
    expect(home.html).toContain("$1.50");
    const again = await landing(
      client,
      await client.post("/earn?task=task-004", { intent: "start", taskId: "task-004" }),
    );
    expect(again.html).toContain("You have already completed this task");
  });

  it("refuses a task the server does not list", async () => {
    const { client } = await signedInClient();
    const response = await client.post("/earn", { intent: "start", taskId: "made-up-task" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This task is no longer available");
    const malformed = await client.post("/earn", { intent: "start", taskId: "../../etc/passwd" });
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toContain("This task is no longer available");
  });

  it("shows the leaderboard of this month with the signed-in user's row marked", async () => {
    const { client } = await signedInClient();
    await client.post("/?index", { intent: "checkin" });
    const { html: body, response } = await client.visit("/leaderboard");
    expect(response.status).toBe(200);
    expect(body).toContain("Rank");
    expect(body).toContain("Earnings");
    expect(body).toMatch(/aria-current="true"/);
    expect(body).toContain(">You<");
    expect(body).toContain("Rankings reset at the start of each month.");
    const signedOut = await new HttpClient().get("/leaderboard");
    expect(signedOut.headers.get("location")).toBe("/auth?redirectTo=%2Fleaderboard");
  });
});

describe("Earn shows what is left over plain HTTP (decision 069)", () => {
  const FIVE_SECONDS = 5_200;
  const start = (client: HttpClient, taskId: string) =>
    client.post(`/earn?task=${taskId}`, { intent: "start", taskId });
  const complete = (client: HttpClient, taskId: string) =>
    client.post(`/earn?task=${taskId}&started=1`, { intent: "complete", taskId });
  /** The page's HTML after `marker` (where a group starts). */
  const after = (body: string, marker: string) => body.slice(body.indexOf(marker));

  it("counts only open tasks in Earning Potential and lists finished ones under Done, below the open ones", async () => {
    const { client } = await signedInClient();
    expect((await start(client, "task-004")).status).toBe(302);
    await new Promise((resolve) => setTimeout(resolve, FIVE_SECONDS));
    expect((await complete(client, "task-004")).status).toBe(302);
    const body = await (await client.get("/earn")).text();
    // 1,615 coins listed, 150 of them (Try a Budgeting App) already earned.
    expect(body).toMatch(/data-testid="earning-potential">1,465 coins</);
    expect(body).toContain('aria-label="Done tasks"');
    const open = body.slice(body.indexOf('aria-label="Tasks"'), body.indexOf('aria-label="Done tasks"'));
    expect(open).not.toContain(html("Try a Budgeting App"));
    for (const task of FALLBACK_TASKS.filter((task) => task.id !== "task-004"))
      expect(open).toContain(html(task.title));
    expect(after(body, 'aria-label="Done tasks"')).toContain(html("Try a Budgeting App"));
    expect(body.indexOf(">Done</h2>")).toBeGreaterThan(body.indexOf('aria-label="Tasks"'));
  });

  it("says every task is done and that no others are planned yet when the app's own tasks are all finished", async () => {
    const { client } = await signedInClient();
    for (const task of FALLBACK_TASKS) expect((await start(client, task.id)).status).toBe(302);
    await new Promise((resolve) => setTimeout(resolve, FIVE_SECONDS));
    for (const task of FALLBACK_TASKS) expect((await complete(client, task.id)).status).toBe(302);
    const body = await (await client.get("/earn")).text();
    expect(body).toContain(html("You've finished every task."));
    expect(body).toContain("There are no other tasks for now. Any new ones will appear here.");
    expect(body).not.toContain("Earning Potential");
    expect(body).not.toContain("No tasks found matching your criteria");
    for (const task of FALLBACK_TASKS) expect(after(body, 'aria-label="Done tasks"')).toContain(html(task.title));
    const videos = await (await client.get("/earn?type=video")).text();
    expect(videos).toContain(html("You've finished every task that matches your criteria."));
  });

  it("reopens a started task with Complete Task and the time it can be completed from, and says it again when pressed early", async () => {
    const { client } = await signedInClient();
    const before = Date.now();
    expect((await start(client, "task-005")).status).toBe(302);
    const after = Date.now();
    // Left and opened again from the list: the URL says nothing about the start, the server does.
    const reopened = await (await client.get("/earn?task=task-005")).text();
    expect(reopened).toContain(">Complete Task<");
    expect(reopened).not.toContain(">Start Task<");
    const time = /You started this task\. You can complete it from (\d\d):(\d\d):(\d\d) UTC\./.exec(reopened);
    expect(time).not.toBeNull();
    const [hours, minutes, seconds] = time!.slice(1).map(Number) as [number, number, number];
    const shown = (hours * 3600 + minutes * 60 + seconds) * 1000;
    const dayMs = 24 * 3600 * 1000;
    // The start plus five seconds, to the second.
    const earliest = Math.floor(((before + 5_000) % dayMs) / 1000) * 1000;
    const latest = Math.floor(((after + 5_000) % dayMs) / 1000) * 1000;
    expect(shown).toBeGreaterThanOrEqual(earliest);
    expect(shown).toBeLessThanOrEqual(latest);
    const early = await complete(client, "task-005");
    expect(early.status).toBe(400);
    const earlyBody = await early.text();
    expect(earlyBody).toContain("Task is not finished yet");
    expect(earlyBody).toContain(`You can complete it from ${time![1]}:${time![2]}:${time![3]} UTC.`);
    await new Promise((resolve) => setTimeout(resolve, FIVE_SECONDS));
    const ready = await (await client.get("/earn?task=task-005")).text();
    expect(ready).toContain("You started this task. You can complete it now.");
    expect(ready).toContain(">Complete Task<");
    // Another person's start is not this one's.
    const { client: other } = await signedInClient();
    const theirs = await (await other.get("/earn?task=task-005")).text();
    expect(theirs).toContain(">Start Task<");
    expect(theirs).not.toContain("You started this task");
  });

  // Issue 36, point 10 (docs/decisions/085): the time a task can be completed from, in the zone the
  // person's browser reported (the tz cookie); UTC, labelled, when it reported none, UTC or an unknown one.
  it("says when a started task can be completed in the person's time zone from the tz cookie, and in UTC labelled without a known one", async () => {
    const { client } = await signedInClient();
    const before = Date.now();
    expect((await start(client, "task-007")).status).toBe(302);
    const after = Date.now();
    const shownIn = async (zone: string | null) => {
      if (zone === null) client.cookies.delete("tz");
      else client.cookies.set("tz", zone);
      const page = await (await client.get("/earn?task=task-007")).text();
      return /You started this task\. You can complete it from ([^.<]+)\./.exec(page)?.[1];
    };
    const utc = await shownIn(null);
    const [hours, minutes, second] = (/^(\d\d):(\d\d):(\d\d) UTC$/.exec(utc ?? "") ?? []).slice(1).map(Number);
    expect(utc, "a UTC time, labelled").toMatch(/ UTC$/);
    // The moment shown: the start plus five seconds, whose UTC time of day was written.
    const seconds = Array.from(
      { length: Math.floor((after + 5_000) / 1000) - Math.floor((before + 5_000) / 1000) + 1 },
      (_, index) => new Date((Math.floor((before + 5_000) / 1000) + index) * 1000),
    );
    const readyAt = seconds.find(
      (at) => at.getUTCHours() === hours && at.getUTCMinutes() === minutes && at.getUTCSeconds() === second,
    );
    expect(readyAt, `${utc} is the start plus five seconds`).toBeDefined();
    for (const zone of ["Asia/Kolkata", "America/Los_Angeles", "Pacific/Kiritimati"]) {
      const local = new Intl.DateTimeFormat("en-US", {
        hour: "numeric",
        minute: "2-digit",
        second: "2-digit",
        timeZone: zone,
      })
        .format(readyAt)
        .replace(/\s/u, " ");
      expect(await shownIn(zone), zone).toBe(local);
      // As the browser's script writes it now: the zone, then the offset it was checked at (decision 104).
      expect(await shownIn(`${zone}:-330`), `${zone}:-330`).toBe(local);
    }
    // UTC itself, a name no zone has, and a value that is no name: UTC, labelled, as with no cookie.
    for (const value of [
      "UTC",
      "UTC:0",
      "Mars/Olympus_Mons",
      "Mars/Olympus_Mons:0",
      "Asia%2FKolkata",
      "Asia/Kolkata:x",
    ])
      expect(await shownIn(value), value).toBe(utc);
  });

  it("offers a finished task's dialog only a full-width Close", async () => {
    const { client } = await signedInClient();
    expect((await start(client, "task-002")).status).toBe(302);
    await new Promise((resolve) => setTimeout(resolve, FIVE_SECONDS));
    expect((await complete(client, "task-002")).status).toBe(302);
    const body = await (await client.get("/earn?task=task-002")).text();
    expect(body).toContain("You have completed this task.");
    expect(body).toMatch(/<a [^>]*class="[^"]*\bw-full\b[^"]*"[^>]*>Close<\/a>/);
    expect(body).not.toContain(">Cancel<");
    expect(body).not.toContain("You started this task");
  });
});
