// @ts-check
// Levels and daily goals at scale (docs/decisions/094): rewards_status, the read Home makes on every
// visit (the level from XP, and today's three goals evaluated with their progress), timed inside the
// database for a spread of accounts on the database at scale (by default 1,000,000 users and
// 20,000,000 ledger rows, seeded by scripts/bench/context.mjs), and every statement's plan checked
// to read no seeded table whole. Today's goals are set to the three kinds that read the big tables
// (offer coins cleared today, offers credited today, friends who verified today), then put back.
import pg from "pg";
import { BUDGETS } from "./budgets.ts";
import { figureOf } from "./context.mjs";
import { openPostgres } from "../lib/database.mjs";
import { BIG_TABLES, percentile, samples, summarize } from "./risk.mjs";

const HEAVY_GOALS = [
  { id: "earn-100", kind: "earn_coins", target: 100, bonus_coins: 10 },
  { id: "one-offer", kind: "complete_offer", target: 1, bonus_coins: 10 },
  { id: "refer-friend", kind: "refer_verified", target: 1, bonus_coins: 25 },
];

/** @param {{ url: string, users: number, runs?: number }} options */
export async function measureRewards({ url, users, runs = 300 }) {
  const db = await openPostgres(url);
  const plansClient = new pg.Client({ connectionString: url });
  const goals = (await db.query("select daily_goals as goals from app_config"))[0]?.goals;
  try {
    await db.query("update app_config set daily_goals = $1", [JSON.stringify(HEAVY_GOALS)]);
    const picked = samples(users, runs);
    const literal = (/** @type {string} */ text) => `'${text.replace(/'/g, "''")}'`;
    // Warmed once, then each call timed inside the database (clock_timestamp around it).
    await db.exec(`
      create temporary table if not exists rewards_times (user_id text, why text, ms double precision);
      truncate rewards_times;
      do $$
      declare
        t0 timestamptz;
        sample record;
        pass integer;
      begin
        for pass in 1..2 loop
          for sample in select * from (values ${picked
            .map((s) => `(${literal(s.user)}, ${literal(s.why)})`)
            .join(", ")}) v(user_id, why) loop
            t0 := clock_timestamp();
            perform rewards_status(sample.user_id);
            if pass = 2 then
              insert into rewards_times values (sample.user_id, sample.why, extract(epoch from clock_timestamp() - t0) * 1000);
            end if;
          end loop;
        end loop;
      end
      $$;`);
    const timed = await db.query("select user_id, why, ms from rewards_times order by ms");
    const times = timed.map((row) => Number(row.ms));

    // Every statement's plan as auto_explain reports it while the function runs.
    await plansClient.connect();
    /** @type {string[]} */
    let notices = [];
    plansClient.on("notice", (notice) => notices.push(notice.message ?? ""));
    await plansClient.query("load 'auto_explain'");
    await plansClient.query(`set auto_explain.log_min_duration = 0;
                             set auto_explain.log_nested_statements = on;
                             set auto_explain.log_analyze = on;
                             set auto_explain.log_timing = off;
                             set auto_explain.log_level = 'notice'`);
    /** @type {Set<string>} */
    const seqScans = new Set();
    /** @type {string[]} */
    let plans = [];
    for (const sample of picked) {
      notices = [];
      await plansClient.query("select rewards_status($1)", [sample.user]);
      for (const plan of notices)
        for (const match of plan.matchAll(/Seq Scan on (\w+)/g))
          if (BIG_TABLES.includes(/** @type {string} */ (match[1]))) seqScans.add(`${match[1]} (${sample.why})`);
      if (sample.why === "heavy ledger" && plans.length === 0)
        plans = notices.filter((plan) => !/Query Text: select rewards_status/.test(plan));
    }
    const slowest = timed.at(-1);
    return {
      database: db.name,
      runs: times.length,
      median: percentile(times, 0.5),
      p95: percentile(times, 0.95),
      max: /** @type {number} */ (times.at(-1)),
      slowest: `${slowest?.user_id} (${slowest?.why})`,
      summary: summarize(plans),
      seqScans: [...seqScans],
      fromIndex: seqScans.size === 0 && plans.length > 0,
    };
  } finally {
    await db.query("update app_config set daily_goals = $1", [JSON.stringify(goals)]).catch(() => {});
    await plansClient.end().catch(() => {});
    await db.close();
  }
}

/**
 * The `rewards` part of `npm run bench`.
 * @param {import("./context.mjs").Bench} bench
 * @param {import("./context.mjs").Shared} shared
 */
export async function benchRewards({ log, part, figures, details }, { scale, seededAtScale }) {
  const group = `Levels and daily goals, ${scale}`;
  const label = "rewards_status p95 (the level and today's goals), in the database";
  /** @returns {import("./context.mjs").Unmeasured[]} */
  const unmeasured = () => [{ group, label, unit: "ms", budget: { limit: BUDGETS.rewardsP95Ms, kind: "max" } }];
  await part("levels and daily goals at scale", unmeasured, async () => {
    const { url, seeded } = await seededAtScale();
    const result = await measureRewards({ url, users: Number(seeded.counts.user_profiles ?? 0) });
    details.rewards = result;
    log(
      `rewards_status median ${result.median.toFixed(2)} ms, p95 ${result.p95.toFixed(2)} ms, max ${result.max.toFixed(2)} ms ` +
        `(${result.slowest}) over ${result.runs} accounts, in ${result.database}\n` +
        (result.seqScans.length > 0
          ? `SEQ SCAN on a big table: ${result.seqScans.join(", ")}\n`
          : "no Seq Scan on a seeded table\n") +
        `the statements inside it, for a heavy account:\n${result.summary.map((line) => `  - ${line}`).join("\n")}`,
    );
    figures.push({
      ...figureOf(unmeasured, label),
      label: `rewards_status p95 over ${result.runs} accounts, in ${result.database}`,
      value: result.fromIndex ? result.p95 : null,
      error: result.fromIndex ? undefined : `Seq Scan on ${result.seqScans.join(", ")} (see bench-results.json)`,
      detail: `median ${result.median.toFixed(2)} ms, max ${result.max.toFixed(2)} ms (${result.slowest}); every statement from an index`,
    });
  });
}
