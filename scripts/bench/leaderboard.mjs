// @ts-check
// The monthly leaderboard query (get_leaderboard(50), as the app calls it) with `users` people who
// all earned this month (plus last month's history), and the plan of the query inside it.
// `npm run bench` runs it with 1,000,000 users on a Postgres server; on its own
// (`npm run bench:leaderboard [-- users [postgres]]`, default 100,000) it runs on Postgres and PGlite.
// Both also time get_leaderboard_position, the own-rank read, for people at several places.
// benchLeaderboard is the `leaderboard` part of `npm run bench` (scripts/bench/run.mjs).
import { pathToFileURL } from "node:url";
import { LEADERBOARD_COUNTED_RANKS, LEADERBOARD_SIZE } from "../../app/domain/constants.ts";
import { startPostgres } from "../lib/services.mjs";
import { openPglite, openPostgres } from "../lib/database.mjs";
import { BUDGETS } from "./budgets.ts";
import { figureOf } from "./context.mjs";

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
// Ids and referral codes (i in base 32, most significant symbol first) rise with i, so that their
// indexes fill in order: a million rows go in several times faster. Foreign keys are not checked
// while seeding (session_replication_role = replica); the rows satisfy them.
const id = (/** @type {number | string} */ i) => `'b' || lpad(${i}::text, 7, '0')`;
const code = (/** @type {number | string} */ i) =>
  Array.from({ length: 7 }, (_, k) => `substr('${ALPHABET}', ((${i} >> ${5 * (6 - k)}) & 31) + 1, 1)`).join(" || ");
const seedSql = (/** @type {number} */ users) => `
  set session_replication_role = replica;
  insert into user_profiles (id, display_name, referral_code)
  select ${id("i")}, 'Board ' || i, ${code("i")} from generate_series(1, ${users}) i;
  insert into monthly_earnings (user_id, month, amount)
  select ${id("i")}, current_month(), round((random() * 500)::numeric, 2) from generate_series(1, ${users}) i;
  insert into monthly_earnings (user_id, month, amount)
  select ${id("i")}, (current_month() - interval '1 month')::date, round((random() * 500)::numeric, 2)
    from generate_series(1, ${users}) i;
  set session_replication_role = default;
`;

// Each call timed inside the database (clock_timestamp around it), which leaves out the round
// trip and the client's own scheduling: on a busy machine those dominate a sub-millisecond query.
const timedRuns = (/** @type {number} */ runs, call = `get_leaderboard(${LEADERBOARD_SIZE})`) => `
  create temporary table if not exists leaderboard_times (ms double precision);
  truncate leaderboard_times;
  do $$
  declare
    t0 timestamptz;
  begin
    for run in 1..${runs} loop
      t0 := clock_timestamp();
      perform ${call};
      insert into leaderboard_times values (extract(epoch from clock_timestamp() - t0) * 1000);
    end loop;
  end
  $$;
`;

// The own-rank read (get_leaderboard_position, asked when a person is below the board) for people
// at these places of the month's `earners`: its cost may grow with the rank, so the last one counts.
const POSITION_RANKS = (/** @type {number} */ earners) =>
  [
    ...new Set([
      LEADERBOARD_SIZE + 1,
      LEADERBOARD_COUNTED_RANKS,
      LEADERBOARD_COUNTED_RANKS + 1,
      Math.floor(earners / 10),
      Math.floor(earners / 2),
      earners,
    ]),
  ].filter((rank) => rank > LEADERBOARD_SIZE && rank <= earners);

/**
 * @param {number[]} sorted
 * @param {number} fraction
 */
function percentile(sorted, fraction) {
  return /** @type {number} */ (sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * fraction) - 1)]);
}

/**
 * Seeds `db` (scripts/lib/database.mjs, freshly migrated) and times get_leaderboard(50).
 * @returns {Promise<{ database: string, users: number, seedSeconds: number, runs: number, timedIn: string, median: number, p95: number,
 *   max: number, roundTrip: { median: number, p95: number }, plan: string[], fromIndex: boolean,
 *   positions: { rank: number, shown: unknown, runs: number, median: number, p95: number, max: number }[],
 *   positionPlan: string[] }>}
 *   times in ms: in the database, and (roundTrip) as the client saw them.
 * @param {import("../lib/database.mjs").BenchDatabase} db
 * @param {{ users: number, runs?: number }} options
 */
