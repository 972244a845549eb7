-- Redefines: public.approve_withdrawals, public.reject_withdrawal_locked, public.reject_withdrawal, public.set_payouts_paused, public.ban_account, public.unban_account, public.settle_withdrawal
--
-- Issue 20, the console's actions (docs/operator-console.md): the withdrawal and account actions
-- that the command line already had become callable by a signed-in operator, checked in SQL.
--
-- - operator_actions.action: any short snake_case name (each console section adds its own:
--   settings, walls, tickets, adjustments), instead of a fixed list every section would edit.
-- - approve_withdrawals, reject_withdrawal (and reject_withdrawal_locked), set_payouts_paused,
--   ban_account and unban_account take p_actor_user_id (default null: the command line, which
--   names only an actor). Given, the operator must hold `finance` or `owner`
--   (require_operator_role), and the audit entry names the operator, the record, and the state
--   before and after.
-- - settle_withdrawal takes the actor too: a withdrawal marked paid or failed by hand (the
--   command's `settle`, the console's "Mark paid") is audited as `mark_paid` or `mark_failed`.
--   PayPal's own settlements (apply_paypal_payout) name no actor and write no audit entry.
-- - A PayPal payout is claimed before PayPal is asked (withdrawals.payout_claimed_at, claim_payout)
--   and released only when PayPal refuses it for certain (release_payout). While claimed, nothing
--   refunds it (reject_withdrawal, ban_account, settle_withdrawal as failed by hand): an operator
--   refusing a withdrawal while another's "Approve and pay" waits for PayPal's answer would
--   otherwise refund money that PayPal then pays. Sending again learns PayPal's answer (the
--   withdrawal id is the payout's idempotency key), which is the way out of a claim left by a crash.
-- - app_config.adjustment_approval_above: a balance adjustment larger than this (in dollars, either
--   way) waits for a second operator's approval (the console's People section).

alter table public.operator_actions
  drop constraint operator_actions_action_check,
  add constraint operator_actions_action_check check (action ~ '^[a-z][a-z_]{0,39}$');

alter table public.app_config
  add column adjustment_approval_above numeric(12,2) not null default 50
    check (adjustment_approval_above >= 0 and adjustment_approval_above <= 1000000);

alter table public.withdrawals add column payout_claimed_at timestamptz;

create function public.claim_payout(p_withdrawal_id uuid)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_withdrawal withdrawals;
begin
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
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
$$;

-- PayPal refused the payout for certain: nothing was paid, the withdrawal may be refunded again.
create function public.release_payout(p_withdrawal_id uuid)
  returns void
  language sql
  security definer
  set search_path = public, pg_temp
as $$
  update withdrawals set payout_claimed_at = null where id = p_withdrawal_id and sent_at is null;
$$;

