-- Redefines: public.ledger_move, public.ledger_adjust, public.notify_cleared_earnings, public.pay_loop_bonus, public.app_setting_valid, public.setting_loosens, public.apply_app_config_patch, public.operator_dashboard
--
-- Monthly prizes (issue 39, point 3; docs/decisions/097). The owner sets a prize table in coins
-- (`monthly_prizes`, 1st place first); the Leaderboard shows it, the person's place by offer money
-- that cleared this month, and how much more reaches the next prize. At a month's close (an interval
-- job on every server; close_prize_month runs once per month, whatever the number of servers) the
-- prizes go, as bonus money of the `prizes` loop (its off switch and monthly cap), to the top places
-- by offer money that cleared in the month, accounts with an identity only; each winner is scored as a
-- withdrawal is, and a winner at or over the review threshold waits for an operator. Past months'
-- winners stay listed.
--
-- Why cleared offer money and not the board's total: the board counts every credit (check-ins,
-- bonuses), which aliases can farm; offer money past its hold is money an advertiser paid for.
-- Each coin counts in the month its hold ended (UTC); a reversal after that counts in its own month.

alter table public.loop_bonuses drop constraint loop_bonuses_loop_check,
  add constraint loop_bonuses_loop_check check (loop in ('levels', 'goals', 'codes', 'prizes'));
alter table public.loop_months drop constraint loop_months_loop_check,
  add constraint loop_months_loop_check check (loop in ('levels', 'goals', 'codes', 'prizes'));

-- A prize table: 1 to 20 prizes in whole coins (1 to 100,000), none above the place before it.
create function public.prizes_valid(p_value jsonb)
 returns boolean
 language sql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
  select jsonb_typeof(p_value) is not distinct from 'array'
     and jsonb_array_length(p_value) between 1 and 20
     and not exists (select from jsonb_array_elements(p_value) with ordinality p(value, place)
                      where jsonb_typeof(p.value) <> 'number'
                         or (p.value)::numeric <> trunc((p.value)::numeric)
                         or (p.value)::numeric not between 1 and 100000
                         or (p.place > 1 and (p.value)::numeric > (p_value -> (p.place::integer - 2))::numeric))
$function$;
revoke all on function public.prizes_valid(jsonb) from public, anon, authenticated;

alter table public.app_config
  add column monthly_prizes jsonb not null default '[2500, 1500, 1000, 700, 500, 400, 300, 250, 200, 200]'
    constraint app_config_monthly_prizes_check check (prizes_valid(monthly_prizes)),
  add column prizes_on boolean not null default true,
  add column prizes_monthly_cap numeric(12,2) not null default 100
    constraint app_config_prizes_monthly_cap_check check (prizes_monthly_cap between 0 and 1000000);

-- Offer money that cleared in the month (UTC), per person: what prizes rank. Kept beside the
-- board's total so the places are read from an index, at a million earners as at ten.
alter table public.monthly_earnings add column cleared numeric(12,2) not null default 0;
create index monthly_earnings_cleared_idx on public.monthly_earnings (month, cleared desc, user_id) where cleared > 0;
-- What cleared before this migration: money never held (or reversed after it cleared) by the
-- month it was written in; held money by the month its hold ended, up to where the sweep has been.
with counted as (
  select user_id, date_trunc('month', created_at at time zone 'UTC')::date as month, amount
    from public.transaction_history
   where kind = 'earned' and user_id is not null and available_at <= created_at
  union all
  select user_id, date_trunc('month', available_at at time zone 'UTC')::date, amount
    from public.transaction_history
   where kind = 'earned' and user_id is not null and available_at > created_at
     and available_at <= (select through from public.cleared_earnings_sweep)
)
insert into public.monthly_earnings (user_id, month, amount, cleared)
select user_id, month, 0, sum(amount) from counted group by 1, 2 having sum(amount) <> 0
on conflict (user_id, month) do update set cleared = excluded.cleared;

-- A month whose prizes were settled: the table as it stood, and why nothing was paid if so.
create table public.prize_months (
  month date primary key constraint prize_months_month_check check (extract(day from month) = 1),
  prizes jsonb not null,
  -- before_prizes: the month before prizes existed (never paid); off: the loop was off at the close.
  outcome text not null constraint prize_months_outcome_check check (outcome in ('closed', 'off', 'before_prizes')),
  closed_at timestamptz not null default now()
);
alter table public.prize_months enable row level security;
revoke all on public.prize_months from public, anon, authenticated;
create trigger prize_months_never_emptied before truncate on public.prize_months
  for each statement execute function refuse_truncate();
