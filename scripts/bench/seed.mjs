// @ts-check
// The benchmark's data, made in SQL with generate_series (seconds, not minutes): `users` people
// with `ledgerRows` ledger rows between them, every balance equal to its ledger (the audit,
// verify_all_balances, finds nothing) and this month's earnings in step. The signed-in person of
// the benchmark is one of them, with a history that fills every screen: check-ins this week,
// finished tasks, referred friends (some credited), a paid and a pending withdrawal.

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/** Accounts that earned more this month than the benchmark's person (who earns at most $17.30). */
const AHEAD_OF_PERSON = 100;
const TOP_BONUS_DOLLARS = 20;

/**
 * SQL for a referral code (7 symbols of the spec's alphabet) that is `number` written in base 32.
 * @param {number | string} number
 */
function referralCodeOf(number) {
  return `(select string_agg(substr('${CODE_ALPHABET}', ((${number} / (32 ^ k)::bigint) % 32)::int + 1, 1), '' order by k)
             from generate_series(0, 6) k)`;
}

/** @typedef {{ id: string, email: string }} Person */

/** @param {Person} person */
function checkPerson(person) {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(person.id)) throw new Error(`unexpected user id ${person.id}`);
  if (!/^[a-z0-9.+-]+@[a-z0-9.-]+$/.test(person.email)) throw new Error(`unexpected email ${person.email}`);
}

/**
 * The benchmark's person's profile (SQL).
 * @param {Person} person
 */
function personProfileSql(person) {
  checkPerson(person);
  return `insert into user_profiles (id, email, display_name, referral_code, email_verified, created_at)
values ('${person.id}', '${person.email}', 'Bench Runner', ${referralCodeOf(0)}, true, now() - interval '60 days');`;
}

/**
 * The benchmark's person's history (SQL): three check-ins this week (not today), two finished tasks,
 * twelve referred friends (three credited), a paid PayPal withdrawal and a pending UPI one.
 * `friend` turns a SQL expression k (1 to 12) into the id of the k-th friend: an account that exists
 * and that nobody referred.
 * @param {Person} person
 * @param {(k: string) => string} friend
 */
function personHistorySql(person, friend) {
  checkPerson(person);
  const id = `'${person.id}'`;
  return `
insert into transaction_history (user_id, created_at, description, transaction_type, amount, status, coins)
select ${id}, now() - make_interval(days => d), 'Daily check-in', 'checkin', 0.10, 'completed', 10
  from generate_series(1, 3) d;
insert into daily_checkins (user_id, check_date, coins_earned, created_at)
select ${id}, ((now() - make_interval(days => d)) at time zone 'UTC')::date, 10, now() - make_interval(days => d)
  from generate_series(1, 3) d;
insert into transaction_history (user_id, created_at, description, transaction_type, amount, status, coins)
select ${id}, now() - make_interval(hours => t), 'Task: Complete Profile', 'task', 1.00, 'completed', 100
  from generate_series(1, 2) t;
insert into completed_tasks (user_id, task_id, reward, created_at)
select ${id}, 'task-00' || t, 100, now() - make_interval(hours => t) from generate_series(1, 2) t;
insert into referrals (referrer_user_id, referred_user_id, created_at, credited_at, referrer_amount, referred_amount)
select ${id}, ${friend("f")}, now() - make_interval(days => f),
       case when f <= 3 then now() - make_interval(days => f) end,
       case when f <= 3 then 5.00 end, case when f <= 3 then 1.00 end
  from generate_series(1, 12) f;
insert into transaction_history (user_id, created_at, description, transaction_type, amount, status, coins)
select ${id}, now() - make_interval(days => f), 'Referral reward', 'referral', 5.00, 'completed', 500
  from generate_series(1, 3) f;
with paid as (
  insert into withdrawals (user_id, created_at, amount, payment_method, recipient_email, status, settled_at)
  values (${id}, now() - interval '20 days', 5.00, 'paypal', '${person.email}', 'completed', now() - interval '19 days')
  returning id, created_at, amount)
insert into transaction_history (user_id, created_at, description, transaction_type, amount, status, withdrawal_id)
select ${id}, created_at, 'Withdrawal via PayPal', 'withdrawal', -amount, 'completed', id from paid;
with waiting as (
  insert into withdrawals (user_id, created_at, amount, payment_method, recipient_upi, status)
  values (${id}, now() - interval '1 day', 2.00, 'upi', 'bench@upi', 'pending')
  returning id, created_at, amount)
insert into transaction_history (user_id, created_at, description, transaction_type, amount, status, withdrawal_id)
select ${id}, created_at, 'Withdrawal via UPI', 'withdrawal', -amount, 'pending', id from waiting;

`;
}

/**
 * The benchmark's person added to a database seeded otherwise (the risk bench's, for the
 * throughput at scale): their profile and history, then their balance, this month's earnings and
 * notification switches from it, as the money functions keep them.
 * @param {Person} person
 * @param {(k: string) => string} friend
 */
export function personSql(person, friend) {
  const id = `'${person.id}'`;
  return `
begin;
${personProfileSql(person)}
${personHistorySql(person, friend)}
insert into user_balance (user_id, balance, total_earned)
select user_id, coalesce(sum(amount) filter (where status <> 'failed'), 0),
       coalesce(sum(amount) filter (where transaction_type <> 'withdrawal'), 0)
  from transaction_history where user_id = ${id} group by user_id;
insert into monthly_earnings (user_id, month, amount)
select user_id, current_month(), sum(amount)
  from transaction_history
 where user_id = ${id} and transaction_type <> 'withdrawal' and created_at >= current_month()::timestamp at time zone 'UTC'
 group by user_id;
insert into notification_preferences (user_id) values (${id});
commit;`;
}

