// @ts-check
// The risk evaluation of a withdrawal (withdrawal_risk, which create_withdrawal calls for every
// withdrawal) with `users` accounts and `ledgerRows` ledger rows on a Postgres server, and the plan
// of every statement inside it. `npm run bench` runs it with 1,000,000 users and 20,000,000 rows;
// on its own: `npm run bench:risk [-- users rows]`, default 100,000 users and 2,000,000 rows.
//
// The data is shaped after the accounts the score is about: most people have a few dozen ledger
// rows, one in 10,000 has a thousand times more; payout addresses, devices and address ranges are
// shared in small groups, and a few signals by very many accounts (a carrier's NAT address range
// used by one account in 20, a payout address used by one in 50, a referrer of a third of all
// accounts), which the function must read only to its limits.
import { pathToFileURL } from "node:url";
import pg from "pg";
import { startPostgres } from "../lib/services.mjs";
import { openPostgres } from "../lib/database.mjs";

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
// Ids, referral codes and withdrawal ids rise with i, so that their indexes fill in order; foreign
// keys are not checked while seeding (session_replication_role = replica); the rows satisfy them.
const id = (/** @type {string} */ i) => `'r' || lpad((${i})::text, 7, '0')`;
const code = (/** @type {string} */ i) =>
  Array.from({ length: 7 }, (_, k) => `substr('${ALPHABET}', (((${i}) >> ${5 * (6 - k)}) & 31) + 1, 1)`).join(" || ");
const withdrawalId = (/** @type {string} */ i) => `('00000000-0000-4000-8000-' || lpad(to_hex(${i}), 12, '0'))::uuid`;
const hash = (/** @type {string} */ text) => `encode(sha256((${text})::bytea), 'hex')`;

/** One account in HEAVY_EVERY has HEAVY_FACTOR times the average ledger. */
const HEAVY_EVERY = 10_000;
const HEAVY_FACTOR = 1000;
/** Accounts i with i % NAT_EVERY = 0 share one address range: 50,000 of 1,000,000. */
const NAT_EVERY = 20;
/** Accounts i with i % FARM_EVERY = 7 were paid to one payout address. */
const FARM_EVERY = 50;
/** Account 2 referred every account i with i % 3 = 1. */
const BIG_REFERRER = 2;
/** The payout address of account i (usually its own; some shared). */
const recipient = (/** @type {string} */ i) =>
  hash(`case when ${i} % ${FARM_EVERY} = 7 then 'farm'
             when ${i} % 100 = 0 then 'pair-' || (${i} / 1000)
             else 'payee-' || ${i} end`);
const heavy = (/** @type {string} */ i) => `(${i} % ${HEAVY_EVERY} = 0)`;

/**
 * @param {number} users
 * @param {number} ledgerRows
 */
