-- Redefines: public.create_withdrawal, public.get_app_config, public.app_setting_valid, public.apply_app_config_patch, public.settle_withdrawal, public.get_last_withdrawal_recipient, public.operator_withdrawals, public.operator_withdrawal_row, public.withdrawal_json
--
-- Gift cards through Tremendous (issue 37, point 2; docs/decisions/089, docs/rails/tremendous.md).
-- A third way to cash out: the person picks a card from Tremendous's catalogue (kept here, the last
-- good list standing when a read fails) and an amount in dollars; the card's value in its own
-- money is fixed when it is asked for (rupees at the day's rate, decision 087) and checked here
-- against the amounts the card takes, never taken from the browser. The order is claimed with the
-- exact request the app will send, whose external_id is the withdrawal id (Tremendous makes one
-- order per external_id), and what Tremendous reports is applied once per order and status, never
-- backwards. A card that could not be delivered is cancelled at Tremendous before any refund.

alter table public.app_config
  add column min_withdrawal_giftcard numeric(12,2) not null default 1
    constraint app_config_min_withdrawal_giftcard_check check (min_withdrawal_giftcard > 0);

-- The catalogue as Tremendous last listed it (record_giftcard_catalogue): cards sold in dollars or
-- rupees, the only money the app can price. A card missing from a later good list is unlisted, not
-- deleted: withdrawals name it.
create table public.giftcard_products (
  id text primary key check (id ~ '^[A-Za-z0-9_-]{1,64}$'),
  name text not null check (length(name) between 1 and 120 and not has_hidden_characters(name)),
  currency text not null check (currency in ('USD', 'INR')),
  countries text[] not null check (cardinality(countries) between 1 and 300),
  -- [{"min": 5, "max": 500}, …] in the card's money: the amounts it takes (min = max: one value).
  skus jsonb not null check (jsonb_typeof(skus) = 'array' and jsonb_array_length(skus) between 1 and 50),
  min_value numeric(14,2) not null check (min_value > 0),
  image_url text check (length(image_url) <= 508 and image_url ~ '^https://[^[:space:]"<>]+$'),
  listed boolean not null default true,
  refreshed_at timestamp with time zone not null default now()
);
create index giftcard_products_countries_idx on public.giftcard_products using gin (countries) where listed;
alter table public.giftcard_products enable row level security;
revoke all on public.giftcard_products from public, anon, authenticated;

alter table public.withdrawals
  -- The card chosen and its name when it was asked for (the catalogue may change since).
  add column giftcard_product_id text references public.giftcard_products (id),
  add column giftcard_name text constraint withdrawals_giftcard_name_check check (length(giftcard_name) <= 120),
  -- The rail's own id of the item paid (Tremendous: the reward its webhooks name).
  add column payout_item_id text constraint withdrawals_payout_item_id_check check (length(payout_item_id) <= 100);
alter table public.withdrawals drop constraint withdrawals_payment_method_check;
alter table public.withdrawals add constraint withdrawals_payment_method_check
  check (payment_method in ('paypal', 'upi', 'bank', 'giftcard'));
alter table public.withdrawals add constraint withdrawals_giftcard_check
  check ((payment_method = 'giftcard') = (giftcard_product_id is not null));
alter table public.withdrawals drop constraint withdrawals_recipient_check;
alter table public.withdrawals add constraint withdrawals_recipient_check check (user_id is null or case payment_method
    when 'paypal' then coalesce(trim(recipient_email), '') <> ''
    when 'giftcard' then coalesce(trim(recipient_email), '') <> ''
    when 'upi' then coalesce(trim(recipient_upi), '') <> ''
    else coalesce(trim(recipient_bank_details ->> 'details'), '') <> '' end);
alter table public.withdrawals drop constraint withdrawals_payout_rail_check;
alter table public.withdrawals add constraint withdrawals_payout_rail_check
  check (payout_rail in ('paypal', 'razorpayx', 'tremendous'));
alter table public.payout_events drop constraint payout_events_rail_check;
alter table public.payout_events add constraint payout_events_rail_check
  check (rail in ('paypal', 'razorpayx', 'tremendous'));
create index withdrawals_payout_item_idx on public.withdrawals (payout_item_id) where payout_item_id is not null;
create index withdrawals_payout_batch_idx on public.withdrawals (payout_batch_id) where payout_batch_id is not null;

-- Keeps Tremendous's catalogue: each card checked, written, and those no longer listed unlisted. An
-- empty or unreadable list changes nothing (the last good one stands).
CREATE OR REPLACE FUNCTION public.record_giftcard_catalogue(p_products jsonb)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_product jsonb;
  v_ids text[] := '{}';
  v_min numeric;
begin
  if jsonb_typeof(p_products) is distinct from 'array' or jsonb_array_length(p_products) = 0
     or jsonb_array_length(p_products) > 2000 then
    raise exception 'Invalid catalogue' using errcode = 'P0001', hint = 'invalid_giftcard_catalogue';
  end if;
  for v_product in select value from jsonb_array_elements(p_products) loop
    -- A card whose amounts are not numbers with min ≤ max above zero is left out, not guessed.
    continue when jsonb_typeof(v_product -> 'skus') is distinct from 'array'
               or exists (select from jsonb_array_elements(v_product -> 'skus') s
                           where jsonb_typeof(s -> 'min') <> 'number' or jsonb_typeof(s -> 'max') <> 'number'
                              or (s ->> 'min')::numeric <= 0 or (s ->> 'max')::numeric < (s ->> 'min')::numeric
                              or (s ->> 'max')::numeric >= 1000000);
    select min((s ->> 'min')::numeric) into v_min from jsonb_array_elements(v_product -> 'skus') s;
    begin
      insert into giftcard_products (id, name, currency, countries, skus, min_value, image_url, listed, refreshed_at)
      values (v_product ->> 'id', v_product ->> 'name', v_product ->> 'currency',
              array(select jsonb_array_elements_text(v_product -> 'countries')),
              (select jsonb_agg(jsonb_build_object('min', round((s ->> 'min')::numeric, 2),
                                                   'max', round((s ->> 'max')::numeric, 2))
                                order by (s ->> 'min')::numeric)
                 from jsonb_array_elements(v_product -> 'skus') s),
              round(v_min, 2), v_product ->> 'image_url', true, now())
      on conflict (id) do update
        set name = excluded.name, currency = excluded.currency, countries = excluded.countries,
            skus = excluded.skus, min_value = excluded.min_value, image_url = excluded.image_url,
            listed = true, refreshed_at = now();
      v_ids := v_ids || (v_product ->> 'id');
    exception when check_violation or not_null_violation or invalid_text_representation then
      -- One malformed card does not cost the others.
      null;
    end;
  end loop;
  if cardinality(v_ids) = 0 then
    raise exception 'Invalid catalogue' using errcode = 'P0001', hint = 'invalid_giftcard_catalogue';
  end if;
  update giftcard_products set listed = false where listed and not (id = any (v_ids));
  return cardinality(v_ids);
end
$function$;
revoke all on function public.record_giftcard_catalogue(jsonb) from public, anon, authenticated;
grant execute on function public.record_giftcard_catalogue(jsonb) to service_role;

-- The cards offered in a country, by name.
CREATE OR REPLACE FUNCTION public.giftcard_catalogue(p_country text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'name', name, 'currency', currency, 'skus', skus,
                                               'min_value', min_value, 'image_url', image_url)
                            order by lower(name), id), '[]')
    from giftcard_products
   where listed and countries @> array[upper(p_country)]
