import { describe, expect, it } from "vitest";
import { parseSubmission, UNREADABLE_FORM_MESSAGE } from "~/server/http/forms.server";
import { caseFields, type Case } from "../support/bad-input";
import { CONSOLE_SCHEMA_CASES } from "../support/bad-input-console";
import { PAGE_SCHEMA_CASES } from "../support/bad-input-pages";

// The bad-input suite's sweeps (issue 10; tests/support/bad-input.ts) checked against the schema each
// page's action reads its forms with, without a server: every number, unicode, markup and field-specific
// value that the schema refuses gets the message the route must show, or is a form the page cannot
// have sent (the route's 400 "could not be read" page). The HTTP suite (tests/http/bad-input-*.test.ts)
// sends, for each field, the values that show the route answers with what its schema says, and every
// value the schema lets through to the server's own checks (`splitBySchema`).

function describeSchemaCases(group: string, cases: Case[]) {
  describe(`bad input against the schemas (${group}): each swept value gets the route's message`, () => {
    for (const c of cases) {
      const answer = c.answer;
      const expected = "message" in answer ? `${answer.status} "${answer.message}"` : JSON.stringify(answer);
      it(`${c.module} ${c.path.slice(0, 40)}: ${c.what} → ${expected}`, () => {
        const submission = parseSubmission(caseFields(c)!, c.sweep!.schema!);
        expect("message" in answer && answer.status === 400, "a schema's refusal is a 400 with a message").toBe(true);
        const message = "message" in answer ? answer.message : "";
        if (message === UNREADABLE_FORM_MESSAGE) {
          expect(submission, "a form the page cannot have sent").toBeNull();
          return;
        }
        if (!submission || submission.status === "success") throw new Error("the schema took the form");
        const messages = Object.values(submission.error ?? {}).flatMap((errors) => errors ?? []);
        expect(messages).toContain(message);
      });
    }
  });
}

describeSchemaCases("the pages", PAGE_SCHEMA_CASES);
describeSchemaCases("the console", CONSOLE_SCHEMA_CASES);

describe("bad input against the schemas: the split", () => {
  it("checks a swept value of every page and console form with a schema (none silently sent over HTTP alone)", () => {
    const modules = new Set([...PAGE_SCHEMA_CASES, ...CONSOLE_SCHEMA_CASES].map((c) => c.module));
    expect([...modules].sort()).toEqual(
      [
        "_index/route.tsx",
        "auth/route.tsx",
        "earn/route.tsx",
        "earn_.offers/route.tsx",
        "levels/route.tsx",
        "profile/route.tsx",
        "settings/route.tsx",
        "withdraw/route.tsx",
        "admin.settings/route.tsx",
        "admin.codes/route.tsx",
        "admin.prizes/route.tsx",
        "admin.withdrawals/route.tsx",
        "admin.withdrawals_.$withdrawalId/route.tsx",
        "admin.people_.$userId/route.tsx",
        "admin.support_.$kind.$ticketId/route.tsx",
        "admin_.2fa/route.tsx",
      ].sort(),
    );
  });
});
