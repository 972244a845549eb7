// @ts-check
// The throughput at scale, a part of `npm run bench` (scripts/bench/run.mjs) when it runs both
// `console` and `throughput`: the signed-in pages on the database at scale (by default 1,000,000
// accounts, seeded once by scripts/bench/context.mjs for this, the risk and the console parts),
// where each page's share of /legal's requests per second must stay within a few points of its share
// on the 10,000-account one. Two servers, one on each database, take turns page by page in the same
// run: measured minutes apart, /legal's own cost moved by up to 16 % between runs and the shares by
// as many points with it. Home, Earn, the leaderboard and the rest read by index; this shows it
// from the outside.
import { openPostgres } from "../lib/database.mjs";
import { BUDGETS, THROUGHPUT_BASELINE, THROUGHPUT_PAGES } from "./budgets.ts";
import { figureOf } from "./context.mjs";
import { leaderboardPlace, personSql } from "./seed.mjs";
import { cpuMs, measureThroughput, processTree } from "./throughput.mjs";

/**
 * @param {import("./context.mjs").Bench} bench
 * @param {import("./context.mjs").Shared} shared
 */
export async function benchThroughputAtScale(
  { settings, log, part, figures, details },
  { scale, seededAtScale, account, server, withApp },
) {
  const { users } = settings;
  const group = `Throughput on Postgres with ${scale} beside ${users.toLocaleString("en")} users, taking turns: each page's share of ${THROUGHPUT_BASELINE}'s, points apart`;
  /** @returns {import("./context.mjs").Unmeasured[]} */
  const unmeasured = () =>
    THROUGHPUT_PAGES.map((page) => ({
      group,
      label: `${page}, points apart`,
      unit: "points",
      budget: { limit: BUDGETS.scaleThroughputShareDriftPoints, kind: "max" },
    }));
  await part("throughput at scale", unmeasured, async () => {
    const smallPlace = details.seed?.[1]?.place;
    if (smallPlace === undefined) throw new Error("no 10,000-account Postgres database to compare with");
    const { url } = await seededAtScale();
    const db = await openPostgres(url);
    /** @type {Awaited<ReturnType<typeof leaderboardPlace>>} */
    let place = "none";
    try {
      // The signed-in person, their friends accounts that nobody referred (every third one, from 5).
      await db.exec(personSql(account(), (k) => `'r' || lpad((3 * (${k}) + 2)::text, 7, '0')`));
      // This month's earnings of everyone, as the leaderboard reads them.
      await db.exec(`insert into monthly_earnings (user_id, month, amount)
                     select user_id, current_month(), sum(amount) from transaction_history
                      where user_id is not null and transaction_type <> 'withdrawal'
                        and created_at >= current_month()::timestamp at time zone 'UTC'
                      group by user_id
                     on conflict (user_id, month) do nothing`);
      await db.exec("vacuum analyze monthly_earnings, user_balance, user_profiles");
      place = await leaderboardPlace(db, account());
      log(
        `  the person ranked ${place} on this month's leaderboard at scale, ${smallPlace} with ${users.toLocaleString("en")} users`,
      );
    } finally {
      await db.close();
    }
    const postgresProcesses = () => processTree(server().pid());
    await withApp(`Postgres, ${users.toLocaleString("en")} users`, { DATABASE_URL: server().url }, (small, cookies) =>
      withApp("Postgres at scale", { DATABASE_URL: url }, async (large) => {
        const [atSmall, atScale] = await measureThroughput({
          servers: [
            {
              name: "10k",
              baseUrl: small.url,
              pids: () => [/** @type {number} */ (small.pid), ...postgresProcesses()],
            },
            {
              name: "1M",
              baseUrl: large.url,
              pids: () => [/** @type {number} */ (large.pid), ...postgresProcesses()],
            },
          ],
          baseline: THROUGHPUT_BASELINE,
          pages: THROUGHPUT_PAGES,
          cookie: cookies.header,
          connections: settings.throughput.connections,
          rounds: settings.scaleThroughputRounds,
          seconds: settings.throughput.seconds,
          log,
        });
        if (!atSmall || !atScale) throw new Error("measured fewer servers than started");
        details.scaleThroughput = { atSmall, atScale, place: { atScale: place, atSmall: smallPlace } };
        figures.push({
          group,
          label: `${THROUGHPUT_BASELINE} (baseline) at scale`,
          value: atScale.baseline.requestsPerSecond,
          unit: "req/s",
          detail:
            `p99 ${atScale.baseline.p99} ms; ${atSmall.baseline.requestsPerSecond?.toFixed(0)} req/s with ${users.toLocaleString("en")} users; ` +
            `the person ranked ${place} at scale, ${smallPlace} with ${users.toLocaleString("en")} users`,
          error:
            atScale.baseline.failures + atSmall.baseline.failures
              ? `${atScale.baseline.failures + atSmall.baseline.failures} answers were not 200`
              : undefined,
        });
        for (const page of atScale.pages) {
          const before = atSmall.pages.find((one) => one.path === page.path);
          const failures = page.failures + (before?.failures ?? 0);
          const shareAtScale = page.ratio === null ? null : page.ratio * 100;
          const shareAtSmall = before?.ratio == null ? null : before.ratio * 100;
          const ok = !failures && shareAtScale !== null && shareAtSmall !== null;
          figures.push({
            ...figureOf(unmeasured, `${page.path}, points apart`),
            value: ok ? Math.abs(shareAtScale - shareAtSmall) : null,
            detail: ok
              ? `${shareAtScale.toFixed(1)} % at scale, ${shareAtSmall.toFixed(1)} % with ${users.toLocaleString("en")} users; ` +
                `${page.requestsPerSecond?.toFixed(0)} req/s, p99 ${page.p99} ms; CPU/request ${cpuMs(page)} ms against ${before ? cpuMs(before) : "?"}`
              : undefined,
            error: failures ? `${failures} answers were not 200` : ok ? undefined : "no share to compare",
          });
        }
      }),
    );
  });
}
