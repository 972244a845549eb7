-- Redefines: public.app_setting_valid, public.apply_app_config_patch, public.setting_loosens, public.daily_checkin
--
-- Reasons to come back (issue 39, points 1, 2 and 8; docs/decisions/094): levels and daily goals,
-- each paid in bonus money the operator can see and cap.
--
-- * Levels: XP is a person's cleared offer earnings in coins (earned money whose hold has ended, net
--   of reversals: a reversal takes XP back; bonus money gives none). The levels (name, XP, and the
--   perks: a level-up bonus, a check-in extra in percent, a cash-out rebate in percent) are a list
--   in app_config.levels. The level-up bonus is claimed, once per identity per level, ever; the
--   check-in extra is paid with each check-in; the rebate when a cash-out is paid.
-- * Daily goals: each UTC day, three goals drawn from app_config.daily_goals (the same three for
--   everyone that day), each with its bonus, claimed once per identity per goal per day.
-- * Each loop (levels, goals) has an off switch and a monthly cap in dollars; every payment goes
--   through pay_loop_bonus, which counts the month's spend on one locked row per loop, so the cap
--   holds under races, and records each payment in loop_bonuses (the operator's view by source).
--
-- Every payment is a ledger row of type 'bonus' (kind bonus): withdrawable only as cleared offer
-- earnings unlock it (bonus_unlock_ratio, docs/decisions/066).

-- A list of levels: 1 to 20 objects {name, xp, bonus_coins, checkin_percent, rebate_percent}, the
-- first at 0 XP, XP rising, names distinct (a level's bonus is keyed by its name).
create function public.levels_valid(p_value jsonb)
 returns boolean
 language plpgsql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_level jsonb;
  v_previous numeric := null;
  v_names text[] := '{}';
  v_name text;
begin
  if jsonb_typeof(p_value) is distinct from 'array' or jsonb_array_length(p_value) not between 1 and 20 then
    return false;
  end if;
  for v_level in select value from jsonb_array_elements(p_value) loop
    if jsonb_typeof(v_level) <> 'object'
       or (select count(*) from jsonb_object_keys(v_level)) <> 5
       or not v_level ?& array['name', 'xp', 'bonus_coins', 'checkin_percent', 'rebate_percent']
       or jsonb_typeof(v_level -> 'name') <> 'string'
       or jsonb_typeof(v_level -> 'xp') <> 'number' or jsonb_typeof(v_level -> 'bonus_coins') <> 'number'
       or jsonb_typeof(v_level -> 'checkin_percent') <> 'number'
       or jsonb_typeof(v_level -> 'rebate_percent') <> 'number' then
      return false;
    end if;
    v_name := v_level ->> 'name';
    if v_name !~ '^[A-Za-z0-9][A-Za-z0-9 ]{0,23}$' or right(v_name, 1) = ' ' or position('  ' in v_name) > 0
       or lower(v_name) = any (v_names) then
      return false;
    end if;
    v_names := v_names || lower(v_name);
    if (v_level ->> 'xp')::numeric <> trunc((v_level ->> 'xp')::numeric)
       or (v_level ->> 'xp')::numeric not between 0 and 100000000
       or (v_previous is null and (v_level ->> 'xp')::numeric <> 0)
       or (v_previous is not null and (v_level ->> 'xp')::numeric <= v_previous)
       or (v_level ->> 'bonus_coins')::numeric <> trunc((v_level ->> 'bonus_coins')::numeric)
       or (v_level ->> 'bonus_coins')::numeric not between 0 and 100000
       or (v_level ->> 'checkin_percent')::numeric <> trunc((v_level ->> 'checkin_percent')::numeric)
       or (v_level ->> 'checkin_percent')::numeric not between 0 and 200
       or (v_level ->> 'rebate_percent')::numeric <> round((v_level ->> 'rebate_percent')::numeric, 1)
       or (v_level ->> 'rebate_percent')::numeric not between 0 and 10 then
      return false;
    end if;
    v_previous := (v_level ->> 'xp')::numeric;
  end loop;
  return true;
end
$function$;
revoke all on function public.levels_valid(jsonb) from public, anon, authenticated;

-- A list of daily goals: 1 to 30 objects {id, kind, target, bonus_coins} (and `network` for an
-- offer on one wall), ids distinct. Kinds: checkin (target 1), earn_coins (offer coins that clear
-- that day), complete_offer (offers credited that day), refer_verified (friends who joined with
-- the code that day and verified their email).
create function public.daily_goals_valid(p_value jsonb)
 returns boolean
 language plpgsql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_goal jsonb;
  v_ids text[] := '{}';
  v_kind text;
  v_target numeric;
  v_most numeric;
begin
  if jsonb_typeof(p_value) is distinct from 'array' or jsonb_array_length(p_value) not between 1 and 30 then
    return false;
  end if;
  for v_goal in select value from jsonb_array_elements(p_value) loop
    if jsonb_typeof(v_goal) <> 'object'
       or not v_goal ?& array['id', 'kind', 'target', 'bonus_coins']
       or exists (select from jsonb_object_keys(v_goal) k where k not in ('id', 'kind', 'target', 'bonus_coins', 'network'))
       or jsonb_typeof(v_goal -> 'id') <> 'string' or jsonb_typeof(v_goal -> 'kind') <> 'string'
       or jsonb_typeof(v_goal -> 'target') <> 'number' or jsonb_typeof(v_goal -> 'bonus_coins') <> 'number' then
      return false;
    end if;
    v_kind := v_goal ->> 'kind';
    v_target := (v_goal ->> 'target')::numeric;
    -- A check-in is once a day; coins up to a million; offers and friends up to 20.
    v_most := case v_kind when 'checkin' then 1 when 'earn_coins' then 1000000 else 20 end;
    if (v_goal ->> 'id') !~ '^[a-z0-9-]{1,32}$' or (v_goal ->> 'id') = any (v_ids)
       or v_kind not in ('checkin', 'earn_coins', 'complete_offer', 'refer_verified')
       or v_target <> trunc(v_target)
       or v_target not between 1 and v_most
       or (v_goal ->> 'bonus_coins')::numeric <> trunc((v_goal ->> 'bonus_coins')::numeric)
       or (v_goal ->> 'bonus_coins')::numeric not between 1 and 100000 then
      return false;
    end if;
    if v_goal ? 'network' and (v_kind <> 'complete_offer' or jsonb_typeof(v_goal -> 'network') <> 'string'
                               or (v_goal ->> 'network') !~ '^[a-z0-9-]{2,40}$') then
      return false;
    end if;
    v_ids := v_ids || (v_goal ->> 'id');
  end loop;
  return true;
end
$function$;
revoke all on function public.daily_goals_valid(jsonb) from public, anon, authenticated;

alter table public.app_config
  add column levels jsonb not null default '[
      {"name": "Bronze", "xp": 0, "bonus_coins": 0, "checkin_percent": 0, "rebate_percent": 0},
      {"name": "Silver", "xp": 500, "bonus_coins": 25, "checkin_percent": 10, "rebate_percent": 0},
      {"name": "Gold", "xp": 2000, "bonus_coins": 75, "checkin_percent": 25, "rebate_percent": 0.5},
      {"name": "Platinum", "xp": 5000, "bonus_coins": 150, "checkin_percent": 50, "rebate_percent": 1},
      {"name": "Diamond", "xp": 15000, "bonus_coins": 400, "checkin_percent": 100, "rebate_percent": 2}]'
    constraint app_config_levels_check check (levels_valid(levels)),
  add column levels_on boolean not null default true,
  add column levels_monthly_cap numeric(12,2) not null default 500
    constraint app_config_levels_monthly_cap_check check (levels_monthly_cap between 0 and 1000000),
  add column daily_goals jsonb not null default '[
      {"id": "check-in", "kind": "checkin", "target": 1, "bonus_coins": 5},
      {"id": "earn-100", "kind": "earn_coins", "target": 100, "bonus_coins": 10},
      {"id": "earn-500", "kind": "earn_coins", "target": 500, "bonus_coins": 30},
      {"id": "one-offer", "kind": "complete_offer", "target": 1, "bonus_coins": 10},
      {"id": "two-offers", "kind": "complete_offer", "target": 2, "bonus_coins": 20},
      {"id": "refer-friend", "kind": "refer_verified", "target": 1, "bonus_coins": 25}]'
    constraint app_config_daily_goals_check check (daily_goals_valid(daily_goals)),
  add column goals_on boolean not null default true,
  add column goals_monthly_cap numeric(12,2) not null default 1000
    constraint app_config_goals_monthly_cap_check check (goals_monthly_cap between 0 and 1000000);

