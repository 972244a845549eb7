-- Redefines: public.delete_account, public.take_postback, public.ledger_move, public.money_available,
-- Redefines: public.withdrawal_risk, public.account_deletion_facts
--
-- Debts follow the identity (issue 33, docs/decisions/078). An account below zero cannot be deleted
-- (20261204020000), but a network may take an offer back after the account is gone: the credit it
-- names has lost its owner, and the reversal was refused as "no one has account id …", the money
-- lost. Now:
-- - Deleting an account keeps, in departed_accounts, its account id, its wall id and its identity
--   (the keyed hash of its canonical email), with the balance it left behind; its offer credits keep
--   the account id in provider_postbacks.departed_user_id.
-- - A reversal naming a departed account takes back what the credit paid: first from the balance
--   the account left (as it would have in the account), the rest is owed by the identity
--   (identities.debt), or by its live account if the person has signed up again
--   (user_balance.carried_debt).
-- - A returning account starts with the identity's debt as carried_debt: its offer earnings pay it
--   first (a ledger line "Owed from your earlier account"), its available money is net of it, and
--   the withdrawal review says "owes $20.00 from an earlier account".
-- A debt written off by a deletion before 20261204020000 cannot be rebuilt: its ledger lost its owner
-- and nothing tied it to an email.

create table public.departed_accounts (
  user_id text primary key,
  wall_id text unique,
  identity_hash text not null references public.identities (identity_hash),
  -- The balance the account left (what a later reversal takes first); never below zero.
  left_behind numeric(12, 2) not null default 0 check (left_behind >= 0),
  deleted_at timestamptz not null default now()
);
alter table public.departed_accounts enable row level security;
create trigger departed_accounts_never_emptied before truncate on public.departed_accounts
  for each statement execute function public.refuse_truncate();

alter table public.provider_postbacks add column departed_user_id text;
alter table public.identities
  add column debt numeric(12, 2) not null default 0 check (debt >= 0);
alter table public.user_balance
  -- Owed from an earlier account of the same identity, not yet paid by this one's earnings.
  add column carried_debt numeric(12, 2) not null default 0 check (carried_debt >= 0),
  -- All that was ever carried in (the review says what was owed, paid or not).
  add column carried_debt_total numeric(12, 2) not null default 0 check (carried_debt_total >= 0);

-- A returning account takes on its identity's debt when its balance row is made (provision_user
-- links the identity first, holding the identity's row).
create function public.carry_identity_debt() returns trigger
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_debt numeric;
begin
  select debt into v_debt from identities where user_id = new.user_id and debt > 0 for update;
  if v_debt is not null then
    update identities set debt = 0 where user_id = new.user_id;
    update user_balance
       set carried_debt = carried_debt + v_debt, carried_debt_total = carried_debt_total + v_debt
     where user_id = new.user_id;
  end if;
  return null;
end
$$;
create trigger user_balance_carry_identity_debt after insert on public.user_balance
  for each row execute function public.carry_identity_debt();

-- A reversal naming a departed account (p_person: its account id, or its wall id): what it takes
-- back, or null when no departed account has that id. Refused like any reversal when it names no
-- credit of that account or takes back more than the credit paid.
create function public.reverse_departed_credit(p_network text, p_transaction_id text, p_person text,
                                               p_person_is_account boolean, p_coins integer)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_departed departed_accounts;
  v_credit record;
  v_amount numeric;
  v_absorbed numeric;
  v_owed numeric;
  v_live text;
