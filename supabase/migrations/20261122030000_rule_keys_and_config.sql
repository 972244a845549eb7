-- Stable rule identifiers and one source of truth for the constants SQL enforces.
--
-- 1. Every `raise exception` carries a stable identifier in HINT (e.g. `already_checked_in`).
--    The app maps the identifier to the spec's message in one place (app/domain/rules.ts) and
--    never reads the message text, which stays readable for operators. A value the message
--    needs (the minimum of a withdrawal) travels in DETAIL. PostgREST passes code, message,
--    details and hint through, so all three transports see the same identifiers.
-- 2. The constants that SQL enforces live in app_config, and the app reads them from
--    get_app_config(): the check-in reward and the withdrawal minimums join the coin rate.
--    An update of app_config sends pg_notify('app_config') so that servers drop their copy.
--
-- The functions below are the previous versions with only these changes; `create or replace`
-- keeps their grants.
--
-- Redefines: public.get_app_config, public.transaction_history_append_only, public.provision_user
-- Redefines: public.create_withdrawal, public.settle_withdrawal, public.ledger_move
-- Redefines: public.add_user_coins, public.daily_checkin, public.start_task, public.complete_task
-- Redefines: public.record_postback

-- ---------------------------------------------------------------------------------------------
-- Constants
alter table public.app_config
  add column checkin_coins integer not null default 10 check (checkin_coins > 0),
  add column min_withdrawal_paypal numeric(12, 2) not null default 5 check (min_withdrawal_paypal > 0),
  add column min_withdrawal_upi numeric(12, 2) not null default 1 check (min_withdrawal_upi > 0),
  add column min_withdrawal_bank numeric(12, 2) not null default 10 check (min_withdrawal_bank > 0);

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
                                                'bank', min_withdrawal_bank))
    from app_config
$$;

create function public.notify_app_config_changed() returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  perform pg_notify('app_config', '');
  return null;
end
$$;

create trigger app_config_notify
  after insert or update or delete on public.app_config
  for each statement execute function public.notify_app_config_changed();

revoke all on function public.notify_app_config_changed() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- The ledger stays append-only.
create or replace function public.transaction_history_append_only() returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  if tg_op = 'DELETE' then
    if exists (select from public.user_profiles where id = old.user_id) then
      raise exception 'transaction_history is append-only: rows cannot be deleted'
        using errcode = 'P0001', hint = 'ledger_append_only';
    end if;
    return old;
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
-- Accounts
create or replace function public.provision_user(p_user_id text, p_email text, p_display_name text)
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
    raise exception 'User id is required' using errcode = 'P0001', hint = 'user_id_required';
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

  insert into user_balance (user_id) values (p_user_id) on conflict (user_id) do nothing;
  insert into notification_preferences (user_id) values (p_user_id) on conflict (user_id) do nothing;

  return get_user_summary(p_user_id);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Withdrawals: the spec's order (§5), minimums from app_config.
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
  v_withdrawal withdrawals;
begin
  -- At most two decimals; the numeric(12,2) columns would otherwise round silently.
  if amount_param is null or amount_param <= 0 or amount_param <> round(amount_param, 2) then
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

  -- Only the chosen method's recipient is kept, trimmed.
  if payment_method_param = 'paypal' then
    v_email := nullif(trim(recipient_email_param), '');
    if v_email is null then
      raise exception 'Please enter your PayPal email'
        using errcode = 'P0001', hint = 'paypal_email_required';
    end if;
  elsif payment_method_param = 'upi' then
    v_upi := nullif(trim(recipient_upi_param), '');
    if v_upi is null then
      raise exception 'Please enter your UPI ID' using errcode = 'P0001', hint = 'upi_id_required';
    end if;
  else
    -- ->> gives null for a missing key or a non-object, so both count as blank.
    v_details := nullif(trim(recipient_bank_details_param ->> 'details'), '');
    if v_details is null then
      raise exception 'Please enter your bank account details'
        using errcode = 'P0001', hint = 'bank_details_required';
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

create or replace function public.settle_withdrawal(p_withdrawal_id uuid, p_status text) returns jsonb
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
    raise exception 'Withdrawal is not pending'
      using errcode = 'P0001', hint = 'withdrawal_not_pending';
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

-- ---------------------------------------------------------------------------------------------
-- Earning
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
  end if;
  return jsonb_build_object('coins', p_coins, 'amount', p_amount, 'balance', v_balance);
end
$$;

create or replace function public.add_user_coins(user_id_param text, amount_param integer) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
begin
  if amount_param is null or amount_param <= 0 then
    raise exception 'Coins must be a positive whole number' using errcode = 'P0001', hint = 'invalid_coins';
  end if;
  return ledger_move(user_id_param, 'bonus', amount_param, coins_to_dollars(amount_param),
                     'Bonus coins');
end
$$;

