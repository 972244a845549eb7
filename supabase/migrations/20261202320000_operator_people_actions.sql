-- Issue 20, "People" actions (docs/operator-console.md): what an operator does to an account from its page.
--
-- - Balance adjustments: a credit or debit with a reason and a kind (earned: money an offer network
--   owed, counted as offer earnings; bonus: goodwill, locked like other bonus money), written to the
--   ledger as transaction_type `adjustment` (either sign; kind set explicitly). Up to
--   app_config.adjustment_approval_above dollars it applies at once; above it, it waits in
--   balance_adjustments until a second operator (finance or owner, not the one who asked) approves
--   or declines it. A debit takes back at most what the account was credited of that kind; like a
--   reversal (docs/decisions/065) it may leave the balance below zero.
-- - operator_adjust_balance, operator_decide_adjustment: finance; audited (adjust, adjust_request,
--   adjust_approve, adjust_decline) with the balance before and after.
-- - operator_add_note: an operator's note on an account (support), kept in the audit log.
-- - operator_record_account_action: the audit entry of what the app does outside the database for
--   an operator (revoke_sessions, resend_verification); ending sessions is also announced.
-- - operator_adjustments(operator, person): the account's adjustments, those waiting first, and the
--   amount above which one waits for a second operator.
-- transaction_history's type and sign checks take `adjustment`, and its kind is set by a trigger
-- (an adjustment's by the operator) instead of generated.

-- A ledger row's kind was generated from its type (20261130000000); an adjustment's kind is the
-- operator's choice, so the column becomes a plain one (DROP EXPRESSION keeps every value and
-- rewrites nothing), filled from the type by a trigger as before, and checked against the type.
alter table public.transaction_history alter column kind drop expression;

create function public.transaction_history_kind()
  returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  new.kind := case
    when new.transaction_type in ('postback', 'postback_reversal') then 'earned'
    when new.transaction_type = 'withdrawal' then null
    when new.transaction_type = 'adjustment' then new.kind
    else 'bonus'
  end;
  return new;
end
$$;
create trigger transaction_history_kind before insert on public.transaction_history
  for each row execute function public.transaction_history_kind();

alter table public.transaction_history
  -- Every row written so far was generated this way: nothing to check again.
  add constraint transaction_history_kind_check check (
    case
      when transaction_type in ('postback', 'postback_reversal') then kind = 'earned'
      when transaction_type = 'withdrawal' then kind is null
      when transaction_type = 'adjustment' then kind in ('earned', 'bonus')
      else kind = 'bonus'
    end) not valid,
  drop constraint transaction_history_type_check,
  add constraint transaction_history_type_check check (transaction_type in (
    'checkin', 'task', 'referral', 'referral_bonus', 'withdrawal', 'bonus', 'postback', 'postback_reversal',
    'adjustment')),
  drop constraint transaction_history_sign_check,
  add constraint transaction_history_sign_check check (case
    when transaction_type in ('withdrawal', 'postback_reversal') then amount < 0
    when transaction_type = 'adjustment' then amount <> 0 and kind in ('earned', 'bonus')
    else amount >= 0 end);

create table public.balance_adjustments (
  id bigint generated always as identity primary key,
  user_id text references public.user_profiles (id) on delete set null,
  amount numeric(12,2) not null check (amount <> 0),
  kind text not null check (kind in ('earned', 'bonus')),
  reason text not null check (length(reason) between 1 and 500),
  missing_credit_report_id bigint references public.missing_credit_reports (id) on delete set null,
  state text not null check (state in ('applied', 'awaiting_approval', 'declined')),
  requested_by text not null check (length(requested_by) between 1 and 100),
  requested_by_user_id text not null,
  requested_at timestamptz not null default now(),
  decided_by text check (length(decided_by) between 1 and 100),
  decided_by_user_id text,
  decided_at timestamptz,
  decision_reason text check (length(decision_reason) <= 500),
  ledger_id bigint references public.transaction_history (id),
  check ((state = 'applied') = (ledger_id is not null))
);
alter table public.balance_adjustments enable row level security;
revoke all on table public.balance_adjustments from public, anon, authenticated;
create index balance_adjustments_user_idx on public.balance_adjustments (user_id, id desc);
create index balance_adjustments_waiting_idx on public.balance_adjustments (requested_at)
  where state = 'awaiting_approval';