function seedSql(users, ledgerRows) {
  const heavyUsers = Math.floor(users / HEAVY_EVERY);
  const perHeavy = Math.round((ledgerRows / users) * HEAVY_FACTOR);
  // The others' counts are 1..2m-1 (mean m), spread by a multiplicative hash of i.
  const mean = Math.max(1, (ledgerRows - heavyUsers * perHeavy) / Math.max(1, users - heavyUsers));
  const spread = Math.max(1, Math.round(2 * mean - 1));
  const rows = (/** @type {string} */ i) =>
    `case when ${heavy(i)} then ${perHeavy} else 1 + ((${i})::bigint * 7919) % ${spread} end`;
  // A fraction of [0, 1) that varies with i: where in its span each account's rows fall.
  const phase = (/** @type {string} */ i) => `((${i} * 2654435761::bigint) % 1000003) / 1000003.0`;
  // Row k (1 = newest) of n over the last year: the newest within 365/n days, so that heavy
  // accounts have rows in the last 24 hours, and one account in about 20 of the others.
  const createdAt = `now() - interval '365 days' * ((k - 1 + ${phase("i")}) / n)`;
  const profileCreated = (/** @type {string} */ i) =>
    `case when ${i} % 1000 = 1 then now() - interval '2 hours'
          else now() - interval '400 days' - interval '1 day' * (${i} % 200) end`;
  return `
  set session_replication_role = replica;
  insert into user_profiles (id, display_name, referral_code, email, email_verified, identity_hash, created_at)
  select ${id("i")}, 'Risk ' || i, ${code("i")}, 'risk' || i || '@example.com', i % 50 <> 1,
         ${hash("'identity-' || i")}, ${profileCreated("i")}
    from generate_series(1, ${users}) i;
  insert into identities (identity_hash, user_id, created_at)
  select ${hash("'identity-' || i")}, ${id("i")},
         -- One in 100 had an account with the same email before this one.
         case when i % 100 = 5 then now() - interval '800 days' else ${profileCreated("i")} end
    from generate_series(1, ${users}) i;
  insert into identity_rewards (identity_hash, reward, user_id)
  select ${hash("'identity-' || i")}, 'task:survey', case when i % 100 = 5 then 'deleted-' || i else ${id("i")} end
    from generate_series(1, ${users}) i where i % 4 = 1;
  insert into user_balance (user_id, balance, total_earned, earned_total, was_negative_at)
  select ${id("i")}, round((i % 5000) / 100.0, 2), 50 + (i % 5000) / 100.0, 40 + (i % 5000) / 100.0,
         case when i % 500 = 0 then now() - interval '30 days' end
    from generate_series(1, ${users}) i;

  -- One withdrawal per account (its ledger row is the account's second), most paid.
  insert into withdrawals (id, user_id, created_at, amount, payment_method, recipient_email, status, settled_at,
                           recipient_hash, risk_score, review_state)
  select ${withdrawalId("i")}, ${id("i")}, created_at, 5, 'paypal', 'payee' || i || '@example.com',
         case when i % 10 = 0 then 'pending' else 'completed' end,
         case when i % 10 = 0 then null else created_at + interval '1 day' end,
         ${recipient("i")}, 0, 'approved'
    from (select i, ${rows("i")} as n from generate_series(1, ${users}) i) s,
         lateral (select ${createdAt.replace(/\bk\b/g, "least(2, n)")} as created_at) w;

  insert into transaction_history (user_id, created_at, available_at, description, transaction_type, amount,
                                   status, withdrawal_id, coins)
  select ${id("i")}, created_at,
         case when type = 'postback' then created_at + interval '3 days' else created_at end,
         case type when 'withdrawal' then 'Withdrawal' when 'checkin' then 'Daily check-in'
                   when 'task' then 'Task completed' else 'Offer completed' end,
         type,
         case type when 'withdrawal' then -5 when 'checkin' then 0.10 when 'task' then 0.50
                   else 0.05 + ((i + k) % 40) * 0.05 end,
         'completed',
         case when type = 'withdrawal' then ${withdrawalId("i")} end,
         case type when 'withdrawal' then null when 'checkin' then 10 when 'task' then 50
                   else 5 + ((i + k) % 40) * 5 end
    from (select i, ${rows("i")} as n from generate_series(1, ${users}) i) s,
         lateral generate_series(1, n) k,
         lateral (select ${createdAt} as created_at,
                         case when k = least(2, n) then 'withdrawal'
                              when k % 5 = 0 then 'checkin' when k % 5 = 1 then 'task'
                              else 'postback' end as type) r;

  -- A device and an address range per account: devices shared by small groups, address ranges by
  -- households of 4, and one range (a carrier's NAT) by every 20th account. Heavy accounts have
  -- 30 devices, past the function's limit of 20.
  insert into account_signals (user_id, kind, hash, first_seen_at, last_seen_at)
  select ${id("i")}, 'address',
         ${hash(`case when i % ${NAT_EVERY} = 0 then 'carrier-nat' else 'range-' || (i / 4) end`)},
         now() - interval '90 days', now() - interval '1 minute' * (i % 10000)
    from generate_series(1, ${users}) i;
  insert into account_signals (user_id, kind, hash, first_seen_at, last_seen_at)
  select ${id("i")}, 'device',
         ${hash(`case when d = 1 and i % 200 < 3 then 'shared-device-' || (i / 200) else 'device-' || i || '-' || d end`)},
         now() - interval '90 days', now() - interval '1 minute' * ((i + d) % 10000)
    from generate_series(1, ${users}) i, lateral generate_series(1, case when ${heavy("i")} then 30 else 1 end) d;

  -- Every third account referred by the one before it; every third by one big referrer.
  insert into referrals (created_at, referrer_user_id, referred_user_id, credited_at)
  select now() - interval '100 days', case when i % 3 = 0 then ${id("i - 1")} else ${id(String(BIG_REFERRER))} end,
         ${id("i")}, now() - interval '99 days'
    from generate_series(${BIG_REFERRER + 1}, ${users}) i where i % 3 <> 2;

  -- An offer credit per account, and reversals: one account in 10, and 500 for each heavy one.
  insert into provider_postbacks (provider, transaction_id, kind, user_id, coins, amount, created_at)
  select 'bench', 'c' || i, 'credit', ${id("i")}, 100, 1, now() - interval '10 days'
    from generate_series(1, ${users}) i;
  insert into provider_postbacks (provider, transaction_id, kind, user_id, coins, amount, created_at)
  select 'bench', 'c' || i || '-' || r, 'reversal', ${id("i")}, -100, -1, now() - interval '5 days'
    from generate_series(1, ${users}) i,
         lateral generate_series(1, case when ${heavy("i")} then 500 when i % 10 = 0 then 1 else 0 end) r;
  set session_replication_role = default;
`;
}

