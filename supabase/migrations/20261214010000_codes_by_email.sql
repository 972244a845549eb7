-- Redefines: public.app_setting_valid, public.apply_app_config_patch, public.setting_loosens, public.apply_demo_settings, public.apply_production_settings
--
-- Codes by email (issue 38, point 1; docs/decisions/092): six digits sent to the account's address,
-- valid 10 minutes, kept only as a keyed hash (the server's key; a copy of the database cannot try
-- the million codes), 5 tries and then a new code, at most 5 codes an hour per account (counted
-- here, so two servers share the count). Asked at a sign-in from a device the account has not used
-- (unless the person turned it off; the setting signin_code_default says what a person who never
-- chose gets), before a withdrawal to an address no code confirmed, from a device no code confirmed,
-- or when the last code is older than withdrawal_code_days, and before deleting the account or
-- turning the sign-in code off.

create table public.email_codes (
  id bigint generated always as identity primary key,
  user_id text not null references public.user_profiles (id) on delete cascade,
  purpose text not null check (purpose in ('signin', 'withdrawal', 'delete_account', 'signin_code_off')),
  -- The keyed hash of the browser's half (a random token in a cookie): the code works only there.
  challenge_hash text not null unique check (challenge_hash ~ '^[0-9a-f]{64}$'),
  -- The keyed hash of the six digits, bound to the challenge.
  code_hash text not null check (code_hash ~ '^[0-9a-f]{64}$'),
  -- The device it was asked from (the keyed hash of its first-party id), when it has one.
  device_hash text check (device_hash ~ '^[0-9a-f]{64}$'),
  -- A withdrawal's code confirms one payout address (the keyed hash the withdrawal keeps).
  recipient_hash text check (recipient_hash ~ '^[0-9a-f]{64}$'),
  tries integer not null default 0 check (tries between 0 and 5),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  passed_at timestamptz,
  -- Replaced by a newer code, or ended from the email's link.
  cancelled_at timestamptz
);
create index email_codes_user_idx on public.email_codes (user_id, created_at desc);
create index email_codes_passed_idx on public.email_codes (user_id, passed_at desc) where passed_at is not null;
alter table public.email_codes enable row level security;
revoke all on public.email_codes from public, anon, authenticated;

-- The person's own choice for the sign-in code; null: the setting signin_code_default.
alter table public.user_profiles add column signin_code boolean;

alter table public.app_config
  add column signin_code_default boolean not null default true,
  -- Withdrawals ask a code (off in the demo settings only).
  add column withdrawal_codes boolean not null default true,
  -- ... and ask again when the last code passed is older than this many days.
  add column withdrawal_code_days integer not null default 30 constraint app_config_withdrawal_code_days_check
    check (withdrawal_code_days between 1 and 365);

