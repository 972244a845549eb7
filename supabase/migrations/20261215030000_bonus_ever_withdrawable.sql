-- Redefines: public.ledger_move, public.ledger_adjust, public.notify_cleared_earnings, public.dashboard_balance_change, public.dashboard_balance_counts, public.dashboard_recount, public.operator_dashboard
--
-- The share of bonus money that ever became withdrawable (issue 39, point 8; docs/decisions/094):
-- each account keeps the most of its bonus money that was ever withdrawable at once
-- (user_balance.bonus_unlocked: it only rises), noted whenever that can rise (a credit of bonus
-- money, offer money that clears at once or clears its hold, an operator's credit); the dashboard
-- divides its sum by the bonus money of the accounts that exist (total_earned − earned_total), both
-- kept as counters beside the balances and recounted from user_balance.

alter table public.user_balance add column bonus_unlocked numeric(12,2) not null default 0;

-- Notes the account's bonus money withdrawable now, when more than ever before.
create function public.note_unlocked_bonus(p_user_id text)
 returns void
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_now numeric;
begin
  select greatest(0, (b.total_earned - b.earned_total)
                     - coalesce((money_available(p_user_id) ->> 'bonus_locked')::numeric, 0))
    into v_now
    from user_balance b where b.user_id = p_user_id;
  update user_balance set bonus_unlocked = v_now where user_id = p_user_id and bonus_unlocked < v_now;
end
$function$;
revoke all on function public.note_unlocked_bonus(text) from public, anon, authenticated;

-- What the existing accounts could already withdraw of their bonus money.
alter table public.user_balance disable trigger user_balance_dashboard_change;
update public.user_balance b
   set bonus_unlocked = greatest(0, (b.total_earned - b.earned_total)
                                    - coalesce((money_available(b.user_id) ->> 'bonus_locked')::numeric, 0))
 where b.total_earned - b.earned_total > 0;
alter table public.user_balance enable trigger user_balance_dashboard_change;
-- The counters start from the accounts as they are (recounted the same way by dashboard_recount).
insert into public.dashboard_counts (metric, bucket, writer, n, coins, amount)
select 'bonus_total', '-infinity'::timestamptz, 0, 0, 0, coalesce(sum(total_earned - earned_total), 0) from public.user_balance
union all
select 'bonus_unlocked', '-infinity'::timestamptz, 0, 0, 0, coalesce(sum(bonus_unlocked), 0) from public.user_balance;
drop trigger user_balance_dashboard_change on public.user_balance;
create trigger user_balance_dashboard_change before update of balance, total_earned, earned_total, bonus_unlocked
  on public.user_balance for each row execute function dashboard_balance_change();

CREATE OR REPLACE FUNCTION public.ledger_move(p_user_id text, p_type text, p_coins integer, p_amount numeric, p_description text, p_available_at timestamp with time zone DEFAULT NULL::timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_balance numeric;
  v_carried numeric;
  v_charge numeric;
begin
  -- Lock order of every money function: the profile (key share, as the ledger row's foreign key
  -- takes it anyway), then the balance. Deleting an account takes them in the same order.
  perform from user_profiles where id = p_user_id for key share;
  select balance, carried_debt into v_balance, v_carried from user_balance where user_id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  if p_amount <> 0 then
    -- kind follows from the type (a generated column); available_at is when it stops being pending.
    insert into transaction_history (user_id, description, transaction_type, amount, status, coins, available_at)
    values (p_user_id, p_description, p_type, p_amount, 'completed', p_coins, coalesce(p_available_at, now()));
    update user_balance
       set balance = balance + p_amount,
           total_earned = total_earned + p_amount,
           earned_total = earned_total + case when p_type in ('postback', 'postback_reversal') then p_amount else 0 end,
           updated_at = now()
     where user_id = p_user_id
    returning balance into v_balance;
    insert into monthly_earnings (user_id, month, amount)
    values (p_user_id, current_month(), p_amount)
    on conflict (user_id, month)
      do update set amount = monthly_earnings.amount + excluded.amount;
    -- A debt carried from an earlier account is paid from offer earnings first, cleared when they are.
    if p_amount > 0 and p_type = 'postback' and v_carried > 0 then
      v_charge := least(v_carried, p_amount);
      insert into transaction_history (user_id, description, transaction_type, amount, status, coins, available_at)
      values (p_user_id, 'Owed from your earlier account: an offer it was paid for was reversed', 'postback_reversal',
              -v_charge, 'completed', -ceil(v_charge * (select coins_per_dollar from app_config))::integer,
              coalesce(p_available_at, now()));
      update user_balance
         set balance = balance - v_charge,
             total_earned = total_earned - v_charge,
             earned_total = earned_total - v_charge,
             carried_debt = carried_debt - v_charge,
             updated_at = now()
       where user_id = p_user_id
      returning balance into v_balance;
      update monthly_earnings set amount = amount - v_charge where user_id = p_user_id and month = current_month();
    end if;
    if p_amount > 0 and p_type in ('checkin', 'task', 'bonus', 'postback')
       and exists (select from referrals where referred_user_id = p_user_id and credited_at is null) then
      perform try_referral_credit(p_user_id);
      select balance into v_balance from user_balance where user_id = p_user_id;
    end if;
    -- Bonus money, or offer money that is not held, may make more bonus money withdrawable.
    if p_amount > 0 and (p_type <> 'postback' or coalesce(p_available_at, now()) <= now()) then
      perform note_unlocked_bonus(p_user_id);
    end if;
  end if;
  return jsonb_build_object('coins', p_coins, 'amount', p_amount, 'balance', v_balance);
end
$function$;

CREATE OR REPLACE FUNCTION public.ledger_adjust(p_user_id text, p_amount numeric, p_kind text, p_description text)
 RETURNS bigint
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_balance user_balance;
  v_ledger_id bigint;
begin
  select * into v_balance from user_balance where user_id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- A debit takes back at most what was credited of its kind: totals never go below zero.
  if v_balance.total_earned + p_amount < 0
     or (p_kind = 'earned' and v_balance.earned_total + p_amount < 0) then
    raise exception 'Debit exceeds what was earned' using errcode = 'P0001', hint = 'adjustment_exceeds_earned';
  end if;
  insert into transaction_history (user_id, description, transaction_type, amount, status, coins, kind, available_at)
  values (p_user_id, p_description, 'adjustment', p_amount, 'completed',
          (p_amount * (select coins_per_dollar from app_config))::integer, p_kind, now())
  returning id into v_ledger_id;
  update user_balance
     set balance = balance + p_amount,
         total_earned = total_earned + p_amount,
         earned_total = earned_total + case when p_kind = 'earned' then p_amount else 0 end,
         updated_at = now()
   where user_id = p_user_id;
  insert into monthly_earnings (user_id, month, amount)
  values (p_user_id, current_month(), p_amount)
  on conflict (user_id, month) do update set amount = monthly_earnings.amount + excluded.amount;
  -- Earned money an operator credits counts toward a referral as an offer's would.
  if p_amount > 0 and p_kind = 'earned'
     and exists (select from referrals where referred_user_id = p_user_id and credited_at is null) then
    perform try_referral_credit(p_user_id);
  end if;
  if p_amount > 0 then
    perform note_unlocked_bonus(p_user_id);
  end if;
  return v_ledger_id;
end
$function$;

CREATE OR REPLACE FUNCTION public.notify_cleared_earnings()
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_from timestamptz;
  v_to timestamptz := now();
  v_ratio app_config.bonus_unlock_ratio%type := (select bonus_unlock_ratio from app_config);
  v_written integer;
begin
  select through into v_from from cleared_earnings_sweep for update;
  if v_from is null or v_to <= v_from then
    return 0;
  end if;
  with cleared as (
    select user_id, sum(amount) as amount
      from transaction_history
     where kind = 'earned' and user_id is not null
       and available_at > v_from and available_at <= v_to
       and available_at > created_at
     group by user_id
    having sum(amount) > 0
  ), parts as (
    select c.user_id, c.amount, b.carried_debt,
           b.total_earned - b.earned_total as bonus,
           b.earned_total - coalesce((select sum(t.amount) from transaction_history t
                                       where t.user_id = c.user_id and t.kind = 'earned'
                                         and t.available_at > v_to), 0) as cleared_now
      from cleared c
      join user_balance b on b.user_id = c.user_id
  )
  insert into user_notices (user_id, kind, data)
  select user_id, 'earnings_cleared',
         jsonb_build_object(
           'amount', amount,
           -- Where the ratio is unset (demo settings) bonus is never locked: nothing to unlock.
           'bonus_unlocked', case when v_ratio is null or bonus <= 0 then 0
                                  else greatest(0, least(bonus, floor(v_ratio * greatest(cleared_now, 0) * 100) / 100)
                                                 - least(bonus, floor(v_ratio * greatest(cleared_now - amount, 0) * 100) / 100))
                             end,
           'carried_debt', greatest(carried_debt, 0))
    from parts;
  get diagnostics v_written = row_count;
  -- Offer money that cleared may have unlocked bonus money.
  perform note_unlocked_bonus(t.user_id)
     from (select distinct user_id from transaction_history
            where kind = 'earned' and user_id is not null
              and available_at > v_from and available_at <= v_to and available_at > created_at) t;
  update cleared_earnings_sweep set through = v_to;
  return v_written;
end
$function$;

CREATE OR REPLACE FUNCTION public.dashboard_balance_change()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
begin
  insert into dashboard_counts as c (metric, bucket, writer, n, coins, amount)
  select d.metric, '-infinity', pg_backend_pid(), d.n, 0, d.amount
    from (values ('balances', 0, new.balance - old.balance),
                 ('negative_balances', (new.balance < 0)::integer - (old.balance < 0)::integer,
                  least(new.balance, 0) - least(old.balance, 0)),
                 ('bonus_total', 0, (new.total_earned - new.earned_total) - (old.total_earned - old.earned_total)),
                 ('bonus_unlocked', 0, new.bonus_unlocked - old.bonus_unlocked)) as d(metric, n, amount)
   where d.n <> 0 or d.amount <> 0
  on conflict (metric, bucket, writer) do update
    set n = c.n + excluded.n, amount = c.amount + excluded.amount;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION public.dashboard_balance_counts()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_old numeric := case when tg_op <> 'INSERT' then old.balance end;
  v_new numeric := case when tg_op <> 'DELETE' then new.balance end;
  v_old_bonus numeric := case when tg_op <> 'INSERT' then old.total_earned - old.earned_total else 0 end;
  v_new_bonus numeric := case when tg_op <> 'DELETE' then new.total_earned - new.earned_total else 0 end;
  v_old_unlocked numeric := case when tg_op <> 'INSERT' then old.bonus_unlocked else 0 end;
  v_new_unlocked numeric := case when tg_op <> 'DELETE' then new.bonus_unlocked else 0 end;
begin
  insert into dashboard_counts as c (metric, bucket, writer, n, coins, amount)
  select d.metric, '-infinity', pg_backend_pid(), d.n, 0, d.amount
    from (values ('balances', (v_new is not null)::integer - (v_old is not null)::integer,
                  coalesce(v_new, 0) - coalesce(v_old, 0)),
                 ('negative_balances', coalesce((v_new < 0)::integer, 0) - coalesce((v_old < 0)::integer, 0),
                  least(coalesce(v_new, 0), 0) - least(coalesce(v_old, 0), 0)),
                 ('bonus_total', 0, v_new_bonus - v_old_bonus),
                 ('bonus_unlocked', 0, v_new_unlocked - v_old_unlocked)) as d(metric, n, amount)
   where d.n <> 0 or d.amount <> 0
  on conflict (metric, bucket, writer) do update
    set n = c.n + excluded.n, amount = c.amount + excluded.amount;
  return null;
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
  select 'bonus_total', '-infinity', 0, 0, coalesce(sum(b.total_earned - b.earned_total), 0) from user_balance b
  union all
  select 'bonus_unlocked', '-infinity', 0, 0, coalesce(sum(b.bonus_unlocked), 0) from user_balance b
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
  c_totals constant text[] := array['accounts', 'balances', 'negative_balances', 'bonus_total', 'bonus_unlocked',
                                    'withdrawals:review',
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
    -- The bonus money of the accounts that exist, and the most of it that was ever withdrawable.
    'bonus', jsonb_build_object('total', coalesce((v_totals -> 'bonus_total' ->> 'amount')::numeric, 0),
                                'unlocked', coalesce((v_totals -> 'bonus_unlocked' ->> 'amount')::numeric, 0)),
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