-- The month this migration runs in is the first with prizes: the one before it was never announced.
insert into public.prize_months (month, prizes, outcome)
select (current_month() - interval '1 month')::date, monthly_prizes, 'before_prizes' from public.app_config;

-- Each place of a closed month: who, with how much cleared, the prize, and what became of it.
create table public.prize_awards (
  month date not null references public.prize_months (month),
  place integer not null constraint prize_awards_place_check check (place between 1 and 20),
  user_id text references public.user_profiles (id) on delete set null,
  -- As the board names people ("User" and four characters of the id), kept if the account goes.
  username text not null,
  cleared numeric(12,2) not null constraint prize_awards_cleared_check check (cleared > 0),
  coins integer not null constraint prize_awards_coins_check check (coins > 0),
  -- paid; held (scored at or over the review threshold: an operator decides); refused (by an
  -- operator); not_paid (the loop's rule said no: `refused` names it).
  status text not null constraint prize_awards_status_check check (status in ('paid', 'held', 'refused', 'not_paid')),
  refused text,
  risk jsonb,
  decided_by text,
  decided_by_user_id text,
  decided_at timestamptz,
  primary key (month, place)
);
create index prize_awards_held_idx on public.prize_awards (month) where status = 'held';
alter table public.prize_awards enable row level security;
revoke all on public.prize_awards from public, anon, authenticated;
create trigger prize_awards_never_emptied before truncate on public.prize_awards
  for each statement execute function refuse_truncate();

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
    -- Offer money that is not held counts toward this month's prizes at once; held money when it
    -- clears (notify_cleared_earnings).
    insert into monthly_earnings (user_id, month, amount, cleared)
    values (p_user_id, current_month(), p_amount,
            case when p_type in ('postback', 'postback_reversal') and coalesce(p_available_at, now()) <= now()
                 then p_amount else 0 end)
    on conflict (user_id, month)
      do update set amount = monthly_earnings.amount + excluded.amount,
                    cleared = monthly_earnings.cleared + excluded.cleared;
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
      update monthly_earnings
         set amount = amount - v_charge,
             cleared = cleared - case when coalesce(p_available_at, now()) <= now() then v_charge else 0 end
       where user_id = p_user_id and month = current_month();
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
$function$;;

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
  -- Earned money an operator credits or takes back counts toward the month's prizes at once.
  insert into monthly_earnings (user_id, month, amount, cleared)
  values (p_user_id, current_month(), p_amount, case when p_kind = 'earned' then p_amount else 0 end)
  on conflict (user_id, month) do update set amount = monthly_earnings.amount + excluded.amount,
                                             cleared = monthly_earnings.cleared + excluded.cleared;
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
$function$;;

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
  -- Held offer money counts toward the prizes of the month (UTC) its hold ended in; a reversal in
  -- the hold carries the credit's available_at, so the two net out here.
  insert into monthly_earnings (user_id, month, amount, cleared)
  select user_id, date_trunc('month', available_at at time zone 'UTC')::date, 0, sum(amount)
    from transaction_history
   where kind = 'earned' and user_id is not null
     and available_at > v_from and available_at <= v_to
     and available_at > created_at
   group by 1, 2
  having sum(amount) <> 0
  on conflict (user_id, month) do update set cleared = monthly_earnings.cleared + excluded.cleared;
  -- Offer money that cleared may have unlocked bonus money.
  perform note_unlocked_bonus(t.user_id)
     from (select distinct user_id from transaction_history
            where kind = 'earned' and user_id is not null
              and available_at > v_from and available_at <= v_to and available_at > created_at) t;
  update cleared_earnings_sweep set through = v_to;
  return v_written;
end
$function$;;

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
                  when 'codes' then v_config.codes_on when 'prizes' then v_config.prizes_on end) is not true then
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
                                      when 'prizes' then v_config.prizes_monthly_cap
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
$function$;;

