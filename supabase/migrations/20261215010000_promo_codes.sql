-- Redefines: public.pay_loop_bonus, public.app_setting_valid, public.apply_app_config_patch, public.setting_loosens
--
-- Promo codes (issue 39, point 4; docs/decisions/095): an operator (finance or owner) creates a code
-- in the console (coins, how many uses, when it starts and ends, new accounts only, countries),
-- audited; a person redeems it on Earn, once per identity, as bonus money of the `codes` loop (its
-- off switch and monthly cap, as levels and goals have). A refused code says why. Guessing is
-- limited per account (10 tries an hour, in SQL) and per client address (in the app, as sign-in).

alter table public.loop_bonuses drop constraint loop_bonuses_loop_check,
  add constraint loop_bonuses_loop_check check (loop in ('levels', 'goals', 'codes'));
alter table public.loop_months drop constraint loop_months_loop_check,
  add constraint loop_months_loop_check check (loop in ('levels', 'goals', 'codes'));

alter table public.app_config
  add column codes_on boolean not null default true,
  add column codes_monthly_cap numeric(12,2) not null default 500
    constraint app_config_codes_monthly_cap_check check (codes_monthly_cap between 0 and 1000000);

-- A list of countries a code is for: ISO 3166 two-letter codes, at most 50, none twice.
create function public.country_list_valid(p_countries text[])
 returns boolean
 language sql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
  select coalesce(cardinality(p_countries), 0) <= 50
     and not exists (select from unnest(p_countries) c where c is null or c !~ '^[A-Z]{2}$')
     and coalesce(cardinality(p_countries), 0) = (select count(distinct c) from unnest(p_countries) c)
$function$;
revoke all on function public.country_list_valid(text[]) from public, anon, authenticated;

create table public.promo_codes (
  id bigint generated always as identity primary key,
  -- As people type it, upper-cased: 4 to 20 letters and digits.
  code text not null constraint promo_codes_code_key unique
    constraint promo_codes_code_check check (code ~ '^[A-Z0-9]{4,20}$'),
  coins integer not null constraint promo_codes_coins_check check (coins between 1 and 100000),
  max_uses integer not null constraint promo_codes_max_uses_check check (max_uses between 1 and 1000000),
  uses integer not null default 0,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  -- Only accounts made after the code was created may redeem it.
  new_accounts_only boolean not null default false,
  -- Empty: every country; else only accounts whose network country (docs/decisions/091) is listed.
  countries text[] not null default '{}' constraint promo_codes_countries_check check (country_list_valid(countries)),
  created_by text not null,
  created_by_user_id text,
  created_at timestamptz not null default now(),
  disabled_at timestamptz,
  constraint promo_codes_uses_check check (uses between 0 and max_uses),
  constraint promo_codes_dates_check check (ends_at > starts_at)
);
alter table public.promo_codes enable row level security;
revoke all on public.promo_codes from public, anon, authenticated;
create trigger promo_codes_never_emptied before truncate on public.promo_codes
  for each statement execute function refuse_truncate();

create or replace function public.pay_loop_bonus(p_user_id text, p_loop text, p_reward text, p_coins integer, p_description text)
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
  return ledger_move(p_user_id, 'bonus', p_coins, v_amount, p_description)
         || jsonb_build_object('paid', true, 'coins', p_coins, 'amount', v_amount);
end
$function$;

