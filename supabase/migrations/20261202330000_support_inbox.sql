-- Redefines: public.get_user_feedback, public.get_missing_credit_reports, public.notice_category
--
-- Issue 20, "Support inbox" (docs/operator-console.md): feedback and missing-credit reports become
-- tickets an operator works through.
--
-- - Both kinds have a status (open, waiting for the person, resolved), an operator they are
--   assigned to, and when they last changed. Missing-credit reports' earlier statuses map over:
--   answered → waiting, closed → resolved.
-- - support_messages: what operators wrote on a ticket: replies (the person sees them in Help &
--   Support or My offers, and gets them by email through a `support_reply` notice, as other
--   notices are sent) and internal notes (operators only).
-- - operator_tickets (the inbox, a page at a time), operator_ticket (one ticket with the person and
--   its messages), operator_reply_ticket, operator_update_ticket (status, assignment): every role
--   answers tickets; each write is audited in the same transaction.
-- - get_user_feedback and get_missing_credit_reports return each ticket's status and replies.
-- - operator_adjust_balance and operator_decide_adjustment (20261202320000) resolve the
--   missing-credit report an applied adjustment names.

alter table public.user_feedback
  add column status text not null default 'open' check (status in ('open', 'waiting', 'resolved')),
  add column assigned_to text references public.user_profiles (id) on delete set null,
  add column updated_at timestamptz not null default now();

alter table public.missing_credit_reports drop constraint missing_credit_reports_status_check;
update public.missing_credit_reports
   set status = case status when 'answered' then 'waiting' when 'closed' then 'resolved' else status end
 where status in ('answered', 'closed');
alter table public.missing_credit_reports
  add constraint missing_credit_reports_status_check check (status in ('open', 'waiting', 'resolved')),
  add column assigned_to text references public.user_profiles (id) on delete set null,
  add column updated_at timestamptz not null default now();

-- The inbox reads the tickets not yet resolved, oldest first, and the resolved ones newest first.
drop index public.missing_credit_reports_open_idx;
create index missing_credit_reports_inbox_idx on public.missing_credit_reports (status, created_at, id);
create index user_feedback_inbox_idx on public.user_feedback (status, created_at, id);

create table public.support_messages (
  id bigint generated always as identity primary key,
  ticket_kind text not null check (ticket_kind in ('feedback', 'missing_credit')),
  ticket_id bigint not null,
  operator_user_id text,
  operator_name text not null check (length(operator_name) between 1 and 100),
  body text not null check (length(body) between 1 and 2000),
  internal boolean not null,
  created_at timestamptz not null default now()
);
alter table public.support_messages enable row level security;
revoke all on table public.support_messages from public, anon, authenticated;
create index support_messages_ticket_idx on public.support_messages (ticket_kind, ticket_id, id);

alter table public.user_notices
  drop constraint user_notices_kind_check,
  add constraint user_notices_kind_check check (kind in ('withdrawal_completed', 'withdrawal_failed',
    'referral_credited', 'welcome_bonus', 'task_reward', 'postback_reward', 'support_reply'));

-- A support reply answers the person's own message: its category has no switch of its own, so only
-- the channel's switch (email, push) governs it (app/server/notifications/delivery.server.ts).
create or replace function public.notice_category(p_kind text)
  returns text
  language sql
  immutable
  set search_path = public, pg_temp
as $$
  select case
           when p_kind in ('withdrawal_completed', 'withdrawal_failed') then 'withdrawal'
           when p_kind in ('referral_credited', 'welcome_bonus', 'task_reward', 'postback_reward') then 'reward'
           when p_kind = 'support_reply' then 'support'
         end
$$;

-- The replies a person sees on one of their tickets, oldest first.
create function public.ticket_replies(p_kind text, p_id bigint)
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object('created_at', created_at, 'body', body) order by id), '[]')
    from support_messages
   where ticket_kind = p_kind and ticket_id = p_id and not internal
$$;

create or replace function public.get_user_feedback(p_user_id text)
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'created_at', created_at, 'message', message,
                                               'status', status, 'replies', ticket_replies('feedback', id))
                            order by created_at desc, id desc), '[]')
    from user_feedback
   where user_id = p_user_id
$$;

create or replace function public.get_missing_credit_reports(p_user_id text)
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'network', network, 'offer_name', offer_name,
                                               'completed_on', completed_on, 'status', status,
                                               'created_at', created_at,
                                               'replies', ticket_replies('missing_credit', id))
                            order by created_at desc, id desc), '[]')
    from (select * from missing_credit_reports where user_id = p_user_id
           order by created_at desc, id desc limit 50) r