export const SEEDED = [
  "user_profiles",
  "identities",
  "identity_rewards",
  "user_balance",
  "withdrawals",
  "transaction_history",
  "account_signals",
  "referrals",
  "provider_postbacks",
];

/** @typedef {{ user: string, recipient: string, why: string }} Sample */

/**
 * The accounts timed: a spread of ordinary ones, and every kind the shared signals make heavy.
 * Each asks to be paid to its own payout address again, or (one in four) to a new one.
 * @param {number} users
 * @param {number} count
 * @returns {Sample[]}
 */
export function samples(users, count) {
  const pad = (/** @type {number} */ i) => `r${String(i).padStart(7, "0")}`;
  /** @type {{ i: number, why: string }[]} */
  const picked = [];
  const add = (/** @type {number} */ i, /** @type {string} */ why) => {
    if (i >= 1 && i <= users && !picked.some((pick) => pick.i === i)) picked.push({ i, why });
  };
  for (let k = 1; k <= Math.min(20, Math.floor(users / HEAVY_EVERY)); k++) add(k * HEAVY_EVERY, "heavy ledger");
  add(BIG_REFERRER, "big referrer");
  // 20 of each group, spread over all accounts: i = k·step·every + offset.
  const spread = (/** @type {number} */ every, /** @type {number} */ offset, /** @type {string} */ why) => {
    const step = Math.max(1, Math.floor(users / 21 / every));
    for (let k = 1; k <= 20; k++) add(k * step * every + offset + (k % 2 === 0 ? every : 0), why);
  };
  spread(NAT_EVERY, 0, "carrier NAT");
  spread(FARM_EVERY, 7, "shared payout address");
  spread(200, 1, "shared device");
  // The rest spread evenly (a multiplicative step, so they are not all alike modulo the groups).
  for (let k = 1; picked.length < count && k < count * 10; k++) add(1 + ((k * 104_729) % users), "ordinary");
  // The seeded payout address of account i (see `recipient` above), or a new one.
  const address = (/** @type {number} */ i) =>
    i % FARM_EVERY === 7 ? "farm" : i % 100 === 0 ? `pair-${Math.floor(i / 1000)}` : `payee-${i}`;
  return picked.map(({ i, why }, k) => ({ user: pad(i), recipient: k % 4 === 3 ? `new-${i}` : address(i), why }));
}

/**
 * @param {number[]} sorted
 * @param {number} fraction
 */
export function percentile(sorted, fraction) {
  return /** @type {number} */ (sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * fraction) - 1)]);
}

/** Tables that must never be read whole while scoring one withdrawal. */
export const BIG_TABLES = SEEDED;

/**
 * Seeds the database `db` (migrated) as described above, the ledger's secondary indexes built after
 * it is filled; returns how many rows each seeded table holds and how long it took. The app's
 * triggers do not run while seeding (session_replication_role = replica): whatever they keep (the
 * dashboard's counters) is to be rebuilt afterwards.
 * @param {import("../lib/database.mjs").BenchDatabase} db
 * @param {number} users
 * @param {number} ledgerRows
 */
export async function seedRisk(db, users, ledgerRows) {
  const started = Date.now();
  // Secondary indexes of the ledger are built after it is filled (a sort, many times faster than
  // 20 million insertions into each), from their own definitions, so they are the app's indexes.
  const ledgerIndexes = await db.query(
    `select indexname, indexdef from pg_indexes
      where schemaname = 'public' and tablename = 'transaction_history'
        and indexname not in (select conname from pg_constraint)`,
  );
  for (const { indexname } of ledgerIndexes) await db.exec(`drop index public.${indexname}`);
  await db.exec("set maintenance_work_mem = '1GB'; set max_parallel_maintenance_workers = 2");
  await db.exec(seedSql(users, ledgerRows));
  for (const { indexdef } of ledgerIndexes) await db.exec(String(indexdef));
  // As autovacuum would by now: statistics, and the visibility map.
  await db.exec(`vacuum analyze ${SEEDED.join(", ")}`);
  const seedSeconds = (Date.now() - started) / 1000;
  /** @type {Record<string, number>} */
  const counts = {};
  for (const table of SEEDED) counts[table] = Number((await db.query(`select count(*) as n from ${table}`))[0]?.n);
  return { counts, seedSeconds };
}