$function$;
revoke all on function public.giftcard_catalogue(text) from public, anon, authenticated;
grant execute on function public.giftcard_catalogue(text) to service_role;

-- What a card's amounts say to a person: "$5.00 to $500.00", "₹500.00 or ₹1,000.00".
CREATE OR REPLACE FUNCTION public.giftcard_amounts_text(p_currency text, p_skus jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select string_agg(case when (s ->> 'min')::numeric = (s ->> 'max')::numeric
                         then v.sign || to_char((s ->> 'min')::numeric, 'FM999,999,990.00')
                         else v.sign || to_char((s ->> 'min')::numeric, 'FM999,999,990.00') || ' to '
                              || v.sign || to_char((s ->> 'max')::numeric, 'FM999,999,990.00') end,
                    ' or ' order by (s ->> 'min')::numeric)
    from jsonb_array_elements(p_skus) s,
         (select case p_currency when 'INR' then '₹' else '$' end as sign) v
$function$;
revoke all on function public.giftcard_amounts_text(text, jsonb) from public, anon, authenticated;

-- A gift card is one more method: the card must be listed for sale, the dollars asked for come to
-- a value it takes (in its own money, fixed now), and it is delivered to the account's verified
-- address (never one typed in the form).
drop function public.create_withdrawal(text, numeric, text, text, text, jsonb, text);
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
              or (v_config.review_first_withdrawal and (v_risk ->> 'first_withdrawal')::boolean);

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
revoke all on function public.create_withdrawal(text, numeric, text, text, text, jsonb, text, text) from public, anon, authenticated;
grant execute on function public.create_withdrawal(text, numeric, text, text, text, jsonb, text, text) to service_role;

-- The gift card's smallest cash-out, a setting as the others are.
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
                                                'bank', min_withdrawal_bank,
                                                'giftcard', min_withdrawal_giftcard),
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
       'min_withdrawal_paypal', 'min_withdrawal_upi', 'min_withdrawal_bank', 'min_withdrawal_giftcard',
       'withdrawals_per_hour',
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

