-- Redefines: public.withdrawal_json, public.create_withdrawal, public.get_user_summary, public.set_account_active, public.settle_withdrawal, public.mark_payout_sent, public.operator_withdrawals, public.apply_demo_settings
--
-- Withdrawals reviewed by risk (issue 17, part 5; docs/decisions/068-withdrawals-reviewed-by-risk.md).
--
-- - create_withdrawal records a risk score (0-100) and its reasons with every withdrawal, from the
--   account's own rows and the indexes of the signals it shares with other accounts (same
--   canonical email before, payout address, device, address range, referral links between them,
--   a burst of earnings, reversals, a balance that went negative, a payout address changed).
-- - A first withdrawal (app_config.review_first_withdrawal) and any at or above
--   app_config.risk_review_threshold wait for review (review_state 'review'); the others are
--   approved at once. Only approved withdrawals are sent or settled as paid.
-- - The operator approves, rejects (refunded through the ledger, a notice to the owner), pauses
--   an account's cash-outs or bans it (sign-in refused, its unsent withdrawals rejected and
--   refunded). Every such action is a row of operator_actions, which nothing can change.

alter table public.app_config
  -- A withdrawal scoring this much or more waits for review (0: every withdrawal is reviewed).
  add column risk_review_threshold integer not null default 50
    check (risk_review_threshold between 0 and 101),
  add column review_first_withdrawal boolean not null default true;

alter table public.withdrawals
  add column risk_score integer check (risk_score between 0 and 100),
  -- [{"code", "points", "detail", "accounts": [ids]}], the score's terms.
  add column risk_reasons jsonb not null default '[]' check (jsonb_typeof(risk_reasons) = 'array'),
  -- Withdrawals made before review existed were reviewed by hand from `payouts list`: approved.
  add column review_state text not null default 'approved'
    check (review_state in ('review', 'approved', 'rejected')),
  add column reviewed_at timestamptz,
  add column reviewed_by text check (length(reviewed_by) <= 100);
-- The operator's queue.
create index withdrawals_review_queue_idx on public.withdrawals (created_at) where review_state = 'review';

alter table public.user_profiles
  add column payouts_paused_at timestamptz,
  add column banned_at timestamptz,
  add column ban_reason text check (length(ban_reason) <= 500);

-- Once below zero, a risk signal for good (the balance itself may be paid back since).
alter table public.user_balance add column was_negative_at timestamptz;
update public.user_balance set was_negative_at = updated_at where balance < 0;

create function public.user_balance_mark_negative()
  returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  new.was_negative_at := coalesce(old.was_negative_at, now());
  return new;
end
$$;
create trigger user_balance_mark_negative before update of balance on public.user_balance
  for each row when (new.balance < 0 and old.was_negative_at is null)
  execute function public.user_balance_mark_negative();

-- What operators did, by whom: appended by the functions below, never changed.
create table public.operator_actions (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  actor text not null check (length(actor) between 1 and 100),
  action text not null check (action in ('approve', 'reject', 'pause', 'resume', 'ban', 'unban')),
  -- No foreign keys: the record outlives the account and the withdrawal.
  user_id text,
  withdrawal_id uuid,
  reason text check (length(reason) <= 500),
  detail jsonb not null default '{}'
);
create index operator_actions_user_idx on public.operator_actions (user_id, at desc);
alter table public.operator_actions enable row level security;
revoke all on table public.operator_actions from public, anon, authenticated;

create function public.operator_actions_append_only()
  returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  raise exception 'operator_actions is append-only' using errcode = 'P0001', hint = 'audit_append_only';
end
$$;
create trigger operator_actions_append_only before update or delete on public.operator_actions
  for each row execute function public.operator_actions_append_only();

-- One term of a risk score.
create function public.risk_reason(p_code text, p_points integer, p_detail text, p_accounts text[] default '{}')
  returns jsonb
  language sql
  immutable
  set search_path = public, pg_temp