CREATE OR REPLACE FUNCTION public.app_setting_valid(p_name text, p_value jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_number numeric;
begin
  if p_name is null or not p_name = any (array[
       'coins_per_dollar', 'checkin_coins', 'checkin_streak_bonus_coins',
       'referral_reward', 'referral_welcome_bonus', 'referral_qualifying_coins', 'referral_requires_earned',
       'min_withdrawal_paypal', 'min_withdrawal_upi', 'min_withdrawal_bank', 'min_withdrawal_giftcard',
       'withdrawals_per_hour',
       'risk_review_threshold', 'review_first_withdrawal', 'network_review_flags', 'network_pause_flags',
       'signin_code_default', 'withdrawal_codes', 'withdrawal_code_days',
       'postback_hold_days', 'provider_hold_days', 'bonus_unlock_ratio',
       'notice_delivery_attempts', 'notice_delivery_window_hours', 'notice_emails_per_address_per_day',
       'adjustment_approval_above', 'adjustment_window_hours', 'test_postbacks_per_wall_per_day',
       'policy_change_delay_hours', 'adjustment_operator_limit', 'usd_inr_rate',
       'levels', 'levels_on', 'levels_monthly_cap', 'daily_goals', 'goals_on', 'goals_monthly_cap',
       'codes_on', 'codes_monthly_cap', 'monthly_prizes', 'prizes_on', 'prizes_monthly_cap']) then
    return null;
  end if;
  if p_name = 'provider_hold_days' then
    -- {"network": days}: a network's own hold, whole days.
    if jsonb_typeof(p_value) is distinct from 'object' then
      return false;
    end if;
    if (select count(*) from jsonb_object_keys(p_value)) > 50 then
      return false;
    end if;
    return not exists (
      select from jsonb_each(p_value) e
       where e.key !~ '^[a-z0-9-]{2,40}$'
          or case when jsonb_typeof(e.value) = 'number'
                  then (e.value)::numeric <> trunc((e.value)::numeric) or (e.value)::numeric not between 0 and 365
                  else true end);
  end if;
  if p_name = 'levels' then
    return levels_valid(p_value);
  end if;
  if p_name = 'daily_goals' then
    return daily_goals_valid(p_value);
  end if;
  if p_name = 'monthly_prizes' then
    return prizes_valid(p_value);
  end if;
  if p_name in ('referral_requires_earned', 'review_first_withdrawal', 'signin_code_default', 'withdrawal_codes',
                'levels_on', 'goals_on', 'codes_on', 'prizes_on') then
    return jsonb_typeof(p_value) = 'boolean';
  end if;
  if p_name in ('network_review_flags', 'network_pause_flags') then
    return network_flag_list_valid(p_value);
  end if;
  -- The ratio may be null: bonus money is unlocked at once. The rupee rate may be null: none is set.
  if p_name in ('bonus_unlock_ratio', 'usd_inr_rate') and jsonb_typeof(p_value) = 'null' then
    return true;
  end if;
  if jsonb_typeof(p_value) is distinct from 'number' then
    return false;
  end if;
  v_number := p_value::numeric;
  return case p_name
    when 'coins_per_dollar' then v_number = trunc(v_number) and v_number between 1 and 10000
    when 'checkin_coins' then v_number = trunc(v_number) and v_number between 1 and 100000
    when 'checkin_streak_bonus_coins' then v_number = trunc(v_number) and v_number between 0 and 100000
    when 'referral_reward' then v_number = round(v_number, 2) and v_number between 0 and 1000
    when 'referral_welcome_bonus' then v_number = round(v_number, 2) and v_number between 0 and 1000
    when 'referral_qualifying_coins' then v_number = trunc(v_number) and v_number between 0 and 1000000
    when 'min_withdrawal_paypal' then v_number = round(v_number, 2) and v_number between 0.01 and 10000
    when 'min_withdrawal_upi' then v_number = round(v_number, 2) and v_number between 0.01 and 10000
    when 'min_withdrawal_bank' then v_number = round(v_number, 2) and v_number between 0.01 and 10000
    when 'min_withdrawal_giftcard' then v_number = round(v_number, 2) and v_number between 0.01 and 10000
    when 'withdrawals_per_hour' then v_number = trunc(v_number) and v_number between 1 and 1000
    -- Scores are 0 to 100: 101 sends no withdrawal to review for its score.
    when 'risk_review_threshold' then v_number = trunc(v_number) and v_number between 0 and 101
    when 'postback_hold_days' then v_number = trunc(v_number) and v_number between 0 and 365
    when 'withdrawal_code_days' then v_number = trunc(v_number) and v_number between 1 and 365
    when 'bonus_unlock_ratio' then v_number = round(v_number, 2) and v_number between 0 and 100
    when 'notice_delivery_attempts' then v_number = trunc(v_number) and v_number between 1 and 100
    when 'notice_delivery_window_hours' then v_number = trunc(v_number) and v_number between 1 and 8760
    when 'notice_emails_per_address_per_day' then v_number = trunc(v_number) and v_number between 0 and 1000
    when 'adjustment_approval_above' then v_number = round(v_number, 2) and v_number between 0 and 1000000
    when 'adjustment_window_hours' then v_number = trunc(v_number) and v_number between 1 and 720
    when 'adjustment_operator_limit' then v_number = round(v_number, 2) and v_number between 0 and 1000000
    when 'test_postbacks_per_wall_per_day' then v_number = trunc(v_number) and v_number between 0 and 100
    when 'policy_change_delay_hours' then v_number = trunc(v_number) and v_number between 1 and 720
    when 'usd_inr_rate' then v_number = round(v_number, 4) and v_number between 1 and 1000
    when 'levels_monthly_cap' then v_number = round(v_number, 2) and v_number between 0 and 1000000
    when 'goals_monthly_cap' then v_number = round(v_number, 2) and v_number between 0 and 1000000
    when 'codes_monthly_cap' then v_number = round(v_number, 2) and v_number between 0 and 1000000
    when 'prizes_monthly_cap' then v_number = round(v_number, 2) and v_number between 0 and 1000000
  end;
end
$function$;;

CREATE OR REPLACE FUNCTION public.setting_loosens(p_name text, p_before jsonb, p_after jsonb)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select case p_name
    when 'adjustment_approval_above' then (p_after)::numeric > (p_before)::numeric
    when 'risk_review_threshold' then (p_after)::numeric > (p_before)::numeric
    when 'review_first_withdrawal' then (p_before)::boolean and not (p_after)::boolean
    -- A flag taken off either list lets through what it held.
    when 'network_review_flags' then not (p_after @> p_before)
    when 'network_pause_flags' then not (p_after @> p_before)
    when 'signin_code_default' then (p_before)::boolean and not (p_after)::boolean
    when 'withdrawal_codes' then (p_before)::boolean and not (p_after)::boolean
    when 'withdrawal_code_days' then (p_after)::numeric > (p_before)::numeric
    when 'postback_hold_days' then p_after is distinct from p_before
    when 'provider_hold_days' then p_after is distinct from p_before
    when 'bonus_unlock_ratio' then p_after is distinct from p_before
    when 'adjustment_window_hours' then (p_after)::numeric < (p_before)::numeric
    when 'adjustment_operator_limit' then (p_after)::numeric > (p_before)::numeric
    when 'test_postbacks_per_wall_per_day' then (p_after)::numeric > (p_before)::numeric
    when 'policy_change_delay_hours' then (p_after)::numeric < (p_before)::numeric
    -- More rupees per dollar pays more: a rise of more than 2 % (or a first rate) waits for a second
    -- owner; a fall, or a day's drift, applies at once.
    when 'usd_inr_rate' then p_after is not null and jsonb_typeof(p_after) = 'number'
                             and (jsonb_typeof(p_before) is distinct from 'number'
                                  or (p_after)::numeric > (p_before)::numeric * 1.02)
    when 'levels_on' then not (p_before)::boolean and (p_after)::boolean
    when 'goals_on' then not (p_before)::boolean and (p_after)::boolean
    when 'levels_monthly_cap' then (p_after)::numeric > (p_before)::numeric
    when 'goals_monthly_cap' then (p_after)::numeric > (p_before)::numeric
    when 'codes_on' then not (p_before)::boolean and (p_after)::boolean
    when 'codes_monthly_cap' then (p_after)::numeric > (p_before)::numeric
    when 'prizes_on' then not (p_before)::boolean and (p_after)::boolean
    when 'prizes_monthly_cap' then (p_after)::numeric > (p_before)::numeric
    -- Any change of a list can pay more (a bonus raised, a threshold lowered, an easier goal).
    when 'levels' then p_after is distinct from p_before
    when 'daily_goals' then p_after is distinct from p_before
    when 'monthly_prizes' then p_after is distinct from p_before
    else false
  end
$function$;;

CREATE OR REPLACE FUNCTION public.apply_app_config_patch(p_patch jsonb, p_actor text, p_operator_id text, p_reason text, p_detail jsonb DEFAULT NULL::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_before app_config;
  v_after app_config;
  v_name text;
  v_changed jsonb := '[]';
begin
  select * into v_before from app_config for update;
  -- Each column from the checked patch, else as it was: a static list, no SQL made from names.
  v_after := jsonb_populate_record(v_before, p_patch);
  update app_config
     set coins_per_dollar = v_after.coins_per_dollar,
         checkin_coins = v_after.checkin_coins,
         checkin_streak_bonus_coins = v_after.checkin_streak_bonus_coins,
         referral_reward = v_after.referral_reward,
         referral_welcome_bonus = v_after.referral_welcome_bonus,
         referral_qualifying_coins = v_after.referral_qualifying_coins,
         referral_requires_earned = v_after.referral_requires_earned,
         min_withdrawal_paypal = v_after.min_withdrawal_paypal,
         min_withdrawal_upi = v_after.min_withdrawal_upi,
         min_withdrawal_bank = v_after.min_withdrawal_bank,
         min_withdrawal_giftcard = v_after.min_withdrawal_giftcard,
         withdrawals_per_hour = v_after.withdrawals_per_hour,
         risk_review_threshold = v_after.risk_review_threshold,
         review_first_withdrawal = v_after.review_first_withdrawal,
         network_review_flags = v_after.network_review_flags,
         network_pause_flags = v_after.network_pause_flags,
         signin_code_default = v_after.signin_code_default,
         withdrawal_codes = v_after.withdrawal_codes,
         withdrawal_code_days = v_after.withdrawal_code_days,
         postback_hold_days = v_after.postback_hold_days,
         provider_hold_days = v_after.provider_hold_days,
         bonus_unlock_ratio = v_after.bonus_unlock_ratio,
         notice_delivery_attempts = v_after.notice_delivery_attempts,
         notice_delivery_window_hours = v_after.notice_delivery_window_hours,
         notice_emails_per_address_per_day = v_after.notice_emails_per_address_per_day,
         adjustment_approval_above = v_after.adjustment_approval_above,
         adjustment_window_hours = v_after.adjustment_window_hours,
         test_postbacks_per_wall_per_day = v_after.test_postbacks_per_wall_per_day,
         policy_change_delay_hours = v_after.policy_change_delay_hours,
         adjustment_operator_limit = v_after.adjustment_operator_limit,
         usd_inr_rate = v_after.usd_inr_rate,
         levels = v_after.levels,
         levels_on = v_after.levels_on,
         levels_monthly_cap = v_after.levels_monthly_cap,
         daily_goals = v_after.daily_goals,
         goals_on = v_after.goals_on,
         goals_monthly_cap = v_after.goals_monthly_cap,
         codes_on = v_after.codes_on,
         codes_monthly_cap = v_after.codes_monthly_cap,
         monthly_prizes = v_after.monthly_prizes,
         prizes_on = v_after.prizes_on,
         prizes_monthly_cap = v_after.prizes_monthly_cap,
         -- An owner's rate is the one the rates endpoint stays near (record_inr_rate).
         usd_inr_rate_anchor = case when p_patch ? 'usd_inr_rate' then v_after.usd_inr_rate
                                    else v_after.usd_inr_rate_anchor end
   where id
  returning * into v_after;
  -- A cap changed: its loop is not stopped for the month until a payment is refused again.
  update loop_months set capped_at = null
   where month = current_month() and capped_at is not null
     and ((loop = 'levels' and v_after.levels_monthly_cap <> v_before.levels_monthly_cap)
          or (loop = 'goals' and v_after.goals_monthly_cap <> v_before.goals_monthly_cap)
          or (loop = 'codes' and v_after.codes_monthly_cap <> v_before.codes_monthly_cap)
          or (loop = 'prizes' and v_after.prizes_monthly_cap <> v_before.prizes_monthly_cap));
  for v_name in select key from jsonb_object_keys(p_patch) key order by key loop
    continue when (to_jsonb(v_before) -> v_name) is not distinct from (to_jsonb(v_after) -> v_name);
    insert into operator_actions (actor, actor_user_id, action, reason, record_kind, record_id, before, after, detail)
    values (p_actor, p_operator_id, 'set_setting', p_reason, 'setting', v_name,
            jsonb_build_object('value', to_jsonb(v_before) -> v_name),
            jsonb_build_object('value', to_jsonb(v_after) -> v_name), coalesce(p_detail, '{}'));
    v_changed := v_changed || jsonb_build_object('setting', v_name, 'before', to_jsonb(v_before) -> v_name,
                                                 'after', to_jsonb(v_after) -> v_name);
  end loop;
  return v_changed;
end
$function$;;

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
                                   'withdrawals:failed', 'loop:levels', 'loop:goals', 'loop:codes', 'loop:prizes'];
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
                             ('codes', v_config.codes_on, v_config.codes_monthly_cap),
                             ('prizes', v_config.prizes_on, v_config.prizes_monthly_cap)) l(loop, on_, cap)
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
$function$;;

