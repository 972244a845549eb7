-- Redefines: public.transaction_history_append_only, public.ledger_move, public.record_postback, public.create_withdrawal, public.get_user_summary, public.verify_user_balance, public.verify_all_balances
--
-- Bonus money and holds (issue 17, parts 2 and 3; docs/decisions/066-bonus-money-and-holds.md).
--
-- - Every ledger row has a kind, generated from its type so it cannot be wrong or missing:
--   'earned' for what an offer network paid (postbacks, and their reversals, as negative earned
--   money), 'bonus' for the rest of the credits, none for withdrawals.
-- - Every row has available_at: a postback clears after its provider's hold (app_config
--   provider_hold_days, else postback_hold_days, default 7 days), everything else at once.
--   A reversal of a credit still in its hold takes back that pending money (it clears when the
--   credit would have); of a cleared one, available money now.
-- - user_balance.earned_total keeps Σ earned rows, so (with balance and total_earned) every part
--   is known without reading the ledger: bonus = total_earned - earned_total, withdrawn =
--   total_earned - balance; only the pending rows (those whose available_at is still ahead) are
--   read, from a partial index.
-- - Withdrawable (money_available) = cleared earned + unlocked bonus - withdrawn, at most the
--   balance, where bonus unlocks up to bonus_unlock_ratio × cleared earned (null: all unlocked).
--   create_withdrawal checks the amount against it, after the negative-balance refusal (065).
-- - apply_demo_settings() sets no hold and bonus unlocked, for `npm run dev` on PGlite.
--
-- The redefined functions are the texts in supabase/schema/functions/ with only those changes.

alter table public.app_config
  add column postback_hold_days integer not null default 7
    check (postback_hold_days between 0 and 365),
  -- {"provider": days}, for a provider whose reversals come sooner or later than the default.
  add column provider_hold_days jsonb not null default '{}'
    check (jsonb_typeof(provider_hold_days) = 'object'),
  -- $ of bonus unlocked by each cleared earned $; null: bonus money is withdrawable at once.
  add column bonus_unlock_ratio numeric(8,2) default 1.0 check (bonus_unlock_ratio >= 0);

alter table public.transaction_history
  add column kind text generated always as (
    case when transaction_type in ('postback', 'postback_reversal') then 'earned'
         when transaction_type = 'withdrawal' then null
         else 'bonus' end) stored,
  add column available_at timestamptz;
-- Money already credited stays available: it was credited under the old rules.
update public.transaction_history set available_at = created_at;
alter table public.transaction_history
  alter column available_at set default now(),
  alter column available_at set not null;

-- The credit's clearing time, for its reversal (null for credits made before holds: cleared).
alter table public.provider_postbacks add column available_at timestamptz;

alter table public.user_balance add column earned_total numeric(12,2) not null default 0;
update public.user_balance b set earned_total = l.total
  from (select user_id, sum(amount) as total from public.transaction_history
         where kind = 'earned' and user_id is not null group by user_id) l
 where l.user_id = b.user_id;

-- The rows still pending for one account: a range of this index from now() on.
create index transaction_history_earned_clearing_idx on public.transaction_history (user_id, available_at)
  include (amount) where kind = 'earned';

-- available_at joins the columns that never change.

CREATE OR REPLACE FUNCTION public.transaction_history_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
begin
  if tg_op = 'DELETE' then
    raise exception 'transaction_history is append-only: rows cannot be deleted'
      using errcode = 'P0001', hint = 'ledger_append_only';
  end if;
  if new.user_id is null and old.user_id is not null
     and not exists (select from public.user_profiles where id = old.user_id)
     and (new.id, new.created_at, new.description, new.transaction_type, new.amount,
          new.withdrawal_id, new.coins, new.status, new.available_at)
         is not distinct from
         (old.id, old.created_at, old.description, old.transaction_type, old.amount,
          old.withdrawal_id, old.coins, old.status, old.available_at) then
    return new;
  end if;
  if (new.id, new.user_id, new.created_at, new.description, new.transaction_type,
      new.amount, new.withdrawal_id, new.coins, new.available_at)
     is distinct from
     (old.id, old.user_id, old.created_at, old.description, old.transaction_type,
      old.amount, old.withdrawal_id, old.coins, old.available_at) then
    raise exception 'transaction_history is append-only: only status can change'
      using errcode = 'P0001', hint = 'ledger_append_only';
  end if;
  return new;
