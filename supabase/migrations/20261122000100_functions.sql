-- Database functions: the only way the app reads and changes accounts and money.
--
-- Every function is security definer with a fixed search_path, returns jsonb, is called with
-- named arguments (`select public.fn(p_user_id => $1, ...)` or supabase-js `.rpc()`), and may
-- be executed by service_role only. The user id always comes from the server's verified
-- session, never from a form.
--
-- Rule violations are `raise exception ... using errcode = 'P0001'` with the spec's exact
-- user-facing message (spec §5), so the app can show error.message as it is.
--
-- Ledger rule (see 20261122000000_initial_schema.sql):
--   balance      = sum(amount) over the user's transaction_history rows with status <> 'failed'
--   total_earned = the same sum restricted to amount > 0.
-- A withdrawal writes one -amount row ('pending'); settling marks that row 'completed' or
-- 'failed'; a failure credits the balance back and writes no refund row.

-- The shape of a withdrawal the app sees (spec §3): id, created_at, amount, payment_method, status.
create function public.withdrawal_json(w public.withdrawals) returns jsonb
  language sql
  immutable
  set search_path = public, pg_temp
as $$
  select jsonb_build_object(
    'id', w.id,
    'created_at', w.created_at,
    'amount', w.amount,
    'payment_method', w.payment_method,
    'status', w.status)
$$;

-- Cheap liveness probe for the app's health check.
create function public.app_health() returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
begin
  return jsonb_build_object('ok', true, 'time', now());
end
$$;

-- The profile with its balance, or null when the user has no profile.
create function public.get_user_summary(p_user_id text) returns jsonb
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
           'display_name', p.display_name,
           'username', p.username,
           'referral_code', p.referral_code,
           'preferences', p.preferences,
           'created_at', p.created_at,
           'balance', coalesce(b.balance, 0),
           'total_earned', coalesce(b.total_earned, 0))
    into v_result
    from user_profiles p
    left join user_balance b on b.user_id = p.id
   where p.id = p_user_id;
  return v_result;
end
$$;

-- Idempotent provisioning on sign-in: creates whatever of profile, balance and notification
-- preferences is missing, and never overwrites what exists. Two concurrent calls for the
-- same new user are safe: every insert is `on conflict do nothing`, and the loser of the
-- race waits on the unique index, then finds the winner's row.
create function public.provision_user(p_user_id text, p_email text, p_display_name text)
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
  v_code text;
  v_attempts integer := 0;
begin
  if nullif(trim(p_user_id), '') is null then
    raise exception 'User id is required' using errcode = 'P0001';
  end if;

  -- A conflict is either the same user (created concurrently or earlier: done) or a
  -- referral code collision (try another code).
  while not exists (select from user_profiles where id = p_user_id) loop
    v_attempts := v_attempts + 1;
    if v_attempts > 20 then
      raise exception 'Could not generate a unique referral code' using errcode = 'P0001';
    end if;
    select string_agg(substr(c_alphabet, 1 + floor(random() * 32)::integer, 1), '')
      into v_code
      from generate_series(1, 7);
    insert into user_profiles (id, email, display_name, referral_code)
    values (p_user_id, v_email, v_name, v_code)
    on conflict do nothing;
  end loop;

  -- An older profile may lack the email; fill it in, never replace it.
  if v_email is not null then
    update user_profiles
       set email = v_email, updated_at = now()
     where id = p_user_id and email is null;
  end if;
  -- (referral_code is NOT NULL, so there is never a missing code to fill in.)

  insert into user_balance (user_id) values (p_user_id) on conflict (user_id) do nothing;
  insert into notification_preferences (user_id) values (p_user_id) on conflict (user_id) do nothing;

  return get_user_summary(p_user_id);
end
$$;

