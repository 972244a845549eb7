-- Redefines: public.get_user_feedback, public.ticket_row
--
-- An appeal before any ban (issue 38, point 4; docs/decisions/090). A person whose cash-outs are
-- paused, or whose withdrawal was refused at review, asks for a review: a support ticket (a row of
-- user_feedback, so it is a conversation as every ticket is, decision 082) that names what it
-- appeals. The console lists open appeals first; an operator chooses which of the refused
-- withdrawal's risk reasons the person may read, and that choice is audited.

alter table public.user_feedback
  -- What is appealed: paused cash-outs, or one refused withdrawal (null: ordinary feedback).
  add column appeal_cause text
    constraint user_feedback_appeal_cause_check check (appeal_cause in ('payouts_paused', 'withdrawal_refused')),
  add column appeal_withdrawal_id uuid references public.withdrawals (id) on delete set null,
  -- The codes of the withdrawal's risk reasons an operator let the person read.
  add column appeal_shown_reasons text[] not null default '{}',
  -- Only an appeal of a refused withdrawal names one.
  add constraint user_feedback_appeal_check
    check (appeal_withdrawal_id is null or appeal_cause = 'withdrawal_refused');
-- One appeal at a time for the same thing: asking again points to the one already open.
create unique index user_feedback_open_appeal_idx
  on public.user_feedback (user_id, appeal_cause, coalesce(appeal_withdrawal_id::text, ''))
  where appeal_cause is not null and status <> 'resolved';