end
$function$;;

-- What an account may withdraw now, what is pending (and when the next of it clears), and the
-- bonus still locked with the cleared earned money that would unlock it. Reads the balance row
-- and the account's pending rows only.
create function public.money_available(p_user_id text)
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  with b as (
    select balance, total_earned, earned_total from user_balance where user_id = p_user_id
  ), p as (
    -- A credit reversed in its hold nets to nothing at its clearing time: that time is not next.
    select coalesce(sum(amount), 0) as pending, min(available_at) as next_clear_at
      from (select available_at, sum(amount) as amount
              from transaction_history
             where user_id = p_user_id and kind = 'earned' and available_at > now()
             group by available_at
            having sum(amount) > 0) due
  ), parts as (
    select b.balance, p.pending, p.next_clear_at,
           b.earned_total - p.pending as cleared,
           b.total_earned - b.earned_total as bonus,
           b.total_earned - b.balance as withdrawn,
           (select bonus_unlock_ratio from app_config) as ratio
      from b cross join p
  ), unlocked as (
    select parts.*,
           case when ratio is null then bonus
                else least(bonus, floor(ratio * greatest(cleared, 0) * 100) / 100) end as bonus_unlocked
      from parts
  )
  select jsonb_build_object(
           'available', greatest(0, least(balance, cleared + bonus_unlocked - withdrawn)),
           'pending', pending,
           'next_clear_at', next_clear_at,
           'bonus_locked', bonus - bonus_unlocked,
           -- More cleared earned money that would unlock all of it (none: it never unlocks).
           'earned_to_unlock', case when bonus - bonus_unlocked <= 0 then 0
                                    when ratio > 0 then ceil((bonus - bonus_unlocked) / ratio * 100) / 100
                                         + greatest(-cleared, 0) end)
    from unlocked
$$;

-- The demo profile `npm run dev` applies on PGlite: no hold, bonus money withdrawable at once, so
-- every flow works without an offer network. Production keeps the strict column defaults.
create function public.apply_demo_settings()
  returns void
  language sql
  security definer
  set search_path = public, pg_temp
as $$
  update app_config set postback_hold_days = 0, provider_hold_days = '{}', bonus_unlock_ratio = null;
$$;


-- ledger_move gains when the money clears (a new argument, so the old signature goes).
drop function public.ledger_move(text, text, integer, numeric, text);