-- "1st", "2nd", "3rd", "4th", ... "11th", "12th", "13th", "21st".
create function public.ordinal(p_number integer)
 returns text
 language sql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
  select p_number || case when p_number % 100 in (11, 12, 13) then 'th'
                          when p_number % 10 = 1 then 'st' when p_number % 10 = 2 then 'nd'
                          when p_number % 10 = 3 then 'rd' else 'th' end
$function$;
revoke all on function public.ordinal(integer) from public, anon, authenticated;

-- Pays one award through the loop's rules (switch, once per identity per month, monthly cap).
create function public.pay_prize_award(p_month date, p_place integer)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_award prize_awards;
begin
  select * into v_award from prize_awards where month = p_month and place = p_place;
  if v_award.user_id is null then
    return jsonb_build_object('paid', false, 'refused', 'account_not_found');
  end if;
  return pay_loop_bonus(v_award.user_id, 'prizes', 'month:' || to_char(p_month, 'YYYY-MM'), v_award.coins,
                        format('Leaderboard prize: %s place in %s', ordinal(p_place), to_char(p_month, 'FMMonth YYYY')));
end
$function$;
revoke all on function public.pay_prize_award(date, integer) from public, anon, authenticated;

-- Settles a finished month's prizes, once (p_month null: the month before this one). Answers
-- {closed: true, outcome, awards, paid, held} or {closed: false, reason}.
create function public.close_prize_month(p_month date default null)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_month constant date := coalesce(p_month, (current_month() - interval '1 month')::date);
  v_config app_config;
  v_row record;
  v_place integer := 0;
  v_risk jsonb;
  v_status text;
  v_paid jsonb;
  v_counts jsonb;
  v_more boolean;
  v_last_cleared numeric;
  v_last_user text;