-- A person redeems a code: {paid: true, coins, code, balance} or {paid: false, refused: rule key}
-- (and, for the rate limit, retry_after_seconds). Answered, not raised, so each try is counted.
create function public.redeem_promo_code(p_user_id text, p_code text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_limit jsonb;
  v_code promo_codes;
  v_profile user_profiles;
  v_result jsonb;
begin
  -- Ten tries an hour per account, counted before anything is looked up.
  v_limit := hit_rate_limit('promo-code:' || p_user_id, 10, 3600, true);
  if not (v_limit ->> 'allowed')::boolean then
    return jsonb_build_object('paid', false, 'refused', 'promo_code_rate_limited',
                              'retry_after_seconds', v_limit -> 'retry_after_seconds');
  end if;
  -- Locked: racing redemptions of the last use queue here, and only the uses left are paid.
  select * into v_code from promo_codes where code = upper(trim(p_code)) for update;
  if not found or v_code.disabled_at is not null then
    return jsonb_build_object('paid', false, 'refused', 'promo_code_unknown');
  end if;
  if now() < v_code.starts_at then
    return jsonb_build_object('paid', false, 'refused', 'promo_code_not_started');
  end if;
  if now() >= v_code.ends_at then
    return jsonb_build_object('paid', false, 'refused', 'promo_code_ended');
  end if;
  if v_code.uses >= v_code.max_uses then
    return jsonb_build_object('paid', false, 'refused', 'promo_code_used_up');
  end if;
  select * into v_profile from user_profiles where id = p_user_id;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- The operator who made a code cannot pay it to themselves.
  if v_code.created_by_user_id = p_user_id then
    return jsonb_build_object('paid', false, 'refused', 'promo_code_own');
  end if;
  if v_code.new_accounts_only and v_profile.created_at < v_code.created_at then
    return jsonb_build_object('paid', false, 'refused', 'promo_code_new_accounts');
  end if;
  -- Fail closed: with countries listed, an account whose country is unknown is not paid.
  if cardinality(v_code.countries) > 0
     and (v_profile.network_country is null or not v_profile.network_country = any (v_code.countries)) then
    return jsonb_build_object('paid', false, 'refused', 'promo_code_country');
  end if;
  v_result := pay_loop_bonus(p_user_id, 'codes', 'code:' || v_code.id, v_code.coins, 'Promo code ' || v_code.code);
  if not (v_result ->> 'paid')::boolean then
    return jsonb_build_object('paid', false, 'refused', case v_result ->> 'refused'
      when 'already_paid' then 'promo_code_redeemed'
      when 'loop_off' then 'codes_off'
      when 'loop_cap_reached' then 'codes_cap_reached'
      when 'no_identity' then 'reward_needs_identity'
      else 'promo_code_unknown' end);
  end if;
  update promo_codes set uses = uses + 1 where id = v_code.id;
  return jsonb_build_object('paid', true, 'coins', v_code.coins, 'code', v_code.code, 'balance', v_result -> 'balance');
end
$function$;
revoke all on function public.redeem_promo_code(text, text) from public, anon, authenticated;
grant execute on function public.redeem_promo_code(text, text) to service_role;

-- The console's codes, newest first, with what each paid.
create function public.operator_promo_codes(p_operator_id text)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
begin
  perform require_operator_role(p_operator_id, array['support']);
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', c.id, 'code', c.code, 'coins', c.coins, 'max_uses', c.max_uses, 'uses', c.uses,
             'starts_at', c.starts_at, 'ends_at', c.ends_at, 'new_accounts_only', c.new_accounts_only,
             'countries', to_jsonb(c.countries), 'created_by', c.created_by, 'created_at', c.created_at,
             'disabled_at', c.disabled_at,
             'paid', (select coalesce(sum(b.amount), 0) from loop_bonuses b
                       where b.loop = 'codes' and b.reward = 'code:' || c.id))
           order by c.created_at desc, c.id desc)
      from (select * from promo_codes order by created_at desc, id desc limit 200) c), '[]');
end
$function$;
revoke all on function public.operator_promo_codes(text) from public, anon, authenticated;
grant execute on function public.operator_promo_codes(text) to service_role;