as $$
  select jsonb_build_object('code', p_code, 'points', p_points, 'detail', p_detail,
                            'accounts', to_jsonb(coalesce(p_accounts, '{}')))
$$;

-- The risk of paying this account to this address now: a score from 0 to 100, the reasons that
-- make it up, the accounts it is linked to, and whether it would be the account's first paid
-- withdrawal. Every read is one account's rows or one signal's rows, from an index; a signal
-- shared by many accounts (a carrier's address range) is read to LINKED_LIMIT accounts at most.
create function public.withdrawal_risk(p_user_id text, p_recipient_hash text)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
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

  return jsonb_build_object(
    'score', least(100, (select coalesce(sum((reason ->> 'points')::integer), 0)
                           from jsonb_array_elements(v_reasons) reason)),
    'reasons', v_reasons,
    'linked_accounts', to_jsonb(array(select distinct unnest(v_linked))),
    'first_withdrawal', v_last_paid.id is null);
end
$$;

-- The history says which step a withdrawal is at.

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
    'failure_reason', w.failure_reason)
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
  v_banned boolean;
  v_paused boolean;
  v_risk jsonb;
  v_review boolean;
  v_withdrawal withdrawals;
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

  insert into withdrawals (user_id, amount, payment_method, recipient_email, recipient_upi,
                           recipient_bank_details, recipient_hash, risk_score, risk_reasons, review_state)
  values (p_user_id, amount_param, payment_method_param, v_email, v_upi,
          case when v_details is not null then jsonb_build_object('details', v_details) end,
          nullif(trim(p_recipient_hash), ''), (v_risk ->> 'score')::integer, v_risk -> 'reasons',
          case when v_review then 'review' else 'approved' end)
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
           -- An operator paused this account's cash-outs (docs/decisions/068).
           'payouts_paused', p.payouts_paused_at is not null,
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

CREATE OR REPLACE FUNCTION public.set_account_active(p_user_id text, p_active boolean)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_was boolean;
  v_banned boolean;
begin
  select coalesce((preferences ->> 'is_active')::boolean, true), banned_at is not null into v_was, v_banned
    from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- Every sign-in passes here: a closed account stays closed (docs/decisions/068).
  if v_banned and coalesce(p_active, true) then
    raise exception 'Account closed' using errcode = 'P0001', hint = 'account_banned';
  end if;
  update user_profiles
     set preferences = preferences || jsonb_build_object('is_active', coalesce(p_active, true)),
         updated_at = now()
   where id = p_user_id;
  if not coalesce(p_active, true) then
    delete from user_fcm_tokens where user_id = p_user_id;
  end if;
  return jsonb_build_object('was_active', v_was, 'is_active', coalesce(p_active, true));
end
$function$;;

