import { describe, expect, it } from "vitest";
import { ruleMessage } from "~/domain/rules";
import { FEEDBACK_MESSAGES } from "~/routes/profile/profile-forms";
import { html, signedInClient } from "../support/http";

// The feedback form's old email pattern backtracked for 2.3 s on this address, before any length
// check or allowance: one post held the server's event loop that long.
const BACKTRACKING_EMAIL = "a@" + ".".repeat(65_000) + "@";

describe("the feedback form's email check cannot stall the server", () => {
  // No timer: the answer names the length rule, and the email pattern itself is bounded by work in
  // tests/unit/pattern-backtracking.test.ts.
  it("a 65,000-character email is refused on its length (the too-long message), three times over", async () => {
    const { client, email } = await signedInClient();
    const send = (address: string) =>
      client.post("/profile?tab=help", { intent: "feedback", name: "Ana", email: address, message: "Hi" });
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await send(BACKTRACKING_EMAIL);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(html(ruleMessage("feedback_too_long")));
    }
    // Refused on length, so the hourly allowance is untouched: five good messages still go through.
    for (let index = 0; index < 5; index++) expect((await send(email)).status).toBe(302);
  });

  it("uses the sign-in form's email rule: a 254-character address of the HTML standard's form is taken, one that is not is refused", async () => {
    const { client } = await signedInClient();
    const send = (address: string) =>
      client.post("/profile?tab=help", { intent: "feedback", name: "Ana", email: address, message: "Hi" });
    const longest = "a".repeat(64) + "@" + ["b".repeat(63), "c".repeat(63), "d".repeat(61)].join(".");
    expect(longest).toHaveLength(254);
    expect((await send(longest)).status).toBe(302);
    const refused = await send("a@b..c");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(html(FEEDBACK_MESSAGES.invalidEmail));
  });
});
