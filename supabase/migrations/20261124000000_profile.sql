-- Profile: the display name, recent activity, notification switches and push tokens, feedback,
-- and the account's end: deactivation and deletion.
--
-- Deletion removes the person and keeps the money. The profile and everything that is only about
-- the person go (balance, check-ins, completions, preferences, tokens, notices, feedback); the
-- ledger, withdrawals and provider postbacks stay, detached (user_id null), so every amount ever
-- moved can still be accounted for. Their payout addresses and the account's email are kept only
-- as keyed hashes (computed by the app, whose key never enters the database): the payout review
-- still sees an address coming back, and an email that left cannot bring a referral again.
--
-- Redefines: public.transaction_history_append_only, public.create_withdrawal
-- Redefines: public.operator_withdrawals

-- ---------------------------------------------------------------------------------------------
-- Money records outlive the profile: the cascades from the profile to them become "set null".
do $$
declare
  r record;
begin
  for r in
    select conrelid::regclass as tbl, conname
      from pg_constraint
     where contype = 'f'
       and confrelid = 'public.user_profiles'::regclass
       and conrelid in ('public.transaction_history'::regclass, 'public.withdrawals'::regclass,
                        'public.provider_postbacks'::regclass)
  loop
    execute format('alter table %s drop constraint %I', r.tbl, r.conname);
  end loop;
  -- A withdrawal's recipient is required while it belongs to someone (after a deletion only the
  -- hash is kept).
  for r in
    select conname from pg_constraint
     where conrelid = 'public.withdrawals'::regclass
       and contype = 'c'
       and pg_get_constraintdef(oid) like '%recipient_%'
  loop
    execute format('alter table public.withdrawals drop constraint %I', r.conname);
  end loop;
end
$$;

alter table public.transaction_history
  alter column user_id drop not null,
  add constraint transaction_history_user_fk foreign key (user_id)
    references public.user_profiles (id) on delete set null;
alter table public.withdrawals
  alter column user_id drop not null,
  add constraint withdrawals_user_fk foreign key (user_id)
    references public.user_profiles (id) on delete set null,
  -- A keyed hash of the recipient (lower-cased), so the review can match an address across accounts,
  -- deleted ones included.
  add column recipient_hash text,
  add constraint withdrawals_recipient_check check (
    user_id is null
    or case payment_method
         when 'paypal' then coalesce(trim(recipient_email), '') <> ''
         when 'upi' then coalesce(trim(recipient_upi), '') <> ''
         else coalesce(trim(recipient_bank_details ->> 'details'), '') <> ''
       end);
alter table public.provider_postbacks
  alter column user_id drop not null,
  add constraint provider_postbacks_user_fk foreign key (user_id)
    references public.user_profiles (id) on delete set null;
create index withdrawals_recipient_hash_idx on public.withdrawals (recipient_hash);

-- Emails of deleted accounts, as keyed hashes: they may sign up again, without a referral.
create table public.deleted_accounts (
  email_hash text primary key,
  deleted_at timestamptz not null default now()
);

