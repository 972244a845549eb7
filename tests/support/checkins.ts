import type { TestDatabase } from "./db";

/**
 * Check-in rows for past UTC days, `daysAgo` counted back from the database's today (1: yesterday),
 * as daily_checkin wrote them on those days. Only the rows: a streak is counted from them
 * (docs/decisions/072); the coins those days paid are not what these tests are about.
 */
export async function checkedInDaysAgo(t: Pick<TestDatabase, "sql">, userId: string, daysAgo: number[]) {
  await t.sql(
    `insert into daily_checkins (user_id, check_date, coins_earned)
     select $1, (now() at time zone 'UTC')::date - d, 10 from unnest($2::int[]) d`,
    [userId, daysAgo],
  );
}

/** 1, 2, …, n: the n days before today, a streak that runs up to yesterday. */
export function lastDays(n: number): number[] {
  return Array.from({ length: n }, (_, index) => index + 1);
}