begin
  if v_month <> date_trunc('month', v_month)::date or v_month >= current_month() then
    return jsonb_build_object('closed', false, 'reason', 'month_not_finished');
  end if;
  -- Held money whose hold ended by the month's end counts: sweep up to now first.
  perform notify_cleared_earnings();
  if (select through from cleared_earnings_sweep) < v_month + interval '1 month' then
    return jsonb_build_object('closed', false, 'reason', 'sweep_behind');
  end if;
  select * into v_config from app_config;
  -- Once: a second server's close waits on this row's key for the first, then finds it taken.
  insert into prize_months (month, prizes, outcome)
  values (v_month, v_config.monthly_prizes, case when v_config.prizes_on then 'closed' else 'off' end)
  on conflict (month) do nothing;
  if not found then
    return jsonb_build_object('closed', false, 'reason', 'already_closed');
  end if;
  if v_config.prizes_on then
    -- From the index, best first, a hundred at a time (a bounded read, planned as one), until
    -- every prize has a place or nobody is left.
    <<batches>>
    loop
      v_more := false;
      for v_row in
        select m.user_id, m.cleared, p.identity_hash, p.banned_at
          from (select e.user_id, e.cleared
                  from monthly_earnings e
                 where e.month = v_month and e.cleared > 0
                   and (v_last_cleared is null or e.cleared < v_last_cleared
                        or (e.cleared = v_last_cleared and e.user_id > v_last_user))
                 order by e.cleared desc, e.user_id
                 limit 100) m
          join user_profiles p on p.id = m.user_id
         order by m.cleared desc, m.user_id
      loop
        exit batches when v_place >= jsonb_array_length(v_config.monthly_prizes);
        v_more := true;
        v_last_cleared := v_row.cleared;
        v_last_user := v_row.user_id;
        -- None for an account without an identity (it could be one of many aliases), or banned: the
        -- place passes to the next person. (One live account per identity: a unique index.)
        continue when v_row.identity_hash is null or v_row.banned_at is not null;
        v_place := v_place + 1;
        -- Scored as a cash-out is: at or over the review threshold, an operator decides.
        v_risk := withdrawal_risk(v_row.user_id, null);
        v_status := case when (v_risk ->> 'score')::integer >= v_config.risk_review_threshold then 'held' else 'paid' end;
        insert into prize_awards (month, place, user_id, username, cleared, coins, status, risk)
        values (v_month, v_place, v_row.user_id, 'User' || left(v_row.user_id, 4), v_row.cleared,
                (v_config.monthly_prizes ->> (v_place - 1))::integer, v_status, v_risk);
        if v_status = 'paid' then
          v_paid := pay_prize_award(v_month, v_place);
          if not (v_paid ->> 'paid')::boolean then
            update prize_awards set status = 'not_paid', refused = v_paid ->> 'refused'
             where month = v_month and place = v_place;
          end if;
        end if;
      end loop;
      exit when not v_more;
    end loop;
  end if;
  select jsonb_build_object('awards', count(*), 'paid', count(*) filter (where status = 'paid'),
                            'held', count(*) filter (where status = 'held'))
    into v_counts from prize_awards where month = v_month;
  return jsonb_build_object('closed', true, 'month', v_month,
                            'outcome', case when v_config.prizes_on then 'closed' else 'off' end) || v_counts;
