-- Redefines: public.get_user_feedback, public.get_missing_credit_reports, public.operator_ticket, public.notice_category, public.user_notices_rules
--
-- Issue 36, "Two-way support" (docs/decisions/082-support-is-a-conversation.md): a ticket is a
-- conversation. The person answers their own ticket while it is open or waiting for them, never
-- once it is resolved; the answer sets it back to open, so it is in the console's inbox again as
-- needing an answer, and the operators who answer it are told by a notice.
--
-- - support_messages holds the person's answers beside the operators' messages: person_user_id
--   names the person (and goes with their account: on delete cascade), operator_name is null for
--   them, and an answer is never an internal note.
-- - answer_ticket(person, kind, id, body): the ticket must be the person's own and not resolved
--   (anything else is ticket_not_found or ticket_resolved, and nothing changes); the body is 1 to
--   2,000 characters once trimmed, line breaks kept and any other hidden character refused, as an
--   operator's reply is. One notice `ticket_answered` to the operator the ticket is assigned to, or,
--   with nobody (still an operator) assigned, to every operator: every role answers tickets
--   (require_operator_role(…, array['support'])). Never to the person themselves. The notice names
--   the ticket only: no text the person chose (docs/decisions/061).
-- - ticket_conversation(kind, id) replaces ticket_replies: what the person sees of a ticket, their
--   answers and the operators' replies in order (no internal note), each saying who wrote it.
-- - get_user_feedback and get_missing_credit_reports return it as `messages`; a report also returns
--   what the person wrote (`details`), the start of its conversation.
-- - operator_ticket's messages say who wrote each (`from`: person or operator).
-- - notice_category: a `ticket_answered` notice is of the support kind, which only the channel's
--   own switch (email, push) governs, as a support reply is.

alter table public.support_messages
  add column person_user_id text references public.user_profiles (id) on delete cascade,
  alter column operator_name drop not null,
  add constraint support_messages_author_check check (
    case when person_user_id is null then operator_name is not null
         else operator_name is null and operator_user_id is null and not internal end);
create index support_messages_person_idx on public.support_messages (person_user_id)
  where person_user_id is not null;

-- The notice kinds, ticket_answered added (20261207000000_row_rules_planned_once.sql for the rest).
create or replace function public.user_notices_rules(p_kind text, p_data jsonb, p_push_status text,
                                                     p_email_status text, p_push_attempts integer,
                                                     p_email_attempts integer, p_push_detail text,
                                                     p_email_detail text, p_next_attempt_at timestamptz,
                                                     p_email_address text, p_email_reserved_at timestamptz)
  returns boolean
  language plpgsql
  immutable
as $$
begin
  if (p_kind in ('withdrawal_completed', 'withdrawal_failed', 'referral_credited', 'welcome_bonus', 'task_reward',
                 'postback_reward', 'support_reply', 'missing_credit_credited', 'policy_change_waiting',
                 'ticket_answered')) is false then
    return check_violation('user_notices', 'user_notices_kind_check');
  end if;
  if (jsonb_typeof(p_data) = 'object') is false then
    return check_violation('user_notices', 'user_notices_data_check');
  end if;
  if (p_push_status in ('pending', 'sent', 'skipped', 'failed')) is false then
    return check_violation('user_notices', 'user_notices_push_status_check');
  end if;
  if (p_email_status in ('pending', 'sent', 'skipped', 'failed')) is false then
    return check_violation('user_notices', 'user_notices_email_status_check');
  end if;
  if (p_push_attempts >= 0) is false then
    return check_violation('user_notices', 'user_notices_push_attempts_check');
  end if;
  if (p_email_attempts >= 0) is false then
    return check_violation('user_notices', 'user_notices_email_attempts_check');
  end if;
  if (length(p_push_detail) <= 1000) is false then
    return check_violation('user_notices', 'user_notices_push_detail_check');
  end if;
  if (length(p_email_detail) <= 1000) is false then
    return check_violation('user_notices', 'user_notices_email_detail_check');
  end if;
  -- Due for another attempt exactly while a channel is still pending.
  if ((p_push_status = 'pending' or p_email_status = 'pending') = (p_next_attempt_at is not null)) is false then
    return check_violation('user_notices', 'user_notices_due_check');
  end if;
  if (length(p_email_address) <= 320) is false then
    return check_violation('user_notices', 'user_notices_email_address_check');
  end if;
  if ((p_email_address is null) = (p_email_reserved_at is null)) is false then
    return check_violation('user_notices', 'user_notices_email_reservation_check');
  end if;
  return true;
end
$$;