-- Each payment of a loop: once per identity per reward (`level:silver`, `goal:2026-12-01:earn-100`,
-- `checkin:2026-12-01`, `rebate:<withdrawal>`), kept when the account is deleted so a new account
-- of the same person is not paid again.
create table public.loop_bonuses (
  id bigint generated always as identity primary key,
  loop text not null constraint loop_bonuses_loop_check check (loop in ('levels', 'goals')),
  identity_hash text not null references public.identities (identity_hash),
  reward text not null constraint loop_bonuses_reward_check check (reward ~ '^[a-z]+:[a-z0-9:-]{1,80}$'),
  user_id text references public.user_profiles (id) on delete set null,
  coins integer not null constraint loop_bonuses_coins_check check (coins > 0),
  amount numeric(12,2) not null constraint loop_bonuses_amount_check check (amount > 0),
  day date not null default (now() at time zone 'UTC')::date,
  paid_at timestamptz not null default now(),
  constraint loop_bonuses_once unique (loop, identity_hash, reward)
);
create index loop_bonuses_identity_day_idx on public.loop_bonuses (identity_hash, loop, day);
create index loop_bonuses_paid_idx on public.loop_bonuses (paid_at) include (loop, amount, user_id);
alter table public.loop_bonuses enable row level security;
revoke all on public.loop_bonuses from public, anon, authenticated;
create trigger loop_bonuses_never_emptied before truncate on public.loop_bonuses
  for each statement execute function refuse_truncate();

