import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { playwrightFailedPages, playwrightFailures, playwrightFlakes } from "../../scripts/lib/playwright-report.mjs";

// `npm test` prints, for each failed browser attempt, what the page showed (CI keeps no files).
it("the report reader names the failed tests, and prints the page snapshot of each failed attempt (a flaky test's first one included, Playwright's instructions for an AI assistant left out, the same context attached twice printed once) but none of a passed attempt", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "playwright-report-"));
  try {
    const snapshot = (name: string) => {
      const file = path.join(dir, `${name}.md`);
      writeFileSync(file, `# Instructions\n\n- Explain why.\n\n# Page snapshot\n- heading "${name}"`);
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
                      {
                        duration: 1,
                        status: "timedOut",
                        retry: 0,
                        attachments: [...context(snapshot("first")), ...context(snapshot("first"))],
                      },
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

it("the report reader lists a test that passed only on its retry with the first lines of its first attempt's error (of a timeout, the step it stopped in too), colours taken out, and no test that passed at once or failed twice", () => {
  const spec = (
    title: string,
    status: string,
    results: { status: string; error?: { message: string }; errors?: { message: string }[] }[],
  ) => ({
    title,
    tests: [{ projectName: "javascript", status, results: results.map((result) => ({ duration: 1, ...result })) }],
  });
  const suites = [
    {
      title: "my-offers.spec.ts",
      file: "my-offers.spec.ts",
      specs: [
        spec("reports a missing credit", "flaky", [
          {
            status: "failed",
            error: {
              message:
                "\u001b[31mError: expect(locator).toBeVisible() failed\u001b[39m\n\nLocator: getByRole('dialog')\nExpected: visible\nTimeout: 10000ms\nCall log:",
            },
          },
          { status: "passed" },
        ]),
        spec("opens at once", "expected", [{ status: "passed" }]),
        spec("fails twice", "unexpected", [
          { status: "failed", error: { message: "a" } },
          { status: "failed", error: { message: "b" } },
        ]),
      ],
      suites: [
        {
          title: "inner",
          specs: [
            spec("times out once", "flaky", [{ status: "timedOut" }, { status: "passed" }]),
            spec("times out in a click", "flaky", [
              {
                status: "timedOut",
                error: { message: "Test timeout of 60000ms exceeded." },
                errors: [
                  { message: "Test timeout of 60000ms exceeded." },
                  {
                    message:
                      "Error: locator.click: Test timeout of 60000ms exceeded.\nCall log:\n  - waiting for getByRole('link', { name: 'India' })\n    - locator resolved",
                  },
                ],
              },
              { status: "passed" },
            ]),
          ],
        },
      ],
    },
  ];
  expect(playwrightFlakes(suites)).toEqual([
    "tests/e2e/my-offers.spec.ts › [javascript] reports a missing credit\n      Error: expect(locator).toBeVisible() failed\n      Locator: getByRole('dialog')\n      Expected: visible\n      Timeout: 10000ms",
    "tests/e2e/my-offers.spec.ts › [javascript] times out once\n      timedOut",
    "tests/e2e/my-offers.spec.ts › [javascript] times out in a click\n      Test timeout of 60000ms exceeded.\n      Error: locator.click: Test timeout of 60000ms exceeded.\n        - waiting for getByRole('link', { name: 'India' })\n          - locator resolved",
  ]);
});
