-- Redefines: public.account_xp, public.level_for_xp, public.goals_of_day, public.goal_progress, public.goal_streak, public.rewards_status
--
-- Home reads rewards_status on every visit (docs/decisions/094); its helpers were SQL functions that
-- Postgres cannot inline (security definer, set-returning) and so planned again on every call: a
-- Home view spent more time planning them than reading. As plpgsql, each statement is planned once
-- per connection and kept; a goal runs only its own kind's query, and the streak is read only when
-- the person claimed a goal yesterday or today (otherwise it is 0).

create or replace function public.account_xp(p_user_id text)
 returns integer
 language plpgsql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_earned numeric;
  v_rate integer;
  v_pending numeric;
begin
  select b.earned_total, c.coins_per_dollar into v_earned, v_rate
    from user_balance b cross join app_config c
   where b.user_id = p_user_id;
  if not found then
    return null;
  end if;
  -- Pending as money_available counts it: a credit reversed in its hold nets to nothing.
  select coalesce(sum(due.amount), 0) into v_pending
    from (select sum(t.amount) as amount from transaction_history t
           where t.user_id = p_user_id and t.kind = 'earned' and t.available_at > now()
           group by t.available_at
          having sum(t.amount) > 0) due;
  return greatest(0, floor((v_earned - v_pending) * v_rate))::integer;
end
$function$;

create or replace function public.level_for_xp(p_levels jsonb, p_xp integer)
 returns jsonb
 language plpgsql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_level jsonb;
  v_found jsonb;
  v_number integer := 0;
begin
  -- The levels rise: the last one whose XP is reached.
  for v_level in select value from jsonb_array_elements(p_levels) loop
    v_number := v_number + 1;
    exit when (v_level ->> 'xp')::numeric > greatest(coalesce(p_xp, 0), 0);
    v_found := v_level || jsonb_build_object('number', v_number);
  end loop;
  return v_found;
end
$function$;

create or replace function public.goals_of_day(p_day date)
 returns setof jsonb
 language plpgsql
 stable
 set search_path to 'public', 'pg_temp'
as $function$
begin
  return query
    select g.value
      from jsonb_array_elements((select daily_goals from app_config)) g
     order by md5(p_day::text || ':' || (g.value ->> 'id'))
     limit 3;
end
$function$;

create or replace function public.goal_progress(p_user_id text, p_goal jsonb, p_day date)
 returns integer
 language plpgsql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_start timestamptz := p_day::timestamp at time zone 'UTC';
  v_end timestamptz := (p_day + 1)::timestamp at time zone 'UTC';
  v_kind text := p_goal ->> 'kind';
  v_count integer;
  v_amount numeric;
begin
  if v_kind = 'checkin' then
    return (select count(*)::integer from daily_checkins where user_id = p_user_id and check_date = p_day);
  elsif v_kind = 'earn_coins' then
    -- Offer money that cleared its hold that day (a reversal in its hold nets it out).
    select coalesce(sum(t.amount), 0) into v_amount
      from transaction_history t
     where t.user_id = p_user_id and t.kind = 'earned'
       and t.available_at >= v_start and t.available_at < v_end and t.available_at <= now();
    return greatest(0, floor(v_amount * (select coins_per_dollar from app_config)))::integer;
  elsif v_kind = 'complete_offer' then
    -- Offers credited that day and not reversed, on the goal's wall when it names one.
    select count(*)::integer into v_count
      from provider_postbacks c
     where c.user_id = p_user_id and c.kind = 'credit'
       and c.created_at >= v_start and c.created_at < v_end
       and (p_goal ->> 'network' is null or c.provider = p_goal ->> 'network')
       and not exists (select from provider_postbacks r
                        where r.provider = c.provider and r.transaction_id = c.transaction_id
                          and r.kind = 'reversal');
    return v_count;
  elsif v_kind = 'refer_verified' then
    -- Friends who joined with the code that day and have verified their email.
    select count(*)::integer into v_count
      from referrals r join user_profiles f on f.id = r.referred_user_id
     where r.referrer_user_id = p_user_id and r.created_at >= v_start and r.created_at < v_end
       and f.email_verified;
    return v_count;
  end if;
  return 0;
end
$function$;

create or replace function public.goal_streak(p_identity text, p_today date)
 returns integer
 language plpgsql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_full integer := least(3, jsonb_array_length((select daily_goals from app_config)));
  v_streak integer;
