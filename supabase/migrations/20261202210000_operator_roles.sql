-- Issue 20, "Who may enter" (docs/operator-console.md): the operator console's roles and its audit log.
--
-- - operators: who holds an operator role (owner, finance or support). The role is also a Firebase
--   custom claim (`role`) carried by the person's session; the console lets in only a session whose
--   claim and row agree, and SQL checks the row (require_operator_role) in every operator function
--   that is given an operator id.
-- - grant_operator_role / revoke_operator_role: change the row and append the audit entry in the
--   same transaction; operator_role(person) reads it.
-- - operator_actions, the append-only audit log, grows to hold every console action: the
--   operator's user id (beside the name it already had), the record acted on (kind and id), what it
--   was before and after, and the new actions grant_role and revoke_role. Rows written before keep
--   their user_id and withdrawal_id; the reader names their record from those.
-- - list_operator_actions(operator, before, limit): the log, newest first, a page at a time.

create table public.operators (
  user_id text primary key references public.user_profiles (id) on delete cascade,
  role text not null check (role in ('owner', 'finance', 'support')),
  granted_at timestamptz not null default now(),
  granted_by text not null check (length(granted_by) between 1 and 100)
);
alter table public.operators enable row level security;
revoke all on table public.operators from public, anon, authenticated;

alter table public.operator_actions
  -- The operator's account when a signed-in operator acted (the command line names only `actor`).
  add column actor_user_id text,
  add column record_kind text check (length(record_kind) between 1 and 50),
  add column record_id text check (length(record_id) between 1 and 200),
  add column before jsonb,
  add column after jsonb,
  drop constraint operator_actions_action_check,
  add constraint operator_actions_action_check
    check (action in ('approve', 'reject', 'pause', 'resume', 'ban', 'unban', 'grant_role', 'revoke_role'));

-- A role's rank: support < finance < owner (null: not a role).
create function public.operator_role_rank(p_role text)
  returns integer
  language sql
  immutable
  set search_path = public, pg_temp
as $$
  select case p_role when 'support' then 1 when 'finance' then 2 when 'owner' then 3 end
$$;

-- The person's operator role, or null.
create function public.operator_role(p_user_id text)
  returns text
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select role from operators where user_id = p_user_id
$$;

-- The operator's role when it ranks at or above one of p_minimum_roles (`{finance}`: finance or
-- owner); otherwise the operator may not do this. Every operator function given an operator id
-- starts here.
create function public.require_operator_role(p_operator_id text, p_minimum_roles text[])
  returns text
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_role text;
  v_needed integer;
begin
  if p_minimum_roles is null or cardinality(p_minimum_roles) = 0
     or exists (select from unnest(p_minimum_roles) r where operator_role_rank(r) is null) then
    raise exception 'Invalid operator role' using errcode = 'P0001', hint = 'invalid_operator_role';
  end if;
  select min(operator_role_rank(r)) into v_needed from unnest(p_minimum_roles) r;
  select role into v_role from operators where user_id = p_operator_id;
  if v_role is null or operator_role_rank(v_role) < v_needed then
    raise exception 'Operator role required' using errcode = 'P0001', hint = 'operator_role_required';
  end if;
  return v_role;
end
$$;