-- The ledger stays append-only; the one other change it allows is losing its owner when the
-- profile is deleted (the foreign key's "set null", after the profile row is gone).
create or replace function public.transaction_history_append_only() returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'transaction_history is append-only: rows cannot be deleted'
      using errcode = 'P0001', hint = 'ledger_append_only';
  end if;
  if new.user_id is null and old.user_id is not null
     and not exists (select from public.user_profiles where id = old.user_id)
     and (new.id, new.created_at, new.description, new.transaction_type, new.amount,
          new.withdrawal_id, new.coins, new.status)
         is not distinct from
         (old.id, old.created_at, old.description, old.transaction_type, old.amount,
          old.withdrawal_id, old.coins, old.status) then
    return new;
  end if;
  if (new.id, new.user_id, new.created_at, new.description, new.transaction_type,
      new.amount, new.withdrawal_id, new.coins)
     is distinct from
     (old.id, old.user_id, old.created_at, old.description, old.transaction_type,
      old.amount, old.withdrawal_id, old.coins) then
    raise exception 'transaction_history is append-only: only status can change'
      using errcode = 'P0001', hint = 'ledger_append_only';
  end if;
  return new;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Personal information
-- Spec §5 names no bound; here: 1 to 50 characters after trimming, no control characters.
create function public.update_display_name(p_user_id text, p_display_name text) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_name text := trim(coalesce(p_display_name, ''));
begin
  if char_length(v_name) not between 1 and 50 or v_name ~ '[[:cntrl:]]' then
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

-- Spec §7: the user's 10 newest ledger rows.
create function public.get_recent_activity(p_user_id text, p_limit integer default 10) returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', t.id,
           'created_at', t.created_at,
           'description', t.description,
           'transaction_type', t.transaction_type,
           'amount', t.amount,
           'status', t.status,
           'coins', t.coins) order by t.created_at desc, t.id desc), '[]')
    from (select * from transaction_history
           where user_id = p_user_id
           order by created_at desc, id desc
           limit least(greatest(coalesce(p_limit, 10), 1), 50)) t
$$;

-- ---------------------------------------------------------------------------------------------
-- Notification switches (spec §2, §7): all on by default; a missing row reads as the defaults.
create function public.get_notification_preferences(p_user_id text) returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select jsonb_build_object(
           'email', coalesce(n.email_notifications, true),
           'push', coalesce(n.push_notifications, true),
           'marketing', coalesce(n.marketing_notifications, true),
           'withdrawal', coalesce(n.withdrawal_notifications, true),
           'reward', coalesce(n.reward_notifications, true))
    from (select 1) one
    left join notification_preferences n on n.user_id = p_user_id
$$;

create function public.set_notification_preference(p_user_id text, p_kind text, p_enabled boolean)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
begin
  if p_kind is null or p_kind not in ('email', 'push', 'marketing', 'withdrawal', 'reward') or p_enabled is null then
    raise exception 'Unknown notification setting' using errcode = 'P0001', hint = 'invalid_notification_setting';
  end if;
  if not exists (select from user_profiles where id = p_user_id) then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  insert into notification_preferences (user_id) values (p_user_id) on conflict (user_id) do nothing;
  execute format('update notification_preferences set %I = $1, updated_at = now() where user_id = $2',
                 p_kind || '_notifications')
    using p_enabled, p_user_id;
  return get_notification_preferences(p_user_id);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Push tokens (spec §7: duplicates tolerated; §9: refreshed after 7 days). Registering a token
-- again renews it; a user keeps at most 10 devices (the oldest go).
create function public.register_push_token(p_user_id text, p_token text, p_now timestamptz default now())
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
begin
  if p_token is null or char_length(p_token) not between 20 and 4096 or p_token ~ '[[:space:][:cntrl:]]' then
    raise exception 'Invalid push token' using errcode = 'P0001', hint = 'invalid_push_token';
  end if;
  if not exists (select from user_profiles where id = p_user_id) then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  insert into user_fcm_tokens (user_id, fcm_token, created_at) values (p_user_id, p_token, p_now)
  on conflict (user_id, fcm_token) do update set created_at = excluded.created_at;
  delete from user_fcm_tokens
   where user_id = p_user_id
     and id not in (select id from user_fcm_tokens where user_id = p_user_id
                     order by created_at desc, id desc limit 10);
  return push_token_status(p_user_id, p_token, p_now);
end
$$;

-- Whether this device's token is on file, and whether it is due for its 7-day refresh.
create function public.push_token_status(p_user_id text, p_token text, p_now timestamptz default now())
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select jsonb_build_object(
           'registered', t.created_at is not null,
           'registered_at', t.created_at,
           'refresh', t.created_at is null or t.created_at <= p_now - interval '7 days')
    from (select 1) one
    left join user_fcm_tokens t on t.user_id = p_user_id and t.fcm_token = p_token
$$;

create function public.delete_push_token(p_user_id text, p_token text) returns jsonb
  language sql
  security definer
  set search_path = public, pg_temp
