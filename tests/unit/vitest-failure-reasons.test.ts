import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";

// `npm test` prints why each file failed at its end (CI keeps only the tail of the output): this
// runs Vitest with that reporter on a file whose afterAll fails and one whose test fails.
it("the failure-reasons reporter writes a failed test's error and a failed afterAll's, each under its file and suite", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "failure-reasons-"));
  try {
    writeFileSync(
      path.join(dir, "hook.test.ts"),
      `import { afterAll, describe, it } from "vitest";
describe("a suite", () => {
  afterAll(() => { throw new Error("the scratch database would not drop"); });
  it("passes", () => {});
});`,
    );
    writeFileSync(
      path.join(dir, "test.test.ts"),
      `import { describe, expect, it } from "vitest";
describe("outer", () => { it("adds", () => expect(1 + 1).toBe(3)); });`,
    );
    const reasons = path.join(dir, "reasons.json");
    const run = spawnSync(
      process.execPath,
      [
        path.resolve("node_modules/vitest/vitest.mjs"),
        "run",
        "--root",
        dir,
        `--reporter=${path.resolve("scripts/lib/vitest-failure-reasons.mjs")}`,
      ],
      { encoding: "utf8", env: { ...process.env, VITEST_FAILURE_REASONS: reasons } },
    );
    expect(run.status).toBe(1);
    const written = (JSON.parse(readFileSync(reasons, "utf8")) as { file: string; where: string; message: string }[])
      .map((reason) => ({ ...reason, file: path.basename(reason.file) }))
      .sort((a, b) => a.file.localeCompare(b.file));
    expect(written).toEqual([
      { file: "hook.test.ts", where: "a suite", message: "the scratch database would not drop" },
      { file: "test.test.ts", where: "outer adds", message: "expected 2 to be 3 // Object.is equality" },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