-- A new code for `p_purpose`: the account's earlier open codes for it end, the hourly allowance is
-- counted, and the address to send it to is returned (null when the account has none).
create function public.start_email_code(p_user_id text, p_purpose text, p_challenge_hash text, p_code_hash text,
                                        p_device_hash text, p_recipient_hash text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  c_codes_per_hour constant integer := 5;
  v_profile user_profiles;
  v_limit jsonb;
  v_code email_codes;
begin
  -- One code at a time per account (the earlier one ends as this one starts); no key update, so
  -- the money functions' key-share locks on the profile never wait for a code.
  select * into v_profile from user_profiles where id = p_user_id for no key update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  if v_profile.banned_at is not null then
    raise exception 'Account closed' using errcode = 'P0001', hint = 'account_banned';
  end if;
  if v_profile.email is null then
    raise exception 'The account has no email address' using errcode = 'P0001', hint = 'email_code_no_address';
  end if;
  v_limit := hit_rate_limit('email_code:' || p_user_id, c_codes_per_hour, 3600, true);
  if not (v_limit ->> 'allowed')::boolean then
    raise exception 'Too many codes' using errcode = 'P0001', hint = 'email_code_rate_limited',
      detail = v_limit ->> 'retry_after_seconds';
  end if;
  update email_codes set cancelled_at = now()
   where user_id = p_user_id and purpose = p_purpose and passed_at is null and cancelled_at is null;
  insert into email_codes (user_id, purpose, challenge_hash, code_hash, device_hash, recipient_hash, expires_at)
  values (p_user_id, p_purpose, p_challenge_hash, p_code_hash, p_device_hash, p_recipient_hash,
          now() + interval '10 minutes')
  returning * into v_code;
  return jsonb_build_object('id', v_code.id, 'email', v_profile.email, 'expires_at', v_code.expires_at);
end
$function$;
revoke all on function public.start_email_code(text, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.start_email_code(text, text, text, text, text, text) to service_role;

-- The code typed for the challenge: passed (once), wrong (a try used), locked (5 wrong: a new code
-- is needed) or expired (none, ended, used or older than 10 minutes, or a withdrawal's code for
-- another payout address than `p_recipient_hash`). Answers rather than raises, so a wrong try is counted.
create function public.check_email_code(p_challenge_hash text, p_purpose text, p_code_hash text,
                                        p_recipient_hash text default null)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  c_tries constant integer := 5;
  v_code email_codes;
begin
  select * into v_code from email_codes where challenge_hash = p_challenge_hash and purpose = p_purpose for update;
  if not found or v_code.passed_at is not null or v_code.cancelled_at is not null or v_code.expires_at <= now()
     or v_code.recipient_hash is distinct from p_recipient_hash then
    return jsonb_build_object('outcome', 'expired');
  end if;
  if v_code.tries >= c_tries then
    return jsonb_build_object('outcome', 'locked');
  end if;
  if v_code.code_hash = p_code_hash then
    update email_codes set passed_at = now() where id = v_code.id;
    return jsonb_build_object('outcome', 'passed', 'id', v_code.id, 'user_id', v_code.user_id,
                              'recipient_hash', v_code.recipient_hash);
  end if;
  update email_codes set tries = tries + 1 where id = v_code.id returning * into v_code;
  return jsonb_build_object('outcome', case when v_code.tries >= c_tries then 'locked' else 'wrong' end,
                            'tries_left', c_tries - v_code.tries);
end
$function$;
revoke all on function public.check_email_code(text, text, text, text) from public, anon, authenticated;
grant execute on function public.check_email_code(text, text, text, text) to service_role;

-- The open code of a challenge (not passed, ended or expired): whose it is and for what, or null.
create function public.email_code_challenge(p_challenge_hash text)
 returns jsonb
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select jsonb_build_object('id', c.id, 'user_id', c.user_id, 'purpose', c.purpose, 'email', p.email,
                            'device_hash', c.device_hash, 'recipient_hash', c.recipient_hash,
                            'locked', c.tries >= 5, 'expires_at', c.expires_at)
    from email_codes c join user_profiles p on p.id = c.user_id
   where c.challenge_hash = p_challenge_hash and c.passed_at is null and c.cancelled_at is null
     and c.expires_at > now()
$function$;
revoke all on function public.email_code_challenge(text) from public, anon, authenticated;
grant execute on function public.email_code_challenge(text) to service_role;

-- The email's "end every session" link names its code: whose account it is (null when there is none
-- or it is older than 7 days), and every open code of that account ends.
create function public.end_email_code_account(p_code_id bigint)
 returns text
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_user_id text;
begin
  select user_id into v_user_id from email_codes where id = p_code_id and created_at > now() - interval '7 days';
  if v_user_id is not null then
    update email_codes set cancelled_at = now()
     where user_id = v_user_id and passed_at is null and cancelled_at is null;
  end if;
  return v_user_id;
end
$function$;
revoke all on function public.end_email_code_account(bigint) from public, anon, authenticated;
grant execute on function public.end_email_code_account(bigint) to service_role;

-- Whether a sign-in from a new device asks a code: the person's choice, else the setting.
create function public.signin_code_on(p_user_id text)
 returns boolean
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select coalesce((select signin_code from user_profiles where id = p_user_id),
                  (select signin_code_default from app_config))
$function$;
revoke all on function public.signin_code_on(text) from public, anon, authenticated;
grant execute on function public.signin_code_on(text) to service_role;

-- Turning the sign-in code on, or (after a code, checked by the caller) off.
create function public.set_signin_code(p_user_id text, p_on boolean)
 returns void
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
begin
  if p_on is null then
    raise exception 'Choose on or off' using errcode = 'P0001', hint = 'invalid_choice';
  end if;
  -- Off only within 10 minutes of a code passed for it.
  if not p_on and not exists (select from email_codes where user_id = p_user_id and purpose = 'signin_code_off'
                                                        and passed_at > now() - interval '10 minutes') then
    raise exception 'A code is needed' using errcode = 'P0001', hint = 'email_code_required';
  end if;
  update user_profiles set signin_code = p_on, updated_at = now() where id = p_user_id;
end
$function$;
revoke all on function public.set_signin_code(text, boolean) from public, anon, authenticated;
grant execute on function public.set_signin_code(text, boolean) to service_role;

-- Why a withdrawal to `p_recipient_hash` from `p_device_hash` needs a code, or null: no code ever
-- confirmed that address, or that device (none: a browser without its first-party id is a new
-- device), or the last code passed is older than withdrawal_code_days.
create function public.withdrawal_code_needed(p_user_id text, p_device_hash text, p_recipient_hash text)
 returns text
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select case
    when not c.withdrawal_codes then null
    when p_recipient_hash is null or not exists (
           select from email_codes where user_id = p_user_id and purpose = 'withdrawal'
                                     and recipient_hash = p_recipient_hash and passed_at is not null) then 'new_address'
    when p_device_hash is null or not exists (
           select from email_codes where user_id = p_user_id and device_hash = p_device_hash
                                     and passed_at is not null) then 'new_device'
    when not exists (
           select from email_codes where user_id = p_user_id and passed_at is not null
                                     and passed_at > now() - make_interval(days => c.withdrawal_code_days)) then 'code_age'
  end
  from app_config c
$function$;
revoke all on function public.withdrawal_code_needed(text, text, text) from public, anon, authenticated;
grant execute on function public.withdrawal_code_needed(text, text, text) to service_role;

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
       'policy_change_delay_hours', 'adjustment_operator_limit', 'usd_inr_rate']) then
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
  if p_name in ('referral_requires_earned', 'review_first_withdrawal', 'signin_code_default', 'withdrawal_codes') then
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
  end;
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
         -- An owner's rate is the one the rates endpoint stays near (record_inr_rate).
         usd_inr_rate_anchor = case when p_patch ? 'usd_inr_rate' then v_after.usd_inr_rate
                                    else v_after.usd_inr_rate_anchor end
   where id
  returning * into v_after;
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
    else false
  end
$function$;

CREATE OR REPLACE FUNCTION public.apply_demo_settings()
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  update app_config set postback_hold_days = 0, provider_hold_days = '{}', bonus_unlock_ratio = null,
                        referral_requires_earned = false, review_first_withdrawal = false,
                        -- No codes by email: the demo sends no mail.
                        signin_code_default = false, withdrawal_codes = false;
$function$;

CREATE OR REPLACE FUNCTION public.apply_production_settings()
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  update app_config set postback_hold_days = default, provider_hold_days = default,
                        bonus_unlock_ratio = default, referral_requires_earned = default,
                        review_first_withdrawal = default, risk_review_threshold = default,
                        checkin_streak_bonus_coins = default, signin_code_default = default,
                        withdrawal_codes = default;
$function$;
