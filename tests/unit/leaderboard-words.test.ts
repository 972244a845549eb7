import { describe, expect, it } from "vitest";
import { leaderboardUpdated } from "~/content/leaderboard";

describe("the leaderboard's updated line", () => {
  it("says just now under a minute, then whole minutes with the right plural", () => {
    expect(leaderboardUpdated(0)).toBe("Updated just now");
    expect(leaderboardUpdated(1)).toBe("Updated 1 minute ago");
    expect(leaderboardUpdated(14)).toBe("Updated 14 minutes ago");
  });
});