/**
 * Times withdrawal_risk for a few hundred accounts of the database at `url`, seeded first unless
 * `seeded` says how it was (seedRisk).
 * @param {{ url: string, users: number, ledgerRows: number, runs?: number,
 *   seeded?: Awaited<ReturnType<typeof seedRisk>> }} options
 * @returns {Promise<{ database: string, users: number, ledgerRows: number, counts: Record<string, number>,
 *   seedSeconds: number, runs: number, median: number, p95: number, max: number, slowest: string,
 *   byKind: Record<string, { runs: number, median: number, max: number }>,
 *   roundTrip: { median: number, p95: number, max: number }, plans: string[], shown: string, slowestSummary: string[], summary: string[],
 *   seqScans: string[], fromIndex: boolean }>} times in ms: in the database, and (roundTrip) as the client saw them.
 */
export async function measureRisk({ url, users, ledgerRows, runs = 300, seeded }) {
  const db = await openPostgres(url);
  const plansClient = new pg.Client({ connectionString: url });
  try {
    const { counts, seedSeconds } = seeded ?? (await seedRisk(db, users, ledgerRows));

    const picked = samples(users, runs);
    const call = "select withdrawal_risk($1, encode(sha256(convert_to($2, 'UTF8')), 'hex')) as risk";
    for (const sample of picked) await db.query(call, [sample.user, sample.recipient]);
    /** @type {number[]} */
    const roundTrips = [];
    for (const sample of picked) {
      const t0 = performance.now();
      await db.query(call, [sample.user, sample.recipient]);
      roundTrips.push(performance.now() - t0);
    }
    roundTrips.sort((a, b) => a - b);

    // Each call timed inside the database (clock_timestamp around it), without the round trip.
    const literal = (/** @type {string} */ text) => `'${text.replace(/'/g, "''")}'`;
    await db.exec(`
      create temporary table if not exists risk_times (user_id text, why text, ms double precision);
      truncate risk_times;
      do $$
      declare
        t0 timestamptz;
        sample record;
      begin
        for sample in select * from (values ${picked
          .map((s) => `(${literal(s.user)}, ${literal(s.recipient)}, ${literal(s.why)})`)
          .join(", ")}) v(user_id, recipient, why) loop
          t0 := clock_timestamp();
          perform withdrawal_risk(sample.user_id, encode(sha256(convert_to(sample.recipient, 'UTF8')), 'hex'));
          insert into risk_times values (sample.user_id, sample.why, extract(epoch from clock_timestamp() - t0) * 1000);
        end loop;
      end
      $$;`);
    const timed = await db.query("select user_id, why, ms from risk_times order by ms");
    const times = timed.map((row) => Number(row.ms));
    const slowestRow = timed.at(-1);
    /** @type {Record<string, { runs: number, median: number, max: number }>} */
    const byKind = {};
    for (const why of new Set(picked.map((sample) => sample.why))) {
      const kind = timed.filter((row) => row.why === why).map((row) => Number(row.ms));
      byKind[why] = { runs: kind.length, median: percentile(kind, 0.5), max: /** @type {number} */ (kind.at(-1)) };
    }

    // Every statement's plan, as auto_explain reports it while the function runs, for every
    // sample (the plans a session caches after five calls included); printed for the heaviest.
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
    /** Each sample's statements' plans, leaving out the call itself and risk_reason (no table read). @type {Map<string, string[]>} */
    const plansOf = new Map();
    for (const sample of picked) {
      notices = [];
      await plansClient.query(call, [sample.user, sample.recipient]);
      for (const plan of notices)
        for (const match of plan.matchAll(/Seq Scan on (\w+)/g))
          if (BIG_TABLES.includes(/** @type {string} */ (match[1]))) seqScans.add(`${match[1]} (${sample.why})`);
      plansOf.set(
        sample.user,
        notices.filter((plan) => !/Query Text: select withdrawal_risk|jsonb_build_object\('code'/.test(plan)),
      );
    }
    // Printed for a heavy account, and for the slowest one timed.
    const shown = picked.find((sample) => sample.why === "heavy ledger") ?? /** @type {Sample} */ (picked[0]);
    const slowest = picked.find((sample) => sample.user === slowestRow?.user_id) ?? shown;
    const plans = plansOf.get(shown.user) ?? [];
    return {
      database: db.name,
      users,
      ledgerRows,
      counts,
      seedSeconds,
      runs: times.length,
      median: percentile(times, 0.5),
      p95: percentile(times, 0.95),
      max: /** @type {number} */ (times.at(-1)),
      slowest: `${slowestRow?.user_id} (${slowestRow?.why})`,
      byKind,
      roundTrip: {
        median: percentile(roundTrips, 0.5),
        p95: percentile(roundTrips, 0.95),
        max: /** @type {number} */ (roundTrips.at(-1)),
      },
      plans,
      shown: `${shown.user} (${shown.why})`,
      slowestSummary: summarize(plansOf.get(slowest.user) ?? []),
      summary: summarize(plans),
      seqScans: [...seqScans],
      fromIndex: seqScans.size === 0 && plans.length > 0,
    };
  } finally {
    await plansClient.end().catch(() => {});
    await db.close();
  }
}

/**
 * One line per statement: its first words, and how each table was read.
 * @param {string[]} plans auto_explain's messages
 */
export function summarize(plans) {
  return plans.map((plan) => {
    // The statement's text runs from "Query Text:" to the plan's first node (the line with its figures).
    const lines = plan.split("\n");
    const first = lines.findIndex((line) => line.startsWith("Query Text:"));
    const end = lines.findIndex((line, k) => k > first && /\((?:cost|actual)[= ]/.test(line));
    const text = lines
      .slice(first, end)
      .join(" ")
      .replace(/^Query Text:/, "");
    const words = text.replace(/\s+/g, " ").trim().slice(0, 70);
    const scans = [
      ...new Set(
        [
          ...plan.matchAll(
            /((?:Parallel )?(?:Seq|Index Only|Index|Bitmap Heap|Bitmap Index) Scan)(?: Backward)?(?: using (\w+))? on (\w+)/g,
          ),
        ].map(([, scan, index, table]) =>
          // A bitmap index scan is "on" its index: its table is the bitmap heap scan's.
          scan === "Bitmap Index Scan" ? `${scan} of ${table}` : `${table}: ${scan}${index ? ` using ${index}` : ""}`,
        ),
      ),
    ];
    return `${words}${words.length >= 70 ? "…" : ""}\n      ${scans.join("; ") || "no table read"}`;
  });
}

/** @param {Awaited<ReturnType<typeof measureRisk>>} result */
export function describe(result) {
  return (
    `${result.database}: ${Object.entries(result.counts)
      .map(([table, n]) => `${n.toLocaleString("en")} ${table}`)
      .join(", ")} seeded in ${result.seedSeconds.toFixed(1)} s\n` +
    `withdrawal_risk median ${result.median.toFixed(2)} ms, p95 ${result.p95.toFixed(2)} ms, max ` +
    `${result.max.toFixed(2)} ms (${result.slowest}) over ${result.runs} accounts timed in the database; round trip ` +
    `median ${result.roundTrip.median.toFixed(2)} ms, p95 ${result.roundTrip.p95.toFixed(2)} ms, max ${result.roundTrip.max.toFixed(2)} ms\n` +
    `by kind of account: ${Object.entries(result.byKind)
      .map(
        ([why, { runs, median, max }]) => `${why} (${runs}) median ${median.toFixed(2)} ms, max ${max.toFixed(2)} ms`,
      )
      .join("; ")}\n` +
    (result.seqScans.length > 0
      ? `SEQ SCAN on a big table: ${result.seqScans.join(", ")}\n`
      : "no Seq Scan on a seeded table in any sample's plans\n") +
    `the statements inside it, for ${result.shown}:\n${result.summary.map((line) => `  - ${line}`).join("\n")}\n` +
    `and for the slowest, ${result.slowest}:\n${result.slowestSummary.map((line) => `  - ${line}`).join("\n")}\n` +
    `the plans for ${result.shown}:\n${result.plans.map((plan) => plan.replace(/^/gm, "    ")).join("\n")}`
  );
}

async function main() {
  const users = Number(process.argv[2] ?? 100_000);
  const ledgerRows = Number(process.argv[3] ?? 2_000_000);
  const server = await startPostgres();
  try {
    console.log(`seeding ${users.toLocaleString("en")} users and ${ledgerRows.toLocaleString("en")} ledger rows`);
    const result = await measureRisk({ url: server.url, users, ledgerRows });
    console.log(describe(result));
    if (!result.fromIndex) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
