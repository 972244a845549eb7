// @ts-check
// Reading Playwright's JSON report (its "json" reporter) for `npm test`'s summary (scripts/test.mjs).
import { readFileSync } from "node:fs";

/**
 * @typedef {{ duration: number, status?: string, retry?: number, attachments?: { name: string, path?: string }[] }} PlaywrightResult
 * @typedef {{ title: string, tests?: { projectName: string, status: string, results?: PlaywrightResult[] }[] }} PlaywrightSpec
 * @typedef {{ title: string, file?: string, specs?: PlaywrightSpec[], suites?: PlaywrightSuite[] }} PlaywrightSuite
 */

/**
 * The failed tests of a Playwright JSON report, `file › [project] title`.
 * @param {PlaywrightSuite[]} suites
 * @param {string} [file]
 * @returns {string[]}
 */
export function playwrightFailures(suites, file = "") {
  return suites.flatMap((suite) => {
    const where = suite.file ?? file;
    const own = (suite.specs ?? []).flatMap((spec) =>
      (spec.tests ?? [])
        .filter((test) => test.status === "unexpected")
        .map((test) => `tests/e2e/${where} › [${test.projectName}] ${spec.title}`),
    );
    return [...own, ...playwrightFailures(suite.suites ?? [], where)];
  });
}

/**
 * What the page showed when each failed attempt ended (Playwright's "error-context": the page's
 * accessibility tree), printed into the log: a CI machine keeps no files, and a flake that passes
 * on its retry is otherwise known only by its name.
 * @param {PlaywrightSuite[]} suites
 * @param {string} [file]
 * @returns {string[]}
 */
export function playwrightFailedPages(suites, file = "") {
  return suites.flatMap((suite) => {
    const where = suite.file ?? file;
    const own = (suite.specs ?? []).flatMap((spec) =>
      (spec.tests ?? []).flatMap((test) =>
        (test.results ?? [])
          .filter((result) => result.status !== "passed" && result.status !== "skipped")
          .flatMap((result) =>
            (result.attachments ?? [])
              .filter((attachment) => attachment.name === "error-context" && attachment.path)
              .map((attachment) => {
                let text;
                try {
                  text = readFileSync(/** @type {string} */ (attachment.path), "utf8");
                } catch {
                  text = "(not written)";
                }
                const lines = text.split("\n");
                const shown = lines.slice(0, 150).join("\n") + (lines.length > 150 ? "\n…" : "");
                return `── tests/e2e/${where} › [${test.projectName}] ${spec.title}, failed attempt ${(result.retry ?? 0) + 1}:\n${shown}`;
              }),
          ),
      ),
    );
    return [...own, ...playwrightFailedPages(suite.suites ?? [], where)];
  });
}