begin
  -- No goal claimed yesterday or today: no streak (most people, most days), nothing more to read.
  if p_identity is null or not exists (select from loop_bonuses
                                        where identity_hash = p_identity and loop = 'goals' and day >= p_today - 1) then
    return 0;
  end if;
  with full_days as (
    select day from loop_bonuses
     where identity_hash = p_identity and loop = 'goals' and day > p_today - 400
     group by day
    having count(*) >= v_full
  ), through_today as (
    select day + (row_number() over (order by day desc))::integer as run_end from full_days where day <= p_today
  ), through_yesterday as (
    select day + (row_number() over (order by day desc))::integer as run_end from full_days where day < p_today
  )
  -- Each run counted over its own days: a gap yesterday ends the run, whatever came before it.
  select greatest(
    (select count(*) from through_today where run_end = p_today + 1),
    (select count(*) from through_yesterday where run_end = p_today))::integer
    into v_streak;
  return v_streak;
end
$function$;

-- The same answer in two statements (each planned once per connection): the account's facts, then
-- the answer, with today's goals (goals_of_day) and their progress (goal_progress): the functions the
-- claims check, so Home shows what a claim would find.
create or replace function public.rewards_status(p_user_id text)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_levels jsonb;
  v_levels_on boolean;
  v_goals_on boolean;
  v_identity text;
  v_xp integer;
  v_today date := (now() at time zone 'UTC')::date;
  v_claimed jsonb;
  v_recent boolean;
  v_paid_levels jsonb;
  v_capped jsonb;
begin
  -- The settings; the account, its XP (cleared offer earnings in coins, pending counted as
  -- money_available counts it); the goals claimed today and yesterday and the levels whose bonus
  -- was paid; and whether each loop met its cap this month.
  select c.levels, c.levels_on, c.goals_on, p.identity_hash,
         account_xp(p_user_id),
         coalesce((select jsonb_object_agg(m.loop, m.capped_at is not null) from loop_months m
                    where m.month = current_month() and m.loop in ('levels', 'goals')), '{}'),
         l.claimed, l.recent, l.paid_levels
    into v_levels, v_levels_on, v_goals_on, v_identity, v_xp, v_capped, v_claimed, v_recent,
         v_paid_levels
    from user_profiles p
    cross join app_config c
    cross join lateral (
      select coalesce(jsonb_agg(x.reward) filter (where x.loop = 'goals' and x.day = v_today), '[]') as claimed,
             count(*) filter (where x.loop = 'goals') > 0 as recent,
             coalesce(jsonb_agg(x.reward) filter (where x.loop = 'levels'), '[]') as paid_levels
        from loop_bonuses x
       where x.identity_hash = p.identity_hash
         and ((x.loop = 'goals' and x.day >= v_today - 1) or (x.loop = 'levels' and x.reward like 'level:%'))) l
   where p.id = p_user_id;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  return jsonb_build_object(
    'xp', v_xp,
    -- The last level whose XP is reached (the levels rise).
    'level', (select count(*) from jsonb_array_elements(v_levels) l where (l.value ->> 'xp')::numeric <= v_xp),
    'levels', v_levels,
    -- Levels reached whose bonus this identity was not paid yet.
    'unclaimed', (select coalesce(jsonb_agg(l.value ->> 'name' order by l.ordinality), '[]')
                    from jsonb_array_elements(v_levels) with ordinality l
                   where (l.value ->> 'xp')::numeric <= v_xp and (l.value ->> 'bonus_coins')::numeric > 0
                     and not v_paid_levels ? level_reward(l.value ->> 'name')),
    'levels_on', v_levels_on,
    'levels_capped', coalesce((v_capped ->> 'levels')::boolean, false),
    'today', v_today,
    'goals', (select coalesce(jsonb_agg(g.goal || jsonb_build_object(
                'progress', goal_progress(p_user_id, g.goal, v_today),
                'claimed', v_claimed ? ('goal:' || v_today || ':' || (g.goal ->> 'id')))
              order by g.n), '[]')
                from goals_of_day(v_today) with ordinality g(goal, n)),
    'goal_streak', case when v_recent then coalesce(goal_streak(v_identity, v_today), 0) else 0 end,
    'goals_on', v_goals_on,
    'goals_capped', coalesce((v_capped ->> 'goals')::boolean, false));
end
$function$;