-- A code made by an operator of finance or owner, audited; a code already used refused.
create function public.operator_create_promo_code(p_operator_id text, p_actor text, p_code text, p_coins integer,
                                                  p_max_uses integer, p_starts_at timestamptz, p_ends_at timestamptz,
                                                  p_new_accounts_only boolean, p_countries jsonb, p_reason text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_actor text := operator_actor(p_actor);
  v_reason text := operator_reason(p_reason);
  v_code promo_codes;
  v_countries text[];
begin
  perform require_operator_role(p_operator_id, array['finance']);
  -- The countries as a JSON list of strings (the app sends lists as JSON).
  if p_countries is not null and (jsonb_typeof(p_countries) <> 'array'
     or exists (select from jsonb_array_elements(p_countries) c where jsonb_typeof(c) <> 'string')) then
    raise exception 'Invalid promo code settings' using errcode = 'P0001', hint = 'invalid_promo_code_terms';
  end if;
  v_countries := coalesce(array(select jsonb_array_elements_text(p_countries)), '{}');
  if p_code is null or upper(trim(p_code)) !~ '^[A-Z0-9]{4,20}$' then
    raise exception 'Invalid promo code' using errcode = 'P0001', hint = 'invalid_promo_code';
  end if;
  if p_coins is null or p_coins not between 1 and 100000 or p_max_uses is null or p_max_uses not between 1 and 1000000
     or p_starts_at is null or p_ends_at is null or p_ends_at <= p_starts_at or p_ends_at <= now()
     or not country_list_valid(v_countries) then
    raise exception 'Invalid promo code settings' using errcode = 'P0001', hint = 'invalid_promo_code_terms';
  end if;
  if exists (select from promo_codes where code = upper(trim(p_code))) then
    raise exception 'Promo code taken' using errcode = 'P0001', hint = 'promo_code_taken';
  end if;
  insert into promo_codes (code, coins, max_uses, starts_at, ends_at, new_accounts_only, countries, created_by,
                           created_by_user_id)
  values (upper(trim(p_code)), p_coins, p_max_uses, p_starts_at, p_ends_at, coalesce(p_new_accounts_only, false),
          v_countries, v_actor, p_operator_id)
  returning * into v_code;
  insert into operator_actions (actor, actor_user_id, action, reason, record_kind, record_id, after)
  values (v_actor, p_operator_id, 'create_promo_code', v_reason, 'promo_code', v_code.id::text,
          jsonb_build_object('code', v_code.code, 'coins', v_code.coins, 'max_uses', v_code.max_uses,
                             'starts_at', v_code.starts_at, 'ends_at', v_code.ends_at,
                             'new_accounts_only', v_code.new_accounts_only, 'countries', to_jsonb(v_code.countries)));
  return jsonb_build_object('id', v_code.id, 'code', v_code.code);
end
$function$;
revoke all on function public.operator_create_promo_code(text, text, text, integer, integer, timestamptz, timestamptz, boolean, jsonb, text) from public, anon, authenticated;
grant execute on function public.operator_create_promo_code(text, text, text, integer, integer, timestamptz, timestamptz, boolean, jsonb, text) to service_role;

-- Ends a code now (finance or owner), audited; what it paid stays paid.
create function public.operator_disable_promo_code(p_operator_id text, p_actor text, p_code_id bigint, p_reason text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_actor text := operator_actor(p_actor);
  v_reason text := operator_reason(p_reason);
  v_code promo_codes;
begin
  perform require_operator_role(p_operator_id, array['finance']);
  select * into v_code from promo_codes where id = p_code_id for update;
  if not found then
    raise exception 'Promo code not found' using errcode = 'P0001', hint = 'promo_code_not_found';
  end if;
  if v_code.disabled_at is not null then
    return jsonb_build_object('changed', false);
  end if;
  update promo_codes set disabled_at = now() where id = p_code_id;
  insert into operator_actions (actor, actor_user_id, action, reason, record_kind, record_id, before, after)
  values (v_actor, p_operator_id, 'disable_promo_code', v_reason, 'promo_code', p_code_id::text,
          jsonb_build_object('disabled', false), jsonb_build_object('disabled', true, 'code', v_code.code));
  return jsonb_build_object('changed', true);
end
$function$;
revoke all on function public.operator_disable_promo_code(text, text, bigint, text) from public, anon, authenticated;
grant execute on function public.operator_disable_promo_code(text, text, bigint, text) to service_role;

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
       'codes_on', 'codes_monthly_cap']) then
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
                'levels_on', 'goals_on', 'codes_on') then
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
  end;
end
$function$;

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
    -- Any change of a list can pay more (a bonus raised, a threshold lowered, an easier goal).
    when 'levels' then p_after is distinct from p_before
    when 'daily_goals' then p_after is distinct from p_before
    else false
  end
$function$;

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
          or (loop = 'codes' and v_after.codes_monthly_cap <> v_before.codes_monthly_cap));
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