-- Asks for a review: of paused cash-outs (`p_withdrawal_id` null) or of one's own withdrawal refused
-- at review. The message follows feedback's rules; nothing else can be appealed.
CREATE OR REPLACE FUNCTION public.submit_appeal(p_user_id text, p_withdrawal_id uuid, p_message text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_message text := btrim(replace(coalesce(p_message, ''), E'\r\n', E'\n'), E' \t\n\r\f\x0B');
  v_profile user_profiles;
  v_cause text;
  v_id bigint;
begin
  if v_message = '' then
    raise exception 'Answer required' using errcode = 'P0001', hint = 'ticket_answer_required';
  end if;
  if char_length(v_message) > 2000 then
    raise exception 'Answer too long' using errcode = 'P0001', hint = 'ticket_answer_too_long';
  end if;
  if has_hidden_characters(replace(v_message, E'\n', ' ')) then
    raise exception 'Answer contains hidden characters' using errcode = 'P0001', hint = 'ticket_answer_hidden_characters';
  end if;
  select * into v_profile from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  if p_withdrawal_id is not null then
    -- Only one's own withdrawal, refused at review (not one a payment service failed).
    if not exists (select from withdrawals where id = p_withdrawal_id and user_id = p_user_id
                                             and status = 'failed' and review_state = 'rejected') then
      raise exception 'Nothing to review' using errcode = 'P0001', hint = 'nothing_to_appeal';
    end if;
    v_cause := 'withdrawal_refused';
  elsif v_profile.payouts_paused_at is not null then
    v_cause := 'payouts_paused';
  else
    raise exception 'Nothing to review' using errcode = 'P0001', hint = 'nothing_to_appeal';
  end if;
  if exists (select from user_feedback
              where user_id = p_user_id and appeal_cause = v_cause and status <> 'resolved'
                and appeal_withdrawal_id is not distinct from p_withdrawal_id) then
    raise exception 'Review already asked' using errcode = 'P0001', hint = 'appeal_open';
  end if;
  insert into user_feedback (user_id, name, email, message, appeal_cause, appeal_withdrawal_id)
  values (p_user_id, v_profile.display_name, coalesce(nullif(trim(v_profile.email), ''), '(no email)'), v_message,
          v_cause, p_withdrawal_id)
  returning id into v_id;
  return jsonb_build_object('id', v_id, 'cause', v_cause);
end
$function$;
revoke all on function public.submit_appeal(text, uuid, text) from public, anon, authenticated;
grant execute on function public.submit_appeal(text, uuid, text) to service_role;

-- What an appeal is about, for the console's ticket page: the cause, the refused withdrawal with
-- every risk reason (and whether the person may read it), or null for ordinary feedback.
CREATE OR REPLACE FUNCTION public.operator_appeal(p_operator_id text, p_ticket_id bigint)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_ticket user_feedback;
begin
  perform require_operator_role(p_operator_id, array['support']);
  select * into v_ticket from user_feedback where id = p_ticket_id and appeal_cause is not null;
  if not found then
    return null;
  end if;
  return jsonb_build_object(
    'cause', v_ticket.appeal_cause,
    'withdrawal', (select jsonb_build_object('id', w.id, 'amount', w.amount, 'payment_method', w.payment_method,
                                             'created_at', w.created_at, 'failure_reason', w.failure_reason,
                                             'risk_score', w.risk_score)
                     from withdrawals w where w.id = v_ticket.appeal_withdrawal_id),
    'reasons', coalesce((select jsonb_agg(jsonb_build_object('code', r ->> 'code', 'detail', r ->> 'detail',
                                                             'points', (r ->> 'points')::integer,
                                                             'shown', (r ->> 'code') = any (v_ticket.appeal_shown_reasons))
                                          order by (r ->> 'points')::integer desc)
                           from withdrawals w, jsonb_array_elements(w.risk_reasons) r
                          where w.id = v_ticket.appeal_withdrawal_id), '[]'));
end
$function$;
revoke all on function public.operator_appeal(text, bigint) from public, anon, authenticated;
grant execute on function public.operator_appeal(text, bigint) to service_role;

-- Which of the refused withdrawal's risk reasons the person may read: only its own codes; audited.
CREATE OR REPLACE FUNCTION public.operator_show_appeal_reasons(p_operator_id text, p_actor text, p_ticket_id bigint,
                                                               p_codes jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_actor text := operator_actor(p_actor);
  v_ticket user_feedback;
  v_codes text[];
begin
  perform require_operator_role(p_operator_id, array['support']);
  select * into v_ticket from user_feedback where id = p_ticket_id and appeal_cause = 'withdrawal_refused' for update;
  if not found then
    raise exception 'Ticket not found' using errcode = 'P0001', hint = 'ticket_not_found';
  end if;
  perform refuse_own_account(p_operator_id, v_ticket.user_id);
  -- A JSON array of reason codes (every transport sends JSON as it is).
  if jsonb_typeof(coalesce(p_codes, '[]')) <> 'array' or jsonb_array_length(coalesce(p_codes, '[]')) > 50
     or exists (select from jsonb_array_elements(coalesce(p_codes, '[]')) e where jsonb_typeof(e) <> 'string') then
    raise exception 'Unknown reason' using errcode = 'P0001', hint = 'unknown_appeal_reason';
  end if;
  select coalesce(array_agg(distinct code order by code), '{}') into v_codes
    from jsonb_array_elements_text(coalesce(p_codes, '[]')) code;
  if exists (select from unnest(v_codes) code
              where not exists (select from withdrawals w, jsonb_array_elements(w.risk_reasons) r
                                 where w.id = v_ticket.appeal_withdrawal_id and r ->> 'code' = code)) then
    raise exception 'Unknown reason' using errcode = 'P0001', hint = 'unknown_appeal_reason';
  end if;
  if v_codes = v_ticket.appeal_shown_reasons then
    return jsonb_build_object('shown', to_jsonb(v_codes), 'changed', false);
  end if;
  update user_feedback set appeal_shown_reasons = v_codes, updated_at = now() where id = p_ticket_id;
  insert into operator_actions (actor, actor_user_id, action, user_id, withdrawal_id, record_kind, record_id,
                                before, after)
  values (v_actor, p_operator_id, 'show_appeal_reasons', v_ticket.user_id, v_ticket.appeal_withdrawal_id,
          'feedback', p_ticket_id::text, jsonb_build_object('shown', to_jsonb(v_ticket.appeal_shown_reasons)),
          jsonb_build_object('shown', to_jsonb(v_codes)));
  return jsonb_build_object('shown', to_jsonb(v_codes), 'changed', true);
end
$function$;
revoke all on function public.operator_show_appeal_reasons(text, text, bigint, jsonb) from public, anon, authenticated;
grant execute on function public.operator_show_appeal_reasons(text, text, bigint, jsonb) to service_role;

-- The appeals still open or waiting, oldest first: the console's inbox lists them before the rest.
CREATE OR REPLACE FUNCTION public.operator_open_appeals(p_operator_id text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
begin
  perform require_operator_role(p_operator_id, array['support']);
  return coalesce((select jsonb_agg(ticket_row('feedback', f.id, f.user_id, f.created_at, f.status, f.assigned_to,
                                               f.updated_at, left(f.message, 160)) order by f.created_at, f.id)
                     from (select * from user_feedback
                            where appeal_cause is not null and status <> 'resolved'
                            order by created_at, id limit 100) f), '[]');
end
$function$;
revoke all on function public.operator_open_appeals(text) from public, anon, authenticated;
grant execute on function public.operator_open_appeals(text) to service_role;

-- A ticket says whether it is an appeal.
CREATE OR REPLACE FUNCTION public.ticket_row(p_kind text, p_id bigint, p_user_id text, p_created_at timestamp with time zone, p_status text, p_assigned_to text, p_updated_at timestamp with time zone, p_subject text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select jsonb_build_object(
           'kind', p_kind, 'id', p_id, 'user_id', p_user_id, 'email', p.email, 'created_at', p_created_at,
           'status', p_status, 'assigned_to', p_assigned_to, 'assigned_name', a.display_name,
           'updated_at', p_updated_at, 'subject', p_subject,
           -- An appeal (decision 090): what it appeals, for its mark in the inbox.
           'appeal', (select f.appeal_cause from user_feedback f where p_kind = 'feedback' and f.id = p_id),
           'messages', (select count(*) from support_messages m where m.ticket_kind = p_kind and m.ticket_id = p_id))
    from (select 1) one
    left join user_profiles p on p.id = p_user_id
    left join user_profiles a on a.id = p_assigned_to
$function$;


-- The person reads what their appeal is about and the reasons shared with them.
CREATE OR REPLACE FUNCTION public.get_user_feedback(p_user_id text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'created_at', created_at, 'message', message,
                                               'status', status, 'messages', ticket_conversation('feedback', id))
                            -- An appeal: what it appeals, and the reasons an operator let the person read.
                            || case when appeal_cause is not null then jsonb_build_object('appeal', jsonb_build_object(
                                                 'cause', appeal_cause,
                                                 'withdrawal', (select jsonb_build_object('amount', w.amount, 'created_at', w.created_at)
                                                                  from withdrawals w where w.id = appeal_withdrawal_id),
                                                 'reasons', coalesce((select jsonb_agg(r ->> 'detail' order by (r ->> 'points')::integer desc)
                                                                        from withdrawals w, jsonb_array_elements(w.risk_reasons) r
                                                                       where w.id = appeal_withdrawal_id
                                                                         and (r ->> 'code') = any (appeal_shown_reasons)), '[]'))) else '{}' end
                            order by created_at desc, id desc), '[]')
    from user_feedback
   where user_id = p_user_id
$function$;

