-- Redefines: public.record_postback
-- Issue 19, item 1: offer walls by configuration (docs/offer-walls.md).
--
-- - Networks never see an account's id or email: each person has a wall id, random and stable
--   ('w' and 32 hex digits, within every network's limit: BitLabs takes at most 65 characters), which
--   the wall's URL carries and the network's postbacks send back.
-- - record_wall_postback(network, transaction, wall id, ...) finds the person by that id and
--   records the postback as record_postback does, per network and transaction (a repeat changes
--   nothing), with the network's own hold when the operator set one (WALL_{NAME}_HOLD_DAYS).
-- - record_postback takes that hold as p_hold_days (null: the provider's hold in app_config, else
--   postback_hold_days, as before).

alter table public.user_profiles add column wall_id text;
update public.user_profiles set wall_id = 'w' || replace(gen_random_uuid()::text, '-', '');
alter table public.user_profiles
  alter column wall_id set default ('w' || replace(gen_random_uuid()::text, '-', '')),
  alter column wall_id set not null;
create unique index user_profiles_wall_id_key on public.user_profiles (wall_id);

drop function public.record_postback(text, text, text, integer, boolean, text, text);

create function public.record_postback(p_provider text, p_transaction_id text, p_user_id text, p_coins integer,
                                       p_reversal boolean, p_description text, p_offer_id text default null,
                                       p_hold_days integer default null)
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
    -- Pending for the network's hold (the operator's for this network, else its own in
    -- provider_hold_days, else postback_hold_days): a network takes back most of what it will
    -- take back within days.
    select now() + make_interval(days => coalesce(p_hold_days, (provider_hold_days ->> p_provider)::integer,
                                                  postback_hold_days))
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
$function$;

create function public.record_wall_postback(p_network text, p_transaction_id text, p_wall_id text, p_coins integer,
                                            p_reversal boolean, p_description text, p_hold_days integer)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_user_id text := (select id from user_profiles where wall_id = p_wall_id);
begin
  if v_user_id is null then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  return record_postback(p_network, p_transaction_id, v_user_id, p_coins, p_reversal, p_description,
                         null, p_hold_days);
end
$function$;

-- The person's wall id, for the wall's URL.
create function public.get_wall_id(p_user_id text) returns text
 language plpgsql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
begin
  return (select wall_id from user_profiles where id = p_user_id);
end
$function$;

revoke all on function public.record_postback(text, text, text, integer, boolean, text, text, integer) from public, anon, authenticated;
grant execute on function public.record_postback(text, text, text, integer, boolean, text, text, integer) to service_role;
revoke all on function public.record_wall_postback(text, text, text, integer, boolean, text, integer) from public, anon, authenticated;
grant execute on function public.record_wall_postback(text, text, text, integer, boolean, text, integer) to service_role;
revoke all on function public.get_wall_id(text) from public, anon, authenticated;
grant execute on function public.get_wall_id(text) to service_role;
