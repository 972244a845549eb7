-- Redefines: public.withdrawal_json, public.get_app_config, public.app_setting_valid, public.setting_loosens, public.create_withdrawal, public.apply_app_config_patch, public.operator_withdrawals, public.operator_withdrawal_row
--
-- Rupees for UPI users (issue 37, point 3; docs/decisions/087). The operator sets how many rupees
-- a dollar buys (Settings, with the password step, audited), or the app reads it from a rates
-- endpoint (INR_RATE_URL, record_inr_rate); the rate carries its date. A UPI cash-out's rupee
-- amount is fixed when it is asked for, at the rate of the day, and kept with the withdrawal: what
-- Withdraw promised is what is sent, whatever the rate does meanwhile. A rate older than seven
-- days is not used.
alter table public.app_config
  add column usd_inr_rate numeric(10,4)
    constraint app_config_usd_inr_rate_check check (usd_inr_rate between 1 and 1000),
  add column usd_inr_rate_set_at timestamp with time zone,
  -- The rate an owner last set: the rates endpoint moves the rate only within 5 % of it.
  add column usd_inr_rate_anchor numeric(10,4);

-- The rate's date follows every change of the rate, whoever makes it.
CREATE OR REPLACE FUNCTION public.app_config_rate_dated()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
begin
  if new.usd_inr_rate is distinct from old.usd_inr_rate then
    new.usd_inr_rate_set_at := case when new.usd_inr_rate is not null then now() end;
  end if;
  return new;
end
$function$;
revoke all on function public.app_config_rate_dated() from public, anon, authenticated;
create trigger app_config_rate_dated before update of usd_inr_rate on public.app_config
  for each row execute function public.app_config_rate_dated();

-- Rupees per dollar, while the rate is of the last seven days; null otherwise.
CREATE OR REPLACE FUNCTION public.usd_inr_rate_now()
 RETURNS numeric
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select usd_inr_rate from app_config where usd_inr_rate_set_at > now() - interval '7 days'
$function$;
revoke all on function public.usd_inr_rate_now() from public, anon, authenticated;
grant execute on function public.usd_inr_rate_now() to service_role;

alter table public.withdrawals
  add column payout_currency text,
  add column payout_amount numeric(14,2),
  add column payout_rate numeric(10,4),
  add constraint withdrawals_payout_amount_check
    check ((payout_currency is null) = (payout_amount is null) and payout_amount > 0
           and payout_currency ~ '^[A-Z]{3}$');