begin
  if p_coins is null or p_coins <= 0 or p_coins > 10000000 then
    raise exception 'Coins must be a positive whole number' using errcode = 'P0001', hint = 'invalid_coins';
  end if;
  select * into v_departed from departed_accounts
   where case when p_person_is_account then user_id = p_person else wall_id = p_person end;
  if not found then
    return null;
  end if;
  perform pg_advisory_xact_lock(hashtext(p_network), hashtext(p_transaction_id));
  if exists (select from provider_postbacks
              where provider = p_network and transaction_id = p_transaction_id and kind = 'reversal') then
    return jsonb_build_object('duplicate', true, 'amount', 0);
  end if;
  select coins, amount into v_credit from provider_postbacks
   where provider = p_network and transaction_id = p_transaction_id and kind = 'credit'
     and departed_user_id = v_departed.user_id;
  if not found then
    raise exception 'The reversal names no credit of this person on this network' using errcode = 'P0001',
      hint = 'reversal_names_no_credit';
  end if;
  if p_coins > v_credit.coins then
    raise exception 'The reversal takes back more than its credit paid' using errcode = 'P0001',
      hint = 'reversal_exceeds_credit';
  end if;
  v_amount := least(v_credit.amount, coins_to_dollars(p_coins));
  insert into provider_postbacks (provider, transaction_id, kind, user_id, coins, amount, departed_user_id)
  values (p_network, p_transaction_id, 'reversal', null, p_coins, -v_amount, v_departed.user_id);
  -- The identity's row first (provision_user's order), then the departed row and a live balance.
  select user_id into v_live from identities where identity_hash = v_departed.identity_hash for update;
  select * into v_departed from departed_accounts where user_id = v_departed.user_id for update;
  v_absorbed := least(v_departed.left_behind, v_amount);
  v_owed := v_amount - v_absorbed;
  update departed_accounts set left_behind = left_behind - v_absorbed where user_id = v_departed.user_id;
  if v_owed > 0 and v_live is not null then
    update user_balance
       set carried_debt = carried_debt + v_owed, carried_debt_total = carried_debt_total + v_owed
     where user_id = v_live;
  elsif v_owed > 0 then
    update identities set debt = debt + v_owed where identity_hash = v_departed.identity_hash;
  end if;
  return jsonb_build_object('duplicate', false, 'amount', -v_amount, 'owed', v_owed, 'departed', true);
end
$$;
revoke all on function public.carry_identity_debt() from public, anon, authenticated, service_role;
revoke all on function public.reverse_departed_credit(text, text, text, boolean, integer)
  from public, anon, authenticated, service_role;

