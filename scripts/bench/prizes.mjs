// @ts-check
// Monthly prizes at scale (docs/decisions/097), on the database the risk and rewards benchmarks use
// (by default 1,000,000 users and 20,000,000 ledger rows): every account is given offer money cleared
// this month and in a month long past, then two things are timed inside the database, with every
// statement's plan checked to read no seeded table whole:
// - leaderboard_prizes, the read every Leaderboard visit makes (the person's place by cleared offer
//   money, the next prize place's figure, past winners), for a spread of accounts;
// - close_prize_month, the month-end job (the places from the index, each winner's risk score, the
//   payments), run again and again on the same month, each run undone before the next.
// All of it inside one transaction that is rolled back: the seeded database is left as it was.
import pg from "pg";
import { BUDGETS } from "./budgets.ts";
import { figureOf } from "./context.mjs";
import { BIG_TABLES, percentile, samples, summarize } from "./risk.mjs";

const PAST_MONTH = "2000-01-01";
/** The SQLSTATE this benchmark raises to undo one close (a savepoint's rollback). */
const UNDO = "PB001";

/** @param {{ url: string, users: number, runs?: number, closes?: number }} options */
export async function measurePrizes({ url, users, runs = 300, closes = 20 }) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  /** @type {string[]} */
  let notices = [];
  client.on("notice", (notice) => notices.push(notice.message ?? ""));
  const literal = (/** @type {string} */ text) => `'${text.replace(/'/g, "''")}'`;
  try {
    const version = (await client.query("show server_version")).rows[0].server_version.split(/[ .]/)[0];
    await client.query("begin");
    // Offer money cleared, from $0.01 to $655.36, different for each account and month.
    for (const [month, salt] of [
      ["current_month()", ""],
      [`${literal(PAST_MONTH)}::date`, "past"],
    ])
      await client.query(`
        insert into monthly_earnings (user_id, month, amount, cleared)
        select id, ${month}, 0, ((hashtext(id || '${salt}') & 65535) + 1) / 100.0 from user_profiles
        on conflict (user_id, month) do update set cleared = excluded.cleared`);
    await client.query("analyze monthly_earnings");
    // The cleared-earnings sweep each close starts with, brought up to now once: the timed closes
    // then measure the close, not a sweep of however long the database has waited.
    await client.query("select notify_cleared_earnings()");
    await client.query(`create temporary table prize_times (what text, user_id text, why text, ms double precision)
                        on commit drop`);
    const picked = samples(users, runs);
    // Each call warmed once, then timed (clock_timestamp around it); a close is undone by raising.
    await client.query(`
      do $$
      declare
        t0 timestamptz;
        v_ms double precision;
        sample record;
        pass integer;
      begin
        for pass in 1..2 loop
          for sample in select * from (values ${picked
            .map((s) => `(${literal(s.user)}, ${literal(s.why)})`)
            .join(", ")}) v(user_id, why) loop
            t0 := clock_timestamp();
            perform leaderboard_prizes(sample.user_id);
            if pass = 2 then
              insert into prize_times values ('standing', sample.user_id, sample.why,
                                              extract(epoch from clock_timestamp() - t0) * 1000);
            end if;
          end loop;
        end loop;
        for pass in 0..${closes} loop
          begin
            t0 := clock_timestamp();
            perform close_prize_month(${literal(PAST_MONTH)}::date);
            v_ms := extract(epoch from clock_timestamp() - t0) * 1000;
            raise exception 'undo the close' using errcode = '${UNDO}';
          exception when sqlstate '${UNDO}' then
            null;
          end;
          if pass > 0 then
            insert into prize_times values ('close', null, 'a month of ${users} earners', v_ms);
          end if;
        end loop;
      end
      $$;`);
    const timed = (await client.query("select what, user_id, why, ms from prize_times order by ms")).rows;
    const standing = timed.filter((row) => row.what === "standing");
    const close = timed.filter((row) => row.what === "close").map((row) => Number(row.ms));

    // Every statement's plan as auto_explain reports it while the functions run.
    await client.query("load 'auto_explain'");
    await client.query(`set auto_explain.log_min_duration = 0;
                        set auto_explain.log_nested_statements = on;
                        set auto_explain.log_analyze = on;
                        set auto_explain.log_timing = off;
                        set auto_explain.log_level = 'notice'`);
    const tables = [...BIG_TABLES, "monthly_earnings"];
    /** @type {Set<string>} */
    const seqScans = new Set();
    const scansOf = (/** @type {string} */ why) => {
      for (const plan of notices)
        for (const match of plan.matchAll(/Seq Scan on (\w+)/g))
          if (tables.includes(/** @type {string} */ (match[1]))) seqScans.add(`${match[1]} (${why})`);
    };
    for (const sample of picked.slice(0, 40)) {
      notices = [];
      await client.query("select leaderboard_prizes($1)", [sample.user]);
      scansOf(`standing, ${sample.why}`);
    }
    notices = [];
    await client.query("savepoint one_close");
    await client.query("select close_prize_month($1::date)", [PAST_MONTH]);
    await client.query("rollback to savepoint one_close");
    scansOf("close");
    const closePlans = notices.filter((plan) => !/Query Text: select close_prize_month/.test(plan));
    const standingTimes = standing.map((row) => Number(row.ms));
    const slowest = standing.at(-1);
    return {
      database: `Postgres ${version}`,
      standing: {
        runs: standingTimes.length,
        median: percentile(standingTimes, 0.5),
        p95: percentile(standingTimes, 0.95),
        max: /** @type {number} */ (standingTimes.at(-1)),
        slowest: `${slowest?.user_id} (${slowest?.why})`,
      },
      close: {
        runs: close.length,
        median: percentile(close, 0.5),
        p95: percentile(close, 0.95),
        max: /** @type {number} */ (close.at(-1)),
      },
      closeSummary: summarize(closePlans),
      seqScans: [...seqScans],
      fromIndex: seqScans.size === 0 && closePlans.length > 0,
    };
  } finally {
    await client.query("rollback").catch(() => {});
    await client.end().catch(() => {});
  }
}