-- What each loop paid in a month: the row a payment locks, so racing payments queue and the cap holds.
create table public.loop_months (
  loop text not null constraint loop_months_loop_check check (loop in ('levels', 'goals')),
  month date not null constraint loop_months_month_check check (extract(day from month) = 1),
  paid numeric(12,2) not null default 0,
  -- When a payment was first refused for the cap: the loop says it stopped for the month.
  capped_at timestamptz,
  primary key (loop, month)
);
alter table public.loop_months enable row level security;
revoke all on public.loop_months from public, anon, authenticated;
create trigger loop_months_never_emptied before truncate on public.loop_months
  for each statement execute function refuse_truncate();

-- Pays `p_coins` of bonus money for one loop's reward, once per identity: {paid: true, ...ledger_move}
-- or {paid: false, refused: loop_off | loop_cap_reached | already_paid | no_identity}. Never raises
-- for those, so a check-in or a payout that carries a perk is not undone by it.
create function public.pay_loop_bonus(p_user_id text, p_loop text, p_reward text, p_coins integer, p_description text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_config app_config;
  v_identity text;
  v_amount numeric;
  v_month date := current_month();
  v_paid numeric;
begin
  select * into v_config from app_config;
  if (case p_loop when 'levels' then v_config.levels_on when 'goals' then v_config.goals_on end) is not true then
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
  if v_paid + v_amount > (case p_loop when 'levels' then v_config.levels_monthly_cap else v_config.goals_monthly_cap end) then
    update loop_months set capped_at = coalesce(capped_at, now()) where loop = p_loop and month = v_month;
    return jsonb_build_object('paid', false, 'refused', 'loop_cap_reached');
  end if;
  insert into loop_bonuses (loop, identity_hash, reward, user_id, coins, amount)
  values (p_loop, v_identity, p_reward, p_user_id, p_coins, v_amount);
  -- A payment that fits: the loop is not stopped (the cap was raised, or a smaller bonus fits).
  update loop_months set paid = paid + v_amount, capped_at = null where loop = p_loop and month = v_month;
  return ledger_move(p_user_id, 'bonus', p_coins, v_amount, p_description)
         || jsonb_build_object('paid', true, 'coins', p_coins, 'amount', v_amount);
end
$function$;
revoke all on function public.pay_loop_bonus(text, text, text, integer, text) from public, anon, authenticated;

-- XP: the account's cleared offer earnings in coins (earned money past its hold, net of reversals),
-- pending money counted as money_available counts it.
create function public.account_xp(p_user_id text)
 returns integer
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select greatest(0, floor((b.earned_total
                            - coalesce((select sum(due.amount)
                                          from (select sum(t.amount) as amount from transaction_history t
                                                 where t.user_id = p_user_id and t.kind = 'earned'
                                                   and t.available_at > now()
                                                 group by t.available_at
                                                having sum(t.amount) > 0) due), 0)) * c.coins_per_dollar))::integer
    from user_balance b cross join app_config c
   where b.user_id = p_user_id
$function$;
revoke all on function public.account_xp(text) from public, anon, authenticated;

-- The level `p_xp` reaches in `p_levels`, 1 for the first: {number, name, xp, bonus_coins, ...}.
create function public.level_for_xp(p_levels jsonb, p_xp integer)
 returns jsonb
 language sql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
  select l.value || jsonb_build_object('number', l.ordinality)
    from jsonb_array_elements(p_levels) with ordinality l
   where (l.value ->> 'xp')::numeric <= greatest(coalesce(p_xp, 0), 0)
   order by l.ordinality desc
   limit 1
$function$;
revoke all on function public.level_for_xp(jsonb, integer) from public, anon, authenticated;

-- The key a level's bonus is paid under: its name ("Rising Star" -> level:rising-star).
create function public.level_reward(p_name text)
 returns text
 language sql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
  select 'level:' || replace(lower(p_name), ' ', '-')
$function$;
revoke all on function public.level_reward(text) from public, anon, authenticated;

-- Today's goals (or a day's): three of the operator's list, the same for everyone that day.
create function public.goals_of_day(p_day date)
 returns setof jsonb
 language sql
 stable
 set search_path to 'public', 'pg_temp'