end
$function$;
revoke all on function public.close_prize_month(date) from public, anon, authenticated;
grant execute on function public.close_prize_month(date) to service_role;

-- The Leaderboard's prizes for a person: the table (if the loop is on), their offer money cleared
-- this month, their place by it (null beyond 1,000 or with none), the next prize place above them
-- and what it takes, and the last three closed months' winners (paid, or in review).
create function public.leaderboard_prizes(p_user_id text)
 returns jsonb
 language plpgsql
 stable
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  c_counted constant integer := 1000;
  v_month constant date := current_month();
  v_config app_config;
  v_cleared numeric := 0;
  v_ahead bigint;
  v_place integer;
  v_target integer;
  v_target_cleared numeric;
begin
  select * into v_config from app_config;
  select cleared into v_cleared from monthly_earnings where user_id = p_user_id and month = v_month;
  v_cleared := coalesce(v_cleared, 0);
  if v_cleared > 0 then
    select count(*) into v_ahead
      from (select 1 from monthly_earnings ahead
             where ahead.month = v_month and ahead.cleared > 0 and ahead.cleared >= v_cleared
               and (ahead.cleared > v_cleared or ahead.user_id < p_user_id)
             order by ahead.cleared desc, ahead.user_id
             limit c_counted) first_ahead;
    v_place := case when v_ahead < c_counted then v_ahead + 1 end;
  end if;
  -- The next prize up: the last prize's place from outside the prizes, else the place above.
  v_target := case when v_place is null or v_place > jsonb_array_length(v_config.monthly_prizes)
                   then jsonb_array_length(v_config.monthly_prizes)
                   when v_place > 1 then v_place - 1 end;
  if v_target is not null then
    select cleared into v_target_cleared
      from monthly_earnings
     where month = v_month and cleared > 0 and user_id <> p_user_id
     order by cleared desc, user_id
     offset v_target - 1 limit 1;
  end if;
  return jsonb_build_object(
    'on', v_config.prizes_on,
    'prizes', v_config.monthly_prizes,
    'coins_per_dollar', v_config.coins_per_dollar,
    'month', v_month,
    'cleared', v_cleared,
    'place', v_place,
    'next', case when v_target is not null then jsonb_build_object(
              'place', v_target,
              'coins', (v_config.monthly_prizes ->> (v_target - 1))::integer,
              -- A cent more than the place holds (an empty place: any cleared offer money).
              'needed', greatest(coalesce(v_target_cleared, 0) - v_cleared + 0.01, 0.01)) end,
    'past', (select coalesce(jsonb_agg(jsonb_build_object('month', pm.month, 'winners', (
                      select coalesce(jsonb_agg(jsonb_build_object('place', a.place, 'username', a.username,
                                                                   'coins', a.coins, 'in_review', a.status = 'held')
                                                order by a.place), '[]')
                        from prize_awards a where a.month = pm.month and a.status in ('paid', 'held')))
                      order by pm.month desc), '[]')
               from (select month from prize_months where outcome = 'closed' order by month desc limit 3) pm));