-- A withdrawal request: validates in the spec's order (§5), deducts the balance, records the
-- withdrawal (pending) and its ledger row, all in the caller's one transaction.
create function public.create_withdrawal(
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
  v_balance numeric;
  v_minimum numeric;
  v_label text;
  v_email text;
  v_upi text;
  v_details text;
  v_withdrawal withdrawals;
begin
  if amount_param is null or amount_param <= 0 then
    raise exception 'Please enter a valid amount' using errcode = 'P0001';
  end if;
  -- At most two decimals; the numeric(12,2) columns would otherwise round silently.
  if amount_param <> round(amount_param, 2) then
    raise exception 'Please enter a valid amount' using errcode = 'P0001';
  end if;

  -- Serialises this user's balance changes until commit.
  select balance into v_balance from user_balance where user_id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001';
  end if;
  if amount_param > v_balance then
    raise exception 'Amount exceeds your available balance' using errcode = 'P0001';
  end if;

  -- Method minimums (spec §9).
  case payment_method_param
    when 'paypal' then v_minimum := 5;  v_label := 'PayPal';
    when 'upi'    then v_minimum := 1;  v_label := 'UPI';
    when 'bank'   then v_minimum := 10; v_label := 'bank transfer';
    else raise exception 'Unsupported payment method' using errcode = 'P0001';
  end case;
  if amount_param < v_minimum then
    raise exception 'Minimum withdrawal amount is $%', to_char(v_minimum, 'FM999999990.00')
      using errcode = 'P0001';
  end if;

  -- Only the chosen method's recipient is kept, trimmed.
  if payment_method_param = 'paypal' then
    v_email := nullif(trim(recipient_email_param), '');
    if v_email is null then
      raise exception 'Please enter your PayPal email' using errcode = 'P0001';
    end if;
  elsif payment_method_param = 'upi' then
    v_upi := nullif(trim(recipient_upi_param), '');
    if v_upi is null then
      raise exception 'Please enter your UPI ID' using errcode = 'P0001';
    end if;
  else
    -- ->> gives null for a missing key or a non-object, so both count as blank.
    v_details := nullif(trim(recipient_bank_details_param ->> 'details'), '');
    if v_details is null then
      raise exception 'Please enter your bank account details' using errcode = 'P0001';
    end if;
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

-- The user's withdrawals, newest first; always an array.
create function public.get_user_withdrawals(p_user_id text) returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  return coalesce(
    (select jsonb_agg(withdrawal_json(w) order by w.created_at desc, w.id)
       from withdrawals w
      where w.user_id = p_user_id),
    '[]'::jsonb);
end
$$;

-- Operator settlement of a pending withdrawal (no screen in the product: spec §4).
-- 'failed' credits the amount back and marks the withdrawal's ledger row failed, which keeps
-- balance = sum of non-failed ledger rows without a refund row.
create function public.settle_withdrawal(p_withdrawal_id uuid, p_status text) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_withdrawal withdrawals;
begin
  if p_status is null or p_status not in ('completed', 'failed') then
    raise exception 'Invalid status' using errcode = 'P0001';
  end if;

  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001';
  end if;
  if v_withdrawal.status <> 'pending' then
    raise exception 'Withdrawal is not pending' using errcode = 'P0001';
  end if;

  update withdrawals
     set status = p_status, settled_at = now()
   where id = p_withdrawal_id
  returning * into v_withdrawal;

  update transaction_history set status = p_status where withdrawal_id = p_withdrawal_id;

  if p_status = 'failed' then
    update user_balance
       set balance = balance + v_withdrawal.amount, updated_at = now()
     where user_id = v_withdrawal.user_id;
  end if;

  return withdrawal_json(v_withdrawal);
end
$$;

-- Audit: the stored balance against the ledger (rule above). Null when there is no balance row.
create function public.verify_user_balance(p_user_id text) returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_balance numeric;
  v_total_earned numeric;
  v_ledger_balance numeric;
  v_ledger_total_earned numeric;
begin
  select balance, total_earned into v_balance, v_total_earned
    from user_balance where user_id = p_user_id;
  if not found then
    return null;
  end if;
  select coalesce(sum(amount), 0), coalesce(sum(amount) filter (where amount > 0), 0)
    into v_ledger_balance, v_ledger_total_earned
    from transaction_history
   where user_id = p_user_id and status <> 'failed';
  return jsonb_build_object(
    'balance', v_balance,
    'total_earned', v_total_earned,
    'ledger_balance', v_ledger_balance,
    'ledger_total_earned', v_ledger_total_earned,
    'consistent', v_balance = v_ledger_balance and v_total_earned = v_ledger_total_earned);
end
$$;

-- Functions are executable by PUBLIC by default, and on Supabase also by anon/authenticated.
revoke all on function public.withdrawal_json(public.withdrawals) from public, anon, authenticated;
revoke all on function public.app_health() from public, anon, authenticated;
revoke all on function public.get_user_summary(text) from public, anon, authenticated;
revoke all on function public.provision_user(text, text, text) from public, anon, authenticated;
revoke all on function public.create_withdrawal(text, numeric, text, text, text, jsonb)
  from public, anon, authenticated;
revoke all on function public.get_user_withdrawals(text) from public, anon, authenticated;
revoke all on function public.settle_withdrawal(uuid, text) from public, anon, authenticated;
revoke all on function public.verify_user_balance(text) from public, anon, authenticated;

grant execute on function public.withdrawal_json(public.withdrawals) to service_role;
grant execute on function public.app_health() to service_role;
grant execute on function public.get_user_summary(text) to service_role;
grant execute on function public.provision_user(text, text, text) to service_role;
grant execute on function public.create_withdrawal(text, numeric, text, text, text, jsonb)
  to service_role;
grant execute on function public.get_user_withdrawals(text) to service_role;
grant execute on function public.settle_withdrawal(uuid, text) to service_role;
grant execute on function public.verify_user_balance(text) to service_role;
