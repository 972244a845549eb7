-- Redefines: public.pay_loop_bonus, public.dashboard_mark_active, public.dashboard_recount, public.rebuild_dashboard_counts, public.operator_dashboard
--
-- What each loop costs, and whether people come back (issue 39, point 8; docs/decisions/094): the
-- dashboard's counters gain `loop:levels`, `loop:goals` and `loop:codes` (each loop payment, by UTC
-- day, recounted from loop_bonuses) and retention by sign-up week: `retained:d1`, `retained:d7` and
-- `retained:d30` count the accounts active on the 1st, 7th and 30th day after the day they signed up
-- (bucketed by the Monday of their sign-up week), kept as one row per account and day in
-- retention_marks so the counters can be recounted. The dashboard shows each loop's spend today, in 7
-- and 30 days and this calendar month against its cap, and the last nine sign-up weeks' retention.

create table public.retention_marks (
  user_id text not null references public.user_profiles (id) on delete cascade,
  day_offset smallint not null constraint retention_marks_day_offset_check check (day_offset in (1, 7, 30)),
  -- The Monday (UTC) of the week the account signed up in.
  cohort timestamptz not null,
  primary key (user_id, day_offset)
);
alter table public.retention_marks enable row level security;
revoke all on public.retention_marks from public, anon, authenticated;

create function public.dashboard_retention_counts()
 returns trigger
 language plpgsql
 set search_path to 'public', 'pg_temp'
as $function$
begin
  if tg_op = 'INSERT' then
    perform dashboard_add(array['retained:d' || new.day_offset], array[new.cohort], array[1::bigint],
                          array[0::bigint], array[0::numeric]);
  else
    perform dashboard_add(array['retained:d' || old.day_offset], array[old.cohort], array[-1::bigint],
                          array[0::bigint], array[0::numeric]);
  end if;
  return null;
end
$function$;
revoke all on function public.dashboard_retention_counts() from public, anon, authenticated;
create trigger retention_marks_dashboard after insert or delete on public.retention_marks
  for each row execute function dashboard_retention_counts();

-- The Monday (UTC) of a moment's week: a sign-up cohort.
create function public.dashboard_week(p_at timestamptz)
 returns timestamptz
 language sql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
  select date_trunc('week', p_at at time zone 'UTC') at time zone 'UTC'
$function$;
revoke all on function public.dashboard_week(timestamptz) from public, anon, authenticated;