CREATE OR REPLACE FUNCTION public.delete_account(p_user_id text, p_email_hash text, p_recipient_hashes jsonb DEFAULT '{}'::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_withdrawals uuid[];
  v_balance numeric;
  v_carried numeric;
begin
  perform from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- The profile lock above queues behind a withdrawal being made right now (create_withdrawal
  -- holds the profile before the balance); the balance lock queues behind any other balance change.
  select balance, carried_debt into v_balance, v_carried from user_balance where user_id = p_user_id for update;
  if exists (select from withdrawals where user_id = p_user_id and status = 'pending') then
    raise exception 'A withdrawal is pending' using errcode = 'P0001', hint = 'withdrawal_pending';
  end if;
  -- Below zero (a network took back coins already cashed out): the debt is settled first.
  -- So is a debt carried from an earlier account that this one's balance does not cover.
  if v_balance - v_carried < 0 then
    raise exception 'The balance is below zero' using errcode = 'P0001', hint = 'account_in_debt',
      detail = (v_carried - v_balance)::text;
  end if;

  if nullif(trim(p_email_hash), '') is not null then
    insert into deleted_accounts (email_hash) values (p_email_hash)
    on conflict (email_hash) do update set deleted_at = now();
  end if;
  select coalesce(array_agg(id), '{}') into v_withdrawals from withdrawals where user_id = p_user_id;
  update withdrawals
     set recipient_hash = coalesce(recipient_hash, p_recipient_hashes ->> id::text)
   where id = any (v_withdrawals);
  -- A network may take an offer back after the account is gone: who owes it stays known (by the
  -- identity, the same email or an alias of it), and the balance left behind pays it first (what
  -- is left once a debt carried in is paid: the account forfeits it, the debt is settled with it).
  insert into departed_accounts (user_id, wall_id, identity_hash, left_behind)
  select p.id, p.wall_id, p.identity_hash, v_balance - v_carried
    from user_profiles p
   where p.id = p_user_id and p.identity_hash is not null
  on conflict (user_id) do nothing;
  update provider_postbacks set departed_user_id = p_user_id where user_id = p_user_id and kind = 'credit';
  delete from user_feedback where user_id = p_user_id;
  -- Cascades to what is only about the person; detaches the ledger, withdrawals and postbacks.
  delete from user_profiles where id = p_user_id;
  update withdrawals
     set recipient_email = null, recipient_upi = null, recipient_bank_details = null
   where id = any (v_withdrawals);
  return jsonb_build_object('deleted', true, 'withdrawals_kept', coalesce(array_length(v_withdrawals, 1), 0));
end
$function$;

CREATE OR REPLACE FUNCTION public.take_postback(p_network text, p_transaction_id text, p_person text, p_person_is_account boolean, p_coins integer, p_reversal boolean, p_description text, p_hold_days integer, p_offer_id text, p_offer_name text, p_client_address text, p_method text, p_query text, p_body text, p_signature_digest text, p_check_signature_reuse boolean, p_review_reason text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_user_id text := case when p_person_is_account then (select id from user_profiles where id = p_person)
                         else (select id from user_profiles where wall_id = p_person) end;
  v_result jsonb;
  v_verdict text;
  v_seen_on text;
  v_held record;
begin
  -- The reversal of a deleted account's credit: owed by its identity (the same email, if it returns).
  if v_user_id is null and p_reversal and p_review_reason is null then
    v_result := reverse_departed_credit(p_network, p_transaction_id, p_person, p_person_is_account, p_coins);
    if v_result is not null then
      v_verdict := case when (v_result ->> 'duplicate')::boolean then 'duplicate' else 'reversed' end;
      perform log_postback(p_network, p_client_address, p_method, p_query, p_body, v_verdict,
                           case when v_verdict = 'reversed'
                                then format('reverses a credit of a deleted account: $%s owed by its email',
                                            to_char((v_result ->> 'owed')::numeric, 'FM999999990.00')) end,
                           null, p_transaction_id, p_coins, p_signature_digest);
      return v_result || jsonb_build_object('verdict', v_verdict);
    end if;
  end if;
  if v_user_id is null then
    perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'refused',
                         format('no one has %s %s', case when p_person_is_account then 'account id' else 'wall id' end,
                                left(p_person, 100)),
                         null, p_transaction_id, p_coins, p_signature_digest);
    return jsonb_build_object('verdict', 'refused', 'reason', 'account_not_found');
  end if;
  -- Held once: a repeat of a held postback (for the same person) is answered as taken. (Only a
  -- network that can hold one is looked up: one whose signature binds everything never does.)
  if (p_check_signature_reuse or p_review_reason is not null)
     and exists (select from held_postbacks where network = p_network and transaction_id = p_transaction_id
                                              and kind = case when p_reversal then 'reversal' else 'credit' end
                                              and user_id = v_user_id) then
    perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'duplicate',
                         'a repeat of a held postback', v_user_id, p_transaction_id, p_coins, p_signature_digest);
    return jsonb_build_object('verdict', 'duplicate', 'duplicate', true, 'amount', 0, 'user_id', v_user_id);
  end if;
  if p_review_reason is not null then
    perform pg_advisory_xact_lock(hashtext(p_network), hashtext(p_transaction_id));
    -- A reversal waits only if it could be approved: it names this person's credit, for no more.
    if p_reversal then
      if exists (select from provider_postbacks
                  where provider = p_network and transaction_id = p_transaction_id and kind = 'reversal') then
        perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'duplicate', null, v_user_id,
                             p_transaction_id, p_coins, p_signature_digest);
        return jsonb_build_object('verdict', 'duplicate', 'duplicate', true, 'amount', 0, 'user_id', v_user_id);
      end if;
      if not exists (select from provider_postbacks
                      where provider = p_network and transaction_id = p_transaction_id and kind = 'credit'
                        and user_id = v_user_id) then
        raise exception 'The reversal names no credit of this person on this network' using errcode = 'P0001',
          hint = 'reversal_names_no_credit';
      end if;
      if exists (select from provider_postbacks
                  where provider = p_network and transaction_id = p_transaction_id and kind = 'credit'
                    and user_id = v_user_id and coins < p_coins) then
        raise exception 'The reversal takes back more than its credit paid' using errcode = 'P0001',
          hint = 'reversal_exceeds_credit';
      end if;
    end if;
    insert into held_postbacks (network, transaction_id, kind, user_id, coins, description, offer_name, hold_days,
                                reason)
    values (p_network, p_transaction_id, case when p_reversal then 'reversal' else 'credit' end, v_user_id, p_coins,
            p_description, left(p_offer_name, 200), p_hold_days, left(p_review_reason, 500))
    on conflict (network, transaction_id, kind, user_id) do nothing;
    perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'held',
                         left(p_review_reason || ': held for review', 500), v_user_id, p_transaction_id, p_coins,
                         p_signature_digest);
    return jsonb_build_object('verdict', 'held', 'duplicate', false, 'amount', 0, 'user_id', v_user_id);
  end if;
  if p_check_signature_reuse and not p_reversal then
    if p_signature_digest is null then
      raise exception 'A signature digest is required' using errcode = 'P0001', hint = 'signature_digest_required';
    end if;
    perform pg_advisory_xact_lock(hashtext(p_network), hashtext(p_transaction_id));
    insert into postback_signatures (network, digest, transaction_id)
    values (p_network, p_signature_digest, p_transaction_id)
    on conflict (network, digest) do nothing
    returning transaction_id into v_seen_on;
    if v_seen_on is null then
      select transaction_id into v_seen_on from postback_signatures
       where network = p_network and digest = p_signature_digest;
    end if;
    if v_seen_on <> p_transaction_id then
      insert into held_postbacks (network, transaction_id, user_id, coins, description, offer_name, hold_days,
                                  reason, signature_seen_on)
      values (p_network, p_transaction_id, v_user_id, p_coins, p_description, left(p_offer_name, 200), p_hold_days,
              format('its signature already paid transaction %s', left(v_seen_on, 100)), v_seen_on)
      on conflict (network, transaction_id, kind, user_id) do nothing;
      perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'held',
                           format('signature already paid transaction %s: held for review', left(v_seen_on, 100)),
                           v_user_id, p_transaction_id, p_coins, p_signature_digest);
      return jsonb_build_object('verdict', 'held', 'duplicate', false, 'amount', 0, 'user_id', v_user_id);
    end if;
  end if;
  if p_reversal then
    -- The reversal of a credit still held: it is never paid, and the reversal is taken.
    select id, user_id into v_held from held_postbacks
     where network = p_network and transaction_id = p_transaction_id and kind = 'credit' and status = 'held'
       for update;
    if found and v_held.user_id = v_user_id then
      update held_postbacks set status = 'reversed', decided_at = now(), decided_by = p_network
       where id = v_held.id;
      perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'reversed',
                           'reverses a held credit: it will not be paid', v_user_id, p_transaction_id, p_coins,
                           p_signature_digest);
      return jsonb_build_object('verdict', 'reversed', 'duplicate', false, 'amount', 0, 'user_id', v_user_id);
    end if;
  end if;
  v_result := record_postback(p_network, p_transaction_id, v_user_id, p_coins, p_reversal, p_description,
                              p_offer_id, p_hold_days, p_offer_name);
  v_verdict := case when (v_result ->> 'duplicate')::boolean then 'duplicate'
                    when p_reversal then 'reversed' else 'credited' end;
  perform log_postback(p_network, p_client_address, p_method, p_query, p_body, v_verdict, null, v_user_id,
                       p_transaction_id, p_coins, p_signature_digest);
  return v_result || jsonb_build_object('verdict', v_verdict, 'user_id', v_user_id);
