-- The task dialog shows a task the person started and left as started, with the time it can be
-- completed (docs/decisions/069): its start, read from task_starts, and the database's clock.
-- A start whose task is already completed is no start: the dialog says it is done.
--
-- Adds: public.get_task_start

create function public.get_task_start(p_user_id text, p_task_id text) returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  return (
    select jsonb_build_object('started_at', s.started_at, 'now', now())
      from task_starts s
     where s.user_id = p_user_id and s.task_id = p_task_id
       and not exists (select from completed_tasks c where c.user_id = s.user_id and c.task_id = s.task_id));
end
$$;
revoke all on function public.get_task_start(text, text) from public, anon, authenticated;
grant execute on function public.get_task_start(text, text) to service_role;
