import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../support/app-server";

// What the server writes about requests (issue 33, docs/security.md, "Logs"): the console's
// queries (an operator searching for a person's email) never reach the access log, and a data
// request the app refuses is one line, never a stack trace.
describe("the server's logs", () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    app = await startTestApp({}, undefined, { captureStdout: true });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  it("logs an /admin URL without its query: a searched email is not in the access log, the path is", async () => {
    const before = app.stdout().length;
    await fetch(`${app.url}/admin/people?q=priya.secret%40example.com`, { redirect: "manual" });
    await fetch(`${app.url}/admin/people.data?q=priya.secret%40example.com`, { redirect: "manual" });
    await fetch(`${app.url}/leaderboard?keep=this`, { redirect: "manual" });
    // morgan writes after the answer is sent: wait for the line of the last request.
    for (let tries = 0; tries < 100 && !app.stdout().slice(before).includes("/leaderboard"); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const log = app.stdout().slice(before);
    expect(log).toContain("GET /admin/people?[redacted]");
    expect(log).toContain("GET /admin/people.data?[redacted]");
    expect(log).not.toMatch(/priya|secret|%40example/);
    // Elsewhere the query is kept, as before.
    expect(log).toContain("GET /leaderboard?keep=this");
  });

  it("a ?_data= request naming no route, and a .data request for no page, write at most one line each and no stack", async () => {
    const before = app.stderr().length;
    const responses = await Promise.all([
      fetch(`${app.url}/?_data=routes%2Fnot-a-route`),
      fetch(`${app.url}/leaderboard?_data=root`),
      fetch(`${app.url}/no-such-page.data`),
    ]);
    for (const response of responses) expect(response.status).toBeLessThan(500);
    const written = app.stderr().slice(before);
    expect(written).not.toMatch(/^\s+at /m);
    expect(written).not.toContain("Single fetch-enabled apps");
    expect(written.split("\n").filter(Boolean).length).toBeLessThanOrEqual(responses.length);
  });
});