-- Writes an adjustment to the ledger and the balance (the caller holds the locks and has checked
-- the operator). Returns the ledger row's id.
create function public.ledger_adjust(p_user_id text, p_amount numeric, p_kind text, p_description text)
  returns bigint
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_balance user_balance;
  v_ledger_id bigint;
begin
  select * into v_balance from user_balance where user_id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- A debit takes back at most what was credited of its kind: totals never go below zero.
  if v_balance.total_earned + p_amount < 0
     or (p_kind = 'earned' and v_balance.earned_total + p_amount < 0) then
    raise exception 'Debit exceeds what was earned' using errcode = 'P0001', hint = 'adjustment_exceeds_earned';
  end if;
  insert into transaction_history (user_id, description, transaction_type, amount, status, coins, kind, available_at)
  values (p_user_id, p_description, 'adjustment', p_amount, 'completed',
          (p_amount * (select coins_per_dollar from app_config))::integer, p_kind, now())
  returning id into v_ledger_id;
  update user_balance
     set balance = balance + p_amount,
         total_earned = total_earned + p_amount,
         earned_total = earned_total + case when p_kind = 'earned' then p_amount else 0 end,
         updated_at = now()
   where user_id = p_user_id;
  insert into monthly_earnings (user_id, month, amount)
  values (p_user_id, current_month(), p_amount)
  on conflict (user_id, month) do update set amount = monthly_earnings.amount + excluded.amount;
  -- Earned money an operator credits counts toward a referral as an offer's would.
  if p_amount > 0 and p_kind = 'earned'
     and exists (select from referrals where referred_user_id = p_user_id and credited_at is null) then
    perform try_referral_credit(p_user_id);
  end if;
  return v_ledger_id;
end
$$;

-- A missing-credit report whose offer an adjustment credited is resolved (docs/operator-console.md,
-- "Support inbox"; its status column takes `resolved` from 20261202330000 on).
create function public.resolve_credited_report(p_report_id bigint)
  returns void
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
begin
  update missing_credit_reports set status = 'resolved', updated_at = now()
   where id = p_report_id and status <> 'resolved';
end
$$;

create function public.operator_adjust_balance(
  p_operator_id text,
  p_actor text,
  p_user_id text,
  p_amount numeric,
  p_kind text,
  p_reason text,
  p_missing_credit_report_id bigint default null
)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_reason text := operator_reason(p_reason);
  v_limit numeric := (select adjustment_approval_above from app_config);
  v_before numeric;
  v_after numeric;
  v_ledger_id bigint;
  v_adjustment balance_adjustments;
