-- Redefines: public.money_available, public.account_xp, public.get_user_summary, public.checkin_streak, public.get_checkin_status, public.rewards_status
--
-- Home reads the account's money twice on every view (get_user_summary through money_available,
-- rewards_status through account_xp), each a PL/pgSQL call with its own search_path and two
-- statements, and the check-in run the same way (get_checkin_status through checkin_streak). The
-- rules now live in two SQL functions without a search_path or SECURITY DEFINER of their own, so
-- that Postgres inlines them into the statement that asks (as goals_progress is):
-- - account_money: the money facts (available, pending, next clearing, locked bonus, what unlocks
--   it) and the cleared offer earnings XP is counted from, from the balance row and the pending
--   part of the ledger's index; money_available, account_xp, get_user_summary and rewards_status
--   read it.
-- - checkin_run: the check-ins in a row ending on a day; checkin_streak and get_checkin_status
--   read it.
-- Each caller is one statement. Only the owner may run the two (their callers are SECURITY
-- DEFINER functions with their own search_path). The results are the same.

create function public.account_money(p_user_id text)
 returns table (facts jsonb, cleared numeric)
 language sql
 stable
as $function$
  with b as (
    select balance, total_earned, earned_total, carried_debt from user_balance where user_id = p_user_id
  ), p as (
    -- A credit reversed in its hold nets to nothing at its clearing time: that time is not next.
    select coalesce(sum(amount), 0) as pending, min(available_at) as next_clear_at
      from (select available_at, sum(amount) as amount
              from transaction_history
             where user_id = p_user_id and kind = 'earned' and available_at > now()
             group by available_at
            having sum(amount) > 0) due
  ), parts as (
    select b.balance, b.carried_debt, p.pending, p.next_clear_at,
           b.earned_total - p.pending as cleared,
           b.total_earned - b.earned_total as bonus,
           b.total_earned - b.balance as withdrawn,
           c.bonus_unlock_ratio as ratio
      from b cross join p cross join app_config c
  ), unlocked as (
    select parts.*,
           case when ratio is null then bonus
                else least(bonus, floor(ratio * greatest(cleared, 0) * 100) / 100) end as bonus_unlocked
      from parts
  )
  select jsonb_build_object(
           -- Net of a debt carried from an earlier account, until offer earnings have paid it.
           'available', greatest(0, least(balance, cleared + bonus_unlocked - withdrawn) - carried_debt),
           'carried_debt', carried_debt,
           'pending', pending,
           'next_clear_at', next_clear_at,
           'bonus_locked', bonus - bonus_unlocked,
           -- More cleared earned money that would unlock all of it (none: it never unlocks).
           'earned_to_unlock', case when bonus - bonus_unlocked <= 0 then 0
                                    when ratio > 0 then ceil((bonus - bonus_unlocked) / ratio * 100) / 100
                                         + greatest(-cleared, 0) end),
         cleared
    from unlocked
$function$;
revoke all on function public.account_money(text) from public, anon, authenticated;

create or replace function public.money_available(p_user_id text)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path = public, pg_temp
as $function$
begin
  return (select facts from account_money(p_user_id));
end
$function$;

create or replace function public.account_xp(p_user_id text)
 returns integer
 language plpgsql
 stable security definer
 set search_path = public, pg_temp
as $function$
begin
  return (select greatest(0, floor(m.cleared * c.coins_per_dollar))::integer
            from account_money(p_user_id) m cross join app_config c);
end
$function$;

create or replace function public.get_user_summary(p_user_id text)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path = public, pg_temp
as $function$
begin
  return (
    select jsonb_build_object(
             'id', p.id,
             'email', p.email,
             'email_verified', p.email_verified,
             'display_name', p.display_name,
             'username', p.username,
             'referral_code', p.referral_code,
             'preferences', p.preferences,
             'created_at', p.created_at,
             -- An operator paused this account's cash-outs (docs/decisions/068).
             'payouts_paused', p.payouts_paused_at is not null,
             'balance', coalesce(b.balance, 0),
             'total_earned', coalesce(b.total_earned, 0),
             'referral_earned', coalesce((select sum(amount) from transaction_history t
                                           where t.user_id = p.id
                                             and t.transaction_type = 'referral'), 0))
           -- Available, pending and locked bonus, from the balance row and the pending part of the index.
           || coalesce(m.facts, '{}')
      from user_profiles p
      left join user_balance b on b.user_id = p.id
      left join lateral account_money(p.id) m on true
     where p.id = p_user_id);
end
$function$;

create function public.checkin_run(p_user_id text, p_day date)
 returns table (days integer)
 language sql
 stable
