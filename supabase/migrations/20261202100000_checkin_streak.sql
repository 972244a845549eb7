-- Redefines: public.daily_checkin, public.get_checkin_status, public.apply_production_settings
--
-- The check-in strip counts a streak and day 7 pays a bonus (issue 18, item 7;
-- docs/decisions/072-check-in-streak-pays-day-seven.md).
--
-- - A streak is the run of consecutive UTC days with a check-in; a missed day ends it. Its days
--   go D1 to D7, then the next day starts a new week at D1 (the run goes on).
-- - checkin_streak(user, day) counts the run that ends on that day, from the check-in rows in one
--   read of the (user_id, check_date) index.
-- - The check-in that is day 7 of its week also pays app_config.checkin_streak_bonus_coins
--   (default 50; 0 turns it off) as bonus money, in the same transaction. The day's row is
--   inserted once (the unique index queues a racing second claim, which is refused), so the bonus
--   is paid once per week of the streak; the row keeps what it paid (bonus_coins).

alter table public.app_config
  add column checkin_streak_bonus_coins integer not null default 50
    check (checkin_streak_bonus_coins between 0 and 100000);

alter table public.daily_checkins
  add column bonus_coins integer not null default 0 check (bonus_coins >= 0);

-- The length of the run of consecutive check-in days that ends on p_day (0: no check-in that day).
-- Gaps and islands: along the dates newest first, date + rank stays the same through a run, and
-- for the run ending on p_day it is p_day + 1.
create function public.checkin_streak(p_user_id text, p_day date) returns integer
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select count(*)::integer
    from (select check_date + (row_number() over (order by check_date desc))::integer as run_end
            from daily_checkins
           where user_id = p_user_id and check_date <= p_day) d
   where run_end = p_day + 1
$$;

-- Spec §4/§5: one check-in per user and calendar date (UTC); the reward is app_config's. Day 7 of
-- a streak's week also pays the streak bonus.
create or replace function public.daily_checkin(p_user_id text) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_coins integer := (select checkin_coins from app_config);
  v_today date := (now() at time zone 'UTC')::date;
  -- Today's place in the week of the streak that yesterday's run continues.
  v_day integer := checkin_streak(p_user_id, v_today - 1) % 7 + 1;
  v_bonus integer := case when v_day = 7 then (select checkin_streak_bonus_coins from app_config) else 0 end;
  v_result jsonb;
begin
  -- Racing check-ins queue on the unique (user_id, check_date) index; only one inserts, so only
  -- one pays the bonus.
  insert into daily_checkins (user_id, check_date, coins_earned, bonus_coins)
  values (p_user_id, v_today, v_coins, v_bonus)
  on conflict (user_id, check_date) do nothing;
  if not found then
    raise exception 'Already checked in today!' using errcode = 'P0001', hint = 'already_checked_in';
  end if;
  v_result := ledger_move(p_user_id, 'checkin', v_coins, coins_to_dollars(v_coins), 'Daily check-in');
  if v_bonus > 0 then
    -- A 'bonus' row: bonus money (docs/decisions/066), unlocked as offer earnings clear.
    v_result := v_result || jsonb_build_object('balance',
      ledger_move(p_user_id, 'bonus', v_bonus, coins_to_dollars(v_bonus), 'Check-in day 7 bonus') -> 'balance');
  end if;
  return v_result || jsonb_build_object('check_date', v_today, 'streak_day', v_day, 'bonus_coins', v_bonus);
end
$$;

-- Whether the user checked in today, the day of the streak's week today is (checked in or not
-- yet), what day 7 pays, and what today's check-in paid as the bonus.
create or replace function public.get_checkin_status(p_user_id text) returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_today date := (now() at time zone 'UTC')::date;
  v_today_bonus integer;
  v_streak integer;
begin
  select bonus_coins into v_today_bonus from daily_checkins where user_id = p_user_id and check_date = v_today;
  -- Checked in: the run through today; not yet: the run today would continue.
  v_streak := checkin_streak(p_user_id, case when v_today_bonus is null then v_today - 1 else v_today end);
  return jsonb_build_object(
    'today', v_today,
    'checked_in_today', v_today_bonus is not null,
    'streak_days', v_streak,
    'streak_day', case when v_today_bonus is null then v_streak % 7 + 1 else (v_streak - 1) % 7 + 1 end,
    'bonus_coins', (select checkin_streak_bonus_coins from app_config),
    'bonus_paid_today', coalesce(v_today_bonus, 0));
end
$$;

-- Back to the strict production defaults of every money setting (`DEMO_SETTINGS=off npm run dev`
-- on a database that had the demo settings; docs/money-policy.md).
create or replace function public.apply_production_settings()
  returns void
  language sql
  security definer
  set search_path = public, pg_temp
as $$
  update app_config set postback_hold_days = default, provider_hold_days = default,
                        bonus_unlock_ratio = default, referral_requires_earned = default,
                        review_first_withdrawal = default, risk_review_threshold = default,
                        checkin_streak_bonus_coins = default;
$$;

revoke all on function public.checkin_streak(text, date) from public, anon, authenticated;
grant execute on function public.checkin_streak(text, date) to service_role;
revoke all on function public.daily_checkin(text) from public, anon, authenticated;
grant execute on function public.daily_checkin(text) to service_role;
revoke all on function public.get_checkin_status(text) from public, anon, authenticated;
grant execute on function public.get_checkin_status(text) to service_role;
revoke all on function public.apply_production_settings() from public, anon, authenticated;
grant execute on function public.apply_production_settings() to service_role;
