// @ts-check
// The throughput at scale, a part of `npm run bench` (scripts/bench/run.mjs) when it runs both
// `console` and `throughput`: the signed-in pages on the database at scale (by default 1,000,000
// accounts, seeded once by scripts/bench/context.mjs for this, the risk and the console parts)
// against the 10,000-account one. Two servers, one on each database, take turns page by page in
// the same run. Each page's share of /legal's requests per second at scale must meet its page's
// budget, and its CPU time per request (the app and Postgres) must stay within a few % of the
// 10,000-account one's: Home, Earn, the leaderboard and the rest read by index, and this shows it
// from the outside. The shares' difference between the two sizes is printed, not judged: it moved
// by 8 points on pages whose CPU per request differed by 3 % (docs/decisions/108).
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
  const group = `Throughput on Postgres with ${scale} beside ${users.toLocaleString("en")} users, taking turns`;
  const shareLabel = (/** @type {string} */ page) => `${page}, share of ${THROUGHPUT_BASELINE}'s at scale`;
  const growthLabel = (/** @type {string} */ page) =>
    `${page}, CPU per request at scale, above ${users.toLocaleString("en")} users'`;
  /** @returns {import("./context.mjs").Unmeasured[]} */
  const unmeasured = () =>
    THROUGHPUT_PAGES.flatMap((page) => [
      {
        group,
        label: shareLabel(page),
        unit: /** @type {const} */ ("%"),
        budget: { limit: page === "/" ? BUDGETS.homeThroughputShare : BUDGETS.throughputShare, kind: "min" },
      },
      {
        group,
        label: growthLabel(page),
        unit: /** @type {const} */ ("%"),
        budget: { limit: BUDGETS.scaleCpuPerRequestGrowthPercent, kind: "max" },
      },
    ]);
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
          const error = failures ? `${failures} answers were not 200` : undefined;
          const shareAtScale = failures || page.ratio === null ? null : page.ratio * 100;
          const shareAtSmall = before?.ratio == null ? null : before.ratio * 100;
          figures.push({
            ...figureOf(unmeasured, shareLabel(page.path)),
            value: shareAtScale,
            detail:
              `${page.requestsPerSecond?.toFixed(0)} req/s, p99 ${page.p99} ms; ` +
              `${shareAtSmall === null ? "?" : shareAtSmall.toFixed(1)} % with ${users.toLocaleString("en")} users` +
              (shareAtScale !== null && shareAtSmall !== null
                ? ` (${Math.abs(shareAtScale - shareAtSmall).toFixed(1)} points apart)`
                : ""),
            error: error ?? (shareAtScale === null ? "no share at scale" : undefined),
          });
          const cpuAtScale = page.cpuMsPerRequest;
          const cpuAtSmall = before?.cpuMsPerRequest ?? null;
          const measured = !failures && cpuAtScale !== null && cpuAtSmall !== null && cpuAtSmall > 0;
          figures.push({
            ...figureOf(unmeasured, growthLabel(page.path)),
            value: measured ? (cpuAtScale / cpuAtSmall - 1) * 100 : null,
            detail: `${cpuMs(page)} ms at scale, ${before ? cpuMs(before) : "?"} ms with ${users.toLocaleString("en")} users`,
            error: error ?? (measured ? undefined : "no CPU time to compare"),
          });
        }
      }),
    );
  });
}
