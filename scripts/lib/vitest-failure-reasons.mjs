// @ts-check
// A Vitest reporter that writes why each failure happened (a failed test's error, and also a
// failed beforeAll/afterAll or an unhandled error, which Vitest's JSON report leaves out) to the
// file named by VITEST_FAILURE_REASONS, so `npm test`'s closing summary can say it: CI keeps only
// the tail of the output, where the default reporter's errors are long scrolled away.
import { writeFileSync } from "node:fs";
import path from "node:path";

/** @param {unknown} error */
const firstLines = (error) =>
  String(/** @type {{ message?: string }} */ (error)?.message ?? error)
    // Colour codes (an import error comes painted).
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .slice(0, 6)
    .join("\n");

/**
 * The names from the outermost suite down, joined as Vitest's JSON report joins them.
 * @param {import("vitest/node").TestCase | import("vitest/node").TestSuite} task
 */
function titlePath(task) {
  const names = [];
  for (let node = /** @type {any} */ (task); node && node.type !== "module"; node = node.parent)
    names.unshift(node.name);
  return names.join(" ");
}

export default class FailureReasons {
  /**
   * @param {readonly import("vitest/node").TestModule[]} testModules
   * @param {readonly unknown[]} unhandledErrors
   */
  onTestRunEnd(testModules, unhandledErrors) {
    const target = process.env.VITEST_FAILURE_REASONS;
    if (!target) return;
    /** @type {{ file: string, where: string, message: string }[]} */
    const reasons = [];
    for (const module of testModules) {
      const file = path.relative(process.cwd(), module.moduleId);
      for (const error of module.errors()) reasons.push({ file, where: "", message: firstLines(error) });
      for (const suite of module.children.allSuites())
        for (const error of suite.errors()) reasons.push({ file, where: titlePath(suite), message: firstLines(error) });
      for (const test of module.children.allTests("failed"))
        for (const error of test.result().errors ?? [])
          reasons.push({ file, where: titlePath(test), message: firstLines(error) });
    }
    for (const error of unhandledErrors)
      reasons.push({ file: "", where: "unhandled error", message: firstLines(error) });
    writeFileSync(target, JSON.stringify(reasons));
  }
}
