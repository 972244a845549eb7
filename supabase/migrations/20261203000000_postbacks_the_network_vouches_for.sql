-- Redefines: public.record_postback, public.take_postback, public.log_postback
--
-- Issue 32 (docs/offer-walls.md, "What a signature covers"; docs/decisions/077): no coins without a
-- completion the network vouches for.
--
-- - A reversal takes back only its own credit: it must name a credit of the same network, the same
--   transaction and the same person, for no more coins than the credit. Otherwise record_postback
--   refuses it (rule reversal_names_no_credit or reversal_exceeds_credit) and, rolled back, it
--   does not use up the reversal's id: the network's genuine reversal still takes the credit back.
--   (A reversal can therefore no longer come before its credit: the network's retry brings it after.)
-- - The postback log keeps a keyed digest of each signature (HMAC-SHA256 under a key of the app's,
--   column signature_digest), never its value; the rows written before are rewritten here with every
--   signature parameter's value removed (sig, hash, signature, verifier, secure_hash).
-- - postback_signatures: the digest of every credit's signature from a network whose signature does
--   not bind the transaction and the amount (Torox, Lootably, Revlum), with the transaction it paid.
--   The same digest on another transaction is not paid: take_postback records it in held_postbacks
--   (verdict `held`), answers it as taken, and an operator (finance or owner) approves or rejects it
--   from the console (decide_held_postback), audited, never on their own account. A reversal whose
--   reversal field the signature does not cover (Revlum's status, CPX's, Lootably's status 0) is
--   held the same way: an unsigned field never turns a credit into a reversal by itself.

alter table public.postback_log add column signature_digest text
  check (signature_digest ~ '^[0-9a-f]{64}$');
alter table public.postback_log drop constraint postback_log_verdict_check;
alter table public.postback_log add constraint postback_log_verdict_check
  check (verdict in ('credited', 'reversed', 'duplicate', 'ignored', 'refused', 'held'));

-- What was stored before: every signature parameter's value removed (it would sign another postback).
update public.postback_log
   set query = regexp_replace(query, '(^|&)(sig|hash|signature|verifier|secure_hash)=[^&]*', '\1\2=[removed]', 'g'),
       body = regexp_replace(body, '(^|&)(sig|hash|signature|verifier|secure_hash)=[^&]*', '\1\2=[removed]', 'g')
 where query ~ '(^|&)(sig|hash|signature|verifier|secure_hash)=' or body ~ '(^|&)(sig|hash|signature|verifier|secure_hash)=';

create table public.postback_signatures (
  network text not null,
  digest text not null check (digest ~ '^[0-9a-f]{64}$'),
  transaction_id text not null,
  first_seen timestamptz not null default now(),
  primary key (network, digest)
);
alter table public.postback_signatures enable row level security;
revoke all on table public.postback_signatures from public, anon, authenticated;

create table public.held_postbacks (
  id bigint generated always as identity primary key,
  received_at timestamptz not null default now(),
  network text not null,
  transaction_id text not null,
  -- A credit, or a reversal whose reversal field the network's signature does not cover (Revlum's status).
  kind text not null default 'credit' check (kind in ('credit', 'reversal')),
  user_id text references public.user_profiles (id) on delete set null,
  coins integer not null check (coins between 1 and 10000000),
  description text not null,
  offer_name text,
  hold_days integer check (hold_days between 0 and 365),
  -- Why it waits: the signature already paid another transaction, or the reversal is unsigned.
  reason text not null check (length(reason) between 1 and 500),
  -- The transaction whose signature this one repeats (null for an unsigned reversal).
  signature_seen_on text,
  status text not null default 'held' check (status in ('held', 'approved', 'rejected', 'reversed')),
  decided_at timestamptz,
  decided_by text,
  -- Per person: a replay naming a transaction id the network has not sent yet cannot stand in for
  -- the genuine postback of someone else.
  unique (network, transaction_id, kind, user_id)
);
create index held_postbacks_waiting_idx on public.held_postbacks (network, received_at) where status = 'held';
alter table public.held_postbacks enable row level security;
revoke all on table public.held_postbacks from public, anon, authenticated;

drop function public.log_postback(text, text, text, text, text, text, text, text, text, integer);
create function public.log_postback(
  p_network text, p_client_address text, p_method text, p_query text, p_body text, p_verdict text,
  p_reason text, p_user_id text, p_transaction_id text, p_coins integer, p_signature_digest text default null)
  returns void
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
begin
  insert into postback_log (network, client_address, method, query, body, verdict, reason, user_id, transaction_id,
                            coins, signature_digest)
  values (p_network, p_client_address, p_method, left(p_query, 4000), left(p_body, 4000), p_verdict,
          left(p_reason, 500), p_user_id, left(p_transaction_id, 200), p_coins, p_signature_digest);
  -- Kept 90 days: a few older entries go with each new one.
  delete from postback_log
   where id in (select id from postback_log where received_at < now() - interval '90 days'
                 order by received_at limit 20);
end
$$;

create or replace function public.record_postback(
  p_provider text, p_transaction_id text, p_user_id text, p_coins integer, p_reversal boolean, p_description text,
  p_offer_id text default null, p_hold_days integer default null, p_offer_name text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_kind text := case when p_reversal then 'reversal' else 'credit' end;
  v_id bigint;
  v_credit record;
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
  if p_hold_days is not null and (p_hold_days < 0 or p_hold_days > 365) then
    raise exception 'A hold is 0 to 365 days' using errcode = 'P0001', hint = 'invalid_hold_days';
  end if;
  if not exists (select from user_profiles where id = p_user_id) then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- One postback of this (provider, transaction) at a time, until commit: what the one before
  -- did is visible to the next. (The two-key form has its own space: no other lock shares it.)
  perform pg_advisory_xact_lock(hashtext(p_provider), hashtext(p_transaction_id));
  if not p_reversal then
    v_coins := p_coins;
    v_amount := coins_to_dollars(v_coins);
    -- Pending for the network's hold (the operator's for this network, else its own in
    -- provider_hold_days, else postback_hold_days): a network takes back most of what it will
    -- take back within days.
    select now() + make_interval(days => coalesce(p_hold_days, (provider_hold_days ->> p_provider)::integer,
                                                  postback_hold_days))
      into v_available_at from app_config;
    -- Repeats of one postback are recorded once: nothing has moved yet when this finds a repeat.
    insert into provider_postbacks (provider, transaction_id, kind, user_id, coins, amount, available_at, offer_name)
    values (p_provider, p_transaction_id, v_kind, p_user_id, p_coins, v_amount, v_available_at, left(p_offer_name, 200))
    on conflict (provider, transaction_id, kind) do nothing
    returning id into v_id;
    if v_id is null then
      return jsonb_build_object('duplicate', true, 'amount', 0);
    end if;
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
    -- A repeat of a reversal already taken is answered as one, whoever it names.
    if exists (select from provider_postbacks
                where provider = p_provider and transaction_id = p_transaction_id and kind = 'reversal') then
      return jsonb_build_object('duplicate', true, 'amount', 0);
    end if;
    -- Only the credit it names, of this person, and for no more than it paid: anything else is
    -- refused and, rolled back, leaves the reversal's id for the network's genuine one.
    select coins, amount, available_at into v_credit from provider_postbacks
     where provider = p_provider and transaction_id = p_transaction_id and kind = 'credit'
       and user_id = p_user_id;
    if not found then
      raise exception 'The reversal names no credit of this person on this network' using errcode = 'P0001',
        hint = 'reversal_names_no_credit';
    end if;
    if p_coins > v_credit.coins then
      raise exception 'The reversal takes back more than its credit paid' using errcode = 'P0001',
        hint = 'reversal_exceeds_credit';
    end if;
    -- Take back what the credit gave (at most), whatever the balance holds now: money already
    -- withdrawn leaves the balance negative, and no withdrawal is accepted until later earnings
    -- have paid it back.
    v_amount := -least(v_credit.amount, coins_to_dollars(p_coins));
    v_coins := -ceil(-v_amount * c_rate)::integer;
    insert into provider_postbacks (provider, transaction_id, kind, user_id, coins, amount)
    values (p_provider, p_transaction_id, v_kind, p_user_id, p_coins, v_amount)
    returning id into v_id;
    if v_amount < 0 then
      -- Still in its hold, the credit's own pending money goes (the reversal clears when it would
      -- have); cleared, it comes off the available money now.
      perform ledger_move(p_user_id, 'postback_reversal', v_coins, v_amount, p_description,
                          greatest(coalesce(v_credit.available_at, now()), now()));
    end if;
  end if;
  return jsonb_build_object('duplicate', false, 'amount', v_amount, 'coins', v_coins);
