import { afterEach, describe, expect, it, vi } from "vitest";
import { optionalSection } from "~/server/db/reads.server";

// One policy for every part of a page that may fail on its own (Home's cards, Profile's sections,
// Earn's list, Withdraw's history, the leaderboard).
describe("optionalSection", () => {
  afterEach(() => vi.restoreAllMocks());

  it("answers the section's data when it loads", async () => {
    expect(await optionalSection("test", Promise.resolve({ rows: 3 }))).toEqual({ rows: 3 });
  });

  it("answers null for a section that failed, and logs which one", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await optionalSection("home: tasks", Promise.reject(new Error("boom")))).toBeNull();
    expect(log).toHaveBeenCalledWith("home: tasks failed to load:", expect.any(Error));
  });

  it("lets a thrown Response through: an outage (503) or an ended session is the whole page's answer", async () => {
    const outage = new Response("down", { status: 503 });
    await expect(optionalSection("home: tasks", Promise.reject(outage))).rejects.toBe(outage);
  });
});