end
$function$;
revoke all on function public.leaderboard_prizes(text) from public, anon, authenticated;
grant execute on function public.leaderboard_prizes(text) to service_role;

-- The console's prizes (every role reads them; finance decides): the last six settled months, each
-- place with who, what cleared, the prize, its state and the risk score with its reasons.
create function public.operator_prize_awards(p_operator_id text)
 returns jsonb
 language plpgsql
 stable
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
begin
  perform require_operator_role(p_operator_id, array['support']);
  return (select coalesce(jsonb_agg(jsonb_build_object(
                   'month', pm.month, 'outcome', pm.outcome, 'closed_at', pm.closed_at,
                   'awards', (select coalesce(jsonb_agg(jsonb_build_object(
                                       'place', a.place, 'user_id', a.user_id, 'username', a.username,
                                       'cleared', a.cleared, 'coins', a.coins, 'status', a.status,
                                       'refused', a.refused, 'decided_by', a.decided_by,
                                       'risk_score', (a.risk ->> 'score')::integer,
                                       -- Each reason's linked accounts with their email, as a withdrawal's.
                                       'risk_reasons', (select coalesce(jsonb_agg(jsonb_build_object(
                                                          'code', r ->> 'code', 'points', (r ->> 'points')::integer,
                                                          'detail', r ->> 'detail',
                                                          'linked', (select coalesce(jsonb_agg(jsonb_build_object(
                                                                              'id', l.id, 'email', u.email)), '[]')
                                                                       from jsonb_array_elements_text(r -> 'accounts') l(id)
                                                                       left join user_profiles u on u.id = l.id))), '[]')
                                                          from jsonb_array_elements(a.risk -> 'reasons') r),
                                       'decided_at', a.decided_at) order by a.place), '[]')
                                from prize_awards a where a.month = pm.month))
                   order by pm.month desc), '[]')
            from (select * from prize_months order by month desc limit 6) pm);