CREATE OR REPLACE FUNCTION public.settle_withdrawal(p_withdrawal_id uuid, p_status text, p_reference text DEFAULT NULL::text, p_reason text DEFAULT NULL::text, p_actor text DEFAULT NULL::text, p_actor_user_id text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_actor text := case when p_actor is not null or p_actor_user_id is not null then operator_actor(p_actor) end;
  v_withdrawal withdrawals;
  v_before withdrawals;
begin
  if p_actor_user_id is not null then
    perform require_operator_role(p_actor_user_id, array['finance']);
  end if;
  if p_status is null or p_status not in ('completed', 'failed') then
    raise exception 'Invalid status' using errcode = 'P0001', hint = 'invalid_settlement_status';
  end if;
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  perform refuse_own_account(p_actor_user_id, v_withdrawal.user_id);
  if v_withdrawal.status <> 'pending' then
    return withdrawal_json(v_withdrawal) || jsonb_build_object('changed', false);
  end if;
  -- Paid only once an operator (or the risk score) approved it; failing one is always possible.
  if p_status = 'completed' and v_withdrawal.review_state <> 'approved' then
    raise exception 'Withdrawal is not approved' using errcode = 'P0001', hint = 'withdrawal_not_approved';
  end if;
  -- A gift card is Tremendous's to settle (its answer, webhook, read-back or a cancellation): by
  -- hand, a refund could leave a live card with the person as well, and "paid" would be a card
  -- nobody ordered. Before it is claimed it can still be failed by hand (Tremendous switched off).
  if v_actor is not null and v_withdrawal.payment_method = 'giftcard'
     and (v_withdrawal.payout_claimed_at is not null or p_status = 'completed') then
    raise exception 'Withdrawal is paid by Tremendous' using errcode = 'P0001', hint = 'withdrawal_paid_by_tremendous';
  end if;
  -- Failed by hand while PayPal may be paying it (claimed, no answer recorded): refunding would pay twice.
  if p_status = 'failed' and v_actor is not null and v_withdrawal.payout_claimed_at is not null
     and v_withdrawal.sent_at is null then
    raise exception 'Withdrawal is being paid' using errcode = 'P0001', hint = 'withdrawal_sending';
  end if;
  -- RazorpayX's to settle once claimed (its answer, webhook or read-back): settled by hand, a
  -- refund or a second payment by hand could pay twice.
  if v_actor is not null and v_withdrawal.payout_rail = 'razorpayx' and v_withdrawal.payout_claimed_at is not null then
    raise exception 'Withdrawal is paid by RazorpayX' using errcode = 'P0001', hint = 'withdrawal_paid_by_razorpayx';
  end if;
  v_before := v_withdrawal;
  update withdrawals
     set status = p_status,
         settled_at = now(),
         reference = coalesce(nullif(trim(p_reference), ''), reference),
         failure_reason = case when p_status = 'failed' then nullif(trim(p_reason), '') end
   where id = p_withdrawal_id
  returning * into v_withdrawal;
  update transaction_history set status = p_status where withdrawal_id = p_withdrawal_id;
  if p_status = 'failed' then
    update user_balance
       set balance = balance + v_withdrawal.amount, updated_at = now()
     where user_id = v_withdrawal.user_id;
  end if;
  insert into user_notices (user_id, kind, data)
  values (v_withdrawal.user_id, 'withdrawal_' || p_status,
          jsonb_build_object('withdrawal_id', v_withdrawal.id, 'amount', v_withdrawal.amount,
                             'payment_method', v_withdrawal.payment_method,
                             'reason', v_withdrawal.failure_reason));
  -- Settled by hand: audited. (PayPal's settlements, through apply_paypal_payout, name no actor.)
  if v_actor is not null then
    insert into operator_actions (actor, actor_user_id, action, user_id, withdrawal_id, reason, record_kind, record_id,
                                  before, after, detail)
    values (v_actor, p_actor_user_id, case p_status when 'completed' then 'mark_paid' else 'mark_failed' end,
            v_withdrawal.user_id, v_withdrawal.id, v_withdrawal.failure_reason, 'withdrawal', v_withdrawal.id::text,
            jsonb_build_object('status', v_before.status),
            jsonb_build_object('status', v_withdrawal.status, 'reference', v_withdrawal.reference),
            jsonb_build_object('amount', v_withdrawal.amount));
  end if;
  return withdrawal_json(v_withdrawal) || jsonb_build_object('changed', true);
end
$function$;

-- A gift card's "recipient" for the next form is the card chosen (it is sent to the verified address).
CREATE OR REPLACE FUNCTION public.get_last_withdrawal_recipient(p_user_id text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select jsonb_build_object('payment_method', w.payment_method,
                            'recipient', coalesce(w.giftcard_product_id, w.recipient_email, w.recipient_upi,
                                                  w.recipient_bank_details ->> 'details'))
    from withdrawals w
   where w.user_id = p_user_id
   order by w.created_at desc
   limit 1
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
           'payout_rail', w.payout_rail,
           'giftcard_name', w.giftcard_name,
           'payout_item_id', w.payout_item_id,
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
           'display_name', p.display_name,
           'account_created_at', p.created_at,
           'amount', p_withdrawal.amount,
           'payout_currency', p_withdrawal.payout_currency,
           'payout_amount', p_withdrawal.payout_amount,
           'payout_rate', p_withdrawal.payout_rate,
           'payout_rail', p_withdrawal.payout_rail,
           'giftcard_name', p_withdrawal.giftcard_name,
           'payout_item_id', p_withdrawal.payout_item_id,
           -- RazorpayX's check of the UPI ID: the name it is registered to, beside the account's.
           'upi_registered_name', (select v.registered_name from upi_validations v
                                    where v.address = lower(p_withdrawal.recipient_upi)),
           'upi_account_status', (select v.account_status from upi_validations v
                                   where v.address = lower(p_withdrawal.recipient_upi)),
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
    'payout_amount', w.payout_amount,
    -- The gift card chosen, by name.
    'giftcard_name', w.giftcard_name,
    -- Once paid, the payment's reference (RazorpayX: the bank's UTR; PayPal: its payout item).
    'reference', case when w.status = 'completed' then w.reference end)
$function$;

-- How far along a gift card order is (docs/rails/tremendous.md, "Statuses"), in the app's words:
-- pending_approval (the order waits at Tremendous), scheduled (executed, the email on its way),
-- delivery_failed (the email bounced: the card is cancelled before any refund), then the final ones:
-- delivered (paid), failed (no order was made), canceled (the card can no longer be used).
CREATE OR REPLACE FUNCTION public.tremendous_status_rank(p_status text)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select case p_status
    when 'pending_approval' then 1
    when 'scheduled' then 2
    when 'delivery_failed' then 3
    when 'delivered' then 4 when 'failed' then 4 when 'canceled' then 4
  end
$function$;
revoke all on function public.tremendous_status_rank(text) from public, anon, authenticated;

-- The gift cards Tremendous is to order now: approved, pending, not yet answered for (claimed ones
-- too: their stored request is sent again), oldest first; those sent whose last word is older than
-- `p_settle_after_seconds` and not final, to read back; and those whose delivery failed, to cancel.
CREATE OR REPLACE FUNCTION public.tremendous_due(p_limit integer, p_settle_after_seconds integer)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select jsonb_build_object(
    'send', coalesce((select jsonb_agg(jsonb_build_object('id', w.id, 'name', w.display_name,
                                                          'email', w.recipient_email,
                                                          'product_id', w.giftcard_product_id,
                                                          'currency', w.payout_currency,
                                                          'value', w.payout_amount)
                                       order by w.created_at, w.id)
                        from (select w.id, w.created_at, p.display_name, w.recipient_email, w.giftcard_product_id,
                                     w.payout_currency, w.payout_amount
                                from withdrawals w
                                join user_profiles p on p.id = w.user_id
                               where w.status = 'pending' and w.review_state = 'approved' and w.sent_at is null
                                 and w.payment_method = 'giftcard'
                                 and p.payouts_paused_at is null and p.banned_at is null
                               order by w.created_at, w.id
                               limit greatest(p_limit, 0)) w), '[]'),
    'settle', coalesce((select jsonb_agg(jsonb_build_object('id', w.id, 'order_id', w.payout_batch_id)
                                         order by w.sent_at, w.id)
                          from (select w.id, w.sent_at, w.payout_batch_id from withdrawals w
                                 where w.status = 'pending' and w.payout_rail = 'tremendous' and w.sent_at is not null
                                   and w.payout_status is distinct from 'delivery_failed'
                                   and coalesce((select max(e.received_at) from payout_events e
                                                  where e.withdrawal_id = w.id), w.sent_at)
                                       < now() - make_interval(secs => p_settle_after_seconds)
                                 order by w.sent_at, w.id
                                 limit greatest(p_limit, 0)) w), '[]'),
    'cancel', coalesce((select jsonb_agg(jsonb_build_object('id', w.id, 'order_id', w.payout_batch_id,
                                                            'reward_id', w.payout_item_id)
                                         order by w.sent_at, w.id)
                          from (select w.id, w.sent_at, w.payout_batch_id, w.payout_item_id from withdrawals w
                                 where w.status = 'pending' and w.payout_rail = 'tremendous'
                                   and w.payout_status = 'delivery_failed' and w.payout_item_id is not null
                                 order by w.sent_at, w.id
                                 limit greatest(p_limit, 0)) w), '[]'))
$function$;
revoke all on function public.tremendous_due(integer, integer) from public, anon, authenticated;
grant execute on function public.tremendous_due(integer, integer) to service_role;

-- Claims a gift card withdrawal for Tremendous with the order to send: the first claim stores it,
-- every later one returns it unchanged (the same external_id and body on every retry). Refused when
-- the withdrawal is no longer to be paid (settled, refused, not approved).
CREATE OR REPLACE FUNCTION public.claim_tremendous_order(p_withdrawal_id uuid, p_request jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_withdrawal withdrawals;
begin
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  if v_withdrawal.status <> 'pending' then
    raise exception 'Withdrawal is not pending' using errcode = 'P0001', hint = 'withdrawal_not_pending';
  end if;
  if v_withdrawal.review_state <> 'approved' then
    raise exception 'Withdrawal is not approved' using errcode = 'P0001', hint = 'withdrawal_not_approved';
  end if;
  if v_withdrawal.payment_method <> 'giftcard' then
    raise exception 'Not a gift card' using errcode = 'P0001', hint = 'not_a_giftcard';
  end if;
  if v_withdrawal.payout_request is null then
    -- The order must be this withdrawal's: its external_id, card, value and address.
    if jsonb_typeof(p_request) is distinct from 'object'
       or p_request ->> 'external_id' is distinct from v_withdrawal.id::text
       or p_request #>> '{reward,products,0}' is distinct from v_withdrawal.giftcard_product_id
       or jsonb_array_length(coalesce(p_request #> '{reward,products}', '[]')) <> 1
       or (p_request #>> '{reward,value,denomination}')::numeric is distinct from v_withdrawal.payout_amount
       or p_request #>> '{reward,value,currency_code}' is distinct from v_withdrawal.payout_currency
       or p_request #>> '{reward,recipient,email}' is distinct from v_withdrawal.recipient_email then
      raise exception 'Invalid request' using errcode = 'P0001', hint = 'invalid_payout_request';
    end if;
    update withdrawals
       set payout_rail = 'tremendous', payout_request = p_request,
           payout_claimed_at = coalesce(payout_claimed_at, now())
     where id = p_withdrawal_id
    returning * into v_withdrawal;
  end if;
  return jsonb_build_object('id', v_withdrawal.id, 'request', v_withdrawal.payout_request,
                            'sent_at', v_withdrawal.sent_at, 'order_id', v_withdrawal.payout_batch_id);
end
$function$;
revoke all on function public.claim_tremendous_order(uuid, jsonb) from public, anon, authenticated;
grant execute on function public.claim_tremendous_order(uuid, jsonb) to service_role;

-- Gives a claim back when Tremendous refused the request for certain for a reason of ours (the
-- key): nothing was ordered, and the next run builds the request again.
CREATE OR REPLACE FUNCTION public.release_tremendous_claim(p_withdrawal_id uuid)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  update withdrawals set payout_request = null, payout_claimed_at = null, payout_rail = null
   where id = p_withdrawal_id and sent_at is null and payout_rail = 'tremendous' and status = 'pending';
$function$;
revoke all on function public.release_tremendous_claim(uuid) from public, anon, authenticated;
grant execute on function public.release_tremendous_claim(uuid) to service_role;

-- The withdrawal a webhook's resource belongs to, with its order: an order or a reward, by its id.
CREATE OR REPLACE FUNCTION public.tremendous_withdrawal_of(p_type text, p_id text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select jsonb_build_object('id', id, 'order_id', payout_batch_id) from withdrawals
   where payout_rail = 'tremendous'
     and case p_type when 'orders' then payout_batch_id = p_id when 'rewards' then payout_item_id = p_id else false end
   limit 1
$function$;
revoke all on function public.tremendous_withdrawal_of(text, text) from public, anon, authenticated;
grant execute on function public.tremendous_withdrawal_of(text, text) to service_role;

-- What Tremendous reported about a withdrawal's order (its create answer, a webhook, a read-back,
-- a cancellation): recorded once per order and status; applied when ahead of what was known. The
-- order and reward ids recorded (sent) if they were not yet; delivered → paid with the order id as
-- reference; failed, canceled → not paid, the money back (settle_withdrawal: ledger, balance,
-- notice); the others kept. An order that is not this withdrawal's changes nothing.
CREATE OR REPLACE FUNCTION public.apply_tremendous_order(p_withdrawal_id uuid, p_order_id text, p_reward_id text,
                                                         p_status text, p_reason text, p_source text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_withdrawal withdrawals;
  v_rank integer := tremendous_status_rank(p_status);
  v_known integer;
  v_event bigint;
  v_settled jsonb;
  v_failed_delivery text;
begin
  if v_rank is null or p_order_id is null or p_order_id !~ '^[A-Za-z0-9_-]{1,100}$'
     or (p_reward_id is not null and p_reward_id !~ '^[A-Za-z0-9_-]{1,100}$') then
    raise exception 'Invalid payout status' using errcode = 'P0001', hint = 'invalid_payout_status';
  end if;
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  if v_withdrawal.payout_rail is distinct from 'tremendous'
     or (v_withdrawal.payout_batch_id is not null and v_withdrawal.payout_batch_id <> p_order_id)
     or (v_withdrawal.payout_item_id is not null and p_reward_id is not null
         and v_withdrawal.payout_item_id <> p_reward_id) then
    return jsonb_build_object('status', 'not_sent', 'changed', false);
  end if;
  v_known := coalesce(tremendous_status_rank(v_withdrawal.payout_status), 0);
  insert into payout_events (withdrawal_id, rail, payout_id, status, reason, source, applied)
  values (p_withdrawal_id, 'tremendous', p_order_id, p_status, left(nullif(trim(p_reason), ''), 500), p_source,
          v_withdrawal.status = 'pending' and v_rank > v_known)
  on conflict (rail, payout_id, status) do nothing
  returning id into v_event;
  -- The reward's id once any answer names it (an earlier one may not have): webhooks name the reward.
  if p_reward_id is not null and v_withdrawal.payout_item_id is null and v_withdrawal.payout_batch_id = p_order_id then
    update withdrawals set payout_item_id = p_reward_id where id = p_withdrawal_id;
  end if;
  if v_event is null or v_withdrawal.status <> 'pending' or v_rank <= v_known then
    return jsonb_build_object('status', case when v_withdrawal.status = 'pending' then 'pending'
                                             else v_withdrawal.status end, 'changed', false);
  end if;
  update withdrawals
     set payout_batch_id = p_order_id, payout_item_id = coalesce(payout_item_id, p_reward_id),
         payout_status = p_status, sent_at = coalesce(sent_at, now())
   where id = p_withdrawal_id;
  if v_rank < 4 then
    return jsonb_build_object('status', 'pending', 'changed', true);
  end if;
  if p_status = 'delivered' then
    v_settled := settle_withdrawal(p_withdrawal_id, 'completed', p_order_id);
  else
    -- Why the email did not arrive, when that is why the card was cancelled.
    select reason into v_failed_delivery from payout_events
     where withdrawal_id = p_withdrawal_id and rail = 'tremendous' and status = 'delivery_failed';
    v_settled := settle_withdrawal(p_withdrawal_id, 'failed', null,
                                   left(case when p_status = 'failed' then 'The gift card order could not be placed'
                                             when v_withdrawal.payout_status = 'delivery_failed'
                                               then 'The gift card could not be delivered to your email'
                                                    || coalesce(' (' || replace(v_failed_delivery, '_', ' ') || ')', '')
                                             else 'The gift card order was cancelled' end
                                        || coalesce(': ' || nullif(trim(p_reason), ''), ''), 500));
  end if;
  return jsonb_build_object('status', v_settled ->> 'status', 'changed', (v_settled ->> 'changed')::boolean);
end
$function$;
revoke all on function public.apply_tremendous_order(uuid, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.apply_tremendous_order(uuid, text, text, text, text, text) to service_role;
