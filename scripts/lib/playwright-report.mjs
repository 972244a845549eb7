// @ts-check
// Reading Playwright's JSON report (its "json" reporter) for `npm test`'s summary (scripts/test.mjs).
import { readFileSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";

/**
 * @typedef {{ duration: number, status?: string, retry?: number, error?: { message?: string }, errors?: { message?: string }[], attachments?: { name: string, path?: string }[] }} PlaywrightResult
 * @typedef {{ title: string, tests?: { projectName: string, status: string, results?: PlaywrightResult[] }[] }} PlaywrightSpec
 * @typedef {{ title: string, file?: string, specs?: PlaywrightSpec[], suites?: PlaywrightSuite[] }} PlaywrightSuite
 */

/**
 * @typedef {NonNullable<PlaywrightSpec["tests"]>[number]} PlaywrightTest
 * @typedef {{ file: string, name: string, test: PlaywrightTest }} NamedTest
 */

/**
 * Every test of a Playwright JSON report, however deep its describe blocks: its spec file
 * (`tests/e2e/…`), its name as the log gives it (`file › [project] title`) and its results.
 * @param {PlaywrightSuite[]} suites
 * @param {string} [file]
 * @returns {NamedTest[]}
 */
export function playwrightTests(suites, file = "") {
  return suites.flatMap((suite) => {
    const where = `tests/e2e/${suite.file ?? file}`;
    const own = (suite.specs ?? []).flatMap((spec) =>
      (spec.tests ?? []).map((test) => ({ file: where, name: `${where} › [${test.projectName}] ${spec.title}`, test })),
    );
    return [...own, ...playwrightTests(suite.suites ?? [], suite.file ?? file)];
  });
}

/**
 * The failed tests of a Playwright JSON report, `file › [project] title`.
 * @param {PlaywrightSuite[]} suites
 * @returns {string[]}
 */
export function playwrightFailures(suites) {
  return playwrightTests(suites)
    .filter(({ test }) => test.status === "unexpected")
    .map(({ name }) => name);
}

/**
 * What the page showed when each failed attempt ended (Playwright's "error-context": the page's
 * accessibility tree), printed into the log: a CI machine keeps no files, and a flake that passes
 * on its retry is otherwise known only by its name.
 * @param {PlaywrightSuite[]} suites
 * @returns {string[]}
 */
export function playwrightFailedPages(suites) {
  return playwrightTests(suites).flatMap(({ name, test }) =>
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
            // Playwright opens the file with instructions for an AI assistant: not the log's business.
            const lines = text.replace(/^# Instructions\n[\s\S]*?(?=^# )/m, "").split("\n");
            const shown = lines.slice(0, 150).join("\n") + (lines.length > 150 ? "\n…" : "");
            return `── ${name}, failed attempt ${(result.retry ?? 0) + 1}:\n${shown}`;
          })
          // A test that timed out can carry the same context twice (the timeout, and the step it stopped).
          .filter((page, index, pages) => pages.indexOf(page) === index),
      ),
  );
}

/**
 * The tests that passed only on a retry, `file › [project] title: why the first attempt failed`
 * (the first lines of its error), for the summary at the end of the log, which a CI page that
 * shows only the log's tail still holds.
 * @param {PlaywrightSuite[]} suites
 * @returns {string[]}
 */
export function playwrightFlakes(suites) {
  return playwrightTests(suites)
    .filter(({ test }) => test.status === "flaky")
    .map(({ name, test }) => {
      const first = (test.results ?? []).find((result) => result.status !== "passed");
      // A timeout's first error only says so ("Test timeout of 60000ms exceeded."); the step it
      // stopped in (the locator waited for) is the next one: the first lines of each are shown.
      const errors = first?.errors?.length ? first.errors : first?.error ? [first.error] : [];
      const lines = errors.flatMap((error) =>
        // Playwright's messages carry terminal colours.
        stripVTControlCharacters(error.message ?? "")
          .split("\n")
          .filter((line) => line.trim() !== "" && line.trim() !== "Call log:")
          .slice(0, errors.length > 1 ? 3 : 4),
      );
      const message = (lines.length ? lines : [first?.status ?? "no error recorded"]).slice(0, 6).join("\n      ");
      return `${name}\n      ${message}`;
    });
}
