-- Security round 2: display names, notices and recipients.
--
-- 4. One rule for every display name, wherever one is written (provision_user, with the identity
--    provider's name; update_display_name): 1 to 50 characters once the spaces at both ends are
--    trimmed, and no hidden characters. A name from the identity provider that breaks it counts as
--    none (spec §5 default: the email's local part, else "User"); a typed one is refused. The
--    table holds the rule too, after the names already stored are cleaned.
-- 6. Notices carry no text another person chose: the referral credit no longer names the friend
--    (not in the notice, its toast, push and email, nor the referrer's ledger row), and the
--    delivery no longer hands out the recipient's display name for a greeting.
-- 8. Recipients (PayPal email, UPI ID, bank details) with hidden characters are refused.
--
-- provision_user, update_display_name, try_referral_credit, claim_due_notices and create_withdrawal
-- are their newest versions with only the marked changes; `create or replace` keeps their grants.
--
-- Redefines: public.provision_user, public.update_display_name, public.try_referral_credit
-- Redefines: public.claim_due_notices, public.create_withdrawal

-- ---------------------------------------------------------------------------------------------
-- Hidden characters: C0 and C1 controls and DEL (a terminal obeys ESC[2K, ESC[8m), the bidi
-- controls (U+202E shows "gpj.exe" as "exe.jpg"), zero-width and other invisible format
-- characters, the Unicode line separators, and tag characters (invisible ASCII). The same list is
-- in app/domain/hidden-characters.ts, which lets a form say so first.
create function public.has_hidden_characters(p_text text) returns boolean
  language sql
  immutable
  set search_path = public, pg_temp
as $$
  select p_text ~ '[\u0001-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f]'
$$;

-- The name trimmed of the spaces at its ends (the space and Unicode's other space separators), or
-- null when it is not a display name: blank, over 50 characters, or with a hidden character.
create function public.clean_display_name(p_name text) returns text
  language sql
  immutable
  set search_path = public, pg_temp
as $$
  select case when char_length(v_name) between 1 and 50 and not has_hidden_characters(v_name) then v_name end
    from (select regexp_replace(p_name,
                                '^[ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+|[ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+$',
                                '', 'g') as v_name) trimmed
$$;

-- Names stored before the rule (389 characters with line breaks and markup were) get the spec's
-- default, as a new profile would; then the table holds the rule.
update public.user_profiles
   set display_name = v.name,
       preferences = case when preferences ? 'display_name'
                          then preferences || jsonb_build_object('display_name', v.name)
                          else preferences end,
       updated_at = now()
  from (select id,
               coalesce(public.clean_display_name(display_name),
                        public.clean_display_name(split_part(nullif(trim(email), ''), '@', 1)),
                        'User') as name
          from public.user_profiles) v
 where v.id = user_profiles.id
   and (user_profiles.display_name is distinct from v.name
        or (user_profiles.preferences ? 'display_name'
            and user_profiles.preferences ->> 'display_name' is distinct from v.name));

alter table public.user_profiles
  add constraint user_profiles_display_name_check
    check (public.clean_display_name(display_name) is not distinct from display_name);

-- ---------------------------------------------------------------------------------------------
-- Display names
create or replace function public.provision_user(p_user_id text, p_email text, p_display_name text,
                                                 p_referral_code text default null,
                                                 p_email_verified boolean default false)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  -- Referral code alphabet (spec §5): 32 symbols, no I, O, 0, 1.
  c_alphabet constant text := 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  v_email text := nullif(trim(p_email), '');
  -- Default display name (spec §5): the given name, else the email's local part, else "User".
  -- Changed: a name that breaks the display-name rule (an identity provider's name of 389
  -- characters with line breaks, a bidi override) counts as none.
  v_name text := coalesce(clean_display_name(p_display_name),
                          clean_display_name(split_part(v_email, '@', 1)),
                          'User');
  v_referrer text;
  v_code text;
  v_created boolean := false;
  v_attempts integer := 0;
begin
  if nullif(trim(p_user_id), '') is null then
    raise exception 'User id is required' using errcode = 'P0001', hint = 'user_id_required';
  end if;

  if not exists (select from user_profiles where id = p_user_id) and nullif(trim(p_referral_code), '') is not null then
    select id into v_referrer from user_profiles where referral_code = upper(trim(p_referral_code));
    if v_referrer is null then
      raise exception 'This referral code is not valid' using errcode = 'P0001', hint = 'invalid_referral_code';
    end if;
  end if;

  -- A conflict is either the same user (created concurrently or earlier: done) or a
  -- referral code collision (try another code).
  while not exists (select from user_profiles where id = p_user_id) loop
    v_attempts := v_attempts + 1;
    if v_attempts > 20 then
      raise exception 'Could not generate a unique referral code'
        using errcode = 'P0001', hint = 'referral_codes_exhausted';
    end if;
    select string_agg(substr(c_alphabet, 1 + floor(random() * 32)::integer, 1), '')
      into v_code
      from generate_series(1, 7);
    insert into user_profiles (id, email, display_name, referral_code, email_verified)
    values (p_user_id, v_email, v_name, v_code, coalesce(p_email_verified, false))
    on conflict do nothing;
    v_created := found;
  end loop;

  -- An older profile may lack the email; fill it in, never replace it.
  if v_email is not null then
    update user_profiles
       set email = v_email, updated_at = now()
     where id = p_user_id and email is null;
  end if;

  insert into user_balance (user_id) values (p_user_id) on conflict (user_id) do nothing;
  insert into notification_preferences (user_id) values (p_user_id) on conflict (user_id) do nothing;

  -- Only the call that made the profile links the referrer (a racing twin finds it made).
  if v_created and v_referrer is not null and v_referrer <> p_user_id then
    insert into referrals (referrer_user_id, referred_user_id) values (v_referrer, p_user_id)
    on conflict (referred_user_id) do nothing;
  end if;

  if coalesce(p_email_verified, false) then
    perform record_email_verified(p_user_id);
  end if;

  return get_user_summary(p_user_id);
end
$$;


-- Changed: the rule of clean_display_name; a hidden character has its own message.
create or replace function public.update_display_name(p_user_id text, p_display_name text) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_name text := clean_display_name(coalesce(p_display_name, ''));
begin
  if v_name is null and has_hidden_characters(p_display_name) then
    raise exception 'Display name contains hidden characters'
      using errcode = 'P0001', hint = 'display_name_hidden_characters';
  end if;
  if v_name is null then
    raise exception 'Display name must be 1 to 50 characters' using errcode = 'P0001', hint = 'invalid_display_name';
  end if;
  update user_profiles
     set display_name = v_name,
         preferences = preferences || jsonb_build_object('display_name', v_name),
         updated_at = now()
   where id = p_user_id;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  return get_user_summary(p_user_id);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Notices
create or replace function public.try_referral_credit(p_user_id text) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_config app_config;
  v_referral referrals;
  v_own_coins bigint;
begin
  perform from user_profiles where id = p_user_id for key share;
  perform from user_balance where user_id = p_user_id for update;
  select * into v_referral from referrals
   where referred_user_id = p_user_id and credited_at is null
   for update;
  if not found or not (select email_verified from user_profiles where id = p_user_id) then
    return jsonb_build_object('credited', false);
  end if;
  select * into v_config from app_config;
  select coalesce(sum(coins), 0) into v_own_coins
    from transaction_history
   where user_id = p_user_id
     and transaction_type in ('checkin', 'task', 'bonus', 'postback', 'postback_reversal');
  if v_own_coins < v_config.referral_qualifying_coins then
    return jsonb_build_object('credited', false, 'own_coins', v_own_coins);
  end if;

  update referrals
     set credited_at = now(),
         referrer_amount = v_config.referral_reward,
         referred_amount = v_config.referral_welcome_bonus
   where id = v_referral.id;
  -- Changed: the friend chose their name, so it is not in the referrer's ledger row or notice
  -- (a name such as "Rewards Security Team: confirm your UPI PIN at ..." went out in the app's
  -- email and push). The Refer & Earn list still shows who joined.
  if v_config.referral_reward > 0 then
    perform ledger_move(v_referral.referrer_user_id, 'referral', null, v_config.referral_reward,
                        'Referral bonus: a friend joined');
    insert into user_notices (user_id, kind, data)
    values (v_referral.referrer_user_id, 'referral_credited',
            jsonb_build_object('amount', v_config.referral_reward));
  end if;
  if v_config.referral_welcome_bonus > 0 then
    perform ledger_move(p_user_id, 'referral_bonus', null, v_config.referral_welcome_bonus,
                        'Welcome bonus for joining with a referral code');
    insert into user_notices (user_id, kind, data)
    values (p_user_id, 'welcome_bonus', jsonb_build_object('amount', v_config.referral_welcome_bonus));
  end if;
  return jsonb_build_object('credited', true, 'referrer_amount', v_config.referral_reward,
                            'referred_amount', v_config.referral_welcome_bonus);
end
$$;


-- Notices written before this migration and not yet shown or sent lose the friend's name too.
update public.user_notices set data = data - 'friend' where kind = 'referral_credited' and data ? 'friend';

-- Delivery: as in 20261124010000_notification_delivery.sql but for the recipient's name.
create or replace function public.claim_due_notices(p_limit integer default 10, p_lease_seconds integer default 300)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_config app_config;
  v_claim uuid := gen_random_uuid();
  v_notice user_notices;
  v_push text;
  v_email text;
  v_claimed bigint[] := '{}';
begin
  if p_limit is null or p_limit not between 1 and 100 or p_lease_seconds is null
     or p_lease_seconds not between 1 and 3600 then
    raise exception 'Invalid delivery claim' using errcode = 'P0001', hint = 'invalid_delivery_claim';
  end if;
  select * into v_config from app_config;

  for v_notice in
    select * from user_notices
     where next_attempt_at <= now()
     order by next_attempt_at, id
       for update skip locked
  loop
    v_push := v_notice.push_status;
    v_email := v_notice.email_status;
    if v_notice.created_at < now() - make_interval(hours => v_config.notice_delivery_window_hours) then
      v_push := case when v_push = 'pending' then 'skipped' else v_push end;
      v_email := case when v_email = 'pending' then 'skipped' else v_email end;
    else
      v_push := case when v_push = 'pending' and v_notice.push_attempts >= v_config.notice_delivery_attempts
                     then 'failed' else v_push end;
      v_email := case when v_email = 'pending' and v_notice.email_attempts >= v_config.notice_delivery_attempts
                      then 'failed' else v_email end;
    end if;

    if v_push <> 'pending' and v_email <> 'pending' then
      update user_notices
         set push_status = v_push,
             email_status = v_email,
             push_detail = case when push_status = 'pending' then
                             case v_push when 'skipped' then 'not delivered within the delivery window'
                                         else coalesce(push_detail, 'no outcome was recorded') end
                           else push_detail end,
             email_detail = case when email_status = 'pending' then
                              case v_email when 'skipped' then 'not delivered within the delivery window'
                                           else coalesce(email_detail, 'no outcome was recorded') end
                            else email_detail end,
             next_attempt_at = null,
             claim_id = null
       where id = v_notice.id;
      continue;
    end if;

    update user_notices
       set push_status = v_push,
           email_status = v_email,
           push_attempts = push_attempts + (v_push = 'pending')::integer,
           email_attempts = email_attempts + (v_email = 'pending')::integer,
           next_attempt_at = now() + make_interval(secs => p_lease_seconds),
           claim_id = v_claim
     where id = v_notice.id;
    v_claimed := v_claimed || v_notice.id;
    exit when cardinality(v_claimed) >= p_limit;
  end loop;

  return (
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', n.id,
             'claim_id', n.claim_id,
             'user_id', n.user_id,
             'kind', n.kind,
             'data', n.data,
             'created_at', n.created_at,
             -- Changed: no display name. Anyone can give an account any name (one made with
             -- someone else's address, say), so an email does not greet by it.
             'recipient', jsonb_build_object('email', p.email),
             'preferences', jsonb_build_object(
               'email', coalesce(np.email_notifications, true),
               'push', coalesce(np.push_notifications, true),
               'category', notice_category(n.kind),
               'category_enabled', case notice_category(n.kind)
                                     when 'withdrawal' then coalesce(np.withdrawal_notifications, true)
                                     when 'reward' then coalesce(np.reward_notifications, true)
                                     else false
                                   end),
             'push', jsonb_build_object(
               'due', n.push_status = 'pending',
               'attempt', n.push_attempts,
               'delivered_before', cardinality(n.push_delivered_tokens),
               'tokens', coalesce((
                 select jsonb_agg(newest.fcm_token order by newest.created_at desc, newest.id desc)
                   from (select t.id, t.fcm_token, t.created_at
                           from user_fcm_tokens t
                          where t.user_id = n.user_id
                          order by t.created_at desc, t.id desc
                          limit 10) newest
                  where not newest.fcm_token = any (n.push_delivered_tokens)), '[]'::jsonb)),
             'email', jsonb_build_object('due', n.email_status = 'pending', 'attempt', n.email_attempts))
           order by n.id), '[]'::jsonb)
      from user_notices n
      join user_profiles p on p.id = n.user_id
      left join notification_preferences np on np.user_id = n.user_id
     where n.id = any (v_claimed));
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Recipients: as in 20261126010000_bad_input.sql but for the hidden characters.
create or replace function public.create_withdrawal(
  p_user_id text,
  amount_param numeric,
  payment_method_param text,
  recipient_email_param text default null,
  recipient_upi_param text default null,
  recipient_bank_details_param jsonb default null,
  -- The app's keyed hash of the recipient (lower-cased), kept after the account is deleted.
  p_recipient_hash text default null
) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
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
  v_withdrawal withdrawals;
begin
  -- The profile is held (key share, as the withdrawal's foreign key would take it anyway) before
  -- the balance, the order delete_account locks them in: a deletion waits for a withdrawal being
  -- made, or the withdrawal finds the account gone. Taken the other way round, the two deadlocked.
  select email_verified into v_verified from user_profiles where id = p_user_id for key share;
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
  if amount_param > v_balance then
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

  insert into withdrawals (user_id, amount, payment_method, recipient_email, recipient_upi,
                           recipient_bank_details, recipient_hash)
  values (p_user_id, amount_param, payment_method_param, v_email, v_upi,
          case when v_details is not null then jsonb_build_object('details', v_details) end,
          nullif(trim(p_recipient_hash), ''))
  returning * into v_withdrawal;

  insert into transaction_history (user_id, description, transaction_type, amount, status,
                                   withdrawal_id)
  values (p_user_id, 'Withdrawal via ' || v_label, 'withdrawal', -amount_param, 'pending',
          v_withdrawal.id);

  return withdrawal_json(v_withdrawal);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Access: the helpers run inside the functions above and the table's check.
revoke all on function public.has_hidden_characters(text) from public, anon, authenticated;
revoke all on function public.clean_display_name(text) from public, anon, authenticated;
grant execute on function public.has_hidden_characters(text) to service_role;
grant execute on function public.clean_display_name(text) to service_role;
