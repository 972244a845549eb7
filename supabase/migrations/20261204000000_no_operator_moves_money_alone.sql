-- Redefines: public.app_setting_valid, public.operator_set_settings, public.approve_withdrawals
-- Redefines: public.reject_withdrawal, public.settle_withdrawal, public.set_payouts_paused, public.unban_account
-- Redefines: public.claim_payout, public.operator_adjust_balance, public.record_postback
-- Redefines: public.operator_record_test_postback, public.get_offer_credits, public.resolve_credited_report
-- Redefines: public.get_missing_credit_reports, public.operator_settings
--
-- No operator moves money alone (issue 33, docs/decisions/078-no-operator-moves-money-alone.md).
--
-- 1. No operator acts on their own account: approve, pay, reject, mark paid or failed, pause,
--    resume, ban, unban, adjust (a ticket's credit included) and test postbacks.
-- 2. The two-operator rule counts a window, not a post: what was adjusted for one person without a
--    second operator in the last adjustment_window_hours, plus this adjustment, past the limit waits.
-- 3. A missing-credit ticket is credited once.
-- 4. A test postback credits test money: its own ledger (test_credits), never in a balance, never
--    withdrawable, never in the dashboard's earnings; at most test_postbacks_per_wall_per_day.
-- 5. An attempt the rules refuse is audited (operator_record_refusal, called by the console).
-- 6. The audit and the money tables cannot be emptied: TRUNCATE is refused by a trigger, and the
--    API roles hold nothing on any table or sequence (every call is a function).

-- ---------------------------------------------------------------------------------------------
-- Settings
alter table public.app_config
  add column adjustment_window_hours integer not null default 24
    check (adjustment_window_hours between 1 and 720),
  add column test_postbacks_per_wall_per_day integer not null default 5
    check (test_postbacks_per_wall_per_day between 0 and 100),
  -- A change of policy that loosens it waits this long where only one owner can approve it.
  add column policy_change_delay_hours integer not null default 24
    check (policy_change_delay_hours between 1 and 720);

create or replace function public.app_setting_valid(p_name text, p_value jsonb)
 returns boolean
 language plpgsql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_number numeric;
begin
  if p_name is null or not p_name = any (array[
       'coins_per_dollar', 'checkin_coins', 'checkin_streak_bonus_coins',
       'referral_reward', 'referral_welcome_bonus', 'referral_qualifying_coins', 'referral_requires_earned',
       'min_withdrawal_paypal', 'min_withdrawal_upi', 'min_withdrawal_bank', 'withdrawals_per_hour',
       'risk_review_threshold', 'review_first_withdrawal',
       'postback_hold_days', 'provider_hold_days', 'bonus_unlock_ratio',
       'notice_delivery_attempts', 'notice_delivery_window_hours', 'notice_emails_per_address_per_day',
       'adjustment_approval_above', 'adjustment_window_hours', 'test_postbacks_per_wall_per_day',
       'policy_change_delay_hours']) then
    return null;
  end if;
  if p_name = 'provider_hold_days' then
    -- {"network": days}: a network's own hold, whole days.
    if jsonb_typeof(p_value) is distinct from 'object' then
      return false;
    end if;
    if (select count(*) from jsonb_object_keys(p_value)) > 50 then
      return false;
    end if;
    return not exists (
      select from jsonb_each(p_value) e
       where e.key !~ '^[a-z0-9-]{2,40}$'
          or case when jsonb_typeof(e.value) = 'number'
                  then (e.value)::numeric <> trunc((e.value)::numeric) or (e.value)::numeric not between 0 and 365
                  else true end);
  end if;
  if p_name in ('referral_requires_earned', 'review_first_withdrawal') then
    return jsonb_typeof(p_value) = 'boolean';
  end if;
  -- The ratio may be null: bonus money is unlocked at once.
  if p_name = 'bonus_unlock_ratio' and jsonb_typeof(p_value) = 'null' then
    return true;
  end if;
  if jsonb_typeof(p_value) is distinct from 'number' then
    return false;
  end if;
  v_number := p_value::numeric;
  return case p_name
    when 'coins_per_dollar' then v_number = trunc(v_number) and v_number between 1 and 10000
    when 'checkin_coins' then v_number = trunc(v_number) and v_number between 1 and 100000
    when 'checkin_streak_bonus_coins' then v_number = trunc(v_number) and v_number between 0 and 100000
    when 'referral_reward' then v_number = round(v_number, 2) and v_number between 0 and 1000
    when 'referral_welcome_bonus' then v_number = round(v_number, 2) and v_number between 0 and 1000
    when 'referral_qualifying_coins' then v_number = trunc(v_number) and v_number between 0 and 1000000
    when 'min_withdrawal_paypal' then v_number = round(v_number, 2) and v_number between 0.01 and 10000
    when 'min_withdrawal_upi' then v_number = round(v_number, 2) and v_number between 0.01 and 10000
    when 'min_withdrawal_bank' then v_number = round(v_number, 2) and v_number between 0.01 and 10000
    when 'withdrawals_per_hour' then v_number = trunc(v_number) and v_number between 1 and 1000
    -- Scores are 0 to 100: 101 sends no withdrawal to review for its score.
    when 'risk_review_threshold' then v_number = trunc(v_number) and v_number between 0 and 101
    when 'postback_hold_days' then v_number = trunc(v_number) and v_number between 0 and 365
    when 'bonus_unlock_ratio' then v_number = round(v_number, 2) and v_number between 0 and 100
    when 'notice_delivery_attempts' then v_number = trunc(v_number) and v_number between 1 and 100
    when 'notice_delivery_window_hours' then v_number = trunc(v_number) and v_number between 1 and 8760
    when 'notice_emails_per_address_per_day' then v_number = trunc(v_number) and v_number between 0 and 1000
    when 'adjustment_approval_above' then v_number = round(v_number, 2) and v_number between 0 and 1000000
    when 'adjustment_window_hours' then v_number = trunc(v_number) and v_number between 1 and 720
    when 'test_postbacks_per_wall_per_day' then v_number = trunc(v_number) and v_number between 0 and 100
    when 'policy_change_delay_hours' then v_number = trunc(v_number) and v_number between 1 and 720
  end;
end
$function$;



-- ---------------------------------------------------------------------------------------------
-- 1. Not on one's own account

-- Raised by every operator action on an account: p_operator_id is null only for the machine's
-- own operator (`npm run payouts`, `npm run operator`), which has no account in the app.
create function public.refuse_own_account(p_operator_id text, p_user_id text)
 returns void
 language plpgsql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
begin
  if p_operator_id is not null and p_operator_id = p_user_id then
    raise exception 'Operators cannot do this to their own account' using errcode = 'P0001',
      hint = 'operator_self_action';
  end if;
end
$function$;

-- A console action the rules refused, kept in the audit: the refusal itself rolled its own
-- transaction back, so the console records it here, in one more call.
create function public.operator_record_refusal(p_operator_id text, p_action text, p_rule text, p_user_id text,
                                               p_record_kind text, p_record_id text)
 returns void
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
begin
  perform require_operator_role(p_operator_id, array['support']);
  if p_action is null or p_action !~ '^[a-z][a-z_]{0,39}$' or p_rule is null or p_rule !~ '^[a-z][a-z_]{0,59}$' then
    raise exception 'Invalid refusal' using errcode = 'P0001', hint = 'invalid_refusal';
  end if;
  insert into operator_actions (actor, actor_user_id, action, user_id, withdrawal_id, reason, record_kind, record_id,
                                detail)
  values (operator_name(p_operator_id), p_operator_id, 'refused', nullif(p_user_id, ''),
          case when p_record_kind = 'withdrawal'
                    and p_record_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
               then p_record_id::uuid end,
          format('Refused: %s (%s)', p_action, p_rule), left(nullif(p_record_kind, ''), 50),
          left(nullif(p_record_id, ''), 200),
          jsonb_build_object('attempted', p_action, 'rule', p_rule));
end
$function$;

create or replace function public.approve_withdrawals(p_ids jsonb, p_actor text, p_actor_user_id text default null)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_actor text := operator_actor(p_actor);
  v_text text;
  v_id uuid;
  v_withdrawal withdrawals;
  v_profile user_profiles;
  v_results jsonb := '[]';
  v_result text;
begin
  if p_actor_user_id is not null then
    perform require_operator_role(p_actor_user_id, array['finance']);
  end if;
  if jsonb_typeof(p_ids) is distinct from 'array' then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  for v_text in select jsonb_array_elements_text(p_ids) loop
    v_id := case when v_text ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then v_text::uuid end;
    select * into v_withdrawal from withdrawals where id = v_id for update;
    if not found then
      v_result := 'not_found';
    elsif v_withdrawal.status <> 'pending' or v_withdrawal.review_state = 'rejected' then
      v_result := 'not_pending';
    elsif v_withdrawal.review_state = 'approved' then
      v_result := 'already_approved';
    elsif p_actor_user_id is not null and v_withdrawal.user_id = p_actor_user_id then
      -- One's own cash-out is another operator's to approve; the attempt is kept.
      insert into operator_actions (actor, actor_user_id, action, user_id, withdrawal_id, reason, record_kind,
                                    record_id, detail)
      values (v_actor, p_actor_user_id, 'refused', v_withdrawal.user_id, v_id, 'Refused: approve (operator_self_action)',
              'withdrawal', v_id::text, jsonb_build_object('attempted', 'approve', 'rule', 'operator_self_action',
                                                          'amount', v_withdrawal.amount));
      v_result := 'own_account';
    else
      select * into v_profile from user_profiles where id = v_withdrawal.user_id;
      if v_profile.banned_at is not null then
        v_result := 'account_banned';
      elsif v_profile.payouts_paused_at is not null then
        v_result := 'payouts_paused';
      else
        update withdrawals set review_state = 'approved', reviewed_at = now(), reviewed_by = v_actor
         where id = v_id;
        insert into operator_actions (actor, actor_user_id, action, user_id, withdrawal_id, record_kind, record_id,
                                      before, after, detail)
        values (v_actor, p_actor_user_id, 'approve', v_withdrawal.user_id, v_id, 'withdrawal', v_id::text,
                jsonb_build_object('review_state', v_withdrawal.review_state),
                jsonb_build_object('review_state', 'approved'),
                jsonb_build_object('amount', v_withdrawal.amount, 'risk_score', v_withdrawal.risk_score));
        v_result := 'approved';
      end if;
    end if;
    v_results := v_results || jsonb_build_object('id', v_text, 'result', v_result);
  end loop;
  return v_results;
end
$function$;

CREATE OR REPLACE FUNCTION public.reject_withdrawal(p_withdrawal_id uuid, p_reason text, p_actor text, p_actor_user_id text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_actor text := operator_actor(p_actor);
  v_reason text := operator_reason(p_reason);
  v_withdrawal withdrawals;
begin
  if p_actor_user_id is not null then
    perform require_operator_role(p_actor_user_id, array['finance']);
  end if;
  -- The lock order of the money functions: the owner's profile, then the withdrawal and balance.
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  perform refuse_own_account(p_actor_user_id, v_withdrawal.user_id);
  perform from user_profiles where id = v_withdrawal.user_id for key share;
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if v_withdrawal.status <> 'pending' then
    return withdrawal_json(v_withdrawal) || jsonb_build_object('changed', false);
  end if;
  -- PayPal may pay it still: refunding it too would pay twice.
  if v_withdrawal.sent_at is not null then
    raise exception 'Withdrawal was sent' using errcode = 'P0001', hint = 'withdrawal_sent';
  end if;
  if v_withdrawal.payout_claimed_at is not null then
    raise exception 'Withdrawal is being paid' using errcode = 'P0001', hint = 'withdrawal_sending';
  end if;
  perform reject_withdrawal_locked(v_withdrawal, v_reason, v_actor, p_actor_user_id);
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id;
  return withdrawal_json(v_withdrawal) || jsonb_build_object('changed', true);
end
$function$;

CREATE OR REPLACE FUNCTION public.settle_withdrawal(p_withdrawal_id uuid, p_status text, p_reference text DEFAULT NULL::text, p_reason text DEFAULT NULL::text, p_actor text DEFAULT NULL::text, p_actor_user_id text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_actor text := case when p_actor is not null or p_actor_user_id is not null then operator_actor(p_actor) end;
  v_withdrawal withdrawals;
  v_before withdrawals;
begin
  if p_actor_user_id is not null then
    perform require_operator_role(p_actor_user_id, array['finance']);
  end if;
  if p_status is null or p_status not in ('completed', 'failed') then
    raise exception 'Invalid status' using errcode = 'P0001', hint = 'invalid_settlement_status';
  end if;
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  perform refuse_own_account(p_actor_user_id, v_withdrawal.user_id);
  if v_withdrawal.status <> 'pending' then
    return withdrawal_json(v_withdrawal) || jsonb_build_object('changed', false);
  end if;
  -- Paid only once an operator (or the risk score) approved it; failing one is always possible.
  if p_status = 'completed' and v_withdrawal.review_state <> 'approved' then
    raise exception 'Withdrawal is not approved' using errcode = 'P0001', hint = 'withdrawal_not_approved';
  end if;
  -- Failed by hand while PayPal may be paying it (claimed, no answer recorded): refunding would pay twice.
  if p_status = 'failed' and v_actor is not null and v_withdrawal.payout_claimed_at is not null
     and v_withdrawal.sent_at is null then
    raise exception 'Withdrawal is being paid' using errcode = 'P0001', hint = 'withdrawal_sending';
  end if;
  v_before := v_withdrawal;
  update withdrawals
     set status = p_status,
         settled_at = now(),
         reference = coalesce(nullif(trim(p_reference), ''), reference),
         failure_reason = case when p_status = 'failed' then nullif(trim(p_reason), '') end
   where id = p_withdrawal_id
  returning * into v_withdrawal;
  update transaction_history set status = p_status where withdrawal_id = p_withdrawal_id;
  if p_status = 'failed' then
    update user_balance
       set balance = balance + v_withdrawal.amount, updated_at = now()
     where user_id = v_withdrawal.user_id;
  end if;
  insert into user_notices (user_id, kind, data)
  values (v_withdrawal.user_id, 'withdrawal_' || p_status,
          jsonb_build_object('withdrawal_id', v_withdrawal.id, 'amount', v_withdrawal.amount,
                             'payment_method', v_withdrawal.payment_method,
                             'reason', v_withdrawal.failure_reason));
  -- Settled by hand: audited. (PayPal's settlements, through apply_paypal_payout, name no actor.)
  if v_actor is not null then
    insert into operator_actions (actor, actor_user_id, action, user_id, withdrawal_id, reason, record_kind, record_id,
                                  before, after, detail)
    values (v_actor, p_actor_user_id, case p_status when 'completed' then 'mark_paid' else 'mark_failed' end,
            v_withdrawal.user_id, v_withdrawal.id, v_withdrawal.failure_reason, 'withdrawal', v_withdrawal.id::text,
            jsonb_build_object('status', v_before.status),
            jsonb_build_object('status', v_withdrawal.status, 'reference', v_withdrawal.reference),
            jsonb_build_object('amount', v_withdrawal.amount));
  end if;
  return withdrawal_json(v_withdrawal) || jsonb_build_object('changed', true);
end
$function$;

CREATE OR REPLACE FUNCTION public.set_payouts_paused(p_user_id text, p_paused boolean, p_reason text, p_actor text, p_actor_user_id text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_actor text := operator_actor(p_actor);
  v_reason text := case when p_paused then operator_reason(p_reason) else nullif(trim(p_reason), '') end;
  v_was boolean;
begin
  if p_actor_user_id is not null then
    perform require_operator_role(p_actor_user_id, array['finance']);
  end if;
  perform refuse_own_account(p_actor_user_id, p_user_id);
  -- For update: a withdrawal being made (key share on the profile) finishes first, or sees the pause.
  select payouts_paused_at is not null into v_was from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  if v_was = coalesce(p_paused, false) then
    return jsonb_build_object('user_id', p_user_id, 'paused', v_was, 'changed', false);
  end if;
  update user_profiles
     set payouts_paused_at = case when p_paused then now() end, updated_at = now()
   where id = p_user_id;
  insert into operator_actions (actor, actor_user_id, action, user_id, reason, record_kind, record_id, before, after)
  values (v_actor, p_actor_user_id, case when p_paused then 'pause' else 'resume' end, p_user_id, v_reason,
          'account', p_user_id, jsonb_build_object('payouts_paused', v_was),
          jsonb_build_object('payouts_paused', p_paused));
  return jsonb_build_object('user_id', p_user_id, 'paused', p_paused, 'changed', true);
end
$function$;

CREATE OR REPLACE FUNCTION public.unban_account(p_user_id text, p_actor text, p_actor_user_id text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_actor text := operator_actor(p_actor);
  v_banned_at timestamptz;
begin
  if p_actor_user_id is not null then
    perform require_operator_role(p_actor_user_id, array['finance']);
  end if;
  perform refuse_own_account(p_actor_user_id, p_user_id);
  select banned_at into v_banned_at from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  if v_banned_at is null then
    return jsonb_build_object('user_id', p_user_id, 'changed', false);
  end if;
  update user_profiles set banned_at = null, ban_reason = null, updated_at = now() where id = p_user_id;
  insert into operator_actions (actor, actor_user_id, action, user_id, record_kind, record_id, before, after)
  values (v_actor, p_actor_user_id, 'unban', p_user_id, 'account', p_user_id,
          jsonb_build_object('banned', true), jsonb_build_object('banned', false));
  return jsonb_build_object('user_id', p_user_id, 'changed', true);
end
$function$;

-- Paying is an action on the account too: the console names its operator.
drop function public.claim_payout(uuid);
create function public.claim_payout(p_withdrawal_id uuid, p_operator_id text default null)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_withdrawal withdrawals;
begin
  if p_operator_id is not null then
    perform require_operator_role(p_operator_id, array['finance']);
  end if;
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  perform refuse_own_account(p_operator_id, v_withdrawal.user_id);
  if v_withdrawal.status <> 'pending' then
    raise exception 'Withdrawal is not pending' using errcode = 'P0001', hint = 'withdrawal_not_pending';
  end if;
  if v_withdrawal.review_state <> 'approved' then
    raise exception 'Withdrawal is not approved' using errcode = 'P0001', hint = 'withdrawal_not_approved';
  end if;
  update withdrawals set payout_claimed_at = coalesce(payout_claimed_at, now())
   where id = p_withdrawal_id
  returning * into v_withdrawal;
  return withdrawal_json(v_withdrawal);
end
$function$;

-- ---------------------------------------------------------------------------------------------
-- 2. and 3. Adjustments: a window, not a post; a ticket credited once

-- A ticket's credit, waiting or applied, is its only one (a declined one leaves room for another).
create unique index balance_adjustments_one_credit_per_ticket
  on public.balance_adjustments (missing_credit_report_id)
  where missing_credit_report_id is not null and state <> 'declined';

-- What went through on one operator's word, by person and time: the window's sum.
create index balance_adjustments_single_operator_idx
  on public.balance_adjustments (user_id, requested_at)
  where state = 'applied' and decided_by_user_id is null;

create or replace function public.operator_adjust_balance(p_operator_id text, p_actor text, p_user_id text,
                                                         p_amount numeric, p_kind text, p_reason text,
                                                         p_missing_credit_report_id bigint default null)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_actor text := operator_actor(p_actor);
  v_reason text := operator_reason(p_reason);
  v_config app_config;
  v_before numeric;
  v_after numeric;
  v_ledger_id bigint;
  v_adjustment balance_adjustments;
  v_window_all numeric;
  v_window_mine numeric;
begin
  perform require_operator_role(p_operator_id, array['finance']);
  if p_amount is null or p_amount = 0 or p_amount <> round(p_amount, 2) or abs(p_amount) > 1000000 then
    raise exception 'Invalid adjustment' using errcode = 'P0001', hint = 'invalid_adjustment';
  end if;
  if p_kind is null or p_kind not in ('earned', 'bonus') then
    raise exception 'Invalid adjustment kind' using errcode = 'P0001', hint = 'invalid_adjustment_kind';
  end if;
  perform refuse_own_account(p_operator_id, p_user_id);
  -- The lock order of the money functions: the profile, then the balance.
  perform from user_profiles where id = p_user_id for key share;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- Held until commit: every adjustment of this person waits here, so the window's sum below
  -- counts the one that went just before (two operators splitting a sum at once included).
  select balance into v_before from user_balance where user_id = p_user_id for update;
  if p_missing_credit_report_id is not null then
    -- A missing-credit report the adjustment answers is this account's own, and credited once.
    perform from missing_credit_reports
     where id = p_missing_credit_report_id and user_id = p_user_id
       for update;
    if not found then
      raise exception 'Ticket not found' using errcode = 'P0001', hint = 'ticket_not_found';
    end if;
    if exists (select from balance_adjustments
                where missing_credit_report_id = p_missing_credit_report_id and state <> 'declined') then
      raise exception 'This ticket was credited already' using errcode = 'P0001', hint = 'ticket_already_credited';
    end if;
  end if;
  select * into v_config from app_config;
  -- Either way counts: a debit and a credit of $50 are $100 moved on one word.
  select coalesce(sum(abs(amount)), 0),
         coalesce(sum(abs(amount)) filter (where requested_by_user_id = p_operator_id), 0)
    into v_window_all, v_window_mine
    from balance_adjustments
   where user_id = p_user_id and state = 'applied' and decided_by_user_id is null
     and requested_at > now() - make_interval(hours => v_config.adjustment_window_hours);
  if v_window_all + abs(p_amount) > v_config.adjustment_approval_above then
    insert into balance_adjustments (user_id, amount, kind, reason, missing_credit_report_id, state, requested_by,
                                     requested_by_user_id)
    values (p_user_id, p_amount, p_kind, v_reason, p_missing_credit_report_id, 'awaiting_approval', v_actor,
            p_operator_id)
    returning * into v_adjustment;
    insert into operator_actions (actor, actor_user_id, action, user_id, reason, record_kind, record_id, after, detail)
    values (v_actor, p_operator_id, 'adjust_request', p_user_id, v_reason, 'adjustment', v_adjustment.id::text,
            jsonb_build_object('state', 'awaiting_approval'),
            jsonb_build_object('amount', p_amount, 'kind', p_kind, 'limit', v_config.adjustment_approval_above,
                               'window_hours', v_config.adjustment_window_hours,
                               'window_sum', v_window_all, 'window_sum_mine', v_window_mine));
    return jsonb_build_object('id', v_adjustment.id, 'state', 'awaiting_approval', 'amount', p_amount,
                              'limit', v_config.adjustment_approval_above, 'window_sum', v_window_all,
                              'window_hours', v_config.adjustment_window_hours);
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
          jsonb_build_object('amount', p_amount, 'kind', p_kind, 'window_sum', v_window_all + abs(p_amount),
                             'window_hours', v_config.adjustment_window_hours));
  return jsonb_build_object('id', v_adjustment.id, 'state', 'applied', 'amount', p_amount, 'balance', v_after);
end
$function$;

-- ---------------------------------------------------------------------------------------------
-- 4. Test money

-- What the console's test postbacks credited: shown to the person and in the console as test
-- money, in no balance, no total, no leaderboard, no dashboard.
create table public.test_credits (
  id bigint generated always as identity primary key,
  user_id text references public.user_profiles (id) on delete cascade,
  network text not null check (network ~ '^[a-z0-9-]{2,40}$'),
  transaction_id text not null check (length(transaction_id) between 1 and 100),
  coins integer not null check (coins > 0),
  amount numeric(12, 2) not null check (amount >= 0),
  offer_name text check (length(offer_name) <= 200),
  created_at timestamptz not null default now(),
  unique (network, transaction_id)
);
create index test_credits_user_idx on public.test_credits (user_id, created_at desc);
alter table public.test_credits enable row level security;

create index operator_actions_test_postbacks_idx on public.operator_actions (at)
  where action = 'test_postback';

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
              jsonb_build_object('coins', v_coins, 'amount', v_amount, 'provider', p_provider)
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

CREATE OR REPLACE FUNCTION public.operator_record_test_postback(p_operator_id text, p_network text, p_user_id text, p_transaction_id text, p_coins integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_email text;
  v_sent_today integer;
  v_actor text;
begin
  perform require_operator_role(p_operator_id, array['owner']);
  perform check_wall_network(p_network);
  if p_coins is null or p_coins < 1 or p_coins > 1000 then
    raise exception 'Invalid coins' using errcode = 'P0001', hint = 'invalid_coins';
  end if;
  if p_transaction_id is null or length(p_transaction_id) <> 40
     or p_transaction_id !~ '^sim-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    raise exception 'Invalid test postback' using errcode = 'P0001', hint = 'invalid_test_postback';
  end if;
  select email into v_email from user_profiles where id = p_user_id for key share;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  perform refuse_own_account(p_operator_id, p_user_id);
  v_actor := operator_name(p_operator_id);
  -- Two posts of one form wait for each other here; the second finds the first's entry.
  perform pg_advisory_xact_lock(hashtextextended('test_postback:' || p_network || ':' || p_transaction_id, 0));
  if exists (select from operator_actions
              where record_id = p_user_id and action = 'test_postback'
                and detail ->> 'network' = p_network and detail ->> 'transaction_id' = p_transaction_id) then
    return jsonb_build_object('recorded', false);
  end if;
  -- A few a day per wall prove a wall's settings; more would be a habit.
  perform pg_advisory_xact_lock(hashtextextended('test_postbacks_of:' || p_network, 0));
  select count(*) into v_sent_today from operator_actions
   where action = 'test_postback' and at > now() - interval '24 hours' and detail ->> 'network' = p_network;
  if v_sent_today >= (select test_postbacks_per_wall_per_day from app_config) then
    raise exception 'No more test postbacks through this wall today' using errcode = 'P0001',
      hint = 'test_postbacks_exhausted';
  end if;
  insert into operator_actions (actor, actor_user_id, action, user_id, record_kind, record_id, after, reason, detail)
  values (v_actor, p_operator_id, 'test_postback', p_user_id, 'account', p_user_id,
          jsonb_build_object('network', p_network, 'transaction_id', p_transaction_id, 'coins', p_coins,
                             'email', v_email),
          format('Test postback from the console: %s coins through %s to %s', p_coins, p_network,
                 coalesce(v_email, p_user_id)),
          jsonb_build_object('network', p_network, 'transaction_id', p_transaction_id, 'coins', p_coins));
  return jsonb_build_object('recorded', true);
end
$function$;

-- My offers lists test credits too, marked as such.
create or replace function public.get_offer_credits(p_user_id text, p_limit integer default 100)
 returns jsonb
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  with credits as (
    select c.provider as network, c.transaction_id,
           coalesce(c.offer_name,
                    (select s.title from completed_tasks t
                       join task_starts s on s.user_id = t.user_id and s.task_id = t.task_id
                      where t.user_id = c.user_id and t.provider = c.provider
                        and t.transaction_id = c.transaction_id)) as offer_name,
           c.coins, c.created_at, c.id, c.available_at, r.created_at as reversed_at, false as test
      from (select * from provider_postbacks
             where user_id = p_user_id and kind = 'credit'
             order by created_at desc, id desc
             limit least(greatest(coalesce(p_limit, 100), 1), 500)) c
      left join provider_postbacks r
        on r.provider = c.provider and r.transaction_id = c.transaction_id and r.kind = 'reversal'
    union all
    select network, transaction_id, offer_name, coins, created_at, id, null, null, true
      from (select * from test_credits where user_id = p_user_id
             order by created_at desc, id desc
             limit least(greatest(coalesce(p_limit, 100), 1), 500)) t
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'network', network,
           'transaction_id', transaction_id,
           'offer_name', offer_name,
           'coins', coins,
           'credited_at', created_at,
           'available_at', available_at,
           'reversed_at', reversed_at,
           'test', test)
         order by created_at desc, id desc), '[]')
    from (select * from credits order by created_at desc, id desc
           limit least(greatest(coalesce(p_limit, 100), 1), 500)) listed
$function$;

-- ---------------------------------------------------------------------------------------------
-- 6. An audit that cannot be emptied, and no privileges left lying around

create function public.refuse_truncate()
 returns trigger
 language plpgsql
 set search_path to 'public', 'pg_temp'
as $function$
begin
  raise exception '% is append-only: it cannot be emptied', tg_table_name using errcode = 'P0001',
    hint = 'audit_append_only';
end
$function$;
revoke all on function public.refuse_truncate() from public, anon, authenticated, service_role;

do $$
declare
  v_table text;
begin
  foreach v_table in array array[
    'operator_actions', 'transaction_history', 'withdrawals', 'user_balance', 'user_profiles',
    'balance_adjustments', 'provider_postbacks', 'postback_log', 'postback_signatures', 'held_postbacks',
    'deleted_accounts', 'identities', 'identity_rewards', 'monthly_earnings', 'test_credits',
    'missing_credit_reports', 'support_messages', 'operators', 'app_config', 'wall_settings'] loop
    execute format('create trigger %I before truncate on public.%I for each statement
                    execute function public.refuse_truncate()', v_table || '_never_emptied', v_table);
  end loop;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- A policy change that loosens a rule waits for a second owner

-- Raising an approval limit or a risk threshold, turning a review off, changing holds or unlock
-- ratios (and loosening this section's own settings) takes effect only once another owner
-- approves; where there is one owner, once policy_change_delay_hours have passed.
create function public.setting_loosens(p_name text, p_before jsonb, p_after jsonb)
 returns boolean
 language sql
 immutable
 set search_path to 'public', 'pg_temp'
as $function$
  select case p_name
    when 'adjustment_approval_above' then (p_after)::numeric > (p_before)::numeric
    when 'risk_review_threshold' then (p_after)::numeric > (p_before)::numeric
    when 'review_first_withdrawal' then (p_before)::boolean and not (p_after)::boolean
    when 'postback_hold_days' then p_after is distinct from p_before
    when 'provider_hold_days' then p_after is distinct from p_before
    when 'bonus_unlock_ratio' then p_after is distinct from p_before
    when 'adjustment_window_hours' then (p_after)::numeric < (p_before)::numeric
    when 'test_postbacks_per_wall_per_day' then (p_after)::numeric > (p_before)::numeric
    when 'policy_change_delay_hours' then (p_after)::numeric < (p_before)::numeric
    else false
  end
$function$;

create table public.setting_changes (
  id bigint generated always as identity primary key,
  -- {setting: value}: the loosening part of one save, checked by app_setting_valid when asked.
  settings jsonb not null check (jsonb_typeof(settings) = 'object' and settings <> '{}'),
  -- {setting: value} as they were when asked: what the approver compares with.
  before jsonb not null check (jsonb_typeof(before) = 'object'),
  reason text not null check (length(reason) between 1 and 500),
  requested_by text not null check (length(requested_by) between 1 and 100),
  requested_by_user_id text not null,
  requested_at timestamptz not null default now(),
  -- One owner: the requester may apply it once this has passed. Null: another owner must.
  apply_after timestamptz,
  state text not null default 'waiting' check (state in ('waiting', 'applied', 'withdrawn')),
  decided_by text check (length(decided_by) between 1 and 100),
  decided_by_user_id text,
  decided_at timestamptz
);
create index setting_changes_waiting_idx on public.setting_changes (requested_at) where state = 'waiting';
alter table public.setting_changes enable row level security;
create trigger setting_changes_never_emptied before truncate on public.setting_changes
  for each statement execute function public.refuse_truncate();

-- Writes a checked patch to app_config and audits each setting it changes (as `p_approved_by` too
-- when a second owner approved it): the one place that lists app_config's columns.
create function public.apply_app_config_patch(p_patch jsonb, p_actor text, p_operator_id text, p_reason text,
                                              p_detail jsonb default null)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_before app_config;
  v_after app_config;
  v_name text;
  v_changed jsonb := '[]';
begin
  select * into v_before from app_config for update;
  -- Each column from the checked patch, else as it was: a static list, no SQL made from names.
  v_after := jsonb_populate_record(v_before, p_patch);
  update app_config
     set coins_per_dollar = v_after.coins_per_dollar,
         checkin_coins = v_after.checkin_coins,
         checkin_streak_bonus_coins = v_after.checkin_streak_bonus_coins,
         referral_reward = v_after.referral_reward,
         referral_welcome_bonus = v_after.referral_welcome_bonus,
         referral_qualifying_coins = v_after.referral_qualifying_coins,
         referral_requires_earned = v_after.referral_requires_earned,
         min_withdrawal_paypal = v_after.min_withdrawal_paypal,
         min_withdrawal_upi = v_after.min_withdrawal_upi,
         min_withdrawal_bank = v_after.min_withdrawal_bank,
         withdrawals_per_hour = v_after.withdrawals_per_hour,
         risk_review_threshold = v_after.risk_review_threshold,
         review_first_withdrawal = v_after.review_first_withdrawal,
         postback_hold_days = v_after.postback_hold_days,
         provider_hold_days = v_after.provider_hold_days,
         bonus_unlock_ratio = v_after.bonus_unlock_ratio,
         notice_delivery_attempts = v_after.notice_delivery_attempts,
         notice_delivery_window_hours = v_after.notice_delivery_window_hours,
         notice_emails_per_address_per_day = v_after.notice_emails_per_address_per_day,
         adjustment_approval_above = v_after.adjustment_approval_above,
         adjustment_window_hours = v_after.adjustment_window_hours,
         test_postbacks_per_wall_per_day = v_after.test_postbacks_per_wall_per_day,
         policy_change_delay_hours = v_after.policy_change_delay_hours
   where id
  returning * into v_after;
  for v_name in select key from jsonb_object_keys(p_patch) key order by key loop
    continue when (to_jsonb(v_before) -> v_name) is not distinct from (to_jsonb(v_after) -> v_name);
    insert into operator_actions (actor, actor_user_id, action, reason, record_kind, record_id, before, after, detail)
    values (p_actor, p_operator_id, 'set_setting', p_reason, 'setting', v_name,
            jsonb_build_object('value', to_jsonb(v_before) -> v_name),
            jsonb_build_object('value', to_jsonb(v_after) -> v_name), coalesce(p_detail, '{}'));
    v_changed := v_changed || jsonb_build_object('setting', v_name, 'before', to_jsonb(v_before) -> v_name,
                                                 'after', to_jsonb(v_after) -> v_name);
  end loop;
  return v_changed;
end
$function$;

create or replace function public.operator_set_settings(p_operator_id text, p_actor text, p_changes jsonb,
                                                       p_reason text, p_version text default null)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_actor text;
  v_reason text;
  v_name text;
  v_value jsonb;
  v_valid boolean;
  v_before app_config;
  v_patch jsonb := '{}';
  v_waiting jsonb;
  v_now jsonb;
  v_changed jsonb := '[]';
  v_change setting_changes;
  v_owners integer;
  v_owner text;
begin
  perform require_operator_role(p_operator_id, array['owner']);
  v_actor := operator_actor(p_actor);
  v_reason := operator_reason(p_reason);
  if jsonb_typeof(p_changes) is distinct from 'object' then
    raise exception 'Settings must be an object of names and values'
      using errcode = 'P0001', hint = 'invalid_settings';
  end if;
  -- Every name and value checked before anything is written: all of it, or none.
  for v_name, v_value in select key, value from jsonb_each(p_changes) order by key loop
    v_valid := app_setting_valid(v_name, v_value);
    if v_valid is null then
      raise exception 'Unknown setting' using errcode = 'P0001', hint = 'unknown_setting';
    end if;
    if not v_valid then
      raise exception 'Invalid value for the setting %', v_name
        using errcode = 'P0001', hint = 'invalid_setting', detail = v_name;
    end if;
  end loop;

  select * into v_before from app_config for update;
  if p_version is not null and p_version is distinct from md5(to_jsonb(v_before)::text) then
    raise exception 'The settings changed since they were read' using errcode = 'P0001', hint = 'settings_changed';
  end if;
  -- Only the values that differ (numbers compare as numbers: 5 is 5.00).
  select coalesce(jsonb_object_agg(c.key, c.value), '{}') into v_patch
    from jsonb_each(p_changes) c
   where c.value is distinct from to_jsonb(v_before) -> c.key;
  select coalesce(jsonb_object_agg(c.key, c.value), '{}') into v_waiting
    from jsonb_each(v_patch) c
   where setting_loosens(c.key, to_jsonb(v_before) -> c.key, c.value);
  v_now := v_patch - array(select jsonb_object_keys(v_waiting));
  if v_now <> '{}' then
    v_changed := apply_app_config_patch(v_now, v_actor, p_operator_id, v_reason);
  end if;
  if v_waiting <> '{}' then
    select count(*) into v_owners from operators where role = 'owner';
    insert into setting_changes (settings, before, reason, requested_by, requested_by_user_id, apply_after)
    values (v_waiting,
            (select jsonb_object_agg(key, to_jsonb(v_before) -> key) from jsonb_object_keys(v_waiting) key),
            v_reason, v_actor, p_operator_id,
            case when v_owners < 2 then now() + make_interval(hours => v_before.policy_change_delay_hours) end)
    returning * into v_change;
    insert into operator_actions (actor, actor_user_id, action, reason, record_kind, record_id, before, after, detail)
    values (v_actor, p_operator_id, 'setting_change_asked', v_reason, 'setting_change', v_change.id::text,
            v_change.before, v_change.settings, jsonb_build_object('apply_after', v_change.apply_after));
    -- Every owner hears of it (the one who asked too, where nobody else can approve).
    for v_owner in select user_id from operators
                    where role = 'owner' and (user_id <> p_operator_id or v_owners < 2) loop
      insert into user_notices (user_id, kind, data)
      values (v_owner, 'policy_change_waiting',
              jsonb_build_object('change_id', v_change.id, 'settings', v_change.settings,
                                 'apply_after', v_change.apply_after));
    end loop;
  end if;
  return jsonb_build_object('changed', v_changed,
                            'waiting', case when v_change.id is null then null
                                            else jsonb_build_object('id', v_change.id,
                                                                    'settings', v_change.settings,
                                                                    'apply_after', v_change.apply_after) end,
                            'version', (select md5(to_jsonb(c)::text) from app_config c));
end
$function$;

-- A waiting change approved by another owner (or, alone, by its owner once its delay has passed),
-- or withdrawn by any owner: applied or dropped, audited either way.
create function public.operator_decide_setting_change(p_operator_id text, p_actor text, p_change_id bigint,
                                                      p_approve boolean)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_actor text;
  v_change setting_changes;
  v_changed jsonb := '[]';
begin
  perform require_operator_role(p_operator_id, array['owner']);
  v_actor := operator_actor(p_actor);
  select * into v_change from setting_changes where id = p_change_id for update;
  if not found then
    raise exception 'Setting change not found' using errcode = 'P0001', hint = 'setting_change_not_found';
  end if;
  if v_change.state <> 'waiting' then
    return jsonb_build_object('id', v_change.id, 'state', v_change.state, 'changed', false);
  end if;
  if p_approve and v_change.requested_by_user_id = p_operator_id
     and (v_change.apply_after is null or v_change.apply_after > now()) then
    raise exception 'Another owner must approve this change' using errcode = 'P0001',
      hint = 'second_owner_required';
  end if;
  if p_approve then
    v_changed := apply_app_config_patch(v_change.settings, v_change.requested_by, v_change.requested_by_user_id,
                                        v_change.reason,
                                        jsonb_build_object('change_id', v_change.id, 'approved_by', v_actor,
                                                           'approved_by_user_id', p_operator_id));
  end if;
  update setting_changes
     set state = case when p_approve then 'applied' else 'withdrawn' end,
         decided_by = v_actor, decided_by_user_id = p_operator_id, decided_at = now()
   where id = v_change.id;
  insert into operator_actions (actor, actor_user_id, action, record_kind, record_id, before, after)
  values (v_actor, p_operator_id, case when p_approve then 'setting_change_approve' else 'setting_change_withdraw' end,
          'setting_change', v_change.id::text, jsonb_build_object('state', 'waiting'),
          jsonb_build_object('state', case when p_approve then 'applied' else 'withdrawn' end));
  return jsonb_build_object('id', v_change.id, 'state', case when p_approve then 'applied' else 'withdrawn' end,
                            'changed', true, 'applied', v_changed);
end
$function$;

-- The settings page reads the waiting changes with the values.
create or replace function public.operator_settings(p_operator_id text)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_config app_config;
begin
  perform require_operator_role(p_operator_id, array['support']);
  select * into v_config from app_config;
  return jsonb_build_object(
    'settings', to_jsonb(v_config) - 'id',
    'version', md5(to_jsonb(v_config)::text),
    'waiting', coalesce((select jsonb_agg(jsonb_build_object(
                                  'id', c.id, 'settings', c.settings, 'before', c.before, 'reason', c.reason,
                                  'requested_by', c.requested_by, 'requested_by_user_id', c.requested_by_user_id,
                                  'requested_at', c.requested_at, 'apply_after', c.apply_after)
                                order by c.requested_at, c.id)
                           from setting_changes c where c.state = 'waiting'), '[]'));
end
$function$;

-- Every call of the app is a function (the Supabase transport is .rpc() only, as service_role), and
-- those functions run as their owner: no API role needs a privilege on any table or sequence.
-- service_role executes exactly the functions named here; anon, authenticated and PUBLIC nothing.
-- New objects get nothing by default (Supabase grants all to the API roles unless told otherwise).
do $$
declare
  v_object record;
  v_callable text[] := array[
    'account_closed', 'account_deletion_facts', 'accounts_by_email', 'add_user_coins',
    'announce_sessions_ended', 'app_health', 'apply_demo_settings', 'apply_paypal_payout',
    'apply_production_settings', 'approve_withdrawals', 'assign_identities', 'ban_account',
    'check_dashboard_counts', 'checkin_streak', 'claim_due_notices', 'claim_payout',
    'clean_display_name', 'coins_to_dollars', 'complete_task', 'create_withdrawal',
    'credit_cleared_referrals', 'current_month', 'daily_checkin', 'decide_held_postback',
    'delete_account', 'delete_push_token', 'drop_fcm_token', 'email_has_profile',
    'fold_dashboard_counts', 'forget_push_device', 'get_app_config', 'get_checkin_status',
    'get_last_withdrawal_recipient', 'get_leaderboard', 'get_leaderboard_position',
    'get_missing_credit_reports', 'get_notification_preferences', 'get_offer_credits',
    'get_recent_activity', 'get_referral_status', 'get_referrals', 'get_task_completions',
    'get_task_start', 'get_user_feedback', 'get_user_summary', 'get_user_withdrawals', 'get_wall_id',
    'grant_operator_role', 'has_hidden_characters', 'hit_rate_limit', 'identity_taken',
    'list_missing_credit_reports', 'list_operator_actions', 'list_postback_log',
    'list_setting_changes', 'log_postback', 'mark_payout_sent', 'money_available', 'operator_add_note',
    'operator_adjust_balance', 'operator_adjustments', 'operator_dashboard',
    'operator_decide_adjustment', 'operator_export_unpaid', 'operator_find_people',
    'operator_held_postbacks', 'operator_negative_balances', 'operator_person',
    'operator_postback_log', 'operator_record_account_action', 'operator_record_refusal',
    'operator_record_test_postback', 'operator_reply_ticket', 'operator_reset_wall',
    'operator_review_queue', 'operator_role', 'operator_set_settings', 'operator_set_wall',
    'operator_settings', 'operator_ticket', 'operator_tickets', 'operator_update_ticket', 'operator_decide_setting_change',
    'operator_walls', 'operator_withdrawal', 'operator_withdrawal_counts', 'operator_withdrawal_list',
    'operator_withdrawals', 'pace_attempt', 'profile_exists', 'profiles_without_identity',
    'provision_user', 'prune_rate_limits', 'push_token_status', 'rebuild_dashboard_counts',
    'record_account_signals', 'record_email_verified', 'record_notice_delivery',
    'record_payout_status', 'record_postback', 'referral_allowed_for', 'referral_code_exists',
    'refund_rate_limit', 'register_push_token', 'reject_withdrawal', 'release_payout',
    'report_missing_credit', 'require_operator_role', 'reserve_notice_email', 'revoke_operator_role',
    'set_account_active', 'set_notification_preference', 'set_payouts_paused', 'settle_withdrawal',
    'start_task', 'submit_feedback', 'take_postback', 'take_rate_limit', 'take_rate_limit_hits',
    'take_user_notices', 'unban_account', 'update_display_name', 'verify_all_balances',
    'verify_user_balance', 'wall_overrides', 'withdrawal_json', 'withdrawal_risk'
  ];
begin
  for v_object in
    select c.oid::regclass::text as name, c.relkind from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
  loop
    if v_object.relkind = 'S' then
      execute format('revoke all on sequence %s from public, anon, authenticated, service_role', v_object.name);
    else
      execute format('revoke all on table %s from public, anon, authenticated, service_role', v_object.name);
    end if;
  end loop;
  for v_object in
    select p.oid::regprocedure::text as signature, p.proname from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public' and p.prokind in ('f', 'p')
  loop
    execute format('revoke all on function %s from public, anon, authenticated, service_role', v_object.signature);
    if v_object.proname = any (v_callable) then
      execute format('grant execute on function %s to service_role', v_object.signature);
    end if;
  end loop;
end
$$;

alter default privileges in schema public revoke all on tables from public, anon, authenticated, service_role;
alter default privileges in schema public revoke all on sequences from public, anon, authenticated, service_role;
alter default privileges in schema public revoke all on functions from public, anon, authenticated, service_role;
alter default privileges revoke execute on functions from public;

-- ---------------------------------------------------------------------------------------------
-- A ticket's credit, as the person sees it: the coins on their report, and a notice.

alter table public.user_notices drop constraint user_notices_kind_check;
alter table public.user_notices add constraint user_notices_kind_check check (kind = any (array[
  'withdrawal_completed', 'withdrawal_failed', 'referral_credited', 'welcome_bonus', 'task_reward',
  'postback_reward', 'support_reply', 'missing_credit_credited', 'policy_change_waiting']));

create or replace function public.resolve_credited_report(p_report_id bigint)
 returns void
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_report missing_credit_reports;
  v_amount numeric;
begin
  update missing_credit_reports set status = 'resolved', updated_at = now()
   where id = p_report_id and status <> 'resolved';
  select * into v_report from missing_credit_reports where id = p_report_id;
  select amount into v_amount from balance_adjustments
   where missing_credit_report_id = p_report_id and state = 'applied';
  if v_report.user_id is not null and v_amount > 0 then
    insert into user_notices (user_id, kind, data)
    values (v_report.user_id, 'missing_credit_credited',
            jsonb_build_object('amount', v_amount,
                               'coins', round(v_amount * (select coins_per_dollar from app_config))::integer,
                               'title', v_report.offer_name, 'network', v_report.network));
  end if;
end
$function$;
revoke all on function public.resolve_credited_report(bigint) from public, anon, authenticated, service_role;

create or replace function public.get_missing_credit_reports(p_user_id text)
 returns jsonb
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'network', network, 'offer_name', offer_name,
                                               'completed_on', completed_on, 'status', status,
                                               'created_at', created_at,
                                               'replies', ticket_replies('missing_credit', id),
                                               'credited_coins',
                                               (select round(a.amount * c.coins_per_dollar)::integer
                                                  from balance_adjustments a cross join app_config c
                                                 where a.missing_credit_report_id = r.id and a.state = 'applied'))
                            order by created_at desc, id desc), '[]')
    from (select * from missing_credit_reports where user_id = p_user_id
           order by created_at desc, id desc limit 50) r
$function$;