begin
  perform require_operator_role(p_operator_id, array['finance']);
  if p_amount is null or p_amount = 0 or p_amount <> round(p_amount, 2) or abs(p_amount) > 1000000 then
    raise exception 'Invalid adjustment' using errcode = 'P0001', hint = 'invalid_adjustment';
  end if;
  if p_kind is null or p_kind not in ('earned', 'bonus') then
    raise exception 'Invalid adjustment kind' using errcode = 'P0001', hint = 'invalid_adjustment_kind';
  end if;
  if p_operator_id = p_user_id then
    raise exception 'Operators cannot adjust their own balance' using errcode = 'P0001', hint = 'operator_self_action';
  end if;
  -- The lock order of the money functions: the profile, then the balance.
  perform from user_profiles where id = p_user_id for key share;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  select balance into v_before from user_balance where user_id = p_user_id for update;
  -- A missing-credit report the adjustment answers is this account's own.
  if p_missing_credit_report_id is not null
     and not exists (select from missing_credit_reports
                      where id = p_missing_credit_report_id and user_id = p_user_id) then
    raise exception 'Ticket not found' using errcode = 'P0001', hint = 'ticket_not_found';
  end if;
  if abs(p_amount) > v_limit then
    insert into balance_adjustments (user_id, amount, kind, reason, missing_credit_report_id, state, requested_by,
                                     requested_by_user_id)
    values (p_user_id, p_amount, p_kind, v_reason, p_missing_credit_report_id, 'awaiting_approval', v_actor,
            p_operator_id)
    returning * into v_adjustment;
    insert into operator_actions (actor, actor_user_id, action, user_id, reason, record_kind, record_id, after, detail)
    values (v_actor, p_operator_id, 'adjust_request', p_user_id, v_reason, 'adjustment', v_adjustment.id::text,
            jsonb_build_object('state', 'awaiting_approval'),
            jsonb_build_object('amount', p_amount, 'kind', p_kind, 'limit', v_limit));
    return jsonb_build_object('id', v_adjustment.id, 'state', 'awaiting_approval', 'amount', p_amount,
                              'limit', v_limit);
  end if;
  v_ledger_id := ledger_adjust(p_user_id, p_amount, p_kind, 'Balance correction: ' || v_reason);
  select balance into v_after from user_balance where user_id = p_user_id;
  insert into balance_adjustments (user_id, amount, kind, reason, missing_credit_report_id, state, requested_by,
                                   requested_by_user_id, decided_at, ledger_id)
  values (p_user_id, p_amount, p_kind, v_reason, p_missing_credit_report_id, 'applied', v_actor, p_operator_id,
          now(), v_ledger_id)
  returning * into v_adjustment;
  perform resolve_credited_report(p_missing_credit_report_id);
  insert into operator_actions (actor, actor_user_id, action, user_id, reason, record_kind, record_id, before, after,
                                detail)
  values (v_actor, p_operator_id, 'adjust', p_user_id, v_reason, 'adjustment', v_adjustment.id::text,
          jsonb_build_object('balance', v_before), jsonb_build_object('balance', v_after),
          jsonb_build_object('amount', p_amount, 'kind', p_kind));
  return jsonb_build_object('id', v_adjustment.id, 'state', 'applied', 'amount', p_amount, 'balance', v_after);
end
$$;

create function public.operator_decide_adjustment(
  p_operator_id text,
  p_actor text,
  p_adjustment_id bigint,
  p_approve boolean,
  p_reason text default null
)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_reason text := case when p_approve then nullif(trim(coalesce(p_reason, '')), '') else operator_reason(p_reason) end;
  v_adjustment balance_adjustments;
  v_before numeric;
  v_after numeric;
  v_ledger_id bigint;
begin
  perform require_operator_role(p_operator_id, array['finance']);
  if v_reason is not null then
    perform operator_reason(v_reason);
  end if;
  select * into v_adjustment from balance_adjustments where id = p_adjustment_id;
  if not found then
    raise exception 'Adjustment not found' using errcode = 'P0001', hint = 'adjustment_not_found';
  end if;
  -- The lock order of the money functions: the profile, then the adjustment and the balance.
  perform from user_profiles where id = v_adjustment.user_id for key share;
  select * into v_adjustment from balance_adjustments where id = p_adjustment_id for update;
  if v_adjustment.state <> 'awaiting_approval' then
    return jsonb_build_object('id', v_adjustment.id, 'state', v_adjustment.state, 'changed', false);
  end if;
  if v_adjustment.requested_by_user_id = p_operator_id then
    raise exception 'A second operator must decide' using errcode = 'P0001', hint = 'second_operator_required';
  end if;
  if v_adjustment.user_id is null then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  if v_adjustment.user_id = p_operator_id then
    raise exception 'Operators cannot adjust their own balance' using errcode = 'P0001', hint = 'operator_self_action';
  end if;
  select balance into v_before from user_balance where user_id = v_adjustment.user_id for update;
  if p_approve then
    v_ledger_id := ledger_adjust(v_adjustment.user_id, v_adjustment.amount, v_adjustment.kind,
                                 'Balance correction: ' || v_adjustment.reason);
    select balance into v_after from user_balance where user_id = v_adjustment.user_id;
    update balance_adjustments
       set state = 'applied', decided_by = v_actor, decided_by_user_id = p_operator_id, decided_at = now(),
           decision_reason = v_reason, ledger_id = v_ledger_id
     where id = p_adjustment_id;
    perform resolve_credited_report(v_adjustment.missing_credit_report_id);
  else
    v_after := v_before;
    update balance_adjustments
       set state = 'declined', decided_by = v_actor, decided_by_user_id = p_operator_id, decided_at = now(),
           decision_reason = v_reason
     where id = p_adjustment_id;
  end if;
  insert into operator_actions (actor, actor_user_id, action, user_id, reason, record_kind, record_id, before, after,
                                detail)
  values (v_actor, p_operator_id, case when p_approve then 'adjust_approve' else 'adjust_decline' end,
          v_adjustment.user_id, coalesce(v_reason, v_adjustment.reason), 'adjustment', v_adjustment.id::text,
          jsonb_build_object('state', 'awaiting_approval', 'balance', v_before),
          jsonb_build_object('state', case when p_approve then 'applied' else 'declined' end, 'balance', v_after),
          jsonb_build_object('amount', v_adjustment.amount, 'kind', v_adjustment.kind,
                             'requested_by', v_adjustment.requested_by));
  return jsonb_build_object('id', v_adjustment.id, 'state', case when p_approve then 'applied' else 'declined' end,
                            'changed', true, 'amount', v_adjustment.amount, 'balance', v_after);
