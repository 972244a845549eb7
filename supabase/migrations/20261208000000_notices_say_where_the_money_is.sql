-- Redefines: public.record_postback, public.resolve_credited_report, public.get_recent_activity
--
-- A notice about money says where that money is (issue 36, docs/decisions/080): "350 coins ($3.50)
-- — pending, clears Dec 5", "$5.00 referral bonus — locked until your offer earnings clear". The
-- words are the app's (app/domain/money-timeline.ts); the notice carries what they need, fixed when
-- the money moved:
-- - an offer's credit (postback_reward), its clearing time: `available_at`;
-- - bonus money (task_reward, referral_credited, welcome_bonus, and a missing-credit correction of
--   bonus money), whether bonus money was locked once it was added: `locked`. Newer bonus money is
--   the last to unlock, so any bonus locked then is this credit's (all of it or part);
-- - a missing-credit correction of offer earnings: `locked` false (it is available at once).
-- Notices written before this carry neither; their words name no state rather than guess one.

-- Whether the person's bonus money is locked now, for a notice of bonus money (before insert).
create function public.user_notices_money_state()
  returns trigger
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
begin
  if new.data ? 'locked' then
    return new;
  end if;
  new.data := new.data || jsonb_build_object(
    'locked', coalesce((money_available(new.user_id) ->> 'bonus_locked')::numeric > 0, false));
  return new;
end
$$;
revoke all on function public.user_notices_money_state() from public, anon, authenticated, service_role;

create trigger user_notices_money_state before insert on public.user_notices
  for each row when (new.kind in ('task_reward', 'referral_credited', 'welcome_bonus', 'missing_credit_credited'))
  execute function public.user_notices_money_state();

CREATE OR REPLACE FUNCTION public.record_postback(p_provider text, p_transaction_id text, p_user_id text, p_coins integer, p_reversal boolean, p_description text, p_offer_id text DEFAULT NULL::text, p_hold_days integer DEFAULT NULL::integer, p_offer_name text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
  -- The console's own test postback (its sim- id, recorded for this person by the owner who sent it)
  -- credits test money: its own ledger, never a balance.
  if not p_reversal and p_transaction_id like 'sim-%'
     and exists (select from operator_actions
                  where record_id = p_user_id and action = 'test_postback'
                    and detail ->> 'network' = p_provider and detail ->> 'transaction_id' = p_transaction_id) then
    insert into test_credits (user_id, network, transaction_id, coins, amount, offer_name)
    values (p_user_id, p_provider, p_transaction_id, p_coins, coins_to_dollars(p_coins), left(p_offer_name, 200))
    on conflict (network, transaction_id) do nothing
    returning id into v_id;
    if v_id is null then
      return jsonb_build_object('duplicate', true, 'amount', 0, 'test', true);
    end if;
    return jsonb_build_object('duplicate', false, 'amount', 0, 'coins', p_coins, 'test', true,
                              'test_amount', coins_to_dollars(p_coins));
  end if;
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
              jsonb_build_object('coins', v_coins, 'amount', v_amount, 'provider', p_provider,
                                 'available_at', v_available_at)
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
$function$;

CREATE OR REPLACE FUNCTION public.resolve_credited_report(p_report_id bigint)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_report missing_credit_reports;
  v_amount numeric;
  v_kind text;
begin
  update missing_credit_reports set status = 'resolved', updated_at = now()
   where id = p_report_id and status <> 'resolved';
  select * into v_report from missing_credit_reports where id = p_report_id;
  select amount, kind into v_amount, v_kind from balance_adjustments
   where missing_credit_report_id = p_report_id and state = 'applied';
  if v_report.user_id is not null and v_amount > 0 then
    insert into user_notices (user_id, kind, data)
    values (v_report.user_id, 'missing_credit_credited',
            jsonb_build_object('amount', v_amount,
                               'coins', round(v_amount * (select coins_per_dollar from app_config))::integer,
                               'title', v_report.offer_name, 'network', v_report.network)
            -- Offer earnings corrected are available at once; bonus money gets its state from the trigger.
            || case when v_kind = 'earned' then jsonb_build_object('locked', false) else '{}' end);
  end if;
end
$function$;

-- Recent Activity says where each row's money is, in the same words: the row's clearing time and
-- kind, whether a bonus credit is still locked (newest bonus first, as above: a row is locked while
-- the bonus credits newer than it add up to less than what is locked), and a withdrawal's step.
drop function public.get_recent_activity(text, integer);
create function public.get_recent_activity(p_user_id text, p_limit integer default 10) returns json
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_locked numeric := coalesce((money_available(p_user_id) ->> 'bonus_locked')::numeric, 0);
begin
  return (
    select coalesce(json_agg(json_build_object(
             'id', t.id,
             'created_at', t.created_at,
             'description', t.description,
             'transaction_type', t.transaction_type,
             'amount', t.amount,
             'status', t.status,
             'coins', t.coins,
             'kind', t.kind,
             'available_at', t.available_at,
             'locked', t.kind = 'bonus' and t.amount > 0 and t.newer_bonus < v_locked,
             'review_state', w.review_state,
             'sent_at', w.sent_at,
             'settled_at', w.settled_at) order by t.created_at desc, t.id desc), '[]')
      from (select id, created_at, description, transaction_type, amount, status, coins, kind, available_at,
                   withdrawal_id,
                   coalesce(sum(amount) filter (where kind = 'bonus' and amount > 0)
                              over (order by created_at desc, id desc
                                    rows between unbounded preceding and 1 preceding), 0) as newer_bonus
              from transaction_history
             where user_id = p_user_id
             order by created_at desc, id desc
             limit least(greatest(coalesce(p_limit, 10), 1), 50)) t
      left join withdrawals w on w.id = t.withdrawal_id);
end
$$;
revoke all on function public.get_recent_activity(text, integer) from public, anon, authenticated;
grant execute on function public.get_recent_activity(text, integer) to service_role;