CREATE OR REPLACE FUNCTION public.pay_loop_bonus(p_user_id text, p_loop text, p_reward text, p_coins integer, p_description text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_config app_config;
  v_identity text;
  v_amount numeric;
  v_month date := current_month();
  v_paid numeric;
begin
  select * into v_config from app_config;
  if (case p_loop when 'levels' then v_config.levels_on when 'goals' then v_config.goals_on
                  when 'codes' then v_config.codes_on end) is not true then
    return jsonb_build_object('paid', false, 'refused', 'loop_off');
  end if;
  v_amount := coins_to_dollars(p_coins);
  if p_coins is null or v_amount is null or v_amount <= 0 then
    return jsonb_build_object('paid', false, 'refused', 'nothing_to_pay');
  end if;
  -- The money functions' lock order (ledger_move): the profile, then the balance; the month's row
  -- after them, so a check-in paying a perk and a claim cannot wait on each other.
  select identity_hash into v_identity from user_profiles where id = p_user_id for key share;
  perform from user_balance where user_id = p_user_id for update;
  -- Fail closed: an account without an identity could be paid under each alias.
  if v_identity is null then
    return jsonb_build_object('paid', false, 'refused', 'no_identity');
  end if;
  if exists (select from loop_bonuses where loop = p_loop and identity_hash = v_identity and reward = p_reward) then
    return jsonb_build_object('paid', false, 'refused', 'already_paid');
  end if;
  insert into loop_months (loop, month) values (p_loop, v_month) on conflict do nothing;
  select paid into v_paid from loop_months where loop = p_loop and month = v_month for update;
  if v_paid + v_amount > (case p_loop when 'levels' then v_config.levels_monthly_cap
                                      when 'goals' then v_config.goals_monthly_cap
                                      else v_config.codes_monthly_cap end) then
    update loop_months set capped_at = coalesce(capped_at, now()) where loop = p_loop and month = v_month;
    return jsonb_build_object('paid', false, 'refused', 'loop_cap_reached');
  end if;
  insert into loop_bonuses (loop, identity_hash, reward, user_id, coins, amount)
  values (p_loop, v_identity, p_reward, p_user_id, p_coins, v_amount);
  -- A payment that fits: the loop is not stopped (the cap was raised, or a smaller bonus fits).
  update loop_months set paid = paid + v_amount, capped_at = null where loop = p_loop and month = v_month;
  -- The dashboard's cost of the loop by day (recounted from loop_bonuses).
  perform dashboard_add(array['loop:' || p_loop], array[dashboard_day(now())], array[1::bigint], array[p_coins::bigint],
                        array[v_amount]);
  return ledger_move(p_user_id, 'bonus', p_coins, v_amount, p_description)
         || jsonb_build_object('paid', true, 'coins', p_coins, 'amount', v_amount);
end
$function$;

CREATE OR REPLACE FUNCTION public.dashboard_mark_active(p_user_id text, p_at timestamp with time zone, p_earning boolean)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_day date := (p_at at time zone 'UTC')::date;
  v_signed_up timestamptz;
  v_offset integer;
begin
  insert into user_activity as a (user_id, active_on, earned_on)
  values (p_user_id, v_day, case when p_earning then v_day end)
  on conflict (user_id) do update
    set active_on = greatest(a.active_on, excluded.active_on),
        earned_on = greatest(a.earned_on, excluded.earned_on)
    where excluded.active_on > a.active_on
       or excluded.earned_on > coalesce(a.earned_on, '-infinity'::date);
  -- A first activity of this day: the 1st, 7th or 30th day after the sign-up day counts toward retention.
  if found then
    select created_at into v_signed_up from user_profiles where id = p_user_id;
    v_offset := v_day - (v_signed_up at time zone 'UTC')::date;
    if v_offset in (1, 7, 30) then
      insert into retention_marks (user_id, day_offset, cohort)
      values (p_user_id, v_offset, dashboard_week(v_signed_up))
      on conflict do nothing;
    end if;
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION public.dashboard_recount()
 RETURNS TABLE(metric text, bucket timestamp with time zone, n bigint, coins bigint, amount numeric)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
  select 'loop:' || b.loop, dashboard_day(b.paid_at), count(*), coalesce(sum(b.coins), 0), sum(b.amount)
    from loop_bonuses b
   group by 1, 2
  union all
  select 'retained:d' || m.day_offset, m.cohort, count(*), 0, 0 from retention_marks m group by 1, 2
  union all
  select 'active_last', a.active_on::timestamp at time zone 'UTC', count(*), 0, 0 from user_activity a group by 2
  union all
  select 'earning_last', a.earned_on::timestamp at time zone 'UTC', count(*), 0, 0
    from user_activity a
   where a.earned_on is not null
   group by 2
$function$;

CREATE OR REPLACE FUNCTION public.rebuild_dashboard_counts()
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_lock_timeout text := current_setting('lock_timeout');
  v_locked boolean := false;
  v_counters bigint;
begin
  for v_try in 1..20 loop
    begin
      perform set_config('lock_timeout', '200ms', true);
      lock table user_profiles, user_balance, transaction_history, withdrawals, account_signals, loop_bonuses,
                 retention_marks in share mode;
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
    lock table user_profiles, user_balance, transaction_history, withdrawals, account_signals, loop_bonuses,
                 retention_marks in share mode;
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
$function$;

CREATE OR REPLACE FUNCTION public.operator_dashboard(p_operator_id text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  c_daily constant text[] := array['signups', 'active_last', 'earning_last', 'ledger:checkin', 'ledger:task',
                                   'ledger:postback', 'ledger:postback_reversal', 'ledger:referral',
                                   'ledger:referral_bonus', 'ledger:bonus', 'withdrawals:paid',
                                   'withdrawals:failed', 'loop:levels', 'loop:goals', 'loop:codes'];
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
  v_config app_config;
  v_retention jsonb;
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

  select * into v_config from app_config;
  -- The last nine sign-up weeks (this one included), newest first: sign-ups, and how many of them
  -- were active on the 1st, 7th and 30th day after signing up (null: the cohort is not that old yet).
  with weeks as (
    select dashboard_week(now()) - make_interval(weeks => k) as week from generate_series(0, 8) k
  ), counted as (
    select dashboard_week(c.bucket) as week, c.metric, sum(c.n) as n
      from dashboard_counts c
     where (c.metric = 'signups' and c.bucket >= (select min(week) from weeks))
        or (c.metric in ('retained:d1', 'retained:d7', 'retained:d30') and c.bucket >= (select min(week) from weeks))
     group by 1, 2
  )
  select jsonb_agg(jsonb_build_object(
           'week', to_char(w.week at time zone 'UTC', 'YYYY-MM-DD'),
           'signups', coalesce((select n from counted x where x.week = w.week and x.metric = 'signups'), 0),
           'd1', case when w.week + interval '8 days' <= now()
                      then coalesce((select n from counted x where x.week = w.week and x.metric = 'retained:d1'), 0) end,
           'd7', case when w.week + interval '14 days' <= now()
                      then coalesce((select n from counted x where x.week = w.week and x.metric = 'retained:d7'), 0) end,
           'd30', case when w.week + interval '37 days' <= now()
                       then coalesce((select n from counted x where x.week = w.week and x.metric = 'retained:d30'), 0) end)
         order by w.week desc)
    into v_retention
    from weeks w;

  return jsonb_build_object(
    'as_of', now(),
    -- Each loop's switch, monthly cap, spend this calendar month and whether a payment was refused for the cap.
    'loops', (select jsonb_object_agg(l.loop, jsonb_build_object(
                        'on', l.on_, 'cap', l.cap,
                        'paid', coalesce(m.paid, 0), 'stopped', m.capped_at is not null))
                from (values ('levels', v_config.levels_on, v_config.levels_monthly_cap),
                             ('goals', v_config.goals_on, v_config.goals_monthly_cap),
                             ('codes', v_config.codes_on, v_config.codes_monthly_cap)) l(loop, on_, cap)
                left join loop_months m on m.loop = l.loop and m.month = current_month()),
    'retention', v_retention,
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
$function$;