as $$
  with gone as (delete from user_fcm_tokens where user_id = p_user_id and fcm_token = p_token returning 1)
  select jsonb_build_object('deleted', (select count(*) from gone))
$$;

-- ---------------------------------------------------------------------------------------------
-- Feedback (spec §5): name, email and message all non-empty after trimming; kept with the account
-- that sent it and listed by that account (not by an email, which a later account may reuse).
create function public.submit_feedback(p_user_id text, p_name text, p_email text, p_message text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  -- Trimmed of spaces, tabs and line breaks, as the form trims: a message of line breaks is blank.
  v_name text := btrim(coalesce(p_name, ''), E' \t\n\r\f\x0B');
  v_email text := btrim(coalesce(p_email, ''), E' \t\n\r\f\x0B');
  v_message text := btrim(coalesce(p_message, ''), E' \t\n\r\f\x0B');
  v_id bigint;
begin
  if v_name = '' or v_email = '' or v_message = '' then
    raise exception 'Please fill out all fields' using errcode = 'P0001', hint = 'feedback_fields_required';
  end if;
  if char_length(v_message) > 2000 or char_length(v_name) > 100 or char_length(v_email) > 254 then
    raise exception 'Feedback too long' using errcode = 'P0001', hint = 'feedback_too_long';
  end if;
  if not exists (select from user_profiles where id = p_user_id) then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  insert into user_feedback (user_id, name, email, message)
  values (p_user_id, v_name, v_email, v_message)
  returning id into v_id;
  return jsonb_build_object('id', v_id);
end
$$;

create function public.get_user_feedback(p_user_id text) returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'created_at', created_at, 'message', message)
                            order by created_at desc, id desc), '[]')
    from user_feedback
   where user_id = p_user_id
$$;

-- ---------------------------------------------------------------------------------------------
-- Deactivation (spec §4): is_active false; signing in again reactivates (the app says so).
create function public.set_account_active(p_user_id text, p_active boolean) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_was boolean;
begin
  select coalesce((preferences ->> 'is_active')::boolean, true) into v_was
    from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  update user_profiles
     set preferences = preferences || jsonb_build_object('is_active', coalesce(p_active, true)),
         updated_at = now()
   where id = p_user_id;
  return jsonb_build_object('was_active', v_was, 'is_active', coalesce(p_active, true));
end
$$;

-- What the app needs before deleting: the email (for its hash) and the payout addresses of
-- withdrawals that have no hash yet (made before hashes were kept).
create function public.account_deletion_facts(p_user_id text) returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select jsonb_build_object(
           'email', p.email,
           'pending_withdrawals', (select count(*) from withdrawals w
                                    where w.user_id = p.id and w.status = 'pending'),
           'unhashed_recipients', coalesce((
             select jsonb_object_agg(w.id, coalesce(w.recipient_email, w.recipient_upi,
                                                    w.recipient_bank_details ->> 'details'))
               from withdrawals w where w.user_id = p.id and w.recipient_hash is null), '{}'::jsonb))
    from user_profiles p
   where p.id = p_user_id
$$;