as $function$
  select g.value
    from jsonb_array_elements((select daily_goals from app_config)) g
   order by md5(p_day::text || ':' || (g.value ->> 'id'))
   limit 3
$function$;
revoke all on function public.goals_of_day(date) from public, anon, authenticated;

-- How far a person is with a goal on a UTC day, in the goal's unit (coins, offers, friends, check-ins).
create function public.goal_progress(p_user_id text, p_goal jsonb, p_day date)
 returns integer
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  with bounds as (
    select (p_day::timestamp at time zone 'UTC') as day_start, ((p_day + 1)::timestamp at time zone 'UTC') as day_end
  )
  select case p_goal ->> 'kind'
    when 'checkin' then
      (select count(*)::integer from daily_checkins where user_id = p_user_id and check_date = p_day)
    -- Offer money that cleared its hold that day (a reversal in its hold nets it out).
    when 'earn_coins' then
      (select greatest(0, floor(coalesce(sum(t.amount), 0) * (select coins_per_dollar from app_config)))::integer
         from transaction_history t, bounds
        where t.user_id = p_user_id and t.kind = 'earned'
          and t.available_at >= bounds.day_start and t.available_at < bounds.day_end and t.available_at <= now())
    -- Offers credited that day and not reversed, on the goal's wall when it names one.
    when 'complete_offer' then
      (select count(*)::integer
         from provider_postbacks c, bounds
        where c.user_id = p_user_id and c.kind = 'credit'
          and c.created_at >= bounds.day_start and c.created_at < bounds.day_end
          and (p_goal ->> 'network' is null or c.provider = p_goal ->> 'network')
          and not exists (select from provider_postbacks r
                           where r.provider = c.provider and r.transaction_id = c.transaction_id
                             and r.kind = 'reversal'))
    -- Friends who joined with the code that day and have verified their email.
    when 'refer_verified' then
      (select count(*)::integer
         from referrals r join user_profiles f on f.id = r.referred_user_id, bounds
        where r.referrer_user_id = p_user_id and r.created_at >= bounds.day_start and r.created_at < bounds.day_end
          and f.email_verified)
    else 0
  end