-- Spec §4/§5: one check-in per user and calendar date (UTC); the reward is app_config's.
create or replace function public.daily_checkin(p_user_id text) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_coins integer := (select checkin_coins from app_config);
  v_today date := (now() at time zone 'UTC')::date;
begin
  -- Racing check-ins queue on the unique (user_id, check_date) index; only one inserts.
  insert into daily_checkins (user_id, check_date, coins_earned)
  values (p_user_id, v_today, v_coins)
  on conflict (user_id, check_date) do nothing;
  if not found then
    raise exception 'Already checked in today!' using errcode = 'P0001', hint = 'already_checked_in';
  end if;
  return ledger_move(p_user_id, 'checkin', v_coins, coins_to_dollars(v_coins), 'Daily check-in')
         || jsonb_build_object('check_date', v_today);
end
$$;

create or replace function public.start_task(p_user_id text, p_task_id text, p_title text, p_reward integer)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_started_at timestamptz;
begin
  if exists (select from completed_tasks where user_id = p_user_id and task_id = p_task_id) then
    return jsonb_build_object('task_id', p_task_id, 'already_completed', true);
  end if;
  if p_reward is null or p_reward < 0 then
    raise exception 'Invalid reward' using errcode = 'P0001', hint = 'invalid_reward';
  end if;
  -- Starting again restarts the clock.
  insert into task_starts (user_id, task_id, title, reward)
  values (p_user_id, p_task_id, coalesce(nullif(trim(p_title), ''), p_task_id), p_reward)
  on conflict (user_id, task_id)
    do update set title = excluded.title, reward = excluded.reward, started_at = now()
  returning started_at into v_started_at;
  return jsonb_build_object('task_id', p_task_id, 'already_completed', false,
                            'started_at', v_started_at);
end
$$;

create or replace function public.complete_task(p_user_id text, p_task_id text, p_min_seconds integer)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_start task_starts;
  v_move jsonb;
begin
  if exists (select from completed_tasks where user_id = p_user_id and task_id = p_task_id) then
    return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', 0);
  end if;
  -- Racing completions queue here; the start row is kept, so each finds it.
  select * into v_start from task_starts
   where user_id = p_user_id and task_id = p_task_id
   for update;
  if not found then
    raise exception 'Task was not started' using errcode = 'P0001', hint = 'task_not_started';
  end if;
  if now() < v_start.started_at + make_interval(secs => greatest(p_min_seconds, 0)) then
    raise exception 'Task is not finished yet' using errcode = 'P0001', hint = 'task_not_finished';
  end if;
  insert into completed_tasks (user_id, task_id, reward)
  values (p_user_id, p_task_id, v_start.reward)
  on conflict (user_id, task_id) do nothing;
  if not found then
    return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', 0);
  end if;
  v_move := ledger_move(p_user_id, 'task', v_start.reward, coins_to_dollars(v_start.reward),
                        'Task completed: ' || v_start.title);
  return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', v_start.reward,
                            'balance', v_move -> 'balance');
end
$$;

create or replace function public.record_postback(p_provider text, p_transaction_id text, p_user_id text,
                                                  p_coins integer, p_reversal boolean, p_description text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_kind text := case when p_reversal then 'reversal' else 'credit' end;
  v_id bigint;
  v_credited numeric;
  v_balance numeric;
  v_amount numeric;
  v_coins integer;
  c_rate integer := (select coins_per_dollar from app_config);
begin
  if p_coins is null or p_coins < 0 then
    raise exception 'Coins must be zero or more' using errcode = 'P0001', hint = 'invalid_coins';
  end if;
  if not exists (select from user_profiles where id = p_user_id) then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- Racing repeats of one postback queue on the unique key; only the first is recorded.
  insert into provider_postbacks (provider, transaction_id, kind, user_id, coins)
  values (p_provider, p_transaction_id, v_kind, p_user_id, p_coins)
  on conflict (provider, transaction_id, kind) do nothing
  returning id into v_id;
  if v_id is null then
    return jsonb_build_object('duplicate', true, 'amount', 0);
  end if;

  if not p_reversal then
    v_amount := coins_to_dollars(p_coins);
    v_coins := p_coins;
    perform ledger_move(p_user_id, 'postback', v_coins, v_amount, p_description);
  else
    -- Take back what the matching credit gave, but never more than the balance holds now.
    select amount into v_credited from provider_postbacks
     where provider = p_provider and transaction_id = p_transaction_id and kind = 'credit'
       and user_id = p_user_id;
    select balance into v_balance from user_balance where user_id = p_user_id for update;
    v_amount := -least(coalesce(v_credited, 0), coins_to_dollars(p_coins), v_balance);
    v_coins := -ceil(-v_amount * c_rate)::integer;
    if v_amount < 0 then
      perform ledger_move(p_user_id, 'postback_reversal', v_coins, v_amount, p_description);
    end if;
  end if;
  update provider_postbacks set amount = v_amount where id = v_id;
  return jsonb_build_object('duplicate', false, 'amount', v_amount, 'coins', v_coins);
end
$$;