$$;

-- One ticket as the inbox lists it: feedback or a missing-credit report, the person, its state.
create function public.ticket_row(p_kind text, p_id bigint, p_user_id text, p_created_at timestamptz,
                                  p_status text, p_assigned_to text, p_updated_at timestamptz, p_subject text)
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select jsonb_build_object(
           'kind', p_kind, 'id', p_id, 'user_id', p_user_id, 'email', p.email, 'created_at', p_created_at,
           'status', p_status, 'assigned_to', p_assigned_to, 'assigned_name', a.display_name,
           'updated_at', p_updated_at, 'subject', p_subject,
           'messages', (select count(*) from support_messages m where m.ticket_kind = p_kind and m.ticket_id = p_id))
    from (select 1) one
    left join user_profiles p on p.id = p_user_id
    left join user_profiles a on a.id = p_assigned_to
$$;

create function public.operator_tickets(
  p_operator_id text,
  p_view text,
  p_kind text default null,
  p_mine boolean default false,
  p_cursor_created_at timestamptz default null,
  p_cursor_kind text default null,
  p_cursor_id bigint default null,
  p_limit integer default 50
)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_limit integer := least(greatest(coalesce(p_limit, 50), 1), 201);
  v_statuses text[] := case p_view when 'open' then array['open'] when 'waiting' then array['waiting']
                                   when 'resolved' then array['resolved']
                                   when 'all' then array['open', 'waiting', 'resolved'] end;
  v_newest_first boolean := p_view in ('resolved', 'all');
begin
  perform require_operator_role(p_operator_id, array['support']);
  if v_statuses is null then
    raise exception 'Unknown view' using errcode = 'P0001', hint = 'invalid_ticket_view';
  end if;
  if p_kind is not null and p_kind not in ('feedback', 'missing_credit') then
    raise exception 'Unknown ticket kind' using errcode = 'P0001', hint = 'ticket_not_found';
  end if;
  return coalesce((
    select jsonb_agg(ticket_row(t.kind, t.id, t.user_id, t.created_at, t.status, t.assigned_to, t.updated_at,
                                t.subject)
                     order by case when v_newest_first then null else t.created_at end,
                              case when v_newest_first then t.created_at end desc,
                              t.kind, t.id)
      from (select * from (
              (select 'feedback' as kind, f.id, f.user_id, f.created_at, f.status, f.assigned_to, f.updated_at,
                      left(f.message, 160) as subject
                 from user_feedback f
                where f.status = any(v_statuses) and (p_kind is null or p_kind = 'feedback')
                  and (not p_mine or f.assigned_to = p_operator_id)
                  and (p_cursor_created_at is null
                       or (not v_newest_first and (f.created_at, 'feedback', f.id) > (p_cursor_created_at, p_cursor_kind, p_cursor_id))
                       or (v_newest_first and (f.created_at, 'feedback', f.id) < (p_cursor_created_at, p_cursor_kind, p_cursor_id)))
                order by case when v_newest_first then null else f.created_at end,
                         case when v_newest_first then f.created_at end desc, f.id
                limit v_limit)
              union all
              (select 'missing_credit', r.id, r.user_id, r.created_at, r.status, r.assigned_to, r.updated_at,
                      r.network || ': ' || r.offer_name
                 from missing_credit_reports r
                where r.status = any(v_statuses) and (p_kind is null or p_kind = 'missing_credit')
                  and (not p_mine or r.assigned_to = p_operator_id)
                  and (p_cursor_created_at is null
                       or (not v_newest_first and (r.created_at, 'missing_credit', r.id) > (p_cursor_created_at, p_cursor_kind, p_cursor_id))
                       or (v_newest_first and (r.created_at, 'missing_credit', r.id) < (p_cursor_created_at, p_cursor_kind, p_cursor_id)))
                order by case when v_newest_first then null else r.created_at end,
                         case when v_newest_first then r.created_at end desc, r.id
                limit v_limit)) both_kinds
             order by case when v_newest_first then null else created_at end,
                      case when v_newest_first then created_at end desc, kind, id
             limit v_limit) t), '[]'::jsonb);
end
$$;

