-- Issue 20, "Dashboard" (docs/operator-console.md, "Dashboard"): the console's home reads its figures
-- from summaries kept in the same transaction as the writes they count, so that it answers in a few
-- milliseconds at a million accounts and twenty million ledger rows.
--
-- - dashboard_counts: additive counters (how many, coins, dollars) by metric and bucket: a UTC day,
--   the hour in which held offer money clears, or -infinity for a running total. Every row belongs
--   to the backend that writes it (`writer`, its pg_backend_pid()): two transactions running at once
--   never write the same row, so the counters add no lock wait between writers and cannot deadlock,
--   however the writes interleave. A reader sums a bucket over its writers; fold_dashboard_counts()
--   merges the rows that no running transaction holds into writer 0, so that their number stays small.
-- - user_activity: each account's last UTC day of activity (signed in, checked in, completed a task,
--   had an offer credited, asked for a withdrawal) and of earning (coins for a check-in, a task or an
--   offer). dashboard_counts counts the accounts by those days ('active_last', 'earning_last'), so
--   "active in the last 7 days" is the sum of 7 counters.
-- - Triggers on user_profiles, user_balance, transaction_history, withdrawals, account_signals and
--   user_activity keep both.
-- - dashboard_recount(): every counter as the tables say it should be; rebuild_dashboard_counts()
--   writes it (the backfill at the end of this file, and a repair); check_dashboard_counts() lists
--   where the counters or user_activity differ from a recount of the tables ([] when they agree).
-- - operator_dashboard(operator): every figure of the page in one call; every role may read it.
-- - operator_withdrawal_counts(operator): the queue counts read from the counters, instead of
--   counting the pending withdrawals one by one (a hundred thousand of them took tens of ms); the
--   oldest unpaid withdrawal from an index of its own (withdrawals_unpaid_created_idx).
-- - operator_find_people: a payout address shared by very many accounts (20,000 in the bench) reads
--   the first 50 of them from an index on (recipient_hash, user_id), instead of all of them
--   (0.3-0.5 s); that index replaces withdrawals_recipient_hash_idx, which it serves for every other
--   reader too (withdrawal_risk, operator_person, the review's linked accounts).
-- Redefines: public.operator_withdrawal_counts, public.operator_find_people

create table public.dashboard_counts (
  metric text not null,
  -- The start of a UTC day; for 'held', of the hour the money clears; -infinity for running totals.
  bucket timestamptz not null,
  -- The backend that wrote the row (pg_backend_pid()); 0 for rows merged by fold_dashboard_counts().
  writer integer not null,
  n bigint not null default 0,
  coins bigint not null default 0,
  -- Sums of many amounts: wider than an amount, the same two decimals.
  amount numeric(18,2) not null default 0,
  constraint dashboard_counts_pkey primary key (metric, bucket, writer)
) with (fillfactor = 70);
alter table public.dashboard_counts enable row level security;
revoke all on table public.dashboard_counts from public, anon, authenticated;

create table public.user_activity (
  user_id text primary key references public.user_profiles (id) on delete cascade,
  -- The last UTC day the person did something (see dashboard_mark_active's callers).
  active_on date not null,
  -- The last UTC day they were credited coins for a check-in, a task or an offer.
  earned_on date
);
alter table public.user_activity enable row level security;
revoke all on table public.user_activity from public, anon, authenticated;

-- Money in its hold that clears within the current hour: the one part of "pending" the hourly
-- counters cannot say exactly.
create index transaction_history_held_idx on public.transaction_history (available_at) include (amount)
  where kind = 'earned' and user_id is not null;

-- The oldest approved withdrawal not yet sent or paid, at once, however many wait with PayPal.
create index withdrawals_unpaid_created_idx on public.withdrawals (created_at)
  where status = 'pending' and review_state = 'approved' and sent_at is null;
-- The accounts paid to one address, in order, so that a search stops at the first 50.
create index withdrawals_recipient_user_idx on public.withdrawals (recipient_hash, user_id);
drop index public.withdrawals_recipient_hash_idx;

-- The UTC day and hour a moment falls in, whatever the session's time zone.
create function public.dashboard_day(p_at timestamptz)
  returns timestamptz
  language sql
  immutable
  parallel safe
as $$
  select date_trunc('day', p_at at time zone 'UTC') at time zone 'UTC'
$$;

create function public.dashboard_hour(p_at timestamptz)
  returns timestamptz
  language sql
  immutable
  parallel safe
as $$
  select date_trunc('hour', p_at at time zone 'UTC') at time zone 'UTC'
$$;

-- Where a pending withdrawal waits: 'review' (an operator must look), 'sent' (with PayPal), or
-- 'unpaid' (approved, not sent or paid yet); null once it is settled.
create function public.dashboard_withdrawal_stage(p_status text, p_review_state text, p_sent_at timestamptz)
  returns text
  language sql
  immutable
  parallel safe
as $$
  select case when p_status <> 'pending' then null
              when p_review_state = 'review' then 'review'
              when p_sent_at is not null then 'sent'
              else 'unpaid' end
$$;

-- Adds to this backend's own counter rows (no other running transaction writes them), in one
-- statement however many counters a write moves: the i-th counter of `p_metrics` (null: none) in
-- the i-th bucket gets the i-th how many, coins and dollars; counters that sum to nothing are left.
create function public.dashboard_add(p_metrics text[], p_buckets timestamptz[], p_n bigint[], p_coins bigint[],
                                     p_amounts numeric[])
  returns void
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  insert into dashboard_counts as c (metric, bucket, writer, n, coins, amount)
  select d.metric, d.bucket, pg_backend_pid(), sum(d.n), sum(d.coins), sum(d.amount)
    from unnest(p_metrics, p_buckets, p_n, p_coins, p_amounts) as d(metric, bucket, n, coins, amount)
   where d.metric is not null
   group by d.metric, d.bucket
  having sum(d.n) <> 0 or sum(d.coins) <> 0 or sum(d.amount) <> 0
  on conflict (metric, bucket, writer) do update
    set n = c.n + excluded.n, coins = c.coins + excluded.coins, amount = c.amount + excluded.amount;
end
$$;

-- The person did something on `p_at`'s UTC day (and earned, when `p_earning`). Only a later day
-- changes the row, so a day's second activity costs one index lookup.
create function public.dashboard_mark_active(p_user_id text, p_at timestamptz, p_earning boolean)
  returns void
  language plpgsql
  set search_path = public, pg_temp
as $$
declare
  v_day date := (p_at at time zone 'UTC')::date;
begin
  insert into user_activity as a (user_id, active_on, earned_on)
  values (p_user_id, v_day, case when p_earning then v_day end)
  on conflict (user_id) do update
    set active_on = greatest(a.active_on, excluded.active_on),
        earned_on = greatest(a.earned_on, excluded.earned_on)
    where excluded.active_on > a.active_on
       or excluded.earned_on > coalesce(a.earned_on, '-infinity'::date);
end
$$;

create function public.dashboard_profile_counts()
  returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  -- Accounts that exist: a deleted account no longer counts, on the day it signed up either.
  if tg_op = 'INSERT' then
    perform dashboard_add(array['signups', 'accounts'], array[dashboard_day(new.created_at), '-infinity'],
                          array[1, 1], array[0, 0], array[0, 0]);
  elsif tg_op = 'DELETE' then
    perform dashboard_add(array['signups', 'accounts'], array[dashboard_day(old.created_at), '-infinity'],
                          array[-1, -1], array[0, 0], array[0, 0]);
  else
    perform dashboard_add(array['signups', 'signups'],
                          array[dashboard_day(old.created_at), dashboard_day(new.created_at)],
                          array[-1, 1], array[0, 0], array[0, 0]);
  end if;
  return null;
end
$$;

create trigger user_profiles_dashboard
  after insert or delete or update of created_at on public.user_profiles
  for each row execute function public.dashboard_profile_counts();

create function public.dashboard_balance_counts()
  returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
declare
  v_old numeric;
  v_new numeric;
begin
  if tg_op <> 'INSERT' then
    v_old := old.balance;
  end if;
  if tg_op <> 'DELETE' then
    v_new := new.balance;
  end if;
  perform dashboard_add(
    array['balances', 'negative_balances'],
    array['-infinity', '-infinity']::timestamptz[],
    array[(v_new is not null)::integer - (v_old is not null)::integer,
          coalesce((v_new < 0)::integer, 0) - coalesce((v_old < 0)::integer, 0)],
    array[0, 0],
    array[coalesce(v_new, 0) - coalesce(v_old, 0), least(coalesce(v_new, 0), 0) - least(coalesce(v_old, 0), 0)]);
  return null;
end
$$;

create trigger user_balance_dashboard
  after insert or delete or update of balance on public.user_balance
  for each row execute function public.dashboard_balance_counts();

-- The ledger is append-only (transaction_history_append_only): a row is inserted, its status may
-- change (a withdrawal's), and its user_id becomes null when the account is deleted.
create function public.dashboard_ledger_counts()
  returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  if tg_op = 'INSERT' then
    -- Withdrawals are counted from the withdrawals table, by their stage and when they settled.
    perform dashboard_add(
      array[case when new.transaction_type <> 'withdrawal' then 'ledger:' || new.transaction_type end,
            case when new.kind = 'earned' and new.user_id is not null then 'held' end],
      array[dashboard_day(new.created_at), dashboard_hour(new.available_at)],
      array[1, 0],
      array[coalesce(new.coins, 0), 0],
      array[new.amount, new.amount]);
    -- What the person did themselves: not a referral credit (their friend's doing), a bonus an
    -- operator gave, or a reversal (the network's).
    if new.user_id is not null and new.transaction_type in ('checkin', 'task', 'postback', 'withdrawal') then
      perform dashboard_mark_active(new.user_id, new.created_at,
                                    new.transaction_type <> 'withdrawal' and new.amount > 0);
    end if;
  elsif old.kind = 'earned' and old.user_id is not null and new.user_id is null then
    -- The account was deleted: nothing of its money is owed any more, held or not.
    perform dashboard_add(array['held'], array[dashboard_hour(old.available_at)], array[0], array[0],
                          array[-old.amount]);
  end if;
  return null;
end
$$;

create trigger transaction_history_dashboard
  after insert or update of user_id on public.transaction_history
  for each row execute function public.dashboard_ledger_counts();

create function public.dashboard_withdrawal_counts()
  returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
declare
  v_old_stage text;
  v_new_stage text;
  v_old_settled text;
  v_new_settled text;
  v_old_amount numeric := 0;
  v_new_amount numeric := 0;
begin
  if tg_op <> 'INSERT' then
    v_old_stage := 'withdrawals:' || dashboard_withdrawal_stage(old.status, old.review_state, old.sent_at);
    v_old_settled := case old.status when 'completed' then 'withdrawals:paid' when 'failed' then 'withdrawals:failed' end;
    v_old_amount := old.amount;
  end if;
  if tg_op <> 'DELETE' then
    v_new_stage := 'withdrawals:' || dashboard_withdrawal_stage(new.status, new.review_state, new.sent_at);
    v_new_settled := case new.status when 'completed' then 'withdrawals:paid' when 'failed' then 'withdrawals:failed' end;
    v_new_amount := new.amount;
  end if;
  -- Out of the old stage and settlement, into the new ones (the same ones cancel out).
  perform dashboard_add(
    array[v_old_stage, v_new_stage, v_old_settled, v_new_settled],
    array['-infinity', '-infinity',
          case when tg_op <> 'INSERT' then dashboard_day(old.settled_at) end,
          case when tg_op <> 'DELETE' then dashboard_day(new.settled_at) end]::timestamptz[],
    array[-1, 1, -1, 1],
    array[0, 0, 0, 0],
    array[-v_old_amount, v_new_amount, -v_old_amount, v_new_amount]);
  return null;
end
$$;

create trigger withdrawals_dashboard
  after insert or delete or update of status, review_state, sent_at, settled_at, amount on public.withdrawals
  for each row execute function public.dashboard_withdrawal_counts();

-- A sign-in (or sign-up) records the browser's signals: the person was active that day.
create function public.dashboard_signal_activity()
  returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  -- Signals outlive their account; only a live account has activity.
  if exists (select from user_profiles where id = new.user_id) then
    perform dashboard_mark_active(new.user_id, new.last_seen_at, false);
  end if;
  return null;
end
$$;

create trigger account_signals_dashboard
  after insert or update of last_seen_at on public.account_signals
  for each row execute function public.dashboard_signal_activity();

-- user_activity counted by its days: how many accounts were last active (last earned) on each day.
-- An account whose day moves leaves the old day's count for the new one's.
create function public.dashboard_activity_counts()
  returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
declare
  v_old_active date;
  v_new_active date;
  v_old_earned date;
  v_new_earned date;
begin
  if tg_op <> 'INSERT' then
    v_old_active := old.active_on;
    v_old_earned := old.earned_on;
  end if;
  if tg_op <> 'DELETE' then
    v_new_active := new.active_on;
    v_new_earned := new.earned_on;
  end if;
  perform dashboard_add(
    array[case when v_old_active is not null then 'active_last' end,
          case when v_new_active is not null then 'active_last' end,
          case when v_old_earned is not null then 'earning_last' end,
          case when v_new_earned is not null then 'earning_last' end],
    array[v_old_active::timestamp at time zone 'UTC', v_new_active::timestamp at time zone 'UTC',
          v_old_earned::timestamp at time zone 'UTC', v_new_earned::timestamp at time zone 'UTC'],
    array[-1, 1, -1, 1],
    array[0, 0, 0, 0],
    array[0, 0, 0, 0]);
  return null;
end
$$;

create trigger user_activity_dashboard
  after insert or delete or update on public.user_activity
  for each row execute function public.dashboard_activity_counts();

-- Every account's activity as the tables say it: the last day of a sign-in (account_signals) or of
-- a ledger row the person caused; the last day of a credit for a check-in, a task or an offer.
create function public.dashboard_activity_recount()
  returns table (user_id text, active_on date, earned_on date)
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select p.id, greatest(s.seen_on, l.active_on), l.earned_on
    from user_profiles p
    left join (select sig.user_id, max((sig.last_seen_at at time zone 'UTC')::date) as seen_on
                 from account_signals sig
                group by sig.user_id) s on s.user_id = p.id
    left join (select t.user_id,
                      max((t.created_at at time zone 'UTC')::date) as active_on,
                      max((t.created_at at time zone 'UTC')::date)
                        filter (where t.transaction_type <> 'withdrawal' and t.amount > 0) as earned_on
                 from transaction_history t
                where t.user_id is not null and t.transaction_type in ('checkin', 'task', 'postback', 'withdrawal')
                group by t.user_id) l on l.user_id = p.id
   where s.seen_on is not null or l.active_on is not null
$$;

-- Every counter as the tables say it should be (zero counters included).
create function public.dashboard_recount()
  returns table (metric text, bucket timestamptz, n bigint, coins bigint, amount numeric)
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select 'accounts', '-infinity'::timestamptz, count(*), 0::bigint, 0::numeric from user_profiles
  union all
  select 'signups', dashboard_day(p.created_at), count(*), 0, 0 from user_profiles p group by 2
  union all
  select 'ledger:' || t.transaction_type, dashboard_day(t.created_at), count(*), coalesce(sum(t.coins), 0), sum(t.amount)
    from transaction_history t
   where t.transaction_type <> 'withdrawal'
   group by 1, 2
  union all
  select 'held', dashboard_hour(t.available_at), 0, 0, sum(t.amount)
    from transaction_history t
   where t.kind = 'earned' and t.user_id is not null
   group by 2
  union all
  select 'balances', '-infinity', count(*), 0, coalesce(sum(b.balance), 0) from user_balance b
  union all
  select 'negative_balances', '-infinity', count(*), 0, coalesce(sum(b.balance), 0) from user_balance b where b.balance < 0
  union all
  select 'withdrawals:' || dashboard_withdrawal_stage(w.status, w.review_state, w.sent_at), '-infinity', count(*), 0,
         sum(w.amount)
    from withdrawals w
   where w.status = 'pending'
   group by 1
  union all
  select case w.status when 'completed' then 'withdrawals:paid' else 'withdrawals:failed' end,
         dashboard_day(w.settled_at), count(*), 0, sum(w.amount)
    from withdrawals w
   where w.status <> 'pending'
   group by 1, 2
  union all
  select 'active_last', a.active_on::timestamp at time zone 'UTC', count(*), 0, 0 from user_activity a group by 2
  union all
  select 'earning_last', a.earned_on::timestamp at time zone 'UTC', count(*), 0, 0
    from user_activity a
   where a.earned_on is not null
   group by 2
$$;

-- Recomputes user_activity and every counter from the tables, with the tables' writers held off
-- meanwhile (a minute or so at twenty million ledger rows): the backfill below, and the repair
-- should check_dashboard_counts() ever find a difference. The locks are taken without waiting long
-- while holding others, and retried, so that the rebuild never deadlocks with the app's writes.
create function public.rebuild_dashboard_counts()
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_lock_timeout text := current_setting('lock_timeout');
  v_locked boolean := false;
  v_counters bigint;
begin
  for v_try in 1..20 loop
    begin
      perform set_config('lock_timeout', '200ms', true);
      lock table user_profiles, user_balance, transaction_history, withdrawals, account_signals in share mode;
      lock table user_activity, dashboard_counts in exclusive mode;
      v_locked := true;
      exit;
    exception when lock_not_available then
      perform pg_sleep(0.05 * v_try);
    end;
  end loop;
  perform set_config('lock_timeout', v_lock_timeout, true);
  if not v_locked then
    -- Busy all along: wait in line.
    lock table user_profiles, user_balance, transaction_history, withdrawals, account_signals in share mode;
    lock table user_activity, dashboard_counts in exclusive mode;
  end if;

  truncate user_activity, dashboard_counts;
  alter table user_activity disable trigger user_activity_dashboard;
  insert into user_activity (user_id, active_on, earned_on) select * from dashboard_activity_recount();
  alter table user_activity enable trigger user_activity_dashboard;
  insert into dashboard_counts (metric, bucket, writer, n, coins, amount)
  select r.metric, r.bucket, 0, r.n, r.coins, r.amount
    from dashboard_recount() r
   where r.n <> 0 or r.coins <> 0 or r.amount <> 0;
  get diagnostics v_counters = row_count;
  return jsonb_build_object('counters', v_counters, 'active_accounts', (select count(*) from user_activity));
end
$$;

-- Where the counters (summed over their writers) or user_activity differ from a recount of the
-- tables, at most 100 differences; [] when they agree. Read in one snapshot: a write and the
-- counters its triggers changed are seen together or not at all.
create function public.check_dashboard_counts()
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  with counted as (
    select c.metric, c.bucket, sum(c.n) as n, sum(c.coins) as coins, sum(c.amount) as amount
      from dashboard_counts c
     group by c.metric, c.bucket
  ), counters as (
    select coalesce(c.metric, r.metric) as metric, coalesce(c.bucket, r.bucket) as bucket,
           coalesce(c.n, 0) as n, coalesce(c.coins, 0) as coins, coalesce(c.amount, 0) as amount,
           coalesce(r.n, 0) as recounted_n, coalesce(r.coins, 0) as recounted_coins,
           coalesce(r.amount, 0) as recounted_amount
      from counted c
      full join dashboard_recount() r on r.metric = c.metric and r.bucket = c.bucket
  ), activity as (
    select coalesce(a.user_id, r.user_id) as user_id, a.active_on, a.earned_on,
           r.active_on as recounted_active_on, r.earned_on as recounted_earned_on
      from user_activity a
      full join dashboard_activity_recount() r on r.user_id = a.user_id
     where (a.active_on, a.earned_on) is distinct from (r.active_on, r.earned_on)
  ), differences as (
    select jsonb_build_object('metric', metric, 'bucket', bucket,
                              'counted', jsonb_build_object('n', n, 'coins', coins, 'amount', amount),
                              'recounted', jsonb_build_object('n', recounted_n, 'coins', recounted_coins,
                                                              'amount', recounted_amount)) as difference
      from counters
     where (n, coins, amount) is distinct from (recounted_n, recounted_coins, recounted_amount)
    union all
    select jsonb_build_object('user_id', user_id,
                              'counted', jsonb_build_object('active_on', active_on, 'earned_on', earned_on),
                              'recounted', jsonb_build_object('active_on', recounted_active_on,
                                                              'earned_on', recounted_earned_on))
      from activity
  )
  select coalesce(jsonb_agg(difference), '[]'::jsonb) from (select difference from differences limit 100) d
$$;

-- Merges every counter row that no running transaction holds into writer 0 (one row per metric and
-- bucket), and drops merged rows that count nothing. Never waits for a lock: rows being written are
-- skipped, and left for the next fold. Each server runs it every DASHBOARD_FOLD_INTERVAL_SECONDS.
create function public.fold_dashboard_counts()
  returns integer
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_folded integer;
begin
  -- One fold at a time; another one running has this one's work in hand.
  if not pg_try_advisory_xact_lock(hashtext('fold_dashboard_counts')) then
    return 0;
  end if;
  with taken as (
    delete from dashboard_counts c
     where (c.metric, c.bucket, c.writer) in (select metric, bucket, writer from dashboard_counts
                                               where writer <> 0 for update skip locked)
    returning c.metric, c.bucket, c.n, c.coins, c.amount
  ), summed as (
    select metric, bucket, sum(n) as n, sum(coins) as coins, sum(amount) as amount, count(*) as folded
      from taken
     group by metric, bucket
  ), merged as (
    insert into dashboard_counts as c (metric, bucket, writer, n, coins, amount)
    select metric, bucket, 0, n, coins, amount from summed
    on conflict (metric, bucket, writer) do update
      set n = c.n + excluded.n, coins = c.coins + excluded.coins, amount = c.amount + excluded.amount
  )
  select coalesce(sum(folded), 0) into v_folded from summed;
  delete from dashboard_counts where writer = 0 and n = 0 and coins = 0 and amount = 0;
  return v_folded;
end
$$;

-- The dashboard (docs/operator-console.md, "Dashboard"): every daily counter over today, the last 7
-- and the last 30 UTC days (today included), the last 30 days one by one for the charts, the running
-- totals, the money in its hold and the oldest withdrawal of each queue. Every role may read it.
create function public.operator_dashboard(p_operator_id text)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  c_daily constant text[] := array['signups', 'active_last', 'earning_last', 'ledger:checkin', 'ledger:task',
                                   'ledger:postback', 'ledger:postback_reversal', 'ledger:referral',
                                   'ledger:referral_bonus', 'ledger:bonus', 'withdrawals:paid',
                                   'withdrawals:failed'];
  c_totals constant text[] := array['accounts', 'balances', 'negative_balances', 'withdrawals:review',
                                    'withdrawals:unpaid', 'withdrawals:sent'];
  v_today date := (now() at time zone 'UTC')::date;
  v_day timestamptz := v_today::timestamp at time zone 'UTC';
  v_week timestamptz := (v_today - 6)::timestamp at time zone 'UTC';
  v_month timestamptz := (v_today - 29)::timestamp at time zone 'UTC';
  v_hour timestamptz := dashboard_hour(now());
  v_windows jsonb;
  v_days jsonb;
  v_totals jsonb;
  v_balances numeric;
  v_held numeric;
begin
  perform require_operator_role(p_operator_id, array['support']);

  with daily as (
    select c.metric, c.bucket, sum(c.n) as n, sum(c.coins) as coins, sum(c.amount) as amount
      from dashboard_counts c
     where c.metric = any (c_daily) and c.bucket >= v_month and c.bucket <= v_day
     group by c.metric, c.bucket
  ), windows as (
    select metric, jsonb_build_object(
             'day', jsonb_build_object('n', coalesce(sum(n) filter (where bucket >= v_day), 0),
                                       'coins', coalesce(sum(coins) filter (where bucket >= v_day), 0),
                                       'amount', coalesce(sum(amount) filter (where bucket >= v_day), 0)),
             'week', jsonb_build_object('n', coalesce(sum(n) filter (where bucket >= v_week), 0),
                                        'coins', coalesce(sum(coins) filter (where bucket >= v_week), 0),
                                        'amount', coalesce(sum(amount) filter (where bucket >= v_week), 0)),
             'month', jsonb_build_object('n', sum(n), 'coins', sum(coins), 'amount', sum(amount))) as sums
      from daily
     group by metric
  ), days as (
    -- Each of the 30 days, with the counters that are about that day (not the activity counts,
    -- which are about the last day of each account).
    select d.day, coalesce(jsonb_object_agg(x.metric, jsonb_build_object('n', x.n, 'coins', x.coins, 'amount', x.amount))
                             filter (where x.metric is not null), '{}') as counts
      from (select v_today - k as day from generate_series(0, 29) k) d
      left join daily x on x.bucket = d.day::timestamp at time zone 'UTC'
                       and x.metric not in ('active_last', 'earning_last')
     group by d.day
  )
  select (select coalesce(jsonb_object_agg(metric, sums), '{}') from windows),
         (select jsonb_agg(jsonb_build_object('day', to_char(day, 'YYYY-MM-DD'), 'counts', counts) order by day)
            from days)
    into v_windows, v_days;

  select coalesce(jsonb_object_agg(t.metric, jsonb_build_object('n', t.n, 'amount', t.amount)), '{}')
    into v_totals
    from (select c.metric, sum(c.n) as n, sum(c.amount) as amount
            from dashboard_counts c
           where c.metric = any (c_totals) and c.bucket = '-infinity'
           group by c.metric) t;
  v_balances := coalesce((v_totals -> 'balances' ->> 'amount')::numeric, 0);

  -- Pending: offer money whose hold ends after now. Whole hours from the counters; the rest of the
  -- current hour from the ledger's own rows (transaction_history_held_idx).
  select coalesce(sum(c.amount), 0) into v_held
    from dashboard_counts c
   where c.metric = 'held' and c.bucket > v_hour;
  v_held := v_held + (select coalesce(sum(t.amount), 0)
                        from transaction_history t
                       where t.kind = 'earned' and t.user_id is not null
                         and t.available_at > now() and t.available_at < v_hour + interval '1 hour');

  return jsonb_build_object(
    'as_of', now(),
    'today', to_char(v_today, 'YYYY-MM-DD'),
    'accounts', coalesce((v_totals -> 'accounts' ->> 'n')::bigint, 0),
    'windows', v_windows,
    'days', v_days,
    'liabilities', jsonb_build_object(
      'balances', v_balances,
      'pending', v_held,
      'available', v_balances - v_held,
      'negative', jsonb_build_object('n', coalesce((v_totals -> 'negative_balances' ->> 'n')::bigint, 0),
                                     'amount', coalesce((v_totals -> 'negative_balances' ->> 'amount')::numeric, 0))),
    'withdrawals', jsonb_build_object(
      'review', jsonb_build_object(
        'n', coalesce((v_totals -> 'withdrawals:review' ->> 'n')::bigint, 0),
        'amount', coalesce((v_totals -> 'withdrawals:review' ->> 'amount')::numeric, 0),
        'oldest_at', (select min(w.created_at) from withdrawals w
                       where w.review_state = 'review' and w.status = 'pending')),
      'unpaid', jsonb_build_object(
        'n', coalesce((v_totals -> 'withdrawals:unpaid' ->> 'n')::bigint, 0),
        'amount', coalesce((v_totals -> 'withdrawals:unpaid' ->> 'amount')::numeric, 0),
        'oldest_at', (select min(w.created_at) from withdrawals w
                       where w.status = 'pending' and w.review_state = 'approved' and w.sent_at is null)),
      'sent', jsonb_build_object(
        'n', coalesce((v_totals -> 'withdrawals:sent' ->> 'n')::bigint, 0),
        'amount', coalesce((v_totals -> 'withdrawals:sent' ->> 'amount')::numeric, 0))));
end
$$;

-- The withdrawal queues' sizes from the counters (they were counted row by row), and each queue's
-- oldest withdrawal from the first entry of its index.
create or replace function public.operator_withdrawal_counts(p_operator_id text)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  perform require_operator_role(p_operator_id, array['support']);
  return (
    select jsonb_build_object(
             'review', coalesce(sum(n) filter (where metric = 'withdrawals:review'), 0),
             'review_oldest_at', (select min(w.created_at) from withdrawals w
                                   where w.review_state = 'review' and w.status = 'pending'),
             'unpaid', coalesce(sum(n) filter (where metric = 'withdrawals:unpaid'), 0),
             'unpaid_oldest_at', (select min(w.created_at) from withdrawals w
                                   where w.status = 'pending' and w.review_state = 'approved' and w.sent_at is null),
             'sent', coalesce(sum(n) filter (where metric = 'withdrawals:sent'), 0))
      from dashboard_counts
     where metric in ('withdrawals:review', 'withdrawals:unpaid', 'withdrawals:sent') and bucket = '-infinity');
end
$$;

-- The accounts a term names (unchanged but for the payout address, whose first 50 accounts are read).
create or replace function public.operator_find_people(
  p_operator_id text,
  p_term text,
  p_identity_hash text default null,
  p_recipient_hash text default null
)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_term text := nullif(btrim(coalesce(p_term, '')), '');
begin
  perform require_operator_role(p_operator_id, array['support']);
  if v_term is null then
    return '[]'::jsonb;
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', p.id,
             'email', p.email,
             'display_name', p.display_name,
             'created_at', p.created_at,
             'banned', p.banned_at is not null,
             'payouts_paused', p.payouts_paused_at is not null,
             'balance', coalesce(b.balance, 0),
             'matched_by', m.matched_by)
           order by p.created_at desc)
      from (select id, min(matched_by) as matched_by
              from (select id, 'account id' as matched_by from user_profiles where id = v_term
                    union all
                    select id, 'email' from user_profiles where lower(email) = lower(v_term)
                    union all
                    select id, 'referral code' from user_profiles where referral_code = upper(v_term)
                    union all
                    select id, 'wall id' from user_profiles where wall_id = v_term
                    union all
                    select user_id, 'canonical email' from identities
                     where identity_hash = p_identity_hash and user_id is not null
                    union all
                    select user_id, 'payout address'
                      from (select distinct user_id from withdrawals
                             where recipient_hash = p_recipient_hash and user_id is not null
                             order by user_id
                             limit 50) paid_to) found
             group by id
             limit 50) m
      join user_profiles p on p.id = m.id
      left join user_balance b on b.user_id = p.id), '[]'::jsonb);
end
$$;;

revoke all on function public.dashboard_day(timestamptz) from public, anon, authenticated;
revoke all on function public.dashboard_hour(timestamptz) from public, anon, authenticated;
revoke all on function public.dashboard_withdrawal_stage(text, text, timestamptz) from public, anon, authenticated;
revoke all on function public.dashboard_add(text[], timestamptz[], bigint[], bigint[], numeric[]) from public, anon, authenticated;
revoke all on function public.dashboard_mark_active(text, timestamptz, boolean) from public, anon, authenticated;
revoke all on function public.dashboard_profile_counts() from public, anon, authenticated;
revoke all on function public.dashboard_balance_counts() from public, anon, authenticated;
revoke all on function public.dashboard_ledger_counts() from public, anon, authenticated;
revoke all on function public.dashboard_withdrawal_counts() from public, anon, authenticated;
revoke all on function public.dashboard_signal_activity() from public, anon, authenticated;
revoke all on function public.dashboard_activity_counts() from public, anon, authenticated;
revoke all on function public.dashboard_activity_recount() from public, anon, authenticated;
revoke all on function public.dashboard_recount() from public, anon, authenticated;
revoke all on function public.rebuild_dashboard_counts() from public, anon, authenticated;
grant execute on function public.rebuild_dashboard_counts() to service_role;
revoke all on function public.check_dashboard_counts() from public, anon, authenticated;
grant execute on function public.check_dashboard_counts() to service_role;
revoke all on function public.fold_dashboard_counts() from public, anon, authenticated;
grant execute on function public.fold_dashboard_counts() to service_role;
revoke all on function public.operator_dashboard(text) from public, anon, authenticated;
grant execute on function public.operator_dashboard(text) to service_role;

-- The backfill: the counters of everything written before this migration.
select public.rebuild_dashboard_counts();