drop function public.approve_withdrawals(jsonb, text);
create function public.approve_withdrawals(p_ids jsonb, p_actor text, p_actor_user_id text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
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
$$;

drop function public.reject_withdrawal_locked(withdrawals, text, text);
create function public.reject_withdrawal_locked(p_withdrawal withdrawals, p_reason text, p_actor text,
                                                p_actor_user_id text default null)
  returns void
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
begin
  update withdrawals
     set status = 'failed', settled_at = now(), failure_reason = p_reason,
         review_state = 'rejected', reviewed_at = now(), reviewed_by = p_actor
   where id = p_withdrawal.id;
  update transaction_history set status = 'failed' where withdrawal_id = p_withdrawal.id;
  update user_balance
     set balance = balance + p_withdrawal.amount, updated_at = now()
   where user_id = p_withdrawal.user_id;
  insert into user_notices (user_id, kind, data)
  values (p_withdrawal.user_id, 'withdrawal_failed',
          jsonb_build_object('withdrawal_id', p_withdrawal.id, 'amount', p_withdrawal.amount,
                             'payment_method', p_withdrawal.payment_method,
                             'reason', p_reason, 'refused', true));
  insert into operator_actions (actor, actor_user_id, action, user_id, withdrawal_id, reason, record_kind, record_id,
                                before, after, detail)
  values (p_actor, p_actor_user_id, 'reject', p_withdrawal.user_id, p_withdrawal.id, p_reason, 'withdrawal',
          p_withdrawal.id::text,
          jsonb_build_object('status', p_withdrawal.status, 'review_state', p_withdrawal.review_state),
          jsonb_build_object('status', 'failed', 'review_state', 'rejected', 'refunded', p_withdrawal.amount),
          jsonb_build_object('amount', p_withdrawal.amount, 'risk_score', p_withdrawal.risk_score));
end
$$;

drop function public.reject_withdrawal(uuid, text, text);
create function public.reject_withdrawal(p_withdrawal_id uuid, p_reason text, p_actor text,
                                         p_actor_user_id text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
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
$$;

drop function public.set_payouts_paused(text, boolean, text, text);
create function public.set_payouts_paused(p_user_id text, p_paused boolean, p_reason text, p_actor text,
                                          p_actor_user_id text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_reason text := case when p_paused then operator_reason(p_reason) else nullif(trim(p_reason), '') end;
  v_was boolean;
begin
  if p_actor_user_id is not null then
    perform require_operator_role(p_actor_user_id, array['finance']);
  end if;
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
$$;

drop function public.ban_account(text, text, text);
create function public.ban_account(p_user_id text, p_reason text, p_actor text, p_actor_user_id text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_reason text := operator_reason(p_reason);
  v_banned_at timestamptz;
  v_withdrawal withdrawals;
  v_rejected jsonb := '[]';
  v_sent jsonb := '[]';
begin
  if p_actor_user_id is not null then
    perform require_operator_role(p_actor_user_id, array['finance']);
    -- An operator cannot close their own account by mistake (and lock themselves out mid-action).
    if p_actor_user_id = p_user_id then
      raise exception 'Operators cannot ban themselves' using errcode = 'P0001', hint = 'operator_self_action';
    end if;
  end if;
  select banned_at into v_banned_at from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  if v_banned_at is null then
    update user_profiles set banned_at = now(), ban_reason = v_reason, updated_at = now() where id = p_user_id;
  end if;
  for v_withdrawal in
    select * from withdrawals where user_id = p_user_id and status = 'pending' order by created_at for update
  loop
    -- One PayPal has, or may have (a claimed payout), is PayPal's to settle: listed, not refunded.
    if v_withdrawal.sent_at is null and v_withdrawal.payout_claimed_at is null then
      perform reject_withdrawal_locked(v_withdrawal, 'Account closed: ' || v_reason, v_actor, p_actor_user_id);
      v_rejected := v_rejected || to_jsonb(v_withdrawal.id);
    else
      v_sent := v_sent || to_jsonb(v_withdrawal.id);
    end if;
  end loop;
  if v_banned_at is null then
    insert into operator_actions (actor, actor_user_id, action, user_id, reason, record_kind, record_id, before, after,
                                  detail)
    values (v_actor, p_actor_user_id, 'ban', p_user_id, v_reason, 'account', p_user_id,
            jsonb_build_object('banned', false), jsonb_build_object('banned', true),
            jsonb_build_object('rejected', v_rejected, 'still_sent', v_sent));
    perform announce_sessions_ended(p_user_id);
  end if;
  return jsonb_build_object('user_id', p_user_id, 'changed', v_banned_at is null,
                            'rejected', v_rejected, 'still_sent', v_sent);
end
$$;

drop function public.unban_account(text, text);
create function public.unban_account(p_user_id text, p_actor text, p_actor_user_id text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_banned_at timestamptz;
begin
  if p_actor_user_id is not null then
    perform require_operator_role(p_actor_user_id, array['finance']);
  end if;
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
$$;

drop function public.settle_withdrawal(uuid, text, text, text);
create function public.settle_withdrawal(p_withdrawal_id uuid, p_status text, p_reference text default null,
                                         p_reason text default null, p_actor text default null,
                                         p_actor_user_id text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
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
$$;

revoke all on function public.approve_withdrawals(jsonb, text, text) from public, anon, authenticated;
grant execute on function public.approve_withdrawals(jsonb, text, text) to service_role;
revoke all on function public.reject_withdrawal_locked(withdrawals, text, text, text) from public, anon, authenticated;
revoke all on function public.reject_withdrawal(uuid, text, text, text) from public, anon, authenticated;
grant execute on function public.reject_withdrawal(uuid, text, text, text) to service_role;
revoke all on function public.set_payouts_paused(text, boolean, text, text, text) from public, anon, authenticated;
grant execute on function public.set_payouts_paused(text, boolean, text, text, text) to service_role;
revoke all on function public.ban_account(text, text, text, text) from public, anon, authenticated;
grant execute on function public.ban_account(text, text, text, text) to service_role;
revoke all on function public.unban_account(text, text, text) from public, anon, authenticated;
grant execute on function public.unban_account(text, text, text) to service_role;
revoke all on function public.settle_withdrawal(uuid, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.settle_withdrawal(uuid, text, text, text, text, text) to service_role;
revoke all on function public.claim_payout(uuid) from public, anon, authenticated;
grant execute on function public.claim_payout(uuid) to service_role;
revoke all on function public.release_payout(uuid) from public, anon, authenticated;
grant execute on function public.release_payout(uuid) to service_role;