CREATE OR REPLACE FUNCTION public.settle_withdrawal(p_withdrawal_id uuid, p_status text, p_reference text DEFAULT NULL::text, p_reason text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
  -- Paid only once an operator (or the risk score) approved it; failing one is always possible.
  if p_status = 'completed' and v_withdrawal.review_state <> 'approved' then
    raise exception 'Withdrawal is not approved' using errcode = 'P0001', hint = 'withdrawal_not_approved';
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
$function$;;

CREATE OR REPLACE FUNCTION public.mark_payout_sent(p_withdrawal_id uuid, p_batch_id text, p_payout_status text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_withdrawal withdrawals;
begin
  update withdrawals
     set sent_at = coalesce(sent_at, now()), payout_batch_id = p_batch_id, payout_status = p_payout_status
   where id = p_withdrawal_id and status = 'pending' and review_state = 'approved'
  returning * into v_withdrawal;
  if not found then
    if exists (select from withdrawals where id = p_withdrawal_id and status = 'pending') then
      raise exception 'Withdrawal is not approved' using errcode = 'P0001', hint = 'withdrawal_not_approved';
    end if;
    raise exception 'Withdrawal is not pending' using errcode = 'P0001', hint = 'withdrawal_not_pending';
  end if;
  return withdrawal_json(v_withdrawal);
end
$function$;;

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
$function$;;

-- The operator's name on every action: who ran the command (1 to 100 characters).
create function public.operator_actor(p_actor text)
  returns text
  language plpgsql
  immutable
  set search_path = public, pg_temp
as $$
begin
  if nullif(trim(p_actor), '') is null or length(trim(p_actor)) > 100 then
    raise exception 'Operator name required' using errcode = 'P0001', hint = 'operator_required';
  end if;
  return trim(p_actor);
end
$$;

-- A reason an operator gives (1 to 500 characters), or the rule it breaks.
create function public.operator_reason(p_reason text)
  returns text
  language plpgsql
  immutable
  set search_path = public, pg_temp
as $$
begin
  if nullif(trim(p_reason), '') is null then
    raise exception 'Reason required' using errcode = 'P0001', hint = 'reason_required';
  end if;
  if length(trim(p_reason)) > 500 or has_hidden_characters(p_reason) then
    raise exception 'Invalid reason' using errcode = 'P0001', hint = 'invalid_reason';
  end if;
  return trim(p_reason);
end
$$;

-- Approves withdrawals waiting for review, each once: one result per id (a JSON array of ids), in
-- the order given.
create function public.approve_withdrawals(p_ids jsonb, p_actor text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_text text;
  v_id uuid;
  v_withdrawal withdrawals;
  v_profile user_profiles;
  v_results jsonb := '[]';
  v_result text;
begin
  if jsonb_typeof(p_ids) is distinct from 'array' then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  for v_text in select jsonb_array_elements_text(p_ids) loop
    v_id := case when v_text ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then v_text::uuid end;
    select * into v_withdrawal from withdrawals where id = v_id for update;
    if not found then
      v_result := 'not_found';
    elsif v_withdrawal.status <> 'pending' or v_withdrawal.review_state = 'rejected' then
      v_result := 'not_pending';
    elsif v_withdrawal.review_state = 'approved' then
      v_result := 'already_approved';
    else
      select * into v_profile from user_profiles where id = v_withdrawal.user_id;
      if v_profile.banned_at is not null then
        v_result := 'account_banned';
      elsif v_profile.payouts_paused_at is not null then
        v_result := 'payouts_paused';
      else
        update withdrawals set review_state = 'approved', reviewed_at = now(), reviewed_by = v_actor
         where id = v_id;
        insert into operator_actions (actor, action, user_id, withdrawal_id, detail)
        values (v_actor, 'approve', v_withdrawal.user_id, v_id,
                jsonb_build_object('amount', v_withdrawal.amount, 'risk_score', v_withdrawal.risk_score));
        v_result := 'approved';
      end if;
    end if;
    v_results := v_results || jsonb_build_object('id', v_text, 'result', v_result);
  end loop;
  return v_results;
end
$$;

-- Refuses a pending withdrawal not yet handed to PayPal: the money goes back through the ledger
-- (the withdrawal's row fails, as a failed payout's does) and the owner is told why.
create function public.reject_withdrawal_locked(p_withdrawal withdrawals, p_reason text, p_actor text)
  returns void
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
begin
  update withdrawals
     set status = 'failed', settled_at = now(), failure_reason = p_reason,
         review_state = 'rejected', reviewed_at = now(), reviewed_by = p_actor
   where id = p_withdrawal.id;
  update transaction_history set status = 'failed' where withdrawal_id = p_withdrawal.id;
  update user_balance
     set balance = balance + p_withdrawal.amount, updated_at = now()
   where user_id = p_withdrawal.user_id;
  insert into user_notices (user_id, kind, data)
  values (p_withdrawal.user_id, 'withdrawal_failed',
          jsonb_build_object('withdrawal_id', p_withdrawal.id, 'amount', p_withdrawal.amount,
                             'payment_method', p_withdrawal.payment_method,
                             'reason', p_reason, 'refused', true));
  insert into operator_actions (actor, action, user_id, withdrawal_id, reason, detail)
  values (p_actor, 'reject', p_withdrawal.user_id, p_withdrawal.id, p_reason,
          jsonb_build_object('amount', p_withdrawal.amount, 'risk_score', p_withdrawal.risk_score));
end
$$;

create function public.reject_withdrawal(p_withdrawal_id uuid, p_reason text, p_actor text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_reason text := operator_reason(p_reason);
  v_withdrawal withdrawals;
begin
  -- The lock order of the money functions: the owner's profile, then the withdrawal and balance.
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  perform from user_profiles where id = v_withdrawal.user_id for key share;
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if v_withdrawal.status <> 'pending' then
    return withdrawal_json(v_withdrawal) || jsonb_build_object('changed', false);
  end if;
  -- PayPal may pay it still: refunding it too would pay twice.
  if v_withdrawal.sent_at is not null then
    raise exception 'Withdrawal was sent' using errcode = 'P0001', hint = 'withdrawal_sent';
  end if;
  perform reject_withdrawal_locked(v_withdrawal, v_reason, v_actor);
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id;
  return withdrawal_json(v_withdrawal) || jsonb_build_object('changed', true);
end
$$;

-- Pauses (or resumes) an account's cash-outs: no new withdrawal, none of its pending ones approved.
create function public.set_payouts_paused(p_user_id text, p_paused boolean, p_reason text, p_actor text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_reason text := case when p_paused then operator_reason(p_reason) else nullif(trim(p_reason), '') end;
  v_was boolean;
begin
  -- For update: a withdrawal being made (key share on the profile) finishes first, or sees the pause.
  select payouts_paused_at is not null into v_was from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  if v_was = coalesce(p_paused, false) then
    return jsonb_build_object('user_id', p_user_id, 'paused', v_was, 'changed', false);
  end if;
  update user_profiles
     set payouts_paused_at = case when p_paused then now() end, updated_at = now()
   where id = p_user_id;
  insert into operator_actions (actor, action, user_id, reason)
  values (v_actor, case when p_paused then 'pause' else 'resume' end, p_user_id, v_reason);
  return jsonb_build_object('user_id', p_user_id, 'paused', p_paused, 'changed', true);
end
$$;

-- Closes an account: signing in is refused (set_account_active), its sessions end, and its
-- withdrawals not yet handed to PayPal are rejected and refunded. Those already sent are listed:
-- PayPal settles them.
create function public.ban_account(p_user_id text, p_reason text, p_actor text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_reason text := operator_reason(p_reason);
  v_banned_at timestamptz;
  v_withdrawal withdrawals;
  v_rejected jsonb := '[]';
  v_sent jsonb := '[]';
begin
  select banned_at into v_banned_at from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  if v_banned_at is null then
    update user_profiles set banned_at = now(), ban_reason = v_reason, updated_at = now() where id = p_user_id;
  end if;
  for v_withdrawal in
    select * from withdrawals where user_id = p_user_id and status = 'pending' order by created_at for update
  loop
    if v_withdrawal.sent_at is null then
      perform reject_withdrawal_locked(v_withdrawal, 'Account closed: ' || v_reason, v_actor);
      v_rejected := v_rejected || to_jsonb(v_withdrawal.id);
    else
      v_sent := v_sent || to_jsonb(v_withdrawal.id);
    end if;
  end loop;
  if v_banned_at is null then
    insert into operator_actions (actor, action, user_id, reason, detail)
    values (v_actor, 'ban', p_user_id, v_reason, jsonb_build_object('rejected', v_rejected, 'still_sent', v_sent));
    perform announce_sessions_ended(p_user_id);
  end if;
  return jsonb_build_object('user_id', p_user_id, 'changed', v_banned_at is null,
                            'rejected', v_rejected, 'still_sent', v_sent);
end
$$;

create function public.unban_account(p_user_id text, p_actor text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_banned_at timestamptz;
begin
  select banned_at into v_banned_at from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  if v_banned_at is null then
    return jsonb_build_object('user_id', p_user_id, 'changed', false);
  end if;
  update user_profiles set banned_at = null, ban_reason = null, updated_at = now() where id = p_user_id;
  insert into operator_actions (actor, action, user_id) values (v_actor, 'unban', p_user_id);
  return jsonb_build_object('user_id', p_user_id, 'changed', true);
end
$$;

-- Whether an operator closed this account: every session check asks (a closed account's session
-- ends at its next request, whatever Firebase still says).
create function public.account_closed(p_user_id text)
  returns boolean
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce((select banned_at is not null from user_profiles where id = p_user_id), false)
$$;

-- The review queue: withdrawals waiting for an operator, oldest first, with their score, its
-- reasons and what the linked accounts are now (live, closed, deleted).
create function public.operator_review_queue()
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
           'account_created_at', p.created_at,
           'amount', w.amount,
           'payment_method', w.payment_method,
           'recipient', coalesce(w.recipient_email, w.recipient_upi, w.recipient_bank_details ->> 'details'),
           'risk_score', w.risk_score,
           'risk_reasons', w.risk_reasons,
           'payouts_paused', p.payouts_paused_at is not null,
           'banned', p.banned_at is not null,
           'first_withdrawal', not exists (select from withdrawals c
                                            where c.user_id = w.user_id and c.status = 'completed'))
         order by w.created_at, w.id), '[]')
    from withdrawals w
    join user_profiles p on p.id = w.user_id
   where w.review_state = 'review' and w.status = 'pending'
$$;

-- The demo profile also approves withdrawals at once unless their score is high.
create or replace function public.apply_demo_settings()
  returns void
  language sql
  security definer
  set search_path = public, pg_temp
as $$
  update app_config set postback_hold_days = 0, provider_hold_days = '{}', bonus_unlock_ratio = null,
                        referral_requires_earned = false, review_first_withdrawal = false;
$$;

-- Back to the strict production defaults of every money setting (`DEMO_SETTINGS=off npm run dev`
-- on a database that had the demo settings; docs/money-policy.md).
create function public.apply_production_settings()
  returns void
  language sql
  security definer
  set search_path = public, pg_temp
as $$
  update app_config set postback_hold_days = default, provider_hold_days = default,
                        bonus_unlock_ratio = default, referral_requires_earned = default,
                        review_first_withdrawal = default, risk_review_threshold = default;
$$;

revoke all on function public.user_balance_mark_negative() from public, anon, authenticated;
revoke all on function public.operator_actions_append_only() from public, anon, authenticated;
revoke all on function public.risk_reason(text, integer, text, text[]) from public, anon, authenticated;
revoke all on function public.operator_actor(text) from public, anon, authenticated;
revoke all on function public.operator_reason(text) from public, anon, authenticated;
revoke all on function public.reject_withdrawal_locked(withdrawals, text, text) from public, anon, authenticated;
revoke all on function public.withdrawal_risk(text, text) from public, anon, authenticated;
grant execute on function public.withdrawal_risk(text, text) to service_role;
revoke all on function public.approve_withdrawals(jsonb, text) from public, anon, authenticated;
grant execute on function public.approve_withdrawals(jsonb, text) to service_role;
revoke all on function public.reject_withdrawal(uuid, text, text) from public, anon, authenticated;
grant execute on function public.reject_withdrawal(uuid, text, text) to service_role;
revoke all on function public.set_payouts_paused(text, boolean, text, text) from public, anon, authenticated;
grant execute on function public.set_payouts_paused(text, boolean, text, text) to service_role;
revoke all on function public.ban_account(text, text, text) from public, anon, authenticated;
grant execute on function public.ban_account(text, text, text) to service_role;
revoke all on function public.unban_account(text, text) from public, anon, authenticated;
grant execute on function public.unban_account(text, text) to service_role;
revoke all on function public.operator_review_queue() from public, anon, authenticated;
grant execute on function public.operator_review_queue() to service_role;
revoke all on function public.account_closed(text) from public, anon, authenticated;
grant execute on function public.account_closed(text) to service_role;
revoke all on function public.apply_production_settings() from public, anon, authenticated;
grant execute on function public.apply_production_settings() to service_role;
