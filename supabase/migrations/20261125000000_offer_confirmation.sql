-- Provider offers are paid by the provider's signed postback only (README, "Offer provider
-- postbacks"; a difference from the spec).
--
-- 1. start_task records where a task comes from: p_provider names the offer provider for its
--    offers, null for the app's own (fallback) tasks. The server decides, never the browser.
-- 2. complete_task pays the app's own tasks after the 5-second rule, as before. A provider offer
--    completed in the app is recorded as a pending completion and pays nothing: only the
--    provider knows whether the offer was really done.
-- 3. record_postback credits once per (provider, transaction). Its optional p_offer_id names the
--    task: the pending completion is marked credited (or a completion is recorded, for an offer
--    finished on the provider's own site), so a completion is paid by its postback alone.
-- 4. Postbacks of one (provider, transaction) are serialised by a transaction-scoped advisory
--    lock, so a credit and its reversal never interleave, and a reversal that arrives first is
--    netted against the credit that follows: the credit pays only what is left, maybe nothing.
-- 5. Rewards and postback coins are at most 10,000,000 coins (far inside the integer range; the
--    app refuses more before calling).
--
-- The functions below are the newest versions (20261124010000_notification_delivery.sql,
-- 20261122030000_rule_keys_and_config.sql) with these changes. start_task and record_postback
-- gain a parameter, so they are dropped and made again with their grants.
--
-- Redefines: public.start_task, public.complete_task, public.record_postback

-- ---------------------------------------------------------------------------------------------
-- Where a task comes from, and whether its completion has been paid
alter table public.task_starts
  add column provider text check (provider is null or length(provider) between 1 and 100);
-- A start made before now does not say where its task came from: a provider offer started then
-- must not be paid by the 5-second rule, so unfinished starts are dropped (Start Task again).
delete from public.task_starts s
 where not exists (select from public.completed_tasks c where c.user_id = s.user_id and c.task_id = s.task_id);

-- Completions made before this migration were all paid: they are credited.
alter table public.completed_tasks
  add column status text not null default 'credited' check (status in ('pending', 'credited')),
  -- The offer provider of a provider offer, and the postback transaction that paid it.
  add column provider text,
  add column transaction_id text,
  add column credited_at timestamptz;

-- A pending completion that becomes credited refreshes open Earn pages too.
create trigger completed_tasks_notify_credited
  after update of status on public.completed_tasks
  for each row when (old.status is distinct from new.status)
  execute function public.notify_task_completed();

-- ---------------------------------------------------------------------------------------------
-- Tasks
drop function public.start_task(text, text, text, integer);

create function public.start_task(p_user_id text, p_task_id text, p_title text, p_reward integer,
                                  p_provider text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_started_at timestamptz;
  v_status text;
begin
  select status into v_status from completed_tasks where user_id = p_user_id and task_id = p_task_id;
  if found then
    return jsonb_build_object('task_id', p_task_id, 'already_completed', true, 'status', v_status);
  end if;
  if p_reward is null or p_reward < 0 or p_reward > 10000000 then
    raise exception 'Invalid reward' using errcode = 'P0001', hint = 'invalid_reward';
  end if;
  -- Starting again restarts the clock (and takes the task's source as it is now).
  insert into task_starts (user_id, task_id, title, reward, provider)
  values (p_user_id, p_task_id, coalesce(nullif(trim(p_title), ''), p_task_id), p_reward,
          nullif(trim(p_provider), ''))
  on conflict (user_id, task_id)
    do update set title = excluded.title, reward = excluded.reward, provider = excluded.provider,
                  started_at = now()
  returning started_at into v_started_at;
  return jsonb_build_object('task_id', p_task_id, 'already_completed', false,
                            'started_at', v_started_at);
end
$$;

-- Spec §5: completing an already recorded task succeeds with reward 0. A provider offer's
-- completion is recorded as pending (reward 0, 'pending' true): its postback pays it.
create or replace function public.complete_task(p_user_id text, p_task_id text, p_min_seconds integer)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_start task_starts;
  v_move jsonb;
  v_status text;
begin
  select status into v_status from completed_tasks where user_id = p_user_id and task_id = p_task_id;
  if found then
    return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', 0,
                              'pending', v_status = 'pending');
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

  if v_start.provider is not null then
    -- A postback may have credited it meanwhile: then this changes nothing.
    insert into completed_tasks (user_id, task_id, reward, status, provider)
    values (p_user_id, p_task_id, v_start.reward, 'pending', v_start.provider)
    on conflict (user_id, task_id) do nothing;
    select status into v_status from completed_tasks where user_id = p_user_id and task_id = p_task_id;
    return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', 0,
                              'pending', v_status = 'pending', 'expected_reward', v_start.reward);
  end if;

  insert into completed_tasks (user_id, task_id, reward)
  values (p_user_id, p_task_id, v_start.reward)
  on conflict (user_id, task_id) do nothing;
  if not found then
    return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', 0, 'pending', false);
  end if;
  v_move := ledger_move(p_user_id, 'task', v_start.reward, coins_to_dollars(v_start.reward),
                        'Task completed: ' || v_start.title);
  -- Shown already: the page that completed the task says "Task Completed". Push and email remain.
  if (v_move ->> 'amount')::numeric > 0 then
    insert into user_notices (user_id, kind, data, shown_at)
    values (p_user_id, 'task_reward',
            jsonb_build_object('coins', v_start.reward, 'amount', v_move -> 'amount', 'task_id', p_task_id,
                               'title', v_start.title),
            now());
  end if;
  return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', v_start.reward,
                            'pending', false, 'balance', v_move -> 'balance');
end
$$;

-- The user's completions: { task_id: 'pending' | 'credited' } (replaces get_completed_task_ids).
drop function public.get_completed_task_ids(text);

create function public.get_task_completions(p_user_id text) returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_object_agg(task_id, status), '{}')
    from completed_tasks where user_id = p_user_id
$$;

-- ---------------------------------------------------------------------------------------------
-- Postbacks
drop function public.record_postback(text, text, text, integer, boolean, text);

create function public.record_postback(p_provider text, p_transaction_id text, p_user_id text,
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
  v_balance numeric;
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
    -- Take back what the matching credit gave, but never more than the balance holds now. With no
    -- credit yet this moves nothing, and the credit, when it comes, is netted.
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

-- ---------------------------------------------------------------------------------------------
-- Access: nothing for anon/authenticated, the functions for service_role.
revoke all on function public.start_task(text, text, text, integer, text) from public, anon, authenticated;
revoke all on function public.get_task_completions(text) from public, anon, authenticated;
revoke all on function public.record_postback(text, text, text, integer, boolean, text, text)
  from public, anon, authenticated;

grant execute on function public.start_task(text, text, text, integer, text) to service_role;
grant execute on function public.get_task_completions(text) to service_role;
grant execute on function public.record_postback(text, text, text, integer, boolean, text, text) to service_role;