export async function measureLeaderboard(db, { users, runs = 200 }) {
  const started = Date.now();
  await db.exec(seedSql(users));
  // As autovacuum would by now: statistics, and the visibility map that lets an index answer alone.
  await db.exec("vacuum analyze monthly_earnings");
  const seedSeconds = (Date.now() - started) / 1000;
  const call = `select jsonb_array_length(get_leaderboard(${LEADERBOARD_SIZE})) as n`;
  const [first] = await db.query(call);
  if (!first || Number(first.n) !== LEADERBOARD_SIZE)
    throw new Error(`expected ${LEADERBOARD_SIZE} rows, got ${first?.n}`);
  for (let run = 0; run < 20; run++) await db.query(call);
  /** @type {number[]} */
  const roundTrips = [];
  for (let run = 0; run < runs; run++) {
    const t0 = performance.now();
    await db.query(call);
    roundTrips.push(performance.now() - t0);
  }
  roundTrips.sort((a, b) => a - b);
  await db.exec(timedRuns(runs));
  const inDatabase = (await db.query("select ms from leaderboard_times order by ms")).map((row) => Number(row.ms));
  // PGlite's clock inside the database ticks too coarsely to time a call: there, the round trip.
  const clockWorks = inDatabase.filter((ms) => ms > 0).length > runs / 2;
  const times = clockWorks ? inDatabase : roundTrips;
  // The plan of the function's own query (its text from the catalogue, the limit filled in), so
  // the evidence cannot drift from what the app runs.
  const [function_] = await db.query("select prosrc as source from pg_proc where proname = 'get_leaderboard'");
  const source = String(function_?.source);
  const plan = (
    await db.query(`explain (analyze, buffers, costs off) ${source.replace(/\bp_limit\b/g, String(LEADERBOARD_SIZE))}`)
  ).map((row) => String(row["QUERY PLAN"]));
  // Read from the ranking index, about as many entries as the board shows, whatever the month holds.
  const scan = plan
    .map((line) => /Index (?:Only )?Scan using monthly_earnings_rank_idx .*rows=([\d.]+)/.exec(line))
    .find(Boolean);
  const positions = [];
  /** @type {string[]} */
  let positionPlan = [];
  // The last place is the number of earners (a random amount can round to $0.00, which ranks nowhere).
  const [earners] = await db.query(
    "select count(*)::int as n from monthly_earnings where month = current_month() and amount > 0",
  );
  for (const rank of POSITION_RANKS(Number(earners?.n))) {
    // The person at this place (ties by user id, as the board breaks them; only earners rank).
    const [person] = await db.query(
      `select user_id from monthly_earnings where month = current_month() and amount > 0
        order by amount desc, user_id offset ${rank - 1} limit 1`,
    );
    if (!person) continue;
    const call = `get_leaderboard_position('${String(person.user_id)}', ${LEADERBOARD_COUNTED_RANKS})`;
    const [answer] = await db.query(`select ${call} as position`);
    const positionRuns = Math.min(runs, 50);
    await db.exec(timedRuns(positionRuns, call));
    const own = (await db.query("select ms from leaderboard_times order by ms")).map((row) => Number(row.ms));
    /** @type {number[]} */
    let times = own;
    if (own.filter((ms) => ms > 0).length <= positionRuns / 2) {
      times = [];
      for (let run = 0; run < positionRuns; run++) {
        const t0 = performance.now();
        await db.query(`select ${call}`);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
    }
    // The plan of the function's count (its own text from the catalogue, its variables filled in)
    // for the last person measured (the lowest ranked).
    const [positionFunction] = await db.query(
      "select prosrc as source from pg_proc where proname = 'get_leaderboard_position'",
    );
    const count = /select count\(\*\) into v_ahead([\s\S]*?);/.exec(String(positionFunction?.source));
    if (!count) throw new Error("get_leaderboard_position has no count of the people ahead");
    const [mine] = await db.query(
      "select amount::text as amount from monthly_earnings where user_id = $1 and month = current_month()",
      [person.user_id],
    );
    positionPlan = (
      await db.query(
        `explain (analyze, buffers, costs off) select count(*) ${String(count[1])
          .replace(/\bv_month\b/g, "current_month()")
          .replace(/\bv_amount\b/g, String(mine?.amount))
          .replace(/\bp_user_id\b/g, `'${String(person.user_id)}'`)
          .replace(/\bv_bound\b/g, String(LEADERBOARD_COUNTED_RANKS))}`,
      )
    ).map((row) => String(row["QUERY PLAN"]));
    positions.push({
      rank,
      shown: /** @type {{ rank?: unknown }} */ (answer?.position)?.rank ?? null,
      runs: positionRuns,
      median: percentile(times, 0.5),
      p95: percentile(times, 0.95),
      max: /** @type {number} */ (times.at(-1)),
    });
  }
  return {
    database: db.name,
    users,
    seedSeconds,
    runs,
    timedIn: clockWorks ? "the database" : "round trips",
    median: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    max: /** @type {number} */ (times.at(-1)),
    roundTrip: { median: percentile(roundTrips, 0.5), p95: percentile(roundTrips, 0.95) },
    plan,
    fromIndex:
      scan !== undefined &&
      scan !== null &&
      Number(scan[1]) <= LEADERBOARD_SIZE + 1 &&
      !plan.some((line) => /Seq Scan/.test(line)),
    positions,
    positionPlan,
  };
}

/** @param {Awaited<ReturnType<typeof measureLeaderboard>>} result */
export function describe(result) {
  return (
    `${result.database}: ${result.users.toLocaleString("en")} users seeded in ${result.seedSeconds.toFixed(1)} s; ` +
    `get_leaderboard(${LEADERBOARD_SIZE}) median ${result.median.toFixed(2)} ms, p95 ${result.p95.toFixed(2)} ms, ` +
    `max ${result.max.toFixed(2)} ms over ${result.runs} runs timed in ${result.timedIn}; round trip median ` +
    `${result.roundTrip.median.toFixed(2)} ms, p95 ${result.roundTrip.p95.toFixed(2)} ms\n` +
    result.plan.map((line) => `    ${line}`).join("\n") +
    result.positions
      .map(
        (position) =>
          `\n  get_leaderboard_position of the person ranked ${position.rank.toLocaleString("en")} (shows ` +
          `${position.shown ?? "no rank"}): median ${position.median.toFixed(2)} ms, p95 ${position.p95.toFixed(2)} ms, ` +
          `max ${position.max.toFixed(2)} ms over ${position.runs} runs`,
      )
      .join("") +
    (result.positionPlan.length
      ? `\n  its plan for the last of them:\n${result.positionPlan.map((line) => `    ${line}`).join("\n")}`
      : "")
  );
}

/**
 * The scan line of the plan, short: what proves the answer came from the index.
 * @param {string[]} plan
 */
function planSummary(plan) {
  const scan = plan.find((line) => /Scan/.test(line))?.trim() ?? "no scan in the plan";
  const heap = plan.find((line) => /Heap Fetches/.test(line))?.trim();
  return [scan.replace(/\s*\(actual.*$/, ""), heap].filter(Boolean).join(", ");
}

/**
 * The `leaderboard` part: get_leaderboard at scale, on a Postgres database of its own.
 * @param {import("./context.mjs").Bench} bench
 * @param {import("./context.mjs").Shared} shared
 */
export async function benchLeaderboard({ settings, log, part, figures, details }, { databaseOfItsOwn }) {
  const { leaderboardUsers } = settings;
  const group = `Leaderboard query, ${leaderboardUsers.toLocaleString("en")} users who earned this month`;
  const label = "get_leaderboard(50) p95, in the database";
  /** @returns {import("./context.mjs").Unmeasured[]} */
  const unmeasured = () => [
    {
      group,
      label,
      unit: "ms",
      budget: { limit: BUDGETS.leaderboardP95Ms, kind: "max" },
    },
  ];
  await part("leaderboard at scale", unmeasured, async () => {
    const db = await openPostgres(await databaseOfItsOwn("leaderboard"));
    try {
      const result = await measureLeaderboard(db, { users: leaderboardUsers });
      details.leaderboard = result;
      log(describe(result));
      figures.push({
        ...figureOf(unmeasured, label),
        label: `get_leaderboard(50) p95, in ${result.database} (timed in ${result.timedIn})`,
        // Only a plan that reads the ranking index counts.
        value: result.fromIndex ? result.p95 : null,
        error: result.fromIndex
          ? undefined
          : "the plan does not read monthly_earnings_rank_idx (see bench-results.json)",
        detail: `median ${result.median.toFixed(2)} ms; round trip p95 ${result.roundTrip.p95.toFixed(2)} ms; ${planSummary(result.plan)}`,
      });
    } finally {
      await db.close();
    }
  });
}

async function main() {
  const [size, only] = process.argv.slice(2);
  const users = Number(size ?? 100_000);
  const server = await startPostgres();
  try {
    const db = await openPostgres(server.url);
    try {
      console.log(describe(await measureLeaderboard(db, { users })));
    } finally {
      await db.close();
    }
  } finally {
    await server.stop();
  }
  // `-- 1000000 postgres`: the Postgres server only (PGlite seeds a million rows slowly).
  if (only === "postgres") return;
  const pglite = await openPglite();
  try {
    console.log(describe(await measureLeaderboard(pglite, { users })));
  } finally {
    await pglite.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