as $function$
  -- The check-ins in a row that end on p_day (0 when p_day has none).
  select count(*)::integer
    from (select check_date + (row_number() over (order by check_date desc))::integer as run_end
            from daily_checkins
           where user_id = p_user_id and check_date <= p_day) d
   where run_end = p_day + 1
$function$;
revoke all on function public.checkin_run(text, date) from public, anon, authenticated;

create or replace function public.checkin_streak(p_user_id text, p_day date)
 returns integer
 language plpgsql
 stable security definer
 set search_path = public, pg_temp
as $function$
begin
  return (select days from checkin_run(p_user_id, p_day));
end
$function$;

create or replace function public.get_checkin_status(p_user_id text)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path = public, pg_temp
as $function$
declare
  v_today date := (now() at time zone 'UTC')::date;
begin
  return (
    select jsonb_build_object(
             'today', v_today,
             'checked_in_today', t.bonus_coins is not null,
             'streak_days', s.days,
             'streak_day', case when t.bonus_coins is null then s.days % 7 + 1 else (s.days - 1) % 7 + 1 end,
             'bonus_coins', c.checkin_streak_bonus_coins,
             'bonus_paid_today', coalesce(t.bonus_coins, 0))
      from app_config c
      left join daily_checkins t on t.user_id = p_user_id and t.check_date = v_today
      -- Checked in: the run through today; not yet: the run today would continue.
      cross join lateral checkin_run(p_user_id, case when t.bonus_coins is null then v_today - 1 else v_today end) s);
end
$function$;

create or replace function public.rewards_status(p_user_id text)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path = public, pg_temp
as $function$
declare
  v_today date := (now() at time zone 'UTC')::date;
  v_status jsonb;
begin
  -- One statement: the settings; the account, its XP (cleared offer earnings in coins, pending
  -- counted as money_available counts it); the goals claimed today and yesterday and the levels
  -- whose bonus was paid; and whether each loop met its cap this month.
  select jsonb_build_object(
    'xp', s.xp,
    -- The last level whose XP is reached (the levels rise).
    'level', (select count(*) from jsonb_array_elements(s.levels) l where (l.value ->> 'xp')::numeric <= s.xp),
    'levels', s.levels,
    -- Levels reached whose bonus this identity was not paid yet.
    'unclaimed', (select coalesce(jsonb_agg(l.value ->> 'name' order by l.ordinality), '[]')
                    from jsonb_array_elements(s.levels) with ordinality l
                   where (l.value ->> 'xp')::numeric <= s.xp and (l.value ->> 'bonus_coins')::numeric > 0
                     and not s.paid_levels ? level_reward(l.value ->> 'name')),
    'levels_on', s.levels_on,
    'levels_capped', coalesce((s.capped ->> 'levels')::boolean, false),
    'today', v_today,
    'goals', (select coalesce(jsonb_agg(g.goal || jsonb_build_object(
                'progress', g.progress,
                'claimed', s.claimed ? ('goal:' || v_today || ':' || (g.goal ->> 'id')))
              order by g.n), '[]')
                from goals_progress(p_user_id, v_today) g),
    'goal_streak', case when s.recent then coalesce(goal_streak(s.identity_hash, v_today), 0) else 0 end,
    'goals_on', s.goals_on,
    'goals_capped', coalesce((s.capped ->> 'goals')::boolean, false))
    into v_status
    from (select c.levels, c.levels_on, c.goals_on, p.identity_hash,
                 greatest(0, floor(m.cleared * c.coins_per_dollar))::integer as xp,
                 coalesce((select jsonb_object_agg(lm.loop, lm.capped_at is not null) from loop_months lm
                            where lm.month = current_month() and lm.loop in ('levels', 'goals')), '{}') as capped,
                 l.claimed, l.recent, l.paid_levels
            from user_profiles p
            cross join app_config c
            left join lateral account_money(p.id) m on true
            cross join lateral (
              select coalesce(jsonb_agg(x.reward) filter (where x.loop = 'goals' and x.day = v_today), '[]') as claimed,
                     count(*) filter (where x.loop = 'goals') > 0 as recent,
                     coalesce(jsonb_agg(x.reward) filter (where x.loop = 'levels'), '[]') as paid_levels
                from loop_bonuses x
               where x.identity_hash = p.identity_hash
                 and ((x.loop = 'goals' and x.day >= v_today - 1) or (x.loop = 'levels' and x.reward like 'level:%'))) l
           where p.id = p_user_id
          -- Each of these once (a fence: pulled up, capped and xp would be worked out at each use).
          offset 0) s;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  return v_status;
end
$function$;
