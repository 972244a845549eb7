import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { BUDGETS, exitCode, formatTable, judge, type Figure } from "../../scripts/bench/budgets";

const js = (label: string, value: number | null): Figure => ({
  group: "JavaScript",
  label,
  value,
  unit: "KB",
  budget: { limit: BUDGETS.javascriptKb, kind: "max" },
});
const share = (label: string, value: number | null): Figure => ({
  group: "Throughput",
  label,
  value,
  unit: "%",
  budget: { limit: BUDGETS.throughputShare, kind: "min" },
});

/** A figure in % that may be at most `limit` (a cost above another's). */
const percentAbove =
  (label: string, limit: number) =>
  (value: number): Figure => ({ group: "CPU per request", label, value, unit: "%", budget: { limit, kind: "max" } });

describe("npm run bench: budgets", () => {
  it("passes a figure at its limit and fails one past it, for at-most and at-least budgets", () => {
    expect(judge(js("/auth", 92)).result).toBe("PASS");
    expect(judge(js("/auth", 92.01)).result).toBe("FAIL");
    expect(judge(share("/", 60)).result).toBe("PASS");
    expect(judge(share("/", 59.9)).result).toBe("FAIL");
  });

  it("fails a figure that could not be measured (null or not a number)", () => {
    expect(judge(js("/auth", null)).result).toBe("FAIL");
    expect(judge(js("/auth", Number.NaN)).result).toBe("FAIL");
    expect(judge(share("/", Number.POSITIVE_INFINITY)).result).toBe("FAIL");
  });

  it("holds the console's reads at 1,000,000 users to 50 ms at p95, and the pages' CPU per request there to 15 % above their CPU at 10,000", () => {
    for (const limit of [
      BUDGETS.consoleDashboardP95Ms,
      BUDGETS.consolePeopleSearchP95Ms,
      BUDGETS.consoleReviewQueueP95Ms,
      BUDGETS.consoleQueueCountsP95Ms,
    ]) {
      const figure = (value: number): Figure => ({
        group: "Operator console",
        label: "p95",
        value,
        unit: "ms",
        budget: { limit, kind: "max" },
      });
      expect(limit).toBe(50);
      expect(judge(figure(50)).result).toBe("PASS");
      expect(judge(figure(50.01)).result).toBe("FAIL");
    }
    const growth = percentAbove(
      "CPU per request at scale, above 10,000 users'",
      BUDGETS.scaleCpuPerRequestGrowthPercent,
    );
    expect(BUDGETS.scaleCpuPerRequestGrowthPercent).toBe(15);
    expect(judge(growth(-7)).result).toBe("PASS");
    expect(judge(growth(15)).result).toBe("PASS");
    expect(judge(growth(15.1)).result).toBe("FAIL");
  });

  it("holds the CPU per request through PgBouncer to 10 % above direct's, in the same run", () => {
    const overhead = percentAbove("CPU per request through PgBouncer, above direct", BUDGETS.poolerCpuOverheadPercent);
    expect(BUDGETS.poolerCpuOverheadPercent).toBe(10);
    expect(judge(overhead(-5)).result).toBe("PASS");
    expect(judge(overhead(10)).result).toBe("PASS");
    expect(judge(overhead(10.5)).result).toBe("FAIL");
  });

  it("holds postbacks to 90 % of /healthz's requests per second and their p99 to 1.5 times its p99, in the same run", () => {
    const share = (value: number): Figure => ({
      group: "Postback ingestion",
      label: "signed postbacks taken per second, share of /healthz's",
      value,
      unit: "%",
      budget: { limit: BUDGETS.ingestShareOfHealthz, kind: "min" },
    });
    const p99 = (value: number): Figure => ({
      group: "Postback ingestion",
      label: "p99 latency, times /healthz's",
      value,
      unit: "×",
      budget: { limit: BUDGETS.ingestP99TimesHealthz, kind: "max" },
    });
    expect(judge(share(90)).result).toBe("PASS");
    expect(judge(share(89.9)).result).toBe("FAIL");
    // /healthz not measured: the ratio is not a number, and fails.
    expect(judge(share(Number.POSITIVE_INFINITY)).result).toBe("FAIL");
    expect(judge(p99(1.5)).result).toBe("PASS");
    expect(judge(p99(1.51)).result).toBe("FAIL");
    expect(formatTable([judge(p99(79 / 74))])).toMatch(/times \/healthz's\s+1\.07 ×\s+≤ 1\.50 ×\s+PASS/);
  });

  it("only informs about a figure without a budget", () => {
    expect(judge({ group: "Throughput", label: "/legal", value: 370, unit: "req/s" }).result).toBe("INFO");
  });

  it("exits 0 only when every budgeted figure passed, and 1 when one failed or none was judged", () => {
    const baseline = judge({ group: "Throughput", label: "/legal", value: 370, unit: "req/s" });
    expect(exitCode([judge(js("/", 90)), judge(share("/", 70)), baseline])).toBe(0);
    expect(exitCode([judge(js("/", 90)), judge(share("/", 50)), baseline])).toBe(1);
    expect(exitCode([judge(js("/", null))])).toBe(1);
    expect(exitCode([baseline])).toBe(1);
    expect(exitCode([])).toBe(1);
  });

  it("prints each figure with its budget and result under its group", () => {
    const table = formatTable([judge(js("/auth", 126.04)), judge(share("/earn", 64.2))]);
    expect(table).toMatch(/JavaScript\n\s+\/auth\s+126\.0 KB\s+≤ 92\.0 KB\s+FAIL/);
    expect(table).toMatch(/Throughput\n\s+\/earn\s+64 %\s+≥ 60 %\s+PASS/);
    expect(table).toContain("1 within budget, 1 over budget");
  });
});

describe("npm run bench -- --evaluate=FILE (a saved run judged again)", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-evaluate-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function evaluate(figures: Figure[]) {
    const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
    // The results of a run say PASS; the budgets of today decide.
    writeFileSync(file, JSON.stringify({ figures: figures.map((figure) => ({ ...figure, result: "PASS" })) }));
    return promisify(execFile)(process.execPath, ["scripts/bench/run.mjs", `--evaluate=${file}`]).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
  }

  it("exits 1 and prints FAIL when a figure is over its budget", async () => {
    const { code, stdout } = await evaluate([js("/", 91), js("/auth", 126)]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/\/auth\s+126\.0 KB\s+≤ 92\.0 KB\s+FAIL/);
    expect(stdout).toMatch(/\/\s+91\.0 KB\s+≤ 92\.0 KB\s+PASS/);
  });

  it("exits 0 when every figure is within its budget", async () => {
    const { code, stdout } = await evaluate([js("/", 91), share("/earn", 75)]);
    expect(code).toBe(0);
    expect(stdout).toContain("2 within budget, 0 over budget");
  });
});