end
$function$;
revoke all on function public.operator_prize_awards(text) from public, anon, authenticated;
grant execute on function public.operator_prize_awards(text) to service_role;

-- An operator (finance or owner) pays or refuses a held prize, audited; never one of their own.
create function public.operator_decide_prize(p_operator_id text, p_actor text, p_month date, p_place integer,
                                             p_approve boolean, p_reason text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_actor text := operator_actor(p_actor);
  v_reason text := operator_reason(p_reason);
  v_award prize_awards;
  v_paid jsonb;
  v_status text;
begin
  perform require_operator_role(p_operator_id, array['finance']);
  if p_approve is null then
    raise exception 'Invalid decision' using errcode = 'P0001', hint = 'invalid_decision';
  end if;
  select * into v_award from prize_awards where month = p_month and place = p_place for update;
  if not found then
    raise exception 'Prize not found' using errcode = 'P0001', hint = 'prize_award_not_found';
  end if;
  if v_award.status <> 'held' then
    raise exception 'Prize already decided' using errcode = 'P0001', hint = 'prize_award_decided';
  end if;
  perform refuse_own_account(p_operator_id, v_award.user_id);
  if p_approve then
    v_paid := pay_prize_award(p_month, p_place);
    v_status := case when (v_paid ->> 'paid')::boolean then 'paid' else 'not_paid' end;
  else
    v_status := 'refused';
  end if;
  update prize_awards
     set status = v_status, refused = v_paid ->> 'refused',
         decided_by = v_actor, decided_by_user_id = p_operator_id, decided_at = now()
   where month = p_month and place = p_place;
  insert into operator_actions (actor, actor_user_id, action, reason, record_kind, record_id, before, after)
  values (v_actor, p_operator_id, case when p_approve then 'pay_prize' else 'refuse_prize' end, v_reason,
          'prize_award', to_char(p_month, 'YYYY-MM') || '#' || p_place,
          jsonb_build_object('status', 'held', 'user_id', v_award.user_id, 'coins', v_award.coins),
          jsonb_build_object('status', v_status, 'refused', v_paid ->> 'refused'));
  return jsonb_build_object('status', v_status, 'refused', v_paid ->> 'refused');
end
$function$;
revoke all on function public.operator_decide_prize(text, text, date, integer, boolean, text) from public, anon, authenticated;
grant execute on function public.operator_decide_prize(text, text, date, integer, boolean, text) to service_role;