-- A ticket's row, locked when asked: the caller's view of its kind's table, or nothing.
create function public.ticket_state(p_kind text, p_id bigint)
  returns table (user_id text, status text, assigned_to text, created_at timestamptz, subject text, detail jsonb)
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select f.user_id, f.status, f.assigned_to, f.created_at, f.message,
         jsonb_build_object('name', f.name, 'email', f.email)
    from user_feedback f where p_kind = 'feedback' and f.id = p_id
  union all
  select r.user_id, r.status, r.assigned_to, r.created_at, r.network || ': ' || r.offer_name,
         jsonb_build_object('network', r.network, 'offer_name', r.offer_name, 'completed_on', r.completed_on,
                            'details', r.details)
    from missing_credit_reports r where p_kind = 'missing_credit' and r.id = p_id
$$;

create function public.operator_ticket(p_operator_id text, p_kind text, p_id bigint)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_ticket record;
begin
  perform require_operator_role(p_operator_id, array['support']);
  select * into v_ticket from ticket_state(p_kind, p_id);
  if not found then
    return null;
  end if;
  return jsonb_build_object(
    'kind', p_kind, 'id', p_id, 'user_id', v_ticket.user_id, 'status', v_ticket.status,
    'assigned_to', v_ticket.assigned_to, 'created_at', v_ticket.created_at, 'subject', v_ticket.subject,
    'detail', v_ticket.detail,
    'assigned_name', (select display_name from user_profiles where id = v_ticket.assigned_to),
    'person', (select jsonb_build_object('id', p.id, 'email', p.email, 'email_verified', p.email_verified,
                                         'display_name', p.display_name)
                 from user_profiles p where p.id = v_ticket.user_id),
    'messages', coalesce((select jsonb_agg(jsonb_build_object('id', m.id, 'created_at', m.created_at,
                                                             'operator_name', m.operator_name, 'body', m.body,
                                                             'internal', m.internal) order by m.id)
                            from support_messages m where m.ticket_kind = p_kind and m.ticket_id = p_id),
                         '[]'::jsonb),
    'adjustments', case when p_kind = 'missing_credit' then coalesce((
                     select jsonb_agg(jsonb_build_object('id', a.id, 'amount', a.amount, 'state', a.state,
                                                         'requested_by', a.requested_by) order by a.id)
                       from balance_adjustments a where a.missing_credit_report_id = p_id), '[]'::jsonb) end);
end
$$;

-- Sets a ticket's status and when it changed (the caller has checked the operator).
create function public.set_ticket_status(p_kind text, p_id bigint, p_status text)
  returns void
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
begin
  if p_kind = 'feedback' then
    update user_feedback set status = p_status, updated_at = now() where id = p_id;
  else
    update missing_credit_reports set status = p_status, updated_at = now() where id = p_id;
  end if;
end
$$;

create function public.operator_reply_ticket(
  p_operator_id text,
  p_actor text,
  p_kind text,
  p_id bigint,
  p_body text,
  p_internal boolean
)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  -- Browsers send a textarea's line breaks as CRLF: kept as plain line breaks.
  v_body text := nullif(btrim(replace(coalesce(p_body, ''), E'\r\n', E'\n')), '');
  v_ticket record;
  v_message_id bigint;
  v_status text;
begin
  perform require_operator_role(p_operator_id, array['support']);
  if v_body is null then
    raise exception 'Message required' using errcode = 'P0001', hint = 'ticket_message_required';
  end if;
  -- Line breaks are a reply's own; any other control or invisible character is refused.
  if length(v_body) > 2000 or has_hidden_characters(replace(v_body, E'\n', ' ')) then
    raise exception 'Invalid message' using errcode = 'P0001', hint = 'invalid_ticket_message';
  end if;
  -- Locked: two operators answering at once each see the other's status change.
  if p_kind = 'feedback' then
    perform from user_feedback where id = p_id for update;
  elsif p_kind = 'missing_credit' then
    perform from missing_credit_reports where id = p_id for update;
  end if;
  select * into v_ticket from ticket_state(p_kind, p_id);
  if not found then
    raise exception 'Ticket not found' using errcode = 'P0001', hint = 'ticket_not_found';
  end if;
  if not coalesce(p_internal, true) and v_ticket.user_id is null then
    -- The account was deleted: nobody is left to read a reply.
    raise exception 'Ticket not found' using errcode = 'P0001', hint = 'ticket_person_gone';
  end if;
  insert into support_messages (ticket_kind, ticket_id, operator_user_id, operator_name, body, internal)
  values (p_kind, p_id, p_operator_id, v_actor, v_body, coalesce(p_internal, true))
  returning id into v_message_id;
  v_status := v_ticket.status;
  if not coalesce(p_internal, true) then
    -- Answered: it waits for the person now, and they are told (toast, email, push) as notices are.
    v_status := case when v_ticket.status = 'resolved' then 'resolved' else 'waiting' end;
    perform set_ticket_status(p_kind, p_id, v_status);
    insert into user_notices (user_id, kind, data)
    values (v_ticket.user_id, 'support_reply',
            jsonb_build_object('ticket_kind', p_kind, 'ticket_id', p_id, 'body', v_body));
  end if;
  insert into operator_actions (actor, actor_user_id, action, user_id, record_kind, record_id, before, after, detail)
  values (v_actor, p_operator_id, case when coalesce(p_internal, true) then 'ticket_note' else 'ticket_reply' end,
          v_ticket.user_id, 'ticket', p_kind || ':' || p_id, jsonb_build_object('status', v_ticket.status),
          jsonb_build_object('status', v_status), jsonb_build_object('message_id', v_message_id));
  return jsonb_build_object('message_id', v_message_id, 'status', v_status);