-- The rate a rates endpoint reports (the server's worker, INR_RATE_URL): applied, dated and audited
-- when it stays within 5 % of the rate an owner last set (not of the rate in force, which a series
-- of small steps could walk anywhere); a larger move, or a first rate, is left for an owner to set
-- in Settings, since a wrong or hostile endpoint would otherwise decide what is paid.
CREATE OR REPLACE FUNCTION public.record_inr_rate(p_rate numeric, p_source text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_before app_config;
  v_rate numeric := round(p_rate, 4);
begin
  if v_rate is null or v_rate < 1 or v_rate > 1000 then
    raise exception 'Invalid rate' using errcode = 'P0001', hint = 'invalid_rate';
  end if;
  select * into v_before from app_config for update;
  if v_before.usd_inr_rate is null or v_before.usd_inr_rate_anchor is null then
    return jsonb_build_object('applied', false, 'reason', 'no_rate_set');
  end if;
  if abs(v_rate - v_before.usd_inr_rate_anchor) > v_before.usd_inr_rate_anchor * 0.05 then
    return jsonb_build_object('applied', false, 'reason', 'moved_too_far', 'rate', v_before.usd_inr_rate);
  end if;
  update app_config set usd_inr_rate = v_rate, usd_inr_rate_set_at = now();
  insert into operator_actions (actor, action, reason, record_kind, record_id, before, after)
  values ('rates endpoint', 'set_setting', left(coalesce(p_source, 'rates endpoint'), 500), 'setting',
          'usd_inr_rate', jsonb_build_object('value', v_before.usd_inr_rate),
          jsonb_build_object('value', v_rate));
  return jsonb_build_object('applied', true, 'rate', v_rate);
end
$function$;
revoke all on function public.record_inr_rate(numeric, text) from public, anon, authenticated;
grant execute on function public.record_inr_rate(numeric, text) to service_role;

CREATE OR REPLACE FUNCTION public.withdrawal_json(w withdrawals)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select jsonb_build_object(
    'id', w.id,
    'created_at', w.created_at,
    'amount', w.amount,
    'payment_method', w.payment_method,
    'status', w.status,
    -- The step the person is told about (docs/decisions/068): in review, sending, paid, refused.
    'review_state', w.review_state,
    'sent_at', w.sent_at,
    'settled_at', w.settled_at,
    'failure_reason', w.failure_reason,
    -- What is sent in the rail's own money, fixed when it was asked for (UPI: rupees).
    'payout_currency', w.payout_currency,
    'payout_amount', w.payout_amount)
$function$;

CREATE OR REPLACE FUNCTION public.get_app_config()
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select jsonb_build_object(
           'coins_per_dollar', coins_per_dollar,
           'checkin_coins', checkin_coins,
           'min_withdrawal', jsonb_build_object('paypal', min_withdrawal_paypal,
                                                'upi', min_withdrawal_upi,
                                                'bank', min_withdrawal_bank),
           'referral', jsonb_build_object('reward', referral_reward,
                                          'welcome_bonus', referral_welcome_bonus,
                                          'qualifying_coins', referral_qualifying_coins,
                                          'requires_earned', referral_requires_earned),
           'bonus_locked_until_earned', bonus_unlock_ratio is not null,
           -- Rupees per dollar while the rate is of the last seven days, with its date; else null.
           'inr_rate', case when usd_inr_rate_now() is not null
                            then jsonb_build_object('rate', usd_inr_rate, 'set_at', usd_inr_rate_set_at) end)
    from app_config
$function$;

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
       'min_withdrawal_paypal', 'min_withdrawal_upi', 'min_withdrawal_bank', 'withdrawals_per_hour',
       'risk_review_threshold', 'review_first_withdrawal',
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

CREATE OR REPLACE FUNCTION public.create_withdrawal(p_user_id text, amount_param numeric, payment_method_param text, recipient_email_param text DEFAULT NULL::text, recipient_upi_param text DEFAULT NULL::text, recipient_bank_details_param jsonb DEFAULT NULL::jsonb, p_recipient_hash text DEFAULT NULL::text)
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
begin
  -- The profile is held (key share, as the withdrawal's foreign key would take it anyway) before
  -- the balance, the order delete_account locks them in: a deletion waits for a withdrawal being
  -- made, or the withdrawal finds the account gone. Taken the other way round, the two deadlocked.
  select email_verified, banned_at is not null, payouts_paused_at is not null
    into v_verified, v_banned, v_paused
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
              or (v_config.review_first_withdrawal and (v_risk ->> 'first_withdrawal')::boolean);

  -- A UPI cash-out is paid in rupees: the amount is fixed now, at the rate of the day, and kept
  -- with the withdrawal (docs/decisions/087); without a rate of the last seven days, none is fixed.
  if payment_method_param = 'upi' then
    v_rate := usd_inr_rate_now();
  end if;

  insert into withdrawals (user_id, amount, payment_method, recipient_email, recipient_upi,
                           recipient_bank_details, recipient_hash, risk_score, risk_reasons, review_state,
                           payout_currency, payout_amount, payout_rate)
  values (p_user_id, amount_param, payment_method_param, v_email, v_upi,
          case when v_details is not null then jsonb_build_object('details', v_details) end,
          nullif(trim(p_recipient_hash), ''), (v_risk ->> 'score')::integer, v_risk -> 'reasons',
          case when v_review then 'review' else 'approved' end,
          case when v_rate is not null then 'INR' end, round(amount_param * v_rate, 2), v_rate)
  returning * into v_withdrawal;

  insert into transaction_history (user_id, description, transaction_type, amount, status,
                                   withdrawal_id)
  values (p_user_id, 'Withdrawal via ' || v_label, 'withdrawal', -amount_param, 'pending',
          v_withdrawal.id);

  return withdrawal_json(v_withdrawal);
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
         withdrawals_per_hour = v_after.withdrawals_per_hour,
         risk_review_threshold = v_after.risk_review_threshold,
         review_first_withdrawal = v_after.review_first_withdrawal,
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

CREATE OR REPLACE FUNCTION public.operator_withdrawals(p_status text DEFAULT 'pending'::text, p_method text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', w.id,
           'created_at', w.created_at,
           'user_id', w.user_id,
           'email', p.email,
           'email_verified', p.email_verified,
           'amount', w.amount,
           'payout_currency', w.payout_currency,
           'payout_amount', w.payout_amount,
           'payout_rate', w.payout_rate,
           'payment_method', w.payment_method,
           'recipient', coalesce(w.recipient_email, w.recipient_upi, w.recipient_bank_details ->> 'details'),
           'status', w.status,
           'reference', w.reference,
           'failure_reason', w.failure_reason,
           'payout_batch_id', w.payout_batch_id,
           'payout_status', w.payout_status,
           'sent_at', w.sent_at,
           'review_state', w.review_state,
           'risk_score', w.risk_score,
           'risk_reasons', w.risk_reasons,
           'reviewed_at', w.reviewed_at,
           'reviewed_by', w.reviewed_by,
           'payouts_paused', p.payouts_paused_at is not null,
           'banned', p.banned_at is not null,
           'account_created_at', p.created_at,
           -- Below zero: a reversal took back money already withdrawn (docs/decisions/065).
           'balance', coalesce(b.balance, 0),
           'earnings_by_source', coalesce((
             select jsonb_object_agg(t.transaction_type, t.total)
               from (select transaction_type, sum(amount) as total
                       from transaction_history
                      where user_id = w.user_id and transaction_type <> 'withdrawal'
                      group by transaction_type) t), '{}'::jsonb),
           -- Other accounts paid to the same address; a deleted account is matched by the hash.
           'same_address_accounts', coalesce((
             select jsonb_agg(distinct coalesce(o.user_id, 'deleted account'))
               from withdrawals o
              where o.id <> w.id
                and o.user_id is distinct from w.user_id
                and ((o.recipient_hash is not null and o.recipient_hash = w.recipient_hash)
                     or lower(coalesce(o.recipient_email, o.recipient_upi, o.recipient_bank_details ->> 'details'))
                        = lower(coalesce(w.recipient_email, w.recipient_upi, w.recipient_bank_details ->> 'details')))),
             '[]'::jsonb))
         order by w.created_at, l.id nulls first, w.id), '[]')
    from withdrawals w
    join user_profiles p on p.id = w.user_id
    left join user_balance b on b.user_id = w.user_id
    -- The ledger row's identity orders withdrawals of one millisecond (see get_user_withdrawals).
    left join transaction_history l on l.withdrawal_id = w.id
   where (p_status is null or w.status = p_status)
     and (p_method is null or w.payment_method = p_method)
$function$;

CREATE OR REPLACE FUNCTION public.operator_withdrawal_row(p_withdrawal withdrawals)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select jsonb_build_object(
           'id', p_withdrawal.id,
           'created_at', p_withdrawal.created_at,
           'user_id', p_withdrawal.user_id,
           'email', p.email,
           'account_created_at', p.created_at,
           'amount', p_withdrawal.amount,
           'payout_currency', p_withdrawal.payout_currency,
           'payout_amount', p_withdrawal.payout_amount,
           'payout_rate', p_withdrawal.payout_rate,
           'payment_method', p_withdrawal.payment_method,
           'recipient', coalesce(p_withdrawal.recipient_email, p_withdrawal.recipient_upi,
                                 p_withdrawal.recipient_bank_details ->> 'details'),
           'status', p_withdrawal.status,
           'review_state', p_withdrawal.review_state,
           'risk_score', p_withdrawal.risk_score,
           'risk_reasons', coalesce((
             select jsonb_agg(reason || jsonb_build_object('linked', coalesce((
                      select jsonb_agg(jsonb_build_object('id', linked.id, 'email', o.email) order by linked.n)
                        from jsonb_array_elements_text(reason -> 'accounts') with ordinality linked(id, n)
                        left join user_profiles o on o.id = linked.id), '[]'::jsonb))
                    order by (reason ->> 'points')::integer desc)
               from jsonb_array_elements(p_withdrawal.risk_reasons) reason), '[]'::jsonb),
           'reviewed_at', p_withdrawal.reviewed_at,
           'reviewed_by', p_withdrawal.reviewed_by,
           'sent_at', p_withdrawal.sent_at,
           'payout_claimed_at', p_withdrawal.payout_claimed_at,
           'payout_batch_id', p_withdrawal.payout_batch_id,
           'payout_status', p_withdrawal.payout_status,
           'settled_at', p_withdrawal.settled_at,
           'reference', p_withdrawal.reference,
           'failure_reason', p_withdrawal.failure_reason,
           'payouts_paused', coalesce(p.payouts_paused_at is not null, false),
           'banned', coalesce(p.banned_at is not null, false),
           'balance', coalesce(b.balance, 0),
           'first_withdrawal', not exists (select from withdrawals c
                                            where c.user_id = p_withdrawal.user_id and c.status = 'completed'
                                              and c.id <> p_withdrawal.id))
    from (select 1) one
    left join user_profiles p on p.id = p_withdrawal.user_id
    left join user_balance b on b.user_id = p_withdrawal.user_id
$function$;