end
$function$;

CREATE OR REPLACE FUNCTION public.ledger_move(p_user_id text, p_type text, p_coins integer, p_amount numeric, p_description text, p_available_at timestamp with time zone DEFAULT NULL::timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_balance numeric;
  v_carried numeric;
  v_charge numeric;
begin
  -- Lock order of every money function: the profile (key share, as the ledger row's foreign key
  -- takes it anyway), then the balance. Deleting an account takes them in the same order.
  perform from user_profiles where id = p_user_id for key share;
  select balance, carried_debt into v_balance, v_carried from user_balance where user_id = p_user_id for update;
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
    -- A debt carried from an earlier account is paid from offer earnings first, cleared when they are.
    if p_amount > 0 and p_type = 'postback' and v_carried > 0 then
      v_charge := least(v_carried, p_amount);
      insert into transaction_history (user_id, description, transaction_type, amount, status, coins, available_at)
      values (p_user_id, 'Owed from your earlier account: an offer it was paid for was reversed', 'postback_reversal',
              -v_charge, 'completed', -ceil(v_charge * (select coins_per_dollar from app_config))::integer,
              coalesce(p_available_at, now()));
      update user_balance
         set balance = balance - v_charge,
             total_earned = total_earned - v_charge,
             earned_total = earned_total - v_charge,
             carried_debt = carried_debt - v_charge,
             updated_at = now()
       where user_id = p_user_id
      returning balance into v_balance;
      update monthly_earnings set amount = amount - v_charge where user_id = p_user_id and month = current_month();
    end if;
    if p_amount > 0 and p_type in ('checkin', 'task', 'bonus', 'postback')
       and exists (select from referrals where referred_user_id = p_user_id and credited_at is null) then
      perform try_referral_credit(p_user_id);
      select balance into v_balance from user_balance where user_id = p_user_id;
    end if;
  end if;
  return jsonb_build_object('coins', p_coins, 'amount', p_amount, 'balance', v_balance);
end
$function$;

CREATE OR REPLACE FUNCTION public.money_available(p_user_id text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  with b as (
    select balance, total_earned, earned_total, carried_debt from user_balance where user_id = p_user_id
  ), p as (
    -- A credit reversed in its hold nets to nothing at its clearing time: that time is not next.
    select coalesce(sum(amount), 0) as pending, min(available_at) as next_clear_at
      from (select available_at, sum(amount) as amount
              from transaction_history
             where user_id = p_user_id and kind = 'earned' and available_at > now()
             group by available_at
            having sum(amount) > 0) due
  ), parts as (
    select b.balance, b.carried_debt, p.pending, p.next_clear_at,
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
           -- Net of a debt carried from an earlier account, until offer earnings have paid it.
           'available', greatest(0, least(balance, cleared + bonus_unlocked - withdrawn) - carried_debt),
           'carried_debt', carried_debt,
           'pending', pending,
           'next_clear_at', next_clear_at,
           'bonus_locked', bonus - bonus_unlocked,
           -- More cleared earned money that would unlock all of it (none: it never unlocks).
           'earned_to_unlock', case when bonus - bonus_unlocked <= 0 then 0
                                    when ratio > 0 then ceil((bonus - bonus_unlocked) / ratio * 100) / 100
                                         + greatest(-cleared, 0) end)
    from unlocked
$function$;

CREATE OR REPLACE FUNCTION public.withdrawal_risk(p_user_id text, p_recipient_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
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

  -- Owed from an earlier account of the same identity (a network took back what it was paid for).
  if v_balance.carried_debt_total > 0 then
    v_reasons := v_reasons || risk_reason('earlier_account_debt', 30,
      case when v_balance.carried_debt > 0
           then format('owes $%s from an earlier account', to_char(v_balance.carried_debt, 'FM999999990.00'))
           else format('owed $%s from an earlier account, paid from this one''s earnings',
                       to_char(v_balance.carried_debt_total, 'FM999999990.00')) end);
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
$function$;

CREATE OR REPLACE FUNCTION public.account_deletion_facts(p_user_id text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select jsonb_build_object(
           'email', p.email,
           'balance', coalesce((select b.balance from user_balance b where b.user_id = p.id), 0),
           'carried_debt', coalesce((select b.carried_debt from user_balance b where b.user_id = p.id), 0),
           'pending_withdrawals', (select count(*) from withdrawals w
                                    where w.user_id = p.id and w.status = 'pending'),
           'unhashed_recipients', coalesce((
             select jsonb_object_agg(w.id, coalesce(w.recipient_email, w.recipient_upi,
                                                    w.recipient_bank_details ->> 'details'))
               from withdrawals w where w.user_id = p.id and w.recipient_hash is null), '{}'::jsonb))
    from user_profiles p
   where p.id = p_user_id
$function$;
