-- Redefines: public.record_postback, public.create_withdrawal, public.operator_withdrawals
--
-- Reversals are never lost (issue 17, part 4; docs/decisions/065-reversals-are-never-lost.md).
-- A reversal took back at most what the balance still held (`least(credited, balance)`), so a
-- 1,000-coin credit withdrawn at once was reversed for $0.00. Now:
--
-- - a reversal takes back all that its credit gave, even below zero (the balance check goes;
--   total_earned keeps its own: a reversal never takes more than its credit added to it);
-- - create_withdrawal refuses any amount while the balance is negative (`negative_balance`), in the
--   place of the balance check: a balance of zero or more is checked as before;
-- - later earnings pay the debt first: every credit adds to the balance as it is, none clamps;
-- - operator_negative_balances() lists the accounts below zero with the reversals behind them
--   (`npm run payouts -- negative`), and operator_withdrawals() gives each withdrawal's account
--   balance, so `list` warns about a pending withdrawal whose money a reversal took back since.
--
-- record_postback, create_withdrawal and operator_withdrawals are the texts in supabase/schema/functions/ (last written by
-- 20261125000000_offer_confirmation.sql and 20261128000000_display_names_and_recipients.sql) with
-- only those changes.

alter table public.user_balance drop constraint user_balance_balance_check;

create or replace function public.record_postback(p_provider text, p_transaction_id text, p_user_id text,
                                                  p_coins integer, p_reversal boolean, p_description text,
                                                  p_offer_id text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_kind text := case when p_reversal then 'reversal' else 'credit' end;
  v_id bigint;
  v_credited numeric;
  v_reversed_coins integer;
  v_amount numeric;
  v_coins integer;
  v_title text;
  c_rate integer := (select coins_per_dollar from app_config);
begin
  -- Zero would use up the transaction id and pay nothing.
  if p_coins is null or p_coins <= 0 or p_coins > 10000000 then
    raise exception 'Coins must be a positive whole number' using errcode = 'P0001', hint = 'invalid_coins';
  end if;
  if not exists (select from user_profiles where id = p_user_id) then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- One postback of this (provider, transaction) at a time, until commit: what the one before
  -- did is visible to the next. (The two-key form has its own space: no other lock shares it.)
  perform pg_advisory_xact_lock(hashtext(p_provider), hashtext(p_transaction_id));
  -- Repeats of one postback are recorded once.
  insert into provider_postbacks (provider, transaction_id, kind, user_id, coins)
  values (p_provider, p_transaction_id, v_kind, p_user_id, p_coins)
  on conflict (provider, transaction_id, kind) do nothing
  returning id into v_id;
  if v_id is null then
    return jsonb_build_object('duplicate', true, 'amount', 0);
  end if;

  if not p_reversal then
    -- A reversal that came first (it moved nothing then) is taken off this credit.
    select coins into v_reversed_coins from provider_postbacks
     where provider = p_provider and transaction_id = p_transaction_id and kind = 'reversal'
       and user_id = p_user_id;
    v_coins := greatest(p_coins - coalesce(v_reversed_coins, 0), 0);
    v_amount := coins_to_dollars(v_coins);
    -- Added to the balance as it is: below zero, this pays the debt first.
    perform ledger_move(p_user_id, 'postback', v_coins, v_amount, p_description);
    if p_offer_id is not null then
      select title into v_title from task_starts where user_id = p_user_id and task_id = p_offer_id;
      -- The completion made in the app, or one for an offer finished on the provider's site.
      insert into completed_tasks (user_id, task_id, reward, status, provider, transaction_id, credited_at)
      values (p_user_id, p_offer_id, v_coins, 'credited', p_provider, p_transaction_id, now())
      on conflict (user_id, task_id) do update
        set status = 'credited', reward = excluded.reward, provider = excluded.provider,
            transaction_id = excluded.transaction_id, credited_at = excluded.credited_at
        where completed_tasks.status = 'pending';
    end if;
    -- A toast on the next visit, and push and email.
    if v_amount > 0 then
      insert into user_notices (user_id, kind, data)
      values (p_user_id, 'postback_reward',
              jsonb_build_object('coins', v_coins, 'amount', v_amount, 'provider', p_provider)
              || case when v_title is not null then jsonb_build_object('title', v_title) else '{}' end);
    end if;
  else
    -- Take back what the matching credit gave (at most), whatever the balance holds now: money
    -- already withdrawn leaves the balance negative, and no withdrawal is accepted until later
    -- earnings have paid it back. With no credit yet this moves nothing, and the credit, when it
    -- comes, is netted.
    select amount into v_credited from provider_postbacks
     where provider = p_provider and transaction_id = p_transaction_id and kind = 'credit'
       and user_id = p_user_id;
    v_amount := -least(coalesce(v_credited, 0), coins_to_dollars(p_coins));
    v_coins := -ceil(-v_amount * c_rate)::integer;
    if v_amount < 0 then
      perform ledger_move(p_user_id, 'postback_reversal', v_coins, v_amount, p_description);
    end if;
  end if;
  update provider_postbacks set amount = v_amount where id = v_id;
  return jsonb_build_object('duplicate', false, 'amount', v_amount, 'coins', v_coins);
end
$$;

create or replace function public.create_withdrawal(p_user_id text, amount_param numeric, payment_method_param text,
                                                    recipient_email_param text default null,
                                                    recipient_upi_param text default null,
                                                    recipient_bank_details_param jsonb default null,
                                                    p_recipient_hash text default null)
  returns jsonb
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
  -- A reversal took back money already withdrawn: nothing leaves until earnings have paid it back.
  -- (Any amount exceeds a negative balance; this says why, and what happens next.)
  if v_balance < 0 then
    raise exception 'Your balance is negative' using errcode = 'P0001', hint = 'negative_balance';
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
$$;

-- The operator's list of accounts below zero (`npm run payouts -- negative`): each with its
-- balance and the reversals that took back money it had already withdrawn, most in debt first.
create function public.operator_negative_balances()
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'user_id', b.user_id,
           'email', p.email,
           'balance', b.balance,
           'reversals', coalesce((
             select jsonb_agg(jsonb_build_object(
                      'provider', r.provider, 'transaction_id', r.transaction_id,
                      'amount', r.amount, 'created_at', r.created_at) order by r.created_at, r.id)
               from provider_postbacks r
              where r.user_id = b.user_id and r.kind = 'reversal' and r.amount < 0), '[]'::jsonb))
         order by b.balance, b.user_id), '[]')
    from user_balance b
    join user_profiles p on p.id = b.user_id
   where b.balance < 0
$$;

-- Few accounts are ever below zero: the list reads them, and their reversals, from small indexes.
create index user_balance_negative_idx on public.user_balance (balance, user_id) where balance < 0;
create index provider_postbacks_user_reversals_idx on public.provider_postbacks (user_id)
  where kind = 'reversal';

revoke all on function public.operator_negative_balances() from public, anon, authenticated;
grant execute on function public.operator_negative_balances() to service_role;