/**
 * The seed: `users` people in all (the benchmark's person included) with `ledgerRows` ledger rows.
 * @param {{ users: number, ledgerRows: number, person: { id: string, email: string } }} options
 */
export function seedSql({ users, ledgerRows, person }) {
  checkPerson(person);
  const others = users - 1;
  // The person's own ten rows (below); the rest spread evenly over everyone else.
  const perUser = Math.floor((ledgerRows - 10) / others);
  const extra = ledgerRows - 10 - perUser * others;
  if (perUser < 1) throw new Error("at least one ledger row per user");
  return `
begin;
-- Each with its identity, as every account made since identities exist has one (decision 064):
-- without, the server's backfill of old accounts would run through all of them while it is measured.
-- The app keys the real hash with a secret the database never sees; any distinct value stands in.
insert into user_profiles (id, email, display_name, referral_code, email_verified, identity_hash, created_at)
select 'bench-' || i, 'bench-' || i || '@example.com', 'Bench Friend ' || i, ${referralCodeOf("i")}, true,
       encode(sha256(('bench-identity-' || i)::bytea), 'hex'), now() - make_interval(days => 40 + i % 300)
  from generate_series(1, ${others}) i;
insert into identities (identity_hash, user_id, created_at)
select identity_hash, id, created_at from user_profiles where identity_hash is not null;
${personProfileSql(person)}

-- Everyone else: check-ins, tasks and bonuses, one row every few days back from today, so some
-- fall in this month and some before it. The first ${AHEAD_OF_PERSON}'s newest row is a bigger bonus this month,
-- so that the benchmark's person is below the leaderboard (ranked ${AHEAD_OF_PERSON + 1}st), as on the
-- database of a million accounts (scripts/bench/risk.mjs): /leaderboard then reads the person's own
-- rank at both sizes, and the throughput figures compare the same reads.
insert into transaction_history (user_id, created_at, description, transaction_type, amount, status, coins)
select 'bench-' || i,
       case when top then greatest(now() - make_interval(mins => i), current_month()::timestamp at time zone 'UTC')
            else now() - make_interval(days => k * 3 + 1, hours => i % 20) end,
       case when top or k % 4 = 1 then 'Bonus coins' when k % 4 = 0 then 'Task: Watch a video' else 'Daily check-in' end,
       case when top or k % 4 = 1 then 'bonus' when k % 4 = 0 then 'task' else 'checkin' end,
       case when top then ${TOP_BONUS_DOLLARS}.00 when k % 4 = 0 then 0.50 when k % 4 = 1 then 0.25 else 0.10 end,
       'completed',
       case when top then ${TOP_BONUS_DOLLARS * 100} when k % 4 = 0 then 50 when k % 4 = 1 then 25 else 10 end
  from generate_series(1, ${others}) i
 cross join generate_series(0, ${perUser - 1}) k
 cross join lateral (select i <= ${AHEAD_OF_PERSON} and k = 0 as top) ahead;
insert into transaction_history (user_id, created_at, description, transaction_type, amount, status, coins)
select 'bench-' || i, now() - interval '2 hours', 'Bonus coins', 'bonus', 0.25, 'completed', 25
  from generate_series(1, ${extra}) i;
insert into daily_checkins (user_id, check_date, coins_earned, created_at)
select user_id, (created_at at time zone 'UTC')::date, 10, created_at
  from transaction_history where transaction_type = 'checkin';
insert into completed_tasks (user_id, task_id, reward, created_at)
select user_id, 'task-' || lpad((row_number() over (partition by user_id order by id))::text, 3, '0'), 50, created_at
  from transaction_history where transaction_type = 'task';

${personHistorySql(person, (f) => `'bench-' || ${f}`)}
-- Balances and this month's earnings from the ledger, as the money functions keep them.
insert into user_balance (user_id, balance, total_earned)
select user_id,
       coalesce(sum(amount) filter (where status <> 'failed'), 0),
       coalesce(sum(amount) filter (where transaction_type <> 'withdrawal'), 0)
  from transaction_history group by user_id;
insert into monthly_earnings (user_id, month, amount)
select user_id, current_month(), sum(amount)
  from transaction_history
 where transaction_type <> 'withdrawal' and created_at >= current_month()::timestamp at time zone 'UTC'
 group by user_id;
insert into notification_preferences (user_id) select id from user_profiles;
commit;
analyze;
`;
}

/**
 * Seeds `db` (scripts/lib/database.mjs) and checks the result: counts, and the ledger audit.
 * @param {import("../lib/database.mjs").BenchDatabase} db
 * @param {Parameters<typeof seedSql>[0]} options
 */
export async function seed(db, options) {
  const started = Date.now();
  await db.exec(seedSql(options));
  const [counts] = await db.query(
    `select (select count(*) from user_profiles)::int as users,
            (select count(*) from transaction_history)::int as ledger,
            jsonb_array_length(verify_all_balances()) as inconsistent`,
  );
  if (!counts || counts.users !== options.users || counts.ledger !== options.ledgerRows || counts.inconsistent !== 0) {
    throw new Error(`seed came out wrong: ${JSON.stringify(counts)}`);
  }
  return { ...counts, seconds: (Date.now() - started) / 1000 };
}

/**
 * The person's place on this month's leaderboard as the page reads it: their rank, null beyond
 * the counted 1,000, or "none" when they earned nothing this month.
 * @param {import("../lib/database.mjs").BenchDatabase} db
 * @param {Person} person
 * @returns {Promise<number | null | "none">}
 */
export async function leaderboardPlace(db, person) {
  const [row] = await db.query("select get_leaderboard_position($1, 1000) as place", [person.id]);
  const place = /** @type {{ rank: number | null } | null | undefined} */ (row?.place);
  return place ? place.rank : "none";
}
