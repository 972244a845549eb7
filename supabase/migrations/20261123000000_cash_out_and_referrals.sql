-- Cash out and referrals: withdrawals that are paid or refunded exactly once, a notice to the user
-- for every settlement (an outbox the app delivers), verified emails, and referral credit that is
-- really paid (once) when the referred friend qualifies.
--
-- Rules keep the conventions of 20261122030000_rule_keys_and_config.sql: SQLSTATE P0001 with a
-- stable identifier in HINT, values in DETAIL; the constants live in app_config.
--
-- Redefines: public.get_app_config, public.provision_user, public.get_user_summary
-- Redefines: public.ledger_move, public.create_withdrawal, public.get_user_withdrawals
-- Redefines: public.settle_withdrawal

-- ---------------------------------------------------------------------------------------------
-- Constants
alter table public.app_config
  -- Paid to the referrer when the friend qualifies (spec §9: $5 per referred friend).
  add column referral_reward numeric(12, 2) not null default 5 check (referral_reward >= 0),
  -- Paid to the referred friend at the same moment (the spec leaves its size open).
  add column referral_welcome_bonus numeric(12, 2) not null default 1 check (referral_welcome_bonus >= 0),
  -- A friend qualifies with a verified email and this many coins earned by themselves.
  add column referral_qualifying_coins integer not null default 100 check (referral_qualifying_coins >= 0),
  -- Withdrawal requests a user may make per hour (a sliding window of the shared rate limiter).
  add column withdrawals_per_hour integer not null default 5 check (withdrawals_per_hour > 0);

create or replace function public.get_app_config() returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select jsonb_build_object(
           'coins_per_dollar', coins_per_dollar,
           'checkin_coins', checkin_coins,
           'min_withdrawal', jsonb_build_object('paypal', min_withdrawal_paypal,
                                                'upi', min_withdrawal_upi,
                                                'bank', min_withdrawal_bank),
           'referral', jsonb_build_object('reward', referral_reward,
                                          'welcome_bonus', referral_welcome_bonus,
                                          'qualifying_coins', referral_qualifying_coins))
    from app_config
$$;

-- ---------------------------------------------------------------------------------------------
-- Tables
-- Whether the identity provider says the email is verified, as the app last saw it.
alter table public.user_profiles add column email_verified boolean not null default false;

-- The welcome bonus is a ledger type of its own, so that "earned by themselves" can leave it out.
alter table public.transaction_history drop constraint transaction_history_type_check;
alter table public.transaction_history add constraint transaction_history_type_check check (
  transaction_type in ('checkin', 'task', 'referral', 'referral_bonus', 'withdrawal', 'bonus', 'postback',
                       'postback_reversal'));