-- Deletes the person (see the top of this file). Refused while a withdrawal is pending: its
-- money is still on its way. p_recipient_hashes maps withdrawal ids without a hash to theirs.
create function public.delete_account(p_user_id text, p_email_hash text, p_recipient_hashes jsonb default '{}')
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_withdrawals uuid[];
begin
  perform from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- The profile lock above queues behind a withdrawal being made right now (create_withdrawal
  -- holds the profile before the balance); the balance lock queues behind any other balance change.
  perform from user_balance where user_id = p_user_id for update;
  if exists (select from withdrawals where user_id = p_user_id and status = 'pending') then
    raise exception 'A withdrawal is pending' using errcode = 'P0001', hint = 'withdrawal_pending';
  end if;

  if nullif(trim(p_email_hash), '') is not null then
    insert into deleted_accounts (email_hash) values (p_email_hash)
    on conflict (email_hash) do update set deleted_at = now();
  end if;
  select coalesce(array_agg(id), '{}') into v_withdrawals from withdrawals where user_id = p_user_id;
  update withdrawals
     set recipient_hash = coalesce(recipient_hash, p_recipient_hashes ->> id::text)
   where id = any (v_withdrawals);
  delete from user_feedback where user_id = p_user_id;
  -- Cascades to what is only about the person; detaches the ledger, withdrawals and postbacks.
  delete from user_profiles where id = p_user_id;
  update withdrawals
     set recipient_email = null, recipient_upi = null, recipient_bank_details = null
   where id = any (v_withdrawals);
  return jsonb_build_object('deleted', true, 'withdrawals_kept', coalesce(array_length(v_withdrawals, 1), 0));
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Withdrawals keep their recipient's keyed hash from the start (an optional last argument, so
-- calls with the spec's arguments are unchanged); the review matches addresses by it too.
drop function public.create_withdrawal(text, numeric, text, text, text, jsonb);

create function public.create_withdrawal(
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

create or replace function public.operator_withdrawals(p_status text default 'pending', p_method text default null)
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
    -- The ledger row's identity orders withdrawals of one millisecond (see get_user_withdrawals).
    left join transaction_history l on l.withdrawal_id = w.id
   where (p_status is null or w.status = p_status)
     and (p_method is null or w.payment_method = p_method)
$$;

-- Provisioning: a referral code does not apply to an email that belonged to a deleted account.
create or replace function public.referral_allowed_for(p_email_hash text) returns boolean
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select p_email_hash is null or not exists (select from deleted_accounts where email_hash = p_email_hash)
$$;

-- ---------------------------------------------------------------------------------------------
-- Access
alter table public.deleted_accounts enable row level security;
revoke all on public.deleted_accounts from anon, authenticated;
grant all on public.deleted_accounts to service_role;

revoke all on function public.update_display_name(text, text) from public, anon, authenticated;
revoke all on function public.get_recent_activity(text, integer) from public, anon, authenticated;
revoke all on function public.get_notification_preferences(text) from public, anon, authenticated;
revoke all on function public.set_notification_preference(text, text, boolean) from public, anon, authenticated;
revoke all on function public.register_push_token(text, text, timestamptz) from public, anon, authenticated;
revoke all on function public.push_token_status(text, text, timestamptz) from public, anon, authenticated;
revoke all on function public.delete_push_token(text, text) from public, anon, authenticated;
revoke all on function public.submit_feedback(text, text, text, text) from public, anon, authenticated;
revoke all on function public.get_user_feedback(text) from public, anon, authenticated;
revoke all on function public.set_account_active(text, boolean) from public, anon, authenticated;
revoke all on function public.account_deletion_facts(text) from public, anon, authenticated;
revoke all on function public.delete_account(text, text, jsonb) from public, anon, authenticated;
revoke all on function public.create_withdrawal(text, numeric, text, text, text, jsonb, text)
  from public, anon, authenticated;
revoke all on function public.referral_allowed_for(text) from public, anon, authenticated;

grant execute on function public.update_display_name(text, text) to service_role;
grant execute on function public.get_recent_activity(text, integer) to service_role;
grant execute on function public.get_notification_preferences(text) to service_role;
grant execute on function public.set_notification_preference(text, text, boolean) to service_role;
grant execute on function public.register_push_token(text, text, timestamptz) to service_role;
grant execute on function public.push_token_status(text, text, timestamptz) to service_role;
grant execute on function public.delete_push_token(text, text) to service_role;
grant execute on function public.submit_feedback(text, text, text, text) to service_role;
grant execute on function public.get_user_feedback(text) to service_role;
grant execute on function public.set_account_active(text, boolean) to service_role;
grant execute on function public.account_deletion_facts(text) to service_role;
grant execute on function public.delete_account(text, text, jsonb) to service_role;
grant execute on function public.create_withdrawal(text, numeric, text, text, text, jsonb, text) to service_role;
grant execute on function public.referral_allowed_for(text) to service_role;