end
$$;

create function public.operator_add_note(p_operator_id text, p_actor text, p_user_id text, p_note text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_note text := operator_reason(p_note);
  v_id bigint;
begin
  perform require_operator_role(p_operator_id, array['support']);
  perform from user_profiles where id = p_user_id;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  insert into operator_actions (actor, actor_user_id, action, user_id, reason, record_kind, record_id)
  values (v_actor, p_operator_id, 'note', p_user_id, v_note, 'account', p_user_id)
  returning id into v_id;
  return jsonb_build_object('id', v_id);
end
$$;

-- What the app did outside the database for an operator (Firebase ends the sessions; the identity
-- provider sends the email), recorded once it is done.
create function public.operator_record_account_action(p_operator_id text, p_actor text, p_user_id text, p_action text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_id bigint;
begin
  perform require_operator_role(p_operator_id, array['support']);
  if p_action is null or p_action not in ('revoke_sessions', 'resend_verification') then
    raise exception 'Unknown account action' using errcode = 'P0001', hint = 'invalid_account_action';
  end if;
  perform from user_profiles where id = p_user_id;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  insert into operator_actions (actor, actor_user_id, action, user_id, record_kind, record_id)
  values (v_actor, p_operator_id, p_action, p_user_id, 'account', p_user_id)
  returning id into v_id;
  if p_action = 'revoke_sessions' then
    perform announce_sessions_ended(p_user_id);
  end if;
  return jsonb_build_object('id', v_id);
end
$$;

create function public.operator_adjustments(p_operator_id text, p_user_id text)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  perform require_operator_role(p_operator_id, array['support']);
  return jsonb_build_object(
    'approval_above', (select adjustment_approval_above from app_config),
    'adjustments', coalesce((
      select jsonb_agg(to_jsonb(a) order by (a.state = 'awaiting_approval') desc, a.id desc)
        from (select id, amount, kind, reason, state, requested_by, requested_by_user_id, requested_at, decided_by,
                     decided_at, decision_reason, missing_credit_report_id
                from balance_adjustments where user_id = p_user_id order by id desc limit 20) a), '[]'::jsonb));
end
$$;

revoke all on function public.operator_adjustments(text, text) from public, anon, authenticated;
grant execute on function public.operator_adjustments(text, text) to service_role;
revoke all on function public.transaction_history_kind() from public, anon, authenticated;
revoke all on function public.resolve_credited_report(bigint) from public, anon, authenticated;
revoke all on function public.ledger_adjust(text, numeric, text, text) from public, anon, authenticated;
revoke all on function public.operator_adjust_balance(text, text, text, numeric, text, text, bigint)
  from public, anon, authenticated;
grant execute on function public.operator_adjust_balance(text, text, text, numeric, text, text, bigint) to service_role;
revoke all on function public.operator_decide_adjustment(text, text, bigint, boolean, text)
  from public, anon, authenticated;
grant execute on function public.operator_decide_adjustment(text, text, bigint, boolean, text) to service_role;
revoke all on function public.operator_add_note(text, text, text, text) from public, anon, authenticated;
grant execute on function public.operator_add_note(text, text, text, text) to service_role;
revoke all on function public.operator_record_account_action(text, text, text, text) from public, anon, authenticated;
grant execute on function public.operator_record_account_action(text, text, text, text) to service_role;
