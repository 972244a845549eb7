-- Redefines: public.record_postback, public.take_postback
-- Issue 19, section 5: postback ingestion at 1,000 a second on one instance.
--
-- record_postback wrote its provider_postbacks row and then updated it up to three times (the
-- hold, the amount moved, and take_postback the offer's name): each update a new row version and
-- its index entries, for every postback. The row is now written once, with all of them: the amount
-- and the hold are worked out first (reads only), and the insert still decides, under the same
-- advisory lock and unique key, whether this is a repeat, before anything moves. It takes the
-- offer's name (p_offer_name, kept for credits, as take_postback did); take_postback passes it.

drop function public.record_postback(text, text, text, integer, boolean, text, text, integer);

create function public.record_postback(p_provider text, p_transaction_id text, p_user_id text, p_coins integer,
                                       p_reversal boolean, p_description text, p_offer_id text default null,
                                       p_hold_days integer default null, p_offer_name text default null)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
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
    -- A reversal that came first (it moved nothing then) is taken off this credit.
    select coins into v_reversed_coins from provider_postbacks
     where provider = p_provider and transaction_id = p_transaction_id and kind = 'reversal'
       and user_id = p_user_id;
    v_coins := greatest(p_coins - coalesce(v_reversed_coins, 0), 0);
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
    -- Take back what the matching credit gave (at most), whatever the balance holds now: money
    -- already withdrawn leaves the balance negative, and no withdrawal is accepted until later
    -- earnings have paid it back. With no credit yet this moves nothing, and the credit, when it
    -- comes, is netted.
    select amount, available_at into v_credited, v_available_at from provider_postbacks
     where provider = p_provider and transaction_id = p_transaction_id and kind = 'credit'
       and user_id = p_user_id;
    v_amount := -least(coalesce(v_credited, 0), coins_to_dollars(p_coins));
    v_coins := -ceil(-v_amount * c_rate)::integer;
    insert into provider_postbacks (provider, transaction_id, kind, user_id, coins, amount)
    values (p_provider, p_transaction_id, v_kind, p_user_id, p_coins, v_amount)
    on conflict (provider, transaction_id, kind) do nothing
    returning id into v_id;
    if v_id is null then
      return jsonb_build_object('duplicate', true, 'amount', 0);
    end if;
    if v_amount < 0 then
      -- Still in its hold, the credit's own pending money goes (the reversal clears when it would
      -- have); cleared, it comes off the available money now.
      perform ledger_move(p_user_id, 'postback_reversal', v_coins, v_amount, p_description,
                          greatest(coalesce(v_available_at, now()), now()));
    end if;
  end if;
  return jsonb_build_object('duplicate', false, 'amount', v_amount, 'coins', v_coins);
end
$function$;

revoke all on function public.record_postback(text, text, text, integer, boolean, text, text, integer, text) from public, anon, authenticated;
grant execute on function public.record_postback(text, text, text, integer, boolean, text, text, integer, text) to service_role;

create or replace function public.take_postback(p_network text, p_transaction_id text, p_person text, p_person_is_account boolean,
                                     p_coins integer, p_reversal boolean, p_description text, p_hold_days integer,
                                     p_offer_id text, p_offer_name text, p_client_address text, p_method text,
                                     p_query text, p_body text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_user_id text := case when p_person_is_account then (select id from user_profiles where id = p_person)
                         else (select id from user_profiles where wall_id = p_person) end;
  v_result jsonb;
  v_verdict text;
begin
  if v_user_id is null then
    perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'refused',
                         format('no one has %s %s', case when p_person_is_account then 'account id' else 'wall id' end,
                                left(p_person, 100)),
                         null, p_transaction_id, p_coins);
    return jsonb_build_object('verdict', 'refused', 'reason', 'account_not_found');
  end if;
  v_result := record_postback(p_network, p_transaction_id, v_user_id, p_coins, p_reversal, p_description,
                              p_offer_id, p_hold_days, p_offer_name);
  v_verdict := case when (v_result ->> 'duplicate')::boolean then 'duplicate'
                    when p_reversal then 'reversed' else 'credited' end;
  perform log_postback(p_network, p_client_address, p_method, p_query, p_body, v_verdict, null, v_user_id,
                       p_transaction_id, p_coins);
  return v_result || jsonb_build_object('verdict', v_verdict, 'user_id', v_user_id);
end
$function$;
