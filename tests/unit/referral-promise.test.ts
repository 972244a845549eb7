import { describe, expect, it } from "vitest";
import { invitationChecklist, referralCondition, type Invitation } from "~/domain/referral-promise";

describe("what a referral promises, in plain words (docs/decisions/074)", () => {
  it("states the condition with coins of any kind on the demo settings and cleared offer dollars on production ones", () => {
    const terms = { reward: 5, welcomeBonus: 1, qualifyingCoins: 100 };
    expect(referralCondition({ ...terms, qualifyingEarned: null })).toBe(
      "You get $5.00 once your friend verifies their email and earns 100 coins. Your friend gets $1.00 too.",
    );
    expect(referralCondition({ ...terms, qualifyingEarned: 1 })).toBe(
      "You get $5.00 once your friend verifies their email and earns $1.00 from offers (counted once the offer network's hold on it ends). Your friend gets $1.00 too.",
    );
    expect(referralCondition({ ...terms, welcomeBonus: 0, qualifyingEarned: null })).not.toContain("Your friend gets");
  });

  const invited: Invitation = {
    you_get: 1,
    friend_gets: 5,
    email_verified: false,
    requires_earned: true,
    progress: 0.4,
    target: 1,
  };

  it("lists the friend's steps with what is done, the cleared progress, and says when all are done", () => {
    const list = invitationChecklist(invited);
    expect(list.headline).toBe("You get $1.00 and your friend gets $5.00 when you finish these steps.");
    expect(list.steps).toEqual([
      { label: "Create your account", done: true },
      { label: "Verify your email", done: false },
      {
        label: "Earn $1.00 from offers",
        done: false,
        detail: "$0.40 of $1.00 so far. Offer earnings count once their hold ends.",
      },
    ]);
    expect(list.note).toBe("Both bonuses are paid together, once every step is done.");
    const done = invitationChecklist({ ...invited, email_verified: true, progress: 1.5 });
    expect(done.steps.every((step) => step.done)).toBe(true);
    expect(done.steps[2]!.detail).toBe("$1.00 of $1.00 so far. Offer earnings count once their hold ends.");
    expect(done.note).toBe("All done: both bonuses arrive within a few minutes.");
  });

  it("counts coins of any kind when the settings ask for coins", () => {
    const step = invitationChecklist({ ...invited, requires_earned: false, progress: 40, target: 100 }).steps[2];
    expect(step).toEqual({
      label: "Earn 100 coins",
      done: false,
      detail: "40 coins of 100 coins so far, from check-ins and tasks.",
    });
  });
});