alter table public.withdrawals
  -- The bank's or PayPal's reference of a completed payout.
  add column reference text check (length(reference) <= 200),
  -- Why a payout failed (the provider's words or the operator's).
  add column failure_reason text check (length(failure_reason) <= 500),
  -- PayPal: the batch that carries this payout, and the item status PayPal last reported.
  add column payout_batch_id text,
  add column payout_status text,
  -- When a payout was handed to PayPal (an operator's send); pending until PayPal settles it.
  add column sent_at timestamptz;

create index withdrawals_status_method_idx on public.withdrawals (status, payment_method, created_at);

alter table public.referrals
  add column credited_at timestamptz,
  add column referrer_amount numeric(12, 2),
  add column referred_amount numeric(12, 2);

-- Notices for a user (an outbox): written in the same transaction as what they announce, so a
-- crash can never settle a withdrawal without telling its owner. The app shows unseen ones as a
-- toast on the next visit; the Profile issue delivers them by push and email.
create table public.user_notices (
  id bigint generated always as identity primary key,
  user_id text not null references public.user_profiles (id) on delete cascade,
  kind text not null check (kind in ('withdrawal_completed', 'withdrawal_failed', 'referral_credited',
                                     'welcome_bonus')),
  -- What the words need (amounts, method, names); the app words it (app/domain/notices.ts).
  data jsonb not null default '{}'::jsonb check (jsonb_typeof(data) = 'object'),
  created_at timestamptz not null default now(),
  shown_at timestamptz,
  push_sent_at timestamptz,
  email_sent_at timestamptz
);
create index user_notices_unshown_idx on public.user_notices (user_id, id) where shown_at is null;

-- ---------------------------------------------------------------------------------------------
-- Profiles: a referral code applies only when the profile is first made; one referrer per user.
drop function public.provision_user(text, text, text);

create function public.provision_user(p_user_id text, p_email text, p_display_name text,
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
  v_name text := coalesce(nullif(trim(p_display_name), ''),
                          nullif(trim(split_part(v_email, '@', 1)), ''),
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

-- Whether a code belongs to someone (the sign-up form checks before an account is made).
create function public.referral_code_exists(p_code text) returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select jsonb_build_object('exists',
           exists (select from user_profiles where referral_code = upper(trim(p_code))))
$$;

-- The profile with its balance and what referrals brought in, or null when there is no profile.
create or replace function public.get_user_summary(p_user_id text) returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_result jsonb;
begin
  select jsonb_build_object(
           'id', p.id,
           'email', p.email,
           'email_verified', p.email_verified,
           'display_name', p.display_name,
           'username', p.username,
           'referral_code', p.referral_code,
           'preferences', p.preferences,
           'created_at', p.created_at,
           'balance', coalesce(b.balance, 0),
           'total_earned', coalesce(b.total_earned, 0),
           'referral_earned', coalesce((select sum(amount) from transaction_history t
                                         where t.user_id = p.id
                                           and t.transaction_type in ('referral', 'referral_bonus')), 0))
    into v_result
    from user_profiles p
    left join user_balance b on b.user_id = p.id
   where p.id = p_user_id;
  return v_result;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Referral credit: paid once, when the referred friend has a verified email and has earned
-- app_config.referral_qualifying_coins by themselves. Called whenever the friend earns and when
-- the app learns the email is verified; racing calls queue on the friend's balance row, then on
-- the referral row, and only the first pays.
--
-- Lock order: the friend's profile and balance, the referral row, the referrer's profile and
-- balance. A referrer was always made before the friends they refer, so these chains never form
-- a circle.
create function public.try_referral_credit(p_user_id text) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_config app_config;
  v_referral referrals;
  v_own_coins bigint;
  v_friend_name text;
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
  select display_name into v_friend_name from user_profiles where id = p_user_id;
  if v_config.referral_reward > 0 then
    perform ledger_move(v_referral.referrer_user_id, 'referral', null, v_config.referral_reward,
                        'Referral bonus: ' || v_friend_name || ' joined');
    insert into user_notices (user_id, kind, data)
    values (v_referral.referrer_user_id, 'referral_credited',
            jsonb_build_object('amount', v_config.referral_reward, 'friend', v_friend_name));
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

-- The identity provider says the email is verified (never trusted from a form): remember it
-- and see whether that completes a referral.
create function public.record_email_verified(p_user_id text) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
begin
  update user_profiles set email_verified = true, updated_at = now()
   where id = p_user_id and not email_verified;
  if not found and not exists (select from user_profiles where id = p_user_id) then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  return jsonb_build_object('email_verified', true) || try_referral_credit(p_user_id);
end
$$;

-- Every earning of one's own may complete a referral.
create or replace function public.ledger_move(p_user_id text, p_type text, p_coins integer,
                                              p_amount numeric, p_description text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_balance numeric;
begin
  -- Lock order of every money function: the profile (key share, as the ledger row's foreign key
  -- takes it anyway), then the balance. Deleting an account takes them in the same order.
  perform from user_profiles where id = p_user_id for key share;
  select balance into v_balance from user_balance where user_id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  if p_amount <> 0 then
    insert into transaction_history (user_id, description, transaction_type, amount, status, coins)
    values (p_user_id, p_description, p_type, p_amount, 'completed', p_coins);
    update user_balance
       set balance = balance + p_amount,
           total_earned = total_earned + p_amount,
           updated_at = now()
     where user_id = p_user_id
    returning balance into v_balance;
    insert into monthly_earnings (user_id, month, amount)
    values (p_user_id, current_month(), p_amount)
    on conflict (user_id, month)
      do update set amount = monthly_earnings.amount + excluded.amount;
    if p_amount > 0 and p_type in ('checkin', 'task', 'bonus', 'postback')
       and exists (select from referrals where referred_user_id = p_user_id and credited_at is null) then
      perform try_referral_credit(p_user_id);
      select balance into v_balance from user_balance where user_id = p_user_id;
    end if;
  end if;
  return jsonb_build_object('coins', p_coins, 'amount', p_amount, 'balance', v_balance);
end
$$;

-- The people a user referred, newest first, with whether each one's reward has been paid.
create function public.get_referrals(p_user_id text) returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', r.id,
           'created_at', r.created_at,
           'display_name', p.display_name,
           'username', p.username,
           'credited', r.credited_at is not null,
           'amount', coalesce(r.referrer_amount, c.referral_reward))
         order by r.created_at desc, r.id desc), '[]')
    from referrals r
    join user_profiles p on p.id = r.referred_user_id
    cross join app_config c
   where r.referrer_user_id = p_user_id
$$;

-- ---------------------------------------------------------------------------------------------
-- Withdrawals: a verified email first, then the spec's order (§5), then the recipient's format.
create or replace function public.create_withdrawal(
  p_user_id text,
  amount_param numeric,
  payment_method_param text,
  recipient_email_param text default null,
  recipient_upi_param text default null,
  recipient_bank_details_param jsonb default null
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
  v_withdrawal withdrawals;
begin
  if not coalesce((select email_verified from user_profiles where id = p_user_id), false) then
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

  -- Only the chosen method's recipient is kept, trimmed; money sent to a typo is lost.
  if payment_method_param = 'paypal' then
    v_email := nullif(trim(recipient_email_param), '');
    if v_email is null then
      raise exception 'Please enter your PayPal email'
        using errcode = 'P0001', hint = 'paypal_email_required';
    end if;
    if v_email !~ '^[^@[:space:]]{1,64}@[^@[:space:]]+\.[a-zA-Z]{2,}$' or length(v_email) > 254 then
      raise exception 'Invalid PayPal email' using errcode = 'P0001', hint = 'invalid_paypal_email';
    end if;
  elsif payment_method_param = 'upi' then
    v_upi := nullif(trim(recipient_upi_param), '');
    if v_upi is null then
      raise exception 'Please enter your UPI ID' using errcode = 'P0001', hint = 'upi_id_required';
    end if;
    -- name@bank, the name at most 256 characters (a regular expression counts to 255 at most).
    if v_upi !~ '^[a-zA-Z0-9._-]{2,}@[a-zA-Z]{2,64}$' or length(split_part(v_upi, '@', 1)) > 256 then
      raise exception 'Invalid UPI ID' using errcode = 'P0001', hint = 'invalid_upi_id';
    end if;
  else
    -- ->> gives null for a missing key or a non-object, so both count as blank.
    v_details := nullif(trim(recipient_bank_details_param ->> 'details'), '');
    if v_details is null then
      raise exception 'Please enter your bank account details'
        using errcode = 'P0001', hint = 'bank_details_required';
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
                           recipient_bank_details)
  values (p_user_id, amount_param, payment_method_param, v_email, v_upi,
          case when v_details is not null then jsonb_build_object('details', v_details) end)
  returning * into v_withdrawal;

  insert into transaction_history (user_id, description, transaction_type, amount, status,
                                   withdrawal_id)
  values (p_user_id, 'Withdrawal via ' || v_label, 'withdrawal', -amount_param, 'pending',
          v_withdrawal.id);

  return withdrawal_json(v_withdrawal);
end
$$;

-- The user's withdrawals, newest first; always an array. created_at is the transaction's start,
-- which ties for withdrawals made in one millisecond (PGlite's clock) or one transaction; the
-- ledger row's identity, taken as each withdrawal is made, breaks the tie in creation order
-- (a random uuid did not).
create or replace function public.get_user_withdrawals(p_user_id text) returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  return coalesce(
    (select jsonb_agg(withdrawal_json(w) order by w.created_at desc, l.id desc nulls last, w.id)
       from withdrawals w
       left join transaction_history l on l.withdrawal_id = w.id
      where w.user_id = p_user_id),
    '[]'::jsonb);
end
$$;

-- Settlement, by the operator command or a verified PayPal webhook, on any instance. It happens
-- once: a withdrawal that is no longer pending is returned unchanged ('changed': false), so a
-- repeated webhook or command is harmless. 'failed' gives the money back (its ledger row turns
-- 'failed', which the balance rule leaves out). Either way a notice for the owner is written in
-- the same transaction.
drop function public.settle_withdrawal(uuid, text);

create function public.settle_withdrawal(p_withdrawal_id uuid, p_status text,
                                         p_reference text default null, p_reason text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_withdrawal withdrawals;
begin
  if p_status is null or p_status not in ('completed', 'failed') then
    raise exception 'Invalid status' using errcode = 'P0001', hint = 'invalid_settlement_status';
  end if;

  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  if v_withdrawal.status <> 'pending' then
    return withdrawal_json(v_withdrawal) || jsonb_build_object('changed', false);
  end if;

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

  return withdrawal_json(v_withdrawal) || jsonb_build_object('changed', true);
end
$$;

-- PayPal: the payout was handed over (idempotent; only a pending withdrawal is marked).
create function public.mark_payout_sent(p_withdrawal_id uuid, p_batch_id text, p_payout_status text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_withdrawal withdrawals;
begin
  update withdrawals
     set sent_at = coalesce(sent_at, now()), payout_batch_id = p_batch_id, payout_status = p_payout_status
   where id = p_withdrawal_id and status = 'pending'
  returning * into v_withdrawal;
  if not found then
    raise exception 'Withdrawal is not pending' using errcode = 'P0001', hint = 'withdrawal_not_pending';
  end if;
  return withdrawal_json(v_withdrawal);
end
$$;

-- PayPal reported a status that settles nothing yet (UNCLAIMED, ONHOLD, PENDING): remember it.
create function public.record_payout_status(p_withdrawal_id uuid, p_payout_status text) returns jsonb
  language sql
  security definer
  set search_path = public, pg_temp
as $$
  update withdrawals set payout_status = p_payout_status
   where id = p_withdrawal_id and status = 'pending'
  returning withdrawal_json(withdrawals.*)
$$;

-- The operator's review list: each withdrawal with its recipient and the signals that help spot
-- abuse (account age, earnings by source, other accounts paid to the same address).
create function public.operator_withdrawals(p_status text default 'pending', p_method text default null)
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', w.id,
           'created_at', w.created_at,
           'user_id', w.user_id,
           'email', p.email,
           'email_verified', p.email_verified,
           'amount', w.amount,
           'payment_method', w.payment_method,
           'recipient', coalesce(w.recipient_email, w.recipient_upi, w.recipient_bank_details ->> 'details'),
           'status', w.status,
           'reference', w.reference,
           'failure_reason', w.failure_reason,
           'payout_batch_id', w.payout_batch_id,
           'payout_status', w.payout_status,
           'sent_at', w.sent_at,
           'account_created_at', p.created_at,
           'earnings_by_source', coalesce((
             select jsonb_object_agg(t.transaction_type, t.total)
               from (select transaction_type, sum(amount) as total
                       from transaction_history
                      where user_id = w.user_id and transaction_type <> 'withdrawal'
                      group by transaction_type) t), '{}'::jsonb),
           'same_address_accounts', coalesce((
             select jsonb_agg(distinct o.user_id)
               from withdrawals o
              where o.user_id <> w.user_id
                and lower(coalesce(o.recipient_email, o.recipient_upi, o.recipient_bank_details ->> 'details'))
                  = lower(coalesce(w.recipient_email, w.recipient_upi, w.recipient_bank_details ->> 'details'))),
             '[]'::jsonb))
         order by w.created_at, l.id nulls first, w.id), '[]')
    from withdrawals w
    join user_profiles p on p.id = w.user_id
    -- The ledger row's identity orders withdrawals of one millisecond (see get_user_withdrawals).
    left join transaction_history l on l.withdrawal_id = w.id
   where (p_status is null or w.status = p_status)
     and (p_method is null or w.payment_method = p_method)
$$;

-- Unshown notices of a user, oldest first, marked shown (the app shows each once).
create function public.take_user_notices(p_user_id text) returns jsonb
  language sql
  security definer
  set search_path = public, pg_temp
as $$
  with taken as (
    update user_notices set shown_at = now()
     where id in (select id from user_notices
                   where user_id = p_user_id and shown_at is null
                   order by id
                   limit 5
                   for update skip locked)
    returning id, kind, data, created_at)
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'kind', kind, 'data', data, 'created_at', created_at)
                            order by id), '[]')
    from taken