-- Gives (or changes) a person's operator role, with its audit entry. p_actor names who did it
-- (OPERATOR_NAME on the command line); a signed-in operator doing it from the console passes their
-- own id too, and must be an owner.
create function public.grant_operator_role(p_actor text, p_user_id text, p_role text, p_actor_user_id text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_previous text;
begin
  if p_actor_user_id is not null then
    perform require_operator_role(p_actor_user_id, array['owner']);
  end if;
  if operator_role_rank(p_role) is null then
    raise exception 'Invalid operator role' using errcode = 'P0001', hint = 'invalid_operator_role';
  end if;
  -- The profile locked: a deletion waits for the grant, or the grant sees the account gone.
  perform from user_profiles where id = p_user_id for key share;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  select role into v_previous from operators where user_id = p_user_id for update;
  if v_previous = p_role then
    return jsonb_build_object('user_id', p_user_id, 'role', p_role, 'previous_role', v_previous, 'changed', false);
  end if;
  insert into operators (user_id, role, granted_by) values (p_user_id, p_role, v_actor)
  on conflict (user_id) do update set role = excluded.role, granted_at = now(), granted_by = excluded.granted_by;
  insert into operator_actions (actor, actor_user_id, action, user_id, record_kind, record_id, before, after)
  values (v_actor, p_actor_user_id, 'grant_role', p_user_id, 'operator', p_user_id,
          case when v_previous is not null then jsonb_build_object('role', v_previous) end,
          jsonb_build_object('role', p_role));
  -- Sessions carry the role claim: the person signs in again to get the new one.
  perform announce_sessions_ended(p_user_id);
  return jsonb_build_object('user_id', p_user_id, 'role', p_role, 'previous_role', v_previous, 'changed', true);
end
$$;

-- Takes a person's operator role away, with its audit entry.
create function public.revoke_operator_role(p_actor text, p_user_id text, p_actor_user_id text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_previous text;
begin
  if p_actor_user_id is not null then
    perform require_operator_role(p_actor_user_id, array['owner']);
  end if;
  delete from operators where user_id = p_user_id returning role into v_previous;
  if v_previous is null then
    return jsonb_build_object('user_id', p_user_id, 'previous_role', null, 'changed', false);
  end if;
  insert into operator_actions (actor, actor_user_id, action, user_id, record_kind, record_id, before, after)
  values (v_actor, p_actor_user_id, 'revoke_role', p_user_id, 'operator', p_user_id,
          jsonb_build_object('role', v_previous), null);
  perform announce_sessions_ended(p_user_id);
  return jsonb_build_object('user_id', p_user_id, 'previous_role', v_previous, 'changed', true);
end
$$;

-- The audit log for the console, newest first: at most p_limit entries older than p_before (null:
-- from the newest). Every role may read it.
create function public.list_operator_actions(p_operator_id text, p_before bigint, p_limit integer)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  perform require_operator_role(p_operator_id, array['support']);
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    raise exception 'A limit is 1 to 1000 entries' using errcode = 'P0001', hint = 'invalid_log_limit';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', a.id, 'at', a.at, 'actor', a.actor, 'actor_user_id', a.actor_user_id, 'action', a.action,
             'record_kind', coalesce(a.record_kind,
                                     case when a.withdrawal_id is not null then 'withdrawal'
                                          when a.user_id is not null then 'account' end),
             'record_id', coalesce(a.record_id, a.withdrawal_id::text, a.user_id),
             'user_id', a.user_id, 'email', p.email, 'reason', a.reason,
             'before', a.before, 'after', a.after, 'detail', a.detail)
           order by a.id desc)
      from (select * from operator_actions
             where p_before is null or id < p_before
             order by id desc
             limit p_limit) a
      left join user_profiles p on p.id = a.user_id), '[]');
end
$$;

revoke all on function public.operator_role_rank(text) from public, anon, authenticated;
revoke all on function public.operator_role(text) from public, anon, authenticated;
grant execute on function public.operator_role(text) to service_role;
revoke all on function public.require_operator_role(text, text[]) from public, anon, authenticated;
grant execute on function public.require_operator_role(text, text[]) to service_role;
revoke all on function public.grant_operator_role(text, text, text, text) from public, anon, authenticated;
grant execute on function public.grant_operator_role(text, text, text, text) to service_role;
revoke all on function public.revoke_operator_role(text, text, text) from public, anon, authenticated;
grant execute on function public.revoke_operator_role(text, text, text) to service_role;
revoke all on function public.list_operator_actions(text, bigint, integer) from public, anon, authenticated;
grant execute on function public.list_operator_actions(text, bigint, integer) to service_role;