end
$$;

drop function public.take_postback(text, text, text, boolean, integer, boolean, text, integer, text, text, text,
                                   text, text, text);
-- One postback, recorded and logged in one call. p_signature_digest: the keyed digest of its
-- signature (logged in place of the value); p_check_signature_reuse: the network's signature does
-- not bind the transaction and the amount, so a credit whose digest already paid another
-- transaction is held for an operator instead of paid; p_review_reason: why the app holds it for an
-- operator whatever its signature (a reversal whose reversal field is unsigned), or null.
create function public.take_postback(
  p_network text, p_transaction_id text, p_person text, p_person_is_account boolean, p_coins integer,
  p_reversal boolean, p_description text, p_hold_days integer, p_offer_id text, p_offer_name text,
  p_client_address text, p_method text, p_query text, p_body text, p_signature_digest text,
  p_check_signature_reuse boolean, p_review_reason text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_user_id text := case when p_person_is_account then (select id from user_profiles where id = p_person)
                         else (select id from user_profiles where wall_id = p_person) end;
  v_result jsonb;
  v_verdict text;
  v_seen_on text;
  v_held record;
begin
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
$$;

-- An operator's decision on a held postback (finance or owner): approve pays it as the network's
-- credit (its hold and description as received), reject leaves it unpaid. Never on the operator's
-- own account; audited with the reason in the same transaction.
create function public.decide_held_postback(p_operator_id text, p_held_id bigint, p_approve boolean, p_reason text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_held held_postbacks;
  v_result jsonb := '{}'::jsonb;
begin
  perform require_operator_role(p_operator_id, array['finance']);
  if p_approve is null then
    raise exception 'Choose approve or reject.' using errcode = 'P0001', hint = 'invalid_decision';
  end if;
  if p_reason is null or btrim(p_reason) = '' or length(p_reason) > 500 then
    raise exception 'A reason is required' using errcode = 'P0001', hint = 'reason_required';
  end if;
  select * into v_held from held_postbacks where id = p_held_id for update;
  if not found then
    raise exception 'This held postback is no longer waiting. Reload the page.' using errcode = 'P0001', hint = 'held_postback_not_found';
  end if;
  if v_held.status <> 'held' then
    raise exception 'This held postback is no longer waiting. Reload the page.' using errcode = 'P0001', hint = 'held_postback_decided';
  end if;
  if v_held.user_id is null then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  if v_held.user_id = p_operator_id then
    raise exception 'Operators cannot do this to their own account' using errcode = 'P0001',
      hint = 'operator_self_action';
  end if;
  if p_approve then
    v_result := record_postback(v_held.network, v_held.transaction_id, v_held.user_id, v_held.coins,
                                v_held.kind = 'reversal', v_held.description, null, v_held.hold_days,
                                v_held.offer_name);
  end if;
  update held_postbacks
     set status = case when p_approve then 'approved' else 'rejected' end, decided_at = now(),
         decided_by = p_operator_id
   where id = v_held.id;
  insert into operator_actions (actor, actor_user_id, action, user_id, record_kind, record_id, before, after, reason,
                                detail)
  values (operator_name(p_operator_id), p_operator_id,
          case when p_approve then 'approve_held_postback' else 'reject_held_postback' end,
          v_held.user_id, 'held_postback', v_held.id::text,
          jsonb_build_object('status', 'held'),
          jsonb_build_object('status', case when p_approve then 'approved' else 'rejected' end),
          p_reason,
          jsonb_build_object('network', v_held.network, 'transaction_id', v_held.transaction_id, 'kind', v_held.kind,
                             'coins', v_held.coins, 'held_because', v_held.reason));
  return jsonb_build_object('status', case when p_approve then 'approved' else 'rejected' end,
                            'duplicate', coalesce((v_result ->> 'duplicate')::boolean, false));
end
$$;

-- One network's held postbacks for the console (every role reads; finance and owners decide).
create function public.operator_held_postbacks(p_operator_id text, p_network text)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  perform require_operator_role(p_operator_id, array['support']);
  perform check_wall_network(p_network);
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', h.id, 'received_at', h.received_at, 'transaction_id', h.transaction_id,
             'kind', h.kind, 'user_id', h.user_id, 'email', p.email, 'coins', h.coins, 'offer_name', h.offer_name,
             'reason', h.reason, 'signature_seen_on', h.signature_seen_on)
           order by h.received_at, h.id)
      from (select * from held_postbacks where network = p_network and status = 'held'
             order by received_at, id limit 100) h
      left join user_profiles p on p.id = h.user_id), '[]'::jsonb);
end
$$;

revoke all on function public.log_postback(text, text, text, text, text, text, text, text, text, integer, text)
  from public, anon, authenticated;
grant execute on function public.log_postback(text, text, text, text, text, text, text, text, text, integer, text)
  to service_role;
revoke all on function public.take_postback(text, text, text, boolean, integer, boolean, text, integer, text, text,
                                            text, text, text, text, text, boolean, text)
  from public, anon, authenticated;
grant execute on function public.take_postback(text, text, text, boolean, integer, boolean, text, integer, text, text,
                                               text, text, text, text, text, boolean, text)
  to service_role;
revoke all on function public.decide_held_postback(text, bigint, boolean, text) from public, anon, authenticated;
grant execute on function public.decide_held_postback(text, bigint, boolean, text) to service_role;
revoke all on function public.operator_held_postbacks(text, text) from public, anon, authenticated;
grant execute on function public.operator_held_postbacks(text, text) to service_role;