$$;

-- ---------------------------------------------------------------------------------------------
-- Access: row level security on, nothing for anon/authenticated, functions for service_role.
alter table public.user_notices enable row level security;
revoke all on public.user_notices from anon, authenticated;
grant all on public.user_notices to service_role;
revoke all on sequence public.user_notices_id_seq from anon, authenticated;
grant usage, select on sequence public.user_notices_id_seq to service_role;

revoke all on function public.provision_user(text, text, text, text, boolean) from public, anon, authenticated;
revoke all on function public.referral_code_exists(text) from public, anon, authenticated;
revoke all on function public.try_referral_credit(text) from public, anon, authenticated;
revoke all on function public.record_email_verified(text) from public, anon, authenticated;
revoke all on function public.get_referrals(text) from public, anon, authenticated;
revoke all on function public.settle_withdrawal(uuid, text, text, text) from public, anon, authenticated;
revoke all on function public.mark_payout_sent(uuid, text, text) from public, anon, authenticated;
revoke all on function public.record_payout_status(uuid, text) from public, anon, authenticated;
revoke all on function public.operator_withdrawals(text, text) from public, anon, authenticated;
revoke all on function public.take_user_notices(text) from public, anon, authenticated;

grant execute on function public.provision_user(text, text, text, text, boolean) to service_role;
grant execute on function public.referral_code_exists(text) to service_role;
grant execute on function public.record_email_verified(text) to service_role;
grant execute on function public.get_referrals(text) to service_role;
grant execute on function public.settle_withdrawal(uuid, text, text, text) to service_role;
grant execute on function public.mark_payout_sent(uuid, text, text) to service_role;
grant execute on function public.record_payout_status(uuid, text) to service_role;
grant execute on function public.operator_withdrawals(text, text) to service_role;
grant execute on function public.take_user_notices(text) to service_role;
