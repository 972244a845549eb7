import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { playwrightFailedPages, playwrightFailures } from "../../scripts/lib/playwright-report.mjs";

// `npm test` prints, for each failed browser attempt, what the page showed (CI keeps no files).
it("the report reader names the failed tests, and prints the page snapshot of each failed attempt (a flaky test's first one included) but none of a passed attempt", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "playwright-report-"));
  try {
    const snapshot = (name: string) => {
      const file = path.join(dir, `${name}.md`);
      writeFileSync(file, `# Page snapshot\n- heading "${name}"`);
      return file;
    };
    const context = (file: string) => [{ name: "error-context", path: file }];
    const suites = [
      {
        title: "cash-out.spec.ts",
        file: "cash-out.spec.ts",
        specs: [
          {
            title: "opens the history",
            tests: [
              {
                projectName: "javascript",
                status: "flaky",
                results: [
                  { duration: 1, status: "failed", retry: 0, attachments: context(snapshot("Withdraw Money")) },
                  { duration: 1, status: "passed", retry: 1, attachments: context(snapshot("never shown")) },
                ],
              },
            ],
          },
        ],
        suites: [
          {
            title: "inner",
            specs: [
              {
                title: "fails twice",
                tests: [
                  {
                    projectName: "no-javascript",
                    status: "unexpected",
                    results: [
                      { duration: 1, status: "timedOut", retry: 0, attachments: context(snapshot("first")) },
                      { duration: 1, status: "failed", retry: 1, attachments: context(path.join(dir, "missing.md")) },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ];
    expect(playwrightFailures(suites)).toEqual(["tests/e2e/cash-out.spec.ts › [no-javascript] fails twice"]);
    const pages = playwrightFailedPages(suites);
    expect(pages).toHaveLength(3);
    expect(pages[0]).toBe(
      '── tests/e2e/cash-out.spec.ts › [javascript] opens the history, failed attempt 1:\n# Page snapshot\n- heading "Withdraw Money"',
    );
    expect(pages[1]).toContain('[no-javascript] fails twice, failed attempt 1:\n# Page snapshot\n- heading "first"');
    expect(pages[2]).toContain("[no-javascript] fails twice, failed attempt 2:\n(not written)");
    expect(pages.join("\n")).not.toContain("never shown");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