-- Support notices (a reply to the person, a person's answer to the operators) have no switch of
-- their own: only the channel's switch governs them (app/server/notifications/delivery.server.ts).
create or replace function public.notice_category(p_kind text)
  returns text
  language sql
  immutable
  set search_path = public, pg_temp
as $$
  select case
           when p_kind in ('withdrawal_completed', 'withdrawal_failed') then 'withdrawal'
           when p_kind in ('referral_credited', 'welcome_bonus', 'task_reward', 'postback_reward') then 'reward'
           when p_kind in ('support_reply', 'ticket_answered') then 'support'
         end
$$;

-- What the person sees of one of their tickets after what they first wrote: their answers and the
-- operators' replies, oldest first, each saying who wrote it. Internal notes are not in it.
create function public.ticket_conversation(p_kind text, p_id bigint)
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'created_at', created_at, 'body', body,
                                               'from', case when person_user_id is null then 'support'
                                                            else 'person' end)
                            order by id), '[]')
    from support_messages
   where ticket_kind = p_kind and ticket_id = p_id and not internal
$$;
revoke all on function public.ticket_conversation(text, bigint) from public, anon, authenticated, service_role;

create or replace function public.get_user_feedback(p_user_id text)
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'created_at', created_at, 'message', message,
                                               'status', status, 'messages', ticket_conversation('feedback', id))
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
                                               'created_at', created_at, 'details', details,
                                               'messages', ticket_conversation('missing_credit', id),
                                               'credited_coins',
                                               (select round(a.amount * c.coins_per_dollar)::integer
                                                  from balance_adjustments a cross join app_config c
                                                 where a.missing_credit_report_id = r.id and a.state = 'applied'))
                            order by created_at desc, id desc), '[]')
    from (select * from missing_credit_reports where user_id = p_user_id
           order by created_at desc, id desc limit 50) r
$$;

drop function public.ticket_replies(text, bigint);

create or replace function public.operator_ticket(p_operator_id text, p_kind text, p_id bigint)
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
                                                             'from', case when m.person_user_id is null
                                                                          then 'operator' else 'person' end,
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

-- The person answers their own ticket (Help & Support, or My offers for a report).
create function public.answer_ticket(p_user_id text, p_kind text, p_id bigint, p_body text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  -- Browsers send a textarea's line breaks as CRLF: kept as plain line breaks. Trimmed of spaces,
  -- tabs and line breaks, as feedback is: an answer of line breaks is blank.
  v_body text := btrim(replace(coalesce(p_body, ''), E'\r\n', E'\n'), E' \t\n\r\f\x0B');
  v_ticket record;
  v_message_id bigint;
begin
  if v_body = '' then
    raise exception 'Answer required' using errcode = 'P0001', hint = 'ticket_answer_required';
  end if;
  if char_length(v_body) > 2000 then
    raise exception 'Answer too long' using errcode = 'P0001', hint = 'ticket_answer_too_long';
  end if;
  -- Line breaks are an answer's own; any other control or invisible character is refused.
  if has_hidden_characters(replace(v_body, E'\n', ' ')) then
    raise exception 'Hidden characters' using errcode = 'P0001', hint = 'ticket_answer_hidden_characters';
  end if;
  -- Locked: an operator resolving it at the same moment is seen, one way or the other.
  if p_kind = 'feedback' then
    perform from user_feedback where id = p_id for update;
  elsif p_kind = 'missing_credit' then
    perform from missing_credit_reports where id = p_id for update;
  end if;
  select * into v_ticket from ticket_state(p_kind, p_id);
  -- Someone else's ticket is answered as one that does not exist: nothing about it is told.
  if not found or p_user_id is null or v_ticket.user_id is distinct from p_user_id then
    raise exception 'Ticket not found' using errcode = 'P0001', hint = 'ticket_not_found';
  end if;
  if v_ticket.status not in ('open', 'waiting') then
    raise exception 'Ticket resolved' using errcode = 'P0001', hint = 'ticket_resolved';
  end if;
  insert into support_messages (ticket_kind, ticket_id, person_user_id, body, internal)
  values (p_kind, p_id, p_user_id, v_body, false)
  returning id into v_message_id;
  -- Open again: it needs an operator's answer.
  perform set_ticket_status(p_kind, p_id, 'open');
  insert into user_notices (user_id, kind, data)
  select o.user_id, 'ticket_answered', jsonb_build_object('ticket_kind', p_kind, 'ticket_id', p_id)
    from operators o
   where o.user_id <> p_user_id
     and (o.user_id = v_ticket.assigned_to
          or not exists (select from operators a where a.user_id = v_ticket.assigned_to and a.user_id <> p_user_id));
  return jsonb_build_object('message_id', v_message_id, 'status', 'open');
end
$$;
revoke all on function public.answer_ticket(text, text, bigint, text) from public, anon, authenticated;
grant execute on function public.answer_ticket(text, text, bigint, text) to service_role;
