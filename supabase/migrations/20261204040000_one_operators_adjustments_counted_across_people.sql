-- Redefines: public.app_setting_valid, public.setting_loosens, public.apply_app_config_patch,
-- Redefines: public.operator_adjust_balance, public.operator_adjustments
--
-- One operator's adjustments are counted across everyone, not only per person (issue 33, decision
-- 078): with the per-person window alone, an operator could credit $50 to each of a hundred
-- accounts of their own making without a second person. `adjustment_operator_limit` (dollars, 200
-- by default) bounds what one operator applies on their own word, to anyone, in the same
-- `adjustment_window_hours`; past it, the adjustment waits for a second operator like one past the
-- per-person limit. One operator's adjustments queue on an advisory lock (their id), so two posts
-- of theirs at once for two people count each other.

alter table public.app_config
  add column adjustment_operator_limit numeric(12, 2) not null default 200
    check (adjustment_operator_limit between 0 and 1000000);

-- What one operator applied on their own word in the window, read newest first.
create index balance_adjustments_operator_window_idx on public.balance_adjustments (requested_by_user_id, requested_at)
  where state = 'applied' and decided_by_user_id is null;

CREATE OR REPLACE FUNCTION public.app_setting_valid(p_name text, p_value jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
       'policy_change_delay_hours', 'adjustment_operator_limit']) then
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
    when 'adjustment_operator_limit' then v_number = round(v_number, 2) and v_number between 0 and 1000000
    when 'test_postbacks_per_wall_per_day' then v_number = trunc(v_number) and v_number between 0 and 100
    when 'policy_change_delay_hours' then v_number = trunc(v_number) and v_number between 1 and 720
  end;
end
$function$;

CREATE OR REPLACE FUNCTION public.setting_loosens(p_name text, p_before jsonb, p_after jsonb)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select case p_name
    when 'adjustment_approval_above' then (p_after)::numeric > (p_before)::numeric
    when 'risk_review_threshold' then (p_after)::numeric > (p_before)::numeric
    when 'review_first_withdrawal' then (p_before)::boolean and not (p_after)::boolean
    when 'postback_hold_days' then p_after is distinct from p_before
    when 'provider_hold_days' then p_after is distinct from p_before
    when 'bonus_unlock_ratio' then p_after is distinct from p_before
    when 'adjustment_window_hours' then (p_after)::numeric < (p_before)::numeric
    when 'adjustment_operator_limit' then (p_after)::numeric > (p_before)::numeric
    when 'test_postbacks_per_wall_per_day' then (p_after)::numeric > (p_before)::numeric
    when 'policy_change_delay_hours' then (p_after)::numeric < (p_before)::numeric
    else false
  end
$function$;

CREATE OR REPLACE FUNCTION public.apply_app_config_patch(p_patch jsonb, p_actor text, p_operator_id text, p_reason text, p_detail jsonb DEFAULT NULL::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
         policy_change_delay_hours = v_after.policy_change_delay_hours,
         adjustment_operator_limit = v_after.adjustment_operator_limit
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

CREATE OR REPLACE FUNCTION public.operator_adjust_balance(p_operator_id text, p_actor text, p_user_id text, p_amount numeric, p_kind text, p_reason text, p_missing_credit_report_id bigint DEFAULT NULL::bigint)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
  v_operator_sum numeric;
  v_waits_for text;
begin
  perform require_operator_role(p_operator_id, array['finance']);
  if p_amount is null or p_amount = 0 or p_amount <> round(p_amount, 2) or abs(p_amount) > 1000000 then
    raise exception 'Invalid adjustment' using errcode = 'P0001', hint = 'invalid_adjustment';
  end if;
  if p_kind is null or p_kind not in ('earned', 'bonus') then
    raise exception 'Invalid adjustment kind' using errcode = 'P0001', hint = 'invalid_adjustment_kind';
  end if;
  perform refuse_own_account(p_operator_id, p_user_id);
  -- Held until commit: this operator's adjustments, for anyone, queue here, so the sum of theirs
  -- below counts the one that went just before. Taken before any balance lock, by every caller.
  perform pg_advisory_xact_lock(hashtext('operator_adjust_balance'), hashtext(p_operator_id));
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
  -- And what this operator applied on their own word, for everyone, in the same window.
  select coalesce(sum(abs(amount)), 0) into v_operator_sum
    from balance_adjustments
   where requested_by_user_id = p_operator_id and state = 'applied' and decided_by_user_id is null
     and requested_at > now() - make_interval(hours => v_config.adjustment_window_hours);
  v_waits_for := case
    when v_window_all + abs(p_amount) > v_config.adjustment_approval_above then 'person'
    when v_operator_sum + abs(p_amount) > v_config.adjustment_operator_limit then 'operator' end;
  if v_waits_for is not null then
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
                               'window_sum', v_window_all, 'window_sum_mine', v_window_mine,
                               'waits_for', v_waits_for, 'operator_limit', v_config.adjustment_operator_limit,
                               'operator_sum', v_operator_sum));
    return jsonb_build_object('id', v_adjustment.id, 'state', 'awaiting_approval', 'amount', p_amount,
                              'waits_for', v_waits_for,
                              'limit', v_config.adjustment_approval_above, 'window_sum', v_window_all,
                              'operator_limit', v_config.adjustment_operator_limit, 'operator_sum', v_operator_sum,
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
                             'window_hours', v_config.adjustment_window_hours,
                             'operator_sum', v_operator_sum + abs(p_amount)));
  return jsonb_build_object('id', v_adjustment.id, 'state', 'applied', 'amount', p_amount, 'balance', v_after);
end
$function$;

CREATE OR REPLACE FUNCTION public.operator_adjustments(p_operator_id text, p_user_id text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
begin
  perform require_operator_role(p_operator_id, array['support']);
  return jsonb_build_object(
    'approval_above', (select adjustment_approval_above from app_config),
    'operator_limit', (select adjustment_operator_limit from app_config),
    'window_hours', (select adjustment_window_hours from app_config),
    'adjustments', coalesce((
      select jsonb_agg(to_jsonb(a) order by (a.state = 'awaiting_approval') desc, a.id desc)
        from (select id, amount, kind, reason, state, requested_by, requested_by_user_id, requested_at, decided_by,
                     decided_at, decision_reason, missing_credit_report_id
                from balance_adjustments where user_id = p_user_id order by id desc limit 20) a), '[]'::jsonb));
end
$function$;