CREATE FUNCTION public.ledger_move(p_user_id text, p_type text, p_coins integer, p_amount numeric, p_description text, p_available_at timestamp with time zone DEFAULT NULL::timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
    -- kind follows from the type (a generated column); available_at is when it stops being pending.
    insert into transaction_history (user_id, description, transaction_type, amount, status, coins, available_at)
    values (p_user_id, p_description, p_type, p_amount, 'completed', p_coins, coalesce(p_available_at, now()));
    update user_balance
       set balance = balance + p_amount,
           total_earned = total_earned + p_amount,
           earned_total = earned_total + case when p_type in ('postback', 'postback_reversal') then p_amount else 0 end,
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
$function$;;

CREATE OR REPLACE FUNCTION public.record_postback(p_provider text, p_transaction_id text, p_user_id text, p_coins integer, p_reversal boolean, p_description text, p_offer_id text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_kind text := case when p_reversal then 'reversal' else 'credit' end;
  v_id bigint;
  v_credited numeric;
  v_reversed_coins integer;
  v_amount numeric;
  v_coins integer;
  v_title text;
  c_rate integer := (select coins_per_dollar from app_config);
  v_available_at timestamptz;
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
    -- Pending for the provider's hold (its own in provider_hold_days, else postback_hold_days):
    -- a network takes back most of what it will take back within days.
    select now() + make_interval(days => coalesce((provider_hold_days ->> p_provider)::integer, postback_hold_days))
      into v_available_at from app_config;
    update provider_postbacks set available_at = v_available_at where id = v_id;
    -- Added to the balance as it is: below zero, this pays the debt first.
    perform ledger_move(p_user_id, 'postback', v_coins, v_amount, p_description, v_available_at);
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
    select amount, available_at into v_credited, v_available_at from provider_postbacks
     where provider = p_provider and transaction_id = p_transaction_id and kind = 'credit'
       and user_id = p_user_id;
    v_amount := -least(coalesce(v_credited, 0), coins_to_dollars(p_coins));
    v_coins := -ceil(-v_amount * c_rate)::integer;
    if v_amount < 0 then
      -- Still in its hold, the credit's own pending money goes (the reversal clears when it would
      -- have); cleared, it comes off the available money now.
      perform ledger_move(p_user_id, 'postback_reversal', v_coins, v_amount, p_description,
                          greatest(coalesce(v_available_at, now()), now()));
    end if;
  end if;
  update provider_postbacks set amount = v_amount where id = v_id;
  return jsonb_build_object('duplicate', false, 'amount', v_amount, 'coins', v_coins);
end
$function$;;

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
$function$;;

CREATE OR REPLACE FUNCTION public.get_user_summary(p_user_id text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
  -- Available, pending and locked bonus, from the balance row and the pending part of the index.
  return v_result || coalesce(money_available(p_user_id), '{}'::jsonb);
end
$function$;;

CREATE OR REPLACE FUNCTION public.verify_user_balance(p_user_id text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_result jsonb;
begin
  select jsonb_build_object(
           'balance', b.balance,
           'total_earned', b.total_earned,
           'ledger_balance', l.balance,
           'ledger_total_earned', l.total_earned,
           'earned_total', b.earned_total,
           'ledger_earned_total', l.earned_total,
           'consistent', b.balance = l.balance and b.total_earned = l.total_earned
                         and b.earned_total = l.earned_total)
    into v_result
    from user_balance b
    cross join lateral (
      select coalesce(sum(amount) filter (where status <> 'failed'), 0) as balance,
             coalesce(sum(amount) filter (where transaction_type <> 'withdrawal'), 0) as total_earned,
             coalesce(sum(amount) filter (where kind = 'earned'), 0) as earned_total
        from transaction_history t where t.user_id = b.user_id) l
   where b.user_id = p_user_id;
  return v_result;
end
$function$;;

CREATE OR REPLACE FUNCTION public.verify_all_balances()
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select coalesce(jsonb_agg(jsonb_build_object(
           'user_id', b.user_id,
           'balance', b.balance, 'ledger_balance', coalesce(l.balance, 0),
           'total_earned', b.total_earned, 'ledger_total_earned', coalesce(l.total_earned, 0),
           'earned_total', b.earned_total, 'ledger_earned_total', coalesce(l.earned_total, 0))
         order by b.user_id), '[]')
    from user_balance b
    left join (
      select user_id,
             sum(amount) filter (where status <> 'failed') as balance,
             sum(amount) filter (where transaction_type <> 'withdrawal') as total_earned,
             sum(amount) filter (where kind = 'earned') as earned_total
        from transaction_history group by user_id) l on l.user_id = b.user_id
   where b.balance <> coalesce(l.balance, 0) or b.total_earned <> coalesce(l.total_earned, 0)
      or b.earned_total <> coalesce(l.earned_total, 0)
$function$;;

revoke all on function public.ledger_move(text, text, integer, numeric, text, timestamptz) from public, anon, authenticated;
revoke all on function public.money_available(text) from public, anon, authenticated;
grant execute on function public.money_available(text) to service_role;
revoke all on function public.apply_demo_settings() from public, anon, authenticated;
grant execute on function public.apply_demo_settings() to service_role;