$function$;
revoke all on function public.goal_progress(text, jsonb, date) from public, anon, authenticated;

-- A goal in words, for its ledger row ("Daily goal: earn 100 coins from offers").
create function public.goal_words(p_goal jsonb)
 returns text
 language sql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
  select case p_goal ->> 'kind'
    when 'checkin' then 'check in'
    when 'earn_coins' then 'earn ' || (p_goal ->> 'target') || ' coins from offers'
    when 'complete_offer' then 'complete ' || case (p_goal ->> 'target') when '1' then 'an offer' else (p_goal ->> 'target') || ' offers' end
                               || coalesce(' on ' || (p_goal ->> 'network'), '')
    else 'refer ' || case (p_goal ->> 'target') when '1' then 'a friend who verifies' else (p_goal ->> 'target') || ' friends who verify' end
  end
$function$;
revoke all on function public.goal_words(jsonb) from public, anon, authenticated;

-- Days in a row, through today (or yesterday, while today's are not all claimed), on which the
-- person claimed every goal of the day.
create function public.goal_streak(p_identity text, p_today date)
 returns integer
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  with full_days as (
    select day from loop_bonuses
     where identity_hash = p_identity and loop = 'goals' and day > p_today - 400
     group by day
    having count(*) >= least(3, jsonb_array_length((select daily_goals from app_config)))
  ), through_today as (
    select day + (row_number() over (order by day desc))::integer as run_end from full_days where day <= p_today
  ), through_yesterday as (
    select day + (row_number() over (order by day desc))::integer as run_end from full_days where day < p_today
  )
  -- Each run counted over its own days: a gap yesterday ends the run, whatever came before it.
  select greatest(
    (select count(*) from through_today where run_end = p_today + 1),
    (select count(*) from through_yesterday where run_end = p_today))::integer
$function$;
revoke all on function public.goal_streak(text, date) from public, anon, authenticated;

-- Home's and the Levels page's one read: the level, its perks and the next, the bonuses waiting to be
-- claimed, today's goals with their progress, the streak, and whether each loop is on or has reached
-- its cap this month.
create function public.rewards_status(p_user_id text)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_config app_config;
  v_identity text;
  v_xp integer;
  v_today date := (now() at time zone 'UTC')::date;
begin
  select * into v_config from app_config;
  select identity_hash into v_identity from user_profiles where id = p_user_id;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  v_xp := coalesce(account_xp(p_user_id), 0);
  return jsonb_build_object(
    'xp', v_xp,
    'level', level_for_xp(v_config.levels, v_xp) -> 'number',
    'levels', v_config.levels,
    -- Levels reached whose bonus this identity was not paid yet.
    'unclaimed', (select coalesce(jsonb_agg(l.value ->> 'name' order by l.ordinality), '[]')
                    from jsonb_array_elements(v_config.levels) with ordinality l
                   where (l.value ->> 'xp')::numeric <= v_xp and (l.value ->> 'bonus_coins')::numeric > 0
                     and not exists (select from loop_bonuses b
                                      where b.loop = 'levels' and b.identity_hash = v_identity
                                        and b.reward = level_reward(l.value ->> 'name'))),
    'levels_on', v_config.levels_on,
    'levels_capped', exists (select from loop_months m where m.loop = 'levels' and m.month = current_month()
                                                        and m.capped_at is not null),
    'today', v_today,
    'goals', (select coalesce(jsonb_agg(g.goal || jsonb_build_object(
                       'progress', goal_progress(p_user_id, g.goal, v_today),
                       'claimed', exists (select from loop_bonuses b
                                           where b.loop = 'goals' and b.identity_hash = v_identity
                                             and b.reward = 'goal:' || v_today || ':' || (g.goal ->> 'id')))
                     order by g.n), '[]')
                from goals_of_day(v_today) with ordinality g(goal, n)),
    'goal_streak', coalesce(goal_streak(v_identity, v_today), 0),
    'goals_on', v_config.goals_on,
    'goals_capped', exists (select from loop_months m where m.loop = 'goals' and m.month = current_month()
                                                       and m.capped_at is not null));
end
$function$;
revoke all on function public.rewards_status(text) from public, anon, authenticated;
grant execute on function public.rewards_status(text) to service_role;

-- Pays the bonus of every level reached and not yet paid to this identity: {paid: true, coins,
-- levels: [names], balance}, or {paid: false, refused: rule key} (nothing raised, so a refusal for
-- the cap is kept: the loop says it stopped).
create function public.claim_level_bonuses(p_user_id text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_levels jsonb := (select levels from app_config);
  v_xp integer := coalesce(account_xp(p_user_id), 0);
  v_level jsonb;
  v_result jsonb;
  v_coins integer := 0;
  v_names jsonb := '[]';
  v_balance jsonb;
  v_refused text;
begin
  for v_level in
    select l.value from jsonb_array_elements(v_levels) with ordinality l
     where (l.value ->> 'xp')::numeric <= v_xp and (l.value ->> 'bonus_coins')::numeric > 0
     order by l.ordinality
  loop
    v_result := pay_loop_bonus(p_user_id, 'levels', level_reward(v_level ->> 'name'),
                               (v_level ->> 'bonus_coins')::integer, 'Level bonus: ' || (v_level ->> 'name'));
    if (v_result ->> 'paid')::boolean then
      v_coins := v_coins + (v_level ->> 'bonus_coins')::integer;
      v_names := v_names || to_jsonb(v_level ->> 'name');
      v_balance := v_result -> 'balance';
    elsif v_result ->> 'refused' <> 'already_paid' then
      v_refused := coalesce(v_refused, v_result ->> 'refused');
    end if;
  end loop;
  if v_coins = 0 then
    return jsonb_build_object('paid', false, 'refused', case v_refused
      when 'loop_off' then 'levels_off'
      when 'loop_cap_reached' then 'levels_cap_reached'
      when 'no_identity' then 'reward_needs_identity'
      else 'no_level_bonus' end);
  end if;
  return jsonb_build_object('paid', true, 'coins', v_coins, 'levels', v_names, 'balance', v_balance);
end
$function$;
revoke all on function public.claim_level_bonuses(text) from public, anon, authenticated;
grant execute on function public.claim_level_bonuses(text) to service_role;

-- Pays one of today's goals once it is reached, once per identity: {paid: true, coins, balance}
-- or {paid: false, refused: rule key}.
create function public.claim_daily_goal(p_user_id text, p_goal_id text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_today date := (now() at time zone 'UTC')::date;
  v_goal jsonb;
  v_result jsonb;
begin
  select g into v_goal from goals_of_day(v_today) g where g ->> 'id' = p_goal_id;
  if v_goal is null then
    return jsonb_build_object('paid', false, 'refused', 'goal_not_today');
  end if;
  if goal_progress(p_user_id, v_goal, v_today) < (v_goal ->> 'target')::integer then
    return jsonb_build_object('paid', false, 'refused', 'goal_not_done');
  end if;
  v_result := pay_loop_bonus(p_user_id, 'goals', 'goal:' || v_today || ':' || p_goal_id,
                             (v_goal ->> 'bonus_coins')::integer, 'Daily goal: ' || goal_words(v_goal));
  if not (v_result ->> 'paid')::boolean then
    return jsonb_build_object('paid', false, 'refused', case v_result ->> 'refused'
      when 'already_paid' then 'goal_already_claimed'
      when 'loop_off' then 'goals_off'
      when 'loop_cap_reached' then 'goals_cap_reached'
      when 'no_identity' then 'reward_needs_identity'
      else 'goal_not_done' end);
  end if;
  return jsonb_build_object('paid', true, 'coins', (v_goal ->> 'bonus_coins')::integer,
                            'balance', v_result -> 'balance');
end
$function$;
revoke all on function public.claim_daily_goal(text, text) from public, anon, authenticated;
grant execute on function public.claim_daily_goal(text, text) to service_role;

-- A level's cash-out rebate, paid as bonus money when a withdrawal is paid (whichever way it was
-- paid: by hand, PayPal, RazorpayX or Tremendous), once per withdrawal.
create function public.withdrawal_paid_rebate()
 returns trigger
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_level jsonb;
  v_coins integer;
begin
  if new.user_id is null then
    return null;
  end if;
  v_level := level_for_xp((select levels from app_config), account_xp(new.user_id));
  v_coins := floor(new.amount * (v_level ->> 'rebate_percent')::numeric / 100
                   * (select coins_per_dollar from app_config))::integer;
  if v_coins > 0 then
    perform pay_loop_bonus(new.user_id, 'levels', 'rebate:' || new.id, v_coins,
                           'Level perk: ' || (v_level ->> 'rebate_percent') || '% back on a cash-out ('
                           || (v_level ->> 'name') || ')');
  end if;
  return null;
end
$function$;
revoke all on function public.withdrawal_paid_rebate() from public, anon, authenticated;
create trigger withdrawals_paid_rebate after update of status on public.withdrawals
  for each row when (new.status = 'completed' and old.status is distinct from 'completed')
  execute function withdrawal_paid_rebate();

CREATE OR REPLACE FUNCTION public.daily_checkin(p_user_id text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_coins integer := (select checkin_coins from app_config);
  v_today date := (now() at time zone 'UTC')::date;
  -- Today's place in the week of the streak that yesterday's run continues.
  v_day integer := checkin_streak(p_user_id, v_today - 1) % 7 + 1;
  v_bonus integer := case when v_day = 7 then (select checkin_streak_bonus_coins from app_config) else 0 end;
  v_result jsonb;
  v_level jsonb := level_for_xp((select levels from app_config), account_xp(p_user_id));
  v_extra integer := floor(v_coins * (v_level ->> 'checkin_percent')::numeric / 100)::integer;
  v_perk jsonb;
  v_perk_coins integer := 0;
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
  -- The level's perk: a share more, as bonus money of the levels loop (its switch and cap apply).
  if v_extra > 0 then
    v_perk := pay_loop_bonus(p_user_id, 'levels', 'checkin:' || v_today, v_extra,
                             'Level perk: check-in +' || (v_level ->> 'checkin_percent') || '% (' || (v_level ->> 'name') || ')');
    if (v_perk ->> 'paid')::boolean then
      v_perk_coins := v_extra;
      v_result := v_result || jsonb_build_object('balance', v_perk -> 'balance');
    end if;
  end if;
  return v_result || jsonb_build_object('check_date', v_today, 'streak_day', v_day, 'bonus_coins', v_bonus,
                                        'perk_coins', v_perk_coins, 'level_name', v_level ->> 'name');
end
$function$;
;

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
       'levels', 'levels_on', 'levels_monthly_cap', 'daily_goals', 'goals_on', 'goals_monthly_cap']) then
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
  if p_name in ('referral_requires_earned', 'review_first_withdrawal', 'signin_code_default', 'withdrawal_codes',
                'levels_on', 'goals_on') then
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
  end;
end
$function$;
;

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
    -- Any change of a list can pay more (a bonus raised, a threshold lowered, an easier goal).
    when 'levels' then p_after is distinct from p_before
    when 'daily_goals' then p_after is distinct from p_before
    else false
  end
$function$;
;

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
         -- An owner's rate is the one the rates endpoint stays near (record_inr_rate).
         usd_inr_rate_anchor = case when p_patch ? 'usd_inr_rate' then v_after.usd_inr_rate
                                    else v_after.usd_inr_rate_anchor end
   where id
  returning * into v_after;
  -- A cap changed: its loop is not stopped for the month until a payment is refused again.
  update loop_months set capped_at = null
   where month = current_month() and capped_at is not null
     and ((loop = 'levels' and v_after.levels_monthly_cap <> v_before.levels_monthly_cap)
          or (loop = 'goals' and v_after.goals_monthly_cap <> v_before.goals_monthly_cap));
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
$function$;
;
