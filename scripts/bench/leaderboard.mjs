// Measures the monthly leaderboard query (get_leaderboard(50)) with 100,000 users who all earned
// this month (plus last month's history), on a Postgres server and on PGlite. Prints timings.
// Usage: npm run bench:leaderboard [-- users]
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { applyMigrations, readMigrations } from "../../app/server/db/migrations.server.ts";
import { startPostgres } from "../lib/services.mjs";

const USERS = Number(process.argv[2] ?? 100_000);
const RUNS = 30;
const migrations = await readMigrations(path.resolve("supabase/migrations"));

// Referral codes must be unique and use the spec's alphabet: user i gets i written in base 32.
const SEED = `
  insert into user_profiles (id, display_name, referral_code)
  select 'bench-user-' || i, 'Bench ' || i,
         (select string_agg(substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', ((i / (32 ^ k)::bigint) % 32)::int + 1, 1), '' order by k)
            from generate_series(0, 6) k)
    from generate_series(1, ${USERS}) i;
  insert into user_balance (user_id, balance, total_earned)
  select 'bench-user-' || i, 0, 0 from generate_series(1, ${USERS}) i;
  insert into monthly_earnings (user_id, month, amount)
  select 'bench-user-' || i, current_month(), round((random() * 500)::numeric, 2) from generate_series(1, ${USERS}) i;
  insert into monthly_earnings (user_id, month, amount)
  select 'bench-user-' || i, (current_month() - interval '1 month')::date, round((random() * 500)::numeric, 2)
    from generate_series(1, ${USERS}) i;
  analyze;
`;

async function measure(name, query) {
  const started = Date.now();
  await query(SEED);
  const seeded = Date.now() - started;
  const times = [];
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    const rows = await query("select jsonb_array_length(get_leaderboard(50)) as n");
    times.push(performance.now() - t0);
    if (run === 0 && Number(rows[0].n) !== 50) throw new Error(`expected 50 rows, got ${rows[0].n}`);
  }
  times.sort((a, b) => a - b);
  const plan = (
    await query(
      "explain select * from monthly_earnings where month = current_month() and amount > 0 order by amount desc, user_id limit 50",
    )
  )
    .map((row) => row["QUERY PLAN"])
    .join(" | ");
  console.log(
    `${name}: ${USERS.toLocaleString("en")} users seeded in ${(seeded / 1000).toFixed(1)} s; get_leaderboard(50) ` +
      `median ${times[Math.floor(RUNS / 2)].toFixed(2)} ms, p95 ${times[Math.floor(RUNS * 0.95)].toFixed(2)} ms, max ${times.at(-1).toFixed(2)} ms`,
  );
  console.log(`  plan: ${plan}`);
}

const server = await startPostgres();
const pool = new pg.Pool({ connectionString: server.url, max: 2 });
try {
  await applyMigrations(
    {
      async transaction(work) {
        const client = await pool.connect();
        try {
          await client.query("begin");
          const result = await work({
            exec: (sql) => client.query(sql).then(() => {}),
            query: (sql, values) => client.query(sql, values).then((r) => r.rows),
          });
          await client.query("commit");
          return result;
        } finally {
          client.release();
        }
      },
    },
    migrations,
    true,
  );
  await measure("Postgres 15", async (sql) => {
    const result = await pool.query(sql);
    return Array.isArray(result) ? result.at(-1).rows : result.rows;
  });
} finally {
  await pool.end();
  await server.stop();
}

const pglite = await PGlite.create();
try {
  await applyMigrations(
    {
      transaction: (work) =>
        pglite.transaction((tx) =>
          work({
            exec: (sql) => tx.exec(sql).then(() => {}),
            query: (sql, values) => tx.query(sql, values).then((r) => r.rows),
          }),
        ),
    },
    migrations,
    false,
  );
  await measure("PGlite", async (sql) => {
    const results = await pglite.exec(sql);
    return results.at(-1).rows;
  });
} finally {
  await pglite.close();
}