/**
 * The prizes' part of `npm run bench` (run with `rewards`).
 * @param {import("./context.mjs").Bench} bench
 * @param {import("./context.mjs").Shared} shared
 */
export async function benchPrizes({ log, part, figures, details }, { scale, seededAtScale }) {
  const group = `Monthly prizes, ${scale}`;
  const standingLabel = "leaderboard_prizes p95 (a person's place and the next prize), in the database";
  const closeLabel = "close_prize_month p95 (the month-end job), in the database";
  /** @returns {import("./context.mjs").Unmeasured[]} */
  const unmeasured = () => [
    { group, label: standingLabel, unit: "ms", budget: { limit: BUDGETS.prizeStandingP95Ms, kind: "max" } },
    { group, label: closeLabel, unit: "ms", budget: { limit: BUDGETS.prizeCloseP95Ms, kind: "max" } },
  ];
  await part("monthly prizes at scale", unmeasured, async () => {
    const { url, seeded } = await seededAtScale();
    const result = await measurePrizes({ url, users: Number(seeded.counts.user_profiles ?? 0) });
    details.prizes = result;
    const { standing, close } = result;
    log(
      `leaderboard_prizes median ${standing.median.toFixed(2)} ms, p95 ${standing.p95.toFixed(2)} ms, ` +
        `max ${standing.max.toFixed(2)} ms (${standing.slowest}) over ${standing.runs} accounts; ` +
        `close_prize_month median ${close.median.toFixed(1)} ms, p95 ${close.p95.toFixed(1)} ms over ${close.runs} ` +
        `closes of a month where every account has cleared offer money, in ${result.database}\n` +
        (result.seqScans.length > 0
          ? `SEQ SCAN on a big table: ${result.seqScans.join(", ")}\n`
          : "no Seq Scan on a seeded table\n") +
        `the statements inside one close:\n${result.closeSummary.map((line) => `  - ${line}`).join("\n")}`,
    );
    const error = result.fromIndex ? undefined : `Seq Scan on ${result.seqScans.join(", ")} (see bench-results.json)`;
    figures.push(
      {
        ...figureOf(unmeasured, standingLabel),
        label: `leaderboard_prizes p95 over ${standing.runs} accounts, in ${result.database}`,
        value: result.fromIndex ? standing.p95 : null,
        error,
        detail: `median ${standing.median.toFixed(2)} ms, max ${standing.max.toFixed(2)} ms (${standing.slowest}); every statement from an index`,
      },
      {
        ...figureOf(unmeasured, closeLabel),
        label: `close_prize_month p95 over ${close.runs} closes, in ${result.database}`,
        value: result.fromIndex ? close.p95 : null,
        error,
        detail: `median ${close.median.toFixed(1)} ms, max ${close.max.toFixed(1)} ms; the places from monthly_earnings_cleared_idx, ten winners scored and paid`,
      },
    );
  });
}