end
$$;

create function public.operator_update_ticket(
  p_operator_id text,
  p_actor text,
  p_kind text,
  p_id bigint,
  p_status text default null,
  p_assign text default null
)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_ticket record;
  v_assignee text;
begin
  perform require_operator_role(p_operator_id, array['support']);
  if p_status is not null and p_status not in ('open', 'waiting', 'resolved') then
    raise exception 'Invalid status' using errcode = 'P0001', hint = 'invalid_ticket_status';
  end if;
  if p_assign is not null and p_assign not in ('me', 'nobody') then
    raise exception 'Invalid assignment' using errcode = 'P0001', hint = 'invalid_ticket_status';
  end if;
  if p_kind = 'feedback' then
    perform from user_feedback where id = p_id for update;
  elsif p_kind = 'missing_credit' then
    perform from missing_credit_reports where id = p_id for update;
  end if;
  select * into v_ticket from ticket_state(p_kind, p_id);
  if not found then
    raise exception 'Ticket not found' using errcode = 'P0001', hint = 'ticket_not_found';
  end if;
  if p_status is not null and p_status is distinct from v_ticket.status then
    perform set_ticket_status(p_kind, p_id, p_status);
    insert into operator_actions (actor, actor_user_id, action, user_id, record_kind, record_id, before, after)
    values (v_actor, p_operator_id, 'ticket_status', v_ticket.user_id, 'ticket', p_kind || ':' || p_id,
            jsonb_build_object('status', v_ticket.status), jsonb_build_object('status', p_status));
  end if;
  v_assignee := case p_assign when 'me' then p_operator_id when 'nobody' then null else v_ticket.assigned_to end;
  if p_assign is not null and v_assignee is distinct from v_ticket.assigned_to then
    if p_kind = 'feedback' then
      update user_feedback set assigned_to = v_assignee, updated_at = now() where id = p_id;
    else
      update missing_credit_reports set assigned_to = v_assignee, updated_at = now() where id = p_id;
    end if;
    insert into operator_actions (actor, actor_user_id, action, user_id, record_kind, record_id, before, after)
    values (v_actor, p_operator_id, 'ticket_assign', v_ticket.user_id, 'ticket', p_kind || ':' || p_id,
            jsonb_build_object('assigned_to', v_ticket.assigned_to), jsonb_build_object('assigned_to', v_assignee));
  end if;
  return jsonb_build_object('status', coalesce(p_status, v_ticket.status), 'assigned_to', v_assignee);
end
$$;

revoke all on function public.ticket_replies(text, bigint) from public, anon, authenticated;
revoke all on function public.ticket_row(text, bigint, text, timestamptz, text, text, timestamptz, text)
  from public, anon, authenticated;
revoke all on function public.ticket_state(text, bigint) from public, anon, authenticated;
revoke all on function public.set_ticket_status(text, bigint, text) from public, anon, authenticated;
revoke all on function public.operator_tickets(text, text, text, boolean, timestamptz, text, bigint, integer)
  from public, anon, authenticated;
grant execute on function public.operator_tickets(text, text, text, boolean, timestamptz, text, bigint, integer)
  to service_role;
revoke all on function public.operator_ticket(text, text, bigint) from public, anon, authenticated;
grant execute on function public.operator_ticket(text, text, bigint) to service_role;
revoke all on function public.operator_reply_ticket(text, text, text, bigint, text, boolean)
  from public, anon, authenticated;
grant execute on function public.operator_reply_ticket(text, text, text, bigint, text, boolean) to service_role;
revoke all on function public.operator_update_ticket(text, text, text, bigint, text, text)
  from public, anon, authenticated;
grant execute on function public.operator_update_ticket(text, text, text, bigint, text, text) to service_role;
