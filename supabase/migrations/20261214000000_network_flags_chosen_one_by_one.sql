-- Redefines: public.app_setting_valid, public.apply_app_config_patch, public.setting_loosens, public.withdrawal_risk, public.create_withdrawal, public.take_postback
--
-- Network flags chosen one by one (issue 38, point 3; docs/decisions/091): the owner sets, in
-- Settings, which of the provider's flags (vpn, proxy, tor, relay, hosting) send a cash-out to
-- review (network_review_flags, replacing the yes-or-no network_flags_review) and which pause an
-- account's earning (network_pause_flags): while the account's latest network signal carries one,
-- each offer credit waits in held_postbacks for an operator (approved or rejected from the console,
-- as a credit whose signature was seen before). Removing a flag from either list loosens a money
-- rule: it waits for a second owner.

-- The flags a setting may list: a JSON array of distinct names among the provider's five.
create function public.network_flag_list_valid(p_value jsonb)
 returns boolean
 language sql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
  select jsonb_typeof(p_value) = 'array'
     and not exists (select from jsonb_array_elements(p_value) f
                      where jsonb_typeof(f) <> 'string' or f #>> '{}' not in ('vpn', 'proxy', 'tor', 'relay', 'hosting'))
     and jsonb_array_length(p_value) = (select count(distinct f) from jsonb_array_elements_text(p_value) f)
$function$;
revoke all on function public.network_flag_list_valid(jsonb) from public, anon, authenticated;

alter table public.app_config
  add column network_review_flags jsonb not null default '[]' constraint app_config_network_review_flags_check
    check (network_flag_list_valid(network_review_flags)),
  add column network_pause_flags jsonb not null default '[]' constraint app_config_network_pause_flags_check
    check (network_flag_list_valid(network_pause_flags));
-- What the yes-or-no setting meant: a VPN, a proxy or Tor.
update public.app_config set network_review_flags = '["vpn", "proxy", "tor"]' where network_flags_review;
-- A change waiting for a second owner names the setting by its new name and value.
update public.setting_changes
   set settings = settings - 'network_flags_review'
                  || jsonb_build_object('network_review_flags',
                       case when (settings ->> 'network_flags_review')::boolean then '["vpn", "proxy", "tor"]'::jsonb
                            else '[]'::jsonb end),
       before = before - 'network_flags_review'
                || jsonb_build_object('network_review_flags',
                     case when (before ->> 'network_flags_review')::boolean then '["vpn", "proxy", "tor"]'::jsonb
                          else '[]'::jsonb end)
 where state = 'waiting' and settings ? 'network_flags_review';
alter table public.app_config drop column network_flags_review;

-- The words of an account's latest signal when it carries one of the flags that pause earning, else null.
create function public.network_pause_reason(p_user_id text)
 returns text
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select 'earned while the account''s network is flagged: '
         || string_agg(case f when 'vpn' then 'VPN' when 'proxy' then 'proxy' when 'tor' then 'Tor'
                              when 'relay' then 'private relay' else 'data centre' end, ', ' order by f)
         || coalesce(' (' || max(p.network_signal ->> 'service') || ')', '')
    from user_profiles p
    cross join jsonb_array_elements_text((select network_pause_flags from app_config)) f
   where p.id = p_user_id and (p.network_signal ->> f)::boolean
$function$;
revoke all on function public.network_pause_reason(text) from public, anon, authenticated;
grant execute on function public.network_pause_reason(text) to service_role;

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
  if p_name in ('referral_requires_earned', 'review_first_withdrawal') then
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

CREATE OR REPLACE FUNCTION public.withdrawal_risk(p_user_id text, p_recipient_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  c_linked_limit constant integer := 20;
  v_profile user_profiles;
  v_balance user_balance;
  v_reasons jsonb := '[]';
  v_linked text[] := '{}';
  v_accounts text[];
  v_age interval;
  v_recent numeric;
  v_reversed numeric;
  v_earned numeric;
  v_last_paid withdrawals;
begin
  select * into v_profile from user_profiles where id = p_user_id;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  select * into v_balance from user_balance where user_id = p_user_id;

  v_age := now() - v_profile.created_at;
  if v_age < interval '1 hour' then
    v_reasons := v_reasons || risk_reason('new_account', 20, 'account made less than an hour ago');
  elsif v_age < interval '1 day' then
    v_reasons := v_reasons || risk_reason('new_account', 20,
      format('account made %s hours ago', floor(extract(epoch from v_age) / 3600)));
  elsif v_age < interval '7 days' then
    v_reasons := v_reasons || risk_reason('new_account', 10,
      format('account made %s days ago', floor(extract(epoch from v_age) / 86400)));
  end if;

  if not v_profile.email_verified then
    v_reasons := v_reasons || risk_reason('email_unverified', 30, 'email address not verified');
  end if;

  -- The same canonical email before: an account that was deleted (its rewards stay recorded
  -- against the identity), or an identity older than this account.
  if v_profile.identity_hash is not null then
    select array_agg(distinct r.user_id) into v_accounts
      from identity_rewards r
     where r.identity_hash = v_profile.identity_hash and r.user_id <> p_user_id;
    if v_accounts is not null or exists (
         select from identities i
          where i.identity_hash = v_profile.identity_hash and i.created_at < v_profile.created_at) then
      v_reasons := v_reasons || risk_reason('same_email', 25,
        'the same email address (or an alias of it) had an account before', v_accounts);
      v_linked := v_linked || coalesce(v_accounts, '{}');
    end if;
  end if;

  -- Other accounts, live or deleted, that asked for money to this address.
  if p_recipient_hash is not null then
    select array_agg(distinct coalesce(o.user_id, 'a deleted account')) into v_accounts
      from (select user_id from withdrawals
             where recipient_hash = p_recipient_hash and user_id is distinct from p_user_id
             limit c_linked_limit) o;
    if v_accounts is not null then
      v_reasons := v_reasons || risk_reason('same_payout_address', 40,
        format('payout address used by %s other account(s)', cardinality(v_accounts)), v_accounts);
      v_linked := v_linked || v_accounts;
    end if;
  end if;

  -- Other accounts seen on this account's devices (first-party cookie) and address ranges.
  select array_agg(distinct o.user_id) into v_accounts
    from (select hash from account_signals
           where user_id = p_user_id and kind = 'device'
           order by last_seen_at desc limit c_linked_limit) mine
    cross join lateral (select user_id from account_signals o
                         where o.kind = 'device' and o.hash = mine.hash and o.user_id <> p_user_id
                         limit c_linked_limit) o;
  if v_accounts is not null then
    v_reasons := v_reasons || risk_reason('same_device', 30,
      format('signed in on the same device as %s other account(s)', cardinality(v_accounts)), v_accounts);
    v_linked := v_linked || v_accounts;
  end if;
  select array_agg(distinct o.user_id) into v_accounts
    from (select hash from account_signals
           where user_id = p_user_id and kind = 'address'
           order by last_seen_at desc limit c_linked_limit) mine
    cross join lateral (select user_id from account_signals o
                         where o.kind = 'address' and o.hash = mine.hash and o.user_id <> p_user_id
                         limit c_linked_limit) o;
  if v_accounts is not null then
    v_reasons := v_reasons || risk_reason('same_address_range', 10,
      format('signed in from the same network as %s other account(s)', cardinality(v_accounts)), v_accounts);
    v_linked := v_linked || v_accounts;
  end if;

  -- A referral between this account and one it shares a signal with: one person referring themself.
  if cardinality(v_linked) > 0 then
    select array_agg(distinct other) into v_accounts
      -- Each linked account's own referrer, from the unique index: reading this account's referrals
      -- instead costs a big referrer tens of milliseconds (scripts/bench/risk.mjs).
      from (select l.id as other from unnest(v_linked) l(id)
             where (select r.referrer_user_id from referrals r where r.referred_user_id = l.id) = p_user_id
            union
            select r.referrer_user_id from referrals r
             where r.referred_user_id = p_user_id and r.referrer_user_id = any(v_linked)) links;
    if v_accounts is not null then
      v_reasons := v_reasons || risk_reason('referral_between_linked', 20,
        'referred, or was referred by, an account it shares a signal with', v_accounts);
    end if;
  end if;

  -- More earned in the last day than in the whole account's life before it.
  select coalesce(sum(amount), 0) into v_recent
    from transaction_history
   where user_id = p_user_id and created_at > now() - interval '24 hours'
     and amount > 0 and transaction_type <> 'withdrawal';
  if v_recent >= 5 and v_recent > coalesce(v_balance.total_earned, 0) - v_recent then
    v_reasons := v_reasons || risk_reason('earnings_burst', 15,
      format('$%s earned in the last 24 hours, $%s before', to_char(v_recent, 'FM999999990.00'),
             to_char(greatest(coalesce(v_balance.total_earned, 0) - v_recent, 0), 'FM999999990.00')));
  end if;

  -- Offers taken back by their network, and their share of what offers paid.
  select coalesce(sum(-amount), 0) into v_reversed
    from provider_postbacks where user_id = p_user_id and kind = 'reversal';
  if v_reversed > 0 then
    v_earned := coalesce(v_balance.earned_total, 0) + v_reversed;
    v_reasons := v_reasons || risk_reason('reversals',
      case when v_reversed >= 0.25 * v_earned then 30 else 10 end,
      format('$%s of offer earnings reversed (%s%%)', to_char(v_reversed, 'FM999999990.00'),
             round(100 * v_reversed / nullif(v_earned, 0))));
  end if;

  -- Owed from an earlier account of the same identity (a network took back what it was paid for).
  if v_balance.carried_debt_total > 0 then
    v_reasons := v_reasons || risk_reason('earlier_account_debt', 30,
      case when v_balance.carried_debt > 0
           then format('owes $%s from an earlier account', to_char(v_balance.carried_debt, 'FM999999990.00'))
           else format('owed $%s from an earlier account, paid from this one''s earnings',
                       to_char(v_balance.carried_debt_total, 'FM999999990.00')) end);
  end if;

  if v_balance.was_negative_at is not null then
    v_reasons := v_reasons || risk_reason('was_negative', 20,
      format('balance went below zero on %s', to_char(v_balance.was_negative_at, 'YYYY-MM-DD')));
  end if;

  -- Paid before: to another address?
  select * into v_last_paid from withdrawals
   where user_id = p_user_id and status = 'completed'
   order by created_at desc limit 1;
  if found and v_last_paid.recipient_hash is not null
     and v_last_paid.recipient_hash is distinct from p_recipient_hash then
    v_reasons := v_reasons || risk_reason('payout_address_changed', 15,
      format('payout address differs from the one paid on %s', to_char(v_last_paid.settled_at, 'YYYY-MM-DD')));
  end if;

  -- The network the request came from (docs/decisions/091), as the provider saw it just before
  -- (no answer is no signal). A relay (iCloud Private Relay) hides the address but not the person.
  if v_profile.network_signal ->> 'context' = 'withdrawal' and v_profile.network_signal_at > now() - interval '10 minutes' then
    if (v_profile.network_signal ->> 'tor')::boolean then
      v_reasons := v_reasons || risk_reason('network_tor', 40, 'withdrawal asked for through Tor');
    end if;
    if (v_profile.network_signal ->> 'vpn')::boolean then
      v_reasons := v_reasons || risk_reason('network_vpn', 25,
        'withdrawal from a VPN' || coalesce(' (' || (v_profile.network_signal ->> 'service') || ')', ''));
    end if;
    if (v_profile.network_signal ->> 'proxy')::boolean then
      v_reasons := v_reasons || risk_reason('network_proxy', 25,
        'withdrawal through a proxy' || coalesce(' (' || (v_profile.network_signal ->> 'service') || ')', ''));
    end if;
    if (v_profile.network_signal ->> 'hosting')::boolean then
      v_reasons := v_reasons || risk_reason('network_hosting', 15, 'withdrawal from a data centre address');
    end if;
  end if;

  return jsonb_build_object(
    'score', least(100, (select coalesce(sum((reason ->> 'points')::integer), 0)
                           from jsonb_array_elements(v_reasons) reason)),
    'reasons', v_reasons,
    -- The provider's flags on the request itself (the setting network_review_flags sends them to review).
    'network_flags', case when v_profile.network_signal ->> 'context' = 'withdrawal'
                               and v_profile.network_signal_at > now() - interval '10 minutes'
                          then (select coalesce(jsonb_agg(flag), '[]') from unnest(array['vpn', 'proxy', 'tor', 'relay', 'hosting']) flag
                                 where (v_profile.network_signal ->> flag)::boolean)
                          else '[]' end,
    'linked_accounts', to_jsonb(array(select distinct unnest(v_linked))),
    'first_withdrawal', v_last_paid.id is null);
end
$function$;

CREATE OR REPLACE FUNCTION public.create_withdrawal(p_user_id text, amount_param numeric, payment_method_param text, recipient_email_param text DEFAULT NULL::text, recipient_upi_param text DEFAULT NULL::text, recipient_bank_details_param jsonb DEFAULT NULL::jsonb, p_recipient_hash text DEFAULT NULL::text, p_giftcard_product_id text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_config app_config;
  v_balance numeric;
  v_minimum numeric;
  v_label text;
  v_email text;
  v_upi text;
  v_details text;
  v_limit jsonb;
  v_verified boolean;
  v_banned boolean;
  v_paused boolean;
  v_risk jsonb;
  v_review boolean;
  v_withdrawal withdrawals;
  v_rate numeric;
  v_account_email text;
  v_card giftcard_products;
  v_card_value numeric;
begin
  -- The profile is held (key share, as the withdrawal's foreign key would take it anyway) before
  -- the balance, the order delete_account locks them in: a deletion waits for a withdrawal being
  -- made, or the withdrawal finds the account gone. Taken the other way round, the two deadlocked.
  select email_verified, banned_at is not null, payouts_paused_at is not null, email
    into v_verified, v_banned, v_paused, v_account_email
    from user_profiles where id = p_user_id for key share;
  -- An operator closed the account, or paused its cash-outs while checking it (docs/decisions/068).
  if v_banned then
    raise exception 'Account closed' using errcode = 'P0001', hint = 'account_banned';
  end if;
  if v_paused then
    raise exception 'Cash-outs paused' using errcode = 'P0001', hint = 'payouts_paused';
  end if;
  if not coalesce(v_verified, false) then
    raise exception 'Email not verified' using errcode = 'P0001', hint = 'email_not_verified';
  end if;
  -- At most two decimals, and within numeric(12,2); anything else would be rounded or overflow.
  if amount_param is null or amount_param <= 0 or amount_param <> round(amount_param, 2)
     or amount_param >= 10000000000 then
    raise exception 'Please enter a valid amount' using errcode = 'P0001', hint = 'invalid_amount';
  end if;

  -- Serialises this user's balance changes until commit.
  select balance into v_balance from user_balance where user_id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- A reversal took back money already withdrawn: nothing leaves until earnings have paid it back.
  -- (Any amount exceeds a negative balance; this says why, and what happens next.)
  if v_balance < 0 then
    raise exception 'Your balance is negative' using errcode = 'P0001', hint = 'negative_balance';
  end if;
  -- Only cleared earned money and the bonus it has unlocked leave (docs/decisions/066).
  if amount_param > (money_available(p_user_id) ->> 'available')::numeric then
    raise exception 'Amount exceeds your available balance'
      using errcode = 'P0001', hint = 'amount_exceeds_balance';
  end if;

  select * into v_config from app_config;
  case payment_method_param
    when 'paypal' then v_minimum := v_config.min_withdrawal_paypal; v_label := 'PayPal';
    when 'upi'    then v_minimum := v_config.min_withdrawal_upi;    v_label := 'UPI';
    when 'bank'   then v_minimum := v_config.min_withdrawal_bank;   v_label := 'bank transfer';
    when 'giftcard' then v_minimum := v_config.min_withdrawal_giftcard; v_label := 'gift card';
    else raise exception 'Unsupported payment method'
           using errcode = 'P0001', hint = 'unsupported_payment_method';
  end case;
  if amount_param < v_minimum then
    raise exception 'Minimum withdrawal amount is $%', to_char(v_minimum, 'FM999999990.00')
      using errcode = 'P0001', hint = 'below_minimum',
            detail = to_char(v_minimum, 'FM999999990.00');
  end if;

  -- Only the chosen method's recipient is kept, trimmed; money sent to a typo is lost. Changed: a
  -- recipient with a hidden character (ESC, CR, a bidi override) is refused before its format is
  -- checked; the operator's terminal would obey it.
  if payment_method_param = 'paypal' then
    v_email := nullif(trim(recipient_email_param), '');
    if v_email is null then
      raise exception 'Please enter your PayPal email'
        using errcode = 'P0001', hint = 'paypal_email_required';
    end if;
    if has_hidden_characters(v_email) then
      raise exception 'Recipient contains hidden characters' using errcode = 'P0001', hint = 'recipient_hidden_characters';
    end if;
    -- Not in an address: whitespace, a second @, and the characters RFC 5322 keeps for quoting and
    -- structure (< > ( ) [ ] \ , ; : "), such as markup pasted into the field.
    if v_email !~ '^[^@[:space:]<>()[\]\\,;:"]{1,64}@[^@[:space:]<>()[\]\\,;:"]+\.[a-zA-Z]{2,}$'
       or length(v_email) > 254 then
      raise exception 'Invalid PayPal email' using errcode = 'P0001', hint = 'invalid_paypal_email';
    end if;
  elsif payment_method_param = 'upi' then
    v_upi := nullif(trim(recipient_upi_param), '');
    if v_upi is null then
      raise exception 'Please enter your UPI ID' using errcode = 'P0001', hint = 'upi_id_required';
    end if;
    if has_hidden_characters(v_upi) then
      raise exception 'Recipient contains hidden characters' using errcode = 'P0001', hint = 'recipient_hidden_characters';
    end if;
    -- name@bank, the name at most 256 characters (a regular expression counts to 255 at most).
    if v_upi !~ '^[a-zA-Z0-9._-]{2,}@[a-zA-Z]{2,64}$' or length(split_part(v_upi, '@', 1)) > 256 then
      raise exception 'Invalid UPI ID' using errcode = 'P0001', hint = 'invalid_upi_id';
    end if;
  elsif payment_method_param = 'giftcard' then
    -- The card from the catalogue as Tremendous last listed it; the browser only names it.
    select * into v_card from giftcard_products where id = p_giftcard_product_id and listed;
    if not found then
      raise exception 'Choose a gift card from the list' using errcode = 'P0001', hint = 'giftcard_not_offered';
    end if;
    -- Its value in its own money, fixed now: dollars as they are, rupees at the day's rate.
    if v_card.currency = 'INR' then
      v_rate := usd_inr_rate_now();
      if v_rate is null then
        raise exception 'Cards in rupees are not available right now' using errcode = 'P0001',
          hint = 'giftcard_rate_unavailable';
      end if;
      v_card_value := round(amount_param * v_rate, 2);
    else
      v_card_value := amount_param;
    end if;
    if not exists (select from jsonb_array_elements(v_card.skus) s
                    where v_card_value between (s ->> 'min')::numeric and (s ->> 'max')::numeric) then
      raise exception 'This card takes %', giftcard_amounts_text(v_card.currency, v_card.skus)
        using errcode = 'P0001', hint = 'giftcard_amount_not_offered',
              detail = giftcard_amounts_text(v_card.currency, v_card.skus);
    end if;
    v_email := nullif(trim(v_account_email), '');
    if v_email is null then
      raise exception 'Email not verified' using errcode = 'P0001', hint = 'email_not_verified';
    end if;
  else
    -- ->> gives null for a missing key or a non-object, so both count as blank. Bank details come
    -- from a textarea: its line breaks (CR LF) are kept, as LF.
    v_details := nullif(btrim(replace(recipient_bank_details_param ->> 'details', E'\r\n', E'\n'), E' \n'), '');
    if v_details is null then
      raise exception 'Please enter your bank account details'
        using errcode = 'P0001', hint = 'bank_details_required';
    end if;
    if has_hidden_characters(replace(v_details, E'\n', '')) then
      raise exception 'Recipient contains hidden characters' using errcode = 'P0001', hint = 'recipient_hidden_characters';
    end if;
    if length(v_details) > 1000 then
      raise exception 'Bank details too long' using errcode = 'P0001', hint = 'bank_details_too_long';
    end if;
  end if;

  -- Only a request that passes every rule counts against the hourly allowance, and it counts in
  -- this transaction: a request that fails later uncounts itself, and racing ones queue here.
  v_limit := hit_rate_limit('withdrawal:' || p_user_id, v_config.withdrawals_per_hour, 3600, true);
  if not (v_limit ->> 'allowed')::boolean then
    raise exception 'Too many withdrawal requests' using errcode = 'P0001', hint = 'withdrawal_rate_limited',
      detail = v_limit ->> 'retry_after_seconds';
  end if;

  update user_balance
     set balance = balance - amount_param, updated_at = now()
   where user_id = p_user_id;

  -- Scored as it is asked for, with the balance locked: a first cash-out and a risky one wait for
  -- an operator; the rest are approved at once (docs/decisions/068).
  v_risk := withdrawal_risk(p_user_id, nullif(trim(p_recipient_hash), ''));
  v_review := (v_risk ->> 'score')::integer >= v_config.risk_review_threshold
              or (v_config.review_first_withdrawal and (v_risk ->> 'first_withdrawal')::boolean)
              or (v_risk -> 'network_flags') ?| array(select jsonb_array_elements_text(v_config.network_review_flags));

  -- A UPI cash-out is paid in rupees: the amount is fixed now, at the rate of the day, and kept
  -- with the withdrawal (docs/decisions/087); without a rate of the last seven days, none is fixed.
  if payment_method_param = 'upi' then
    v_rate := usd_inr_rate_now();
  end if;
  if payment_method_param = 'giftcard' then
    v_label := v_card.name || ' gift card';
  end if;

  insert into withdrawals (user_id, amount, payment_method, recipient_email, recipient_upi,
                           recipient_bank_details, recipient_hash, risk_score, risk_reasons, review_state,
                           payout_currency, payout_amount, payout_rate, giftcard_product_id, giftcard_name)
  values (p_user_id, amount_param, payment_method_param, v_email, v_upi,
          case when v_details is not null then jsonb_build_object('details', v_details) end,
          nullif(trim(p_recipient_hash), ''), (v_risk ->> 'score')::integer, v_risk -> 'reasons',
          case when v_review then 'review' else 'approved' end,
          case when v_card.id is not null then v_card.currency when v_rate is not null then 'INR' end,
          case when v_card.id is not null then v_card_value else round(amount_param * v_rate, 2) end, v_rate,
          v_card.id, v_card.name)
  returning * into v_withdrawal;

  insert into transaction_history (user_id, description, transaction_type, amount, status,
                                   withdrawal_id)
  values (p_user_id, 'Withdrawal via ' || v_label, 'withdrawal', -amount_param, 'pending',
          v_withdrawal.id);

  return withdrawal_json(v_withdrawal);
end
$function$;

CREATE OR REPLACE FUNCTION public.take_postback(p_network text, p_transaction_id text, p_person text, p_person_is_account boolean, p_coins integer, p_reversal boolean, p_description text, p_hold_days integer, p_offer_id text, p_offer_name text, p_client_address text, p_method text, p_query text, p_body text, p_signature_digest text, p_check_signature_reuse boolean, p_review_reason text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_user_id text := case when p_person_is_account then (select id from user_profiles where id = p_person)
                         else (select id from user_profiles where wall_id = p_person) end;
  v_result jsonb;
  v_verdict text;
  v_seen_on text;
  v_held record;
begin
  -- The reversal of a deleted account's credit: owed by its identity (the same email, if it returns).
  if v_user_id is null and p_reversal and p_review_reason is null then
    v_result := reverse_departed_credit(p_network, p_transaction_id, p_person, p_person_is_account, p_coins);
    if v_result is not null then
      v_verdict := case when (v_result ->> 'duplicate')::boolean then 'duplicate' else 'reversed' end;
      perform log_postback(p_network, p_client_address, p_method, p_query, p_body, v_verdict,
                           case when v_verdict = 'reversed'
                                then format('reverses a credit of a deleted account: $%s owed by its email',
                                            to_char((v_result ->> 'owed')::numeric, 'FM999999990.00')) end,
                           null, p_transaction_id, p_coins, p_signature_digest);
      return v_result || jsonb_build_object('verdict', v_verdict);
    end if;
  end if;
  if v_user_id is null then
    perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'refused',
                         format('no one has %s %s', case when p_person_is_account then 'account id' else 'wall id' end,
                                left(p_person, 100)),
                         null, p_transaction_id, p_coins, p_signature_digest);
    return jsonb_build_object('verdict', 'refused', 'reason', 'account_not_found');
  end if;
  -- Earning paused (docs/decisions/091): while the account's latest network signal carries a flag
  -- the owner chose, a credit waits for an operator like one whose signature was seen before.
  if not p_reversal and p_review_reason is null then
    p_review_reason := network_pause_reason(v_user_id);
  end if;
  -- Held once: a repeat of a held postback (for the same person) is answered as taken, even once
  -- the reason it was held has gone (the network's retry of a credit held while paused).
  if exists (select from held_postbacks where network = p_network and transaction_id = p_transaction_id
                                              and kind = case when p_reversal then 'reversal' else 'credit' end
                                              and user_id = v_user_id) then
    perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'duplicate',
                         'a repeat of a held postback', v_user_id, p_transaction_id, p_coins, p_signature_digest);
    return jsonb_build_object('verdict', 'duplicate', 'duplicate', true, 'amount', 0, 'user_id', v_user_id);
  end if;
  -- Before any other hold, so that a credit held for another reason still records its signature.
  if p_check_signature_reuse and not p_reversal then
    if p_signature_digest is null then
      raise exception 'A signature digest is required' using errcode = 'P0001', hint = 'signature_digest_required';
    end if;
    perform pg_advisory_xact_lock(hashtext(p_network), hashtext(p_transaction_id));
    insert into postback_signatures (network, digest, transaction_id)
    values (p_network, p_signature_digest, p_transaction_id)
    on conflict (network, digest) do nothing
    returning transaction_id into v_seen_on;
    if v_seen_on is null then
      select transaction_id into v_seen_on from postback_signatures
       where network = p_network and digest = p_signature_digest;
    end if;
    if v_seen_on <> p_transaction_id then
      insert into held_postbacks (network, transaction_id, user_id, coins, description, offer_name, hold_days,
                                  reason, signature_seen_on)
      values (p_network, p_transaction_id, v_user_id, p_coins, p_description, left(p_offer_name, 200), p_hold_days,
              format('its signature already paid transaction %s', left(v_seen_on, 100)), v_seen_on)
      on conflict (network, transaction_id, kind, user_id) do nothing;
      perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'held',
                           format('signature already paid transaction %s: held for review', left(v_seen_on, 100)),
                           v_user_id, p_transaction_id, p_coins, p_signature_digest);
      return jsonb_build_object('verdict', 'held', 'duplicate', false, 'amount', 0, 'user_id', v_user_id);
    end if;
  end if;
  if p_review_reason is not null then
    perform pg_advisory_xact_lock(hashtext(p_network), hashtext(p_transaction_id));
    -- One already taken is a repeat, not a new wait.
    if exists (select from provider_postbacks
                where provider = p_network and transaction_id = p_transaction_id
                  and kind = case when p_reversal then 'reversal' else 'credit' end) then
      perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'duplicate', null, v_user_id,
                           p_transaction_id, p_coins, p_signature_digest);
      return jsonb_build_object('verdict', 'duplicate', 'duplicate', true, 'amount', 0, 'user_id', v_user_id);
    end if;
    -- A reversal waits only if it could be approved: it names this person's credit, for no more.
    if p_reversal then
      if not exists (select from provider_postbacks
                      where provider = p_network and transaction_id = p_transaction_id and kind = 'credit'
                        and user_id = v_user_id) then
        raise exception 'The reversal names no credit of this person on this network' using errcode = 'P0001',
          hint = 'reversal_names_no_credit';
      end if;
      if exists (select from provider_postbacks
                  where provider = p_network and transaction_id = p_transaction_id and kind = 'credit'
                    and user_id = v_user_id and coins < p_coins) then
        raise exception 'The reversal takes back more than its credit paid' using errcode = 'P0001',
          hint = 'reversal_exceeds_credit';
      end if;
    end if;
    insert into held_postbacks (network, transaction_id, kind, user_id, coins, description, offer_name, hold_days,
                                reason)
    values (p_network, p_transaction_id, case when p_reversal then 'reversal' else 'credit' end, v_user_id, p_coins,
            p_description, left(p_offer_name, 200), p_hold_days, left(p_review_reason, 500))
    on conflict (network, transaction_id, kind, user_id) do nothing;
    perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'held',
                         left(p_review_reason || ': held for review', 500), v_user_id, p_transaction_id, p_coins,
                         p_signature_digest);
    return jsonb_build_object('verdict', 'held', 'duplicate', false, 'amount', 0, 'user_id', v_user_id);
  end if;
  if p_reversal then
    -- The reversal of a credit still held: it is never paid, and the reversal is taken.
    select id, user_id into v_held from held_postbacks
     where network = p_network and transaction_id = p_transaction_id and kind = 'credit' and status = 'held'
       for update;
    if found and v_held.user_id = v_user_id then
      update held_postbacks set status = 'reversed', decided_at = now(), decided_by = p_network
       where id = v_held.id;
      perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'reversed',
                           'reverses a held credit: it will not be paid', v_user_id, p_transaction_id, p_coins,
                           p_signature_digest);
      return jsonb_build_object('verdict', 'reversed', 'duplicate', false, 'amount', 0, 'user_id', v_user_id);
    end if;
  end if;
  v_result := record_postback(p_network, p_transaction_id, v_user_id, p_coins, p_reversal, p_description,
                              p_offer_id, p_hold_days, p_offer_name);
  v_verdict := case when (v_result ->> 'duplicate')::boolean then 'duplicate'
                    when p_reversal then 'reversed' else 'credited' end;
  perform log_postback(p_network, p_client_address, p_method, p_query, p_body, v_verdict, null, v_user_id,
                       p_transaction_id, p_coins, p_signature_digest);
  return v_result || jsonb_build_object('verdict', v_verdict, 'user_id', v_user_id);
end
$function$;

