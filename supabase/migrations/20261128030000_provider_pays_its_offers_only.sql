-- With an offer provider configured, the app's own fallback tasks are never paid (security review,
-- item 3: a provider stalled during the offers fetch made the server list the fallback tasks, which
-- then paid after five seconds with no postback). The server lists only the provider's offers then
-- (the last good list while a refresh fails), and complete_task takes p_pay_own_tasks: false while
-- a provider is configured, so a start left from the fallback list cannot pay either.
--
-- complete_task is 20261125000000_offer_confirmation.sql's with that one change.
--
-- Redefines: public.complete_task

drop function public.complete_task(text, text, integer);

create function public.complete_task(p_user_id text, p_task_id text, p_min_seconds integer,
                                     p_pay_own_tasks boolean default true)
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

  -- The app's own (fallback) tasks pay only while no offer provider is configured: a start made
  -- from the fallback list (an older server, a time without a provider) is not paid later.
  if not coalesce(p_pay_own_tasks, false) then
    raise exception 'This task is no longer available' using errcode = 'P0001', hint = 'task_unavailable';
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

revoke all on function public.complete_task(text, text, integer, boolean) from public, anon, authenticated;
grant execute on function public.complete_task(text, text, integer, boolean) to service_role;
