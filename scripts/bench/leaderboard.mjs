// @ts-check
// The monthly leaderboard query (get_leaderboard(50), as the app calls it) with `users` people who
// all earned this month (plus last month's history), and the plan of the query inside it.
// `npm run bench` runs it with 1,000,000 users on a Postgres server; on its own
// (`npm run bench:leaderboard [-- users]`, default 100,000) it runs on Postgres and PGlite.
import { pathToFileURL } from "node:url";
import { LEADERBOARD_SIZE } from "../../app/domain/constants.ts";
import { startPostgres } from "../lib/services.mjs";
import { openPglite, openPostgres } from "../lib/database.mjs";

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
const timedRuns = (/** @type {number} */ runs) => `
  create temporary table if not exists leaderboard_times (ms double precision);
  truncate leaderboard_times;
  do $$
  declare
    t0 timestamptz;
  begin
    for run in 1..${runs} loop
      t0 := clock_timestamp();
      perform get_leaderboard(${LEADERBOARD_SIZE});
      insert into leaderboard_times values (extract(epoch from clock_timestamp() - t0) * 1000);
    end loop;
  end
  $$;
`;

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
 *   max: number, roundTrip: { median: number, p95: number }, plan: string[], fromIndex: boolean }>}
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
  };
}

/** @param {Awaited<ReturnType<typeof measureLeaderboard>>} result */
export function describe(result) {
  return (
    `${result.database}: ${result.users.toLocaleString("en")} users seeded in ${result.seedSeconds.toFixed(1)} s; ` +
    `get_leaderboard(${LEADERBOARD_SIZE}) median ${result.median.toFixed(2)} ms, p95 ${result.p95.toFixed(2)} ms, ` +
    `max ${result.max.toFixed(2)} ms over ${result.runs} runs timed in ${result.timedIn}; round trip median ` +
    `${result.roundTrip.median.toFixed(2)} ms, p95 ${result.roundTrip.p95.toFixed(2)} ms\n` +
    result.plan.map((line) => `    ${line}`).join("\n")
  );
}

async function main() {
  const users = Number(process.argv[2] ?? 100_000);
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
  const pglite = await openPglite();
  try {
    console.log(describe(await measureLeaderboard(pglite, { users })));
  } finally {
    await pglite.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
