-- Redefines: public.user_notices_rules
-- Redefines: public.notice_category
--
-- A notice when held offer earnings clear (issue 36, docs/decisions/086): "Your offer earnings of
-- $3.50 cleared — available to withdraw." Nothing in the ledger changes when a hold ends (decision
-- 066: money is available from its available_at on), so a sweep writes these notices: each server
-- runs notify_cleared_earnings() on the referral interval, and one row here says how far the
-- sweeps have read. Started now: money cleared before this migration is not announced.
create table public.cleared_earnings_sweep (
  id boolean primary key default true check (id),
  through timestamptz not null
);
insert into public.cleared_earnings_sweep (through) values (now());
alter table public.cleared_earnings_sweep enable row level security;

CREATE OR REPLACE FUNCTION public.user_notices_rules(p_kind text, p_data jsonb, p_push_status text, p_email_status text, p_push_attempts integer, p_email_attempts integer, p_push_detail text, p_email_detail text, p_next_attempt_at timestamp with time zone, p_email_address text, p_email_reserved_at timestamp with time zone)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
begin
  if (p_kind in ('withdrawal_completed', 'withdrawal_failed', 'referral_credited', 'welcome_bonus', 'task_reward',
                 'postback_reward', 'support_reply', 'missing_credit_credited', 'policy_change_waiting',
                 'ticket_answered', 'earnings_cleared')) is false then
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
$function$;

-- Cleared earnings are rewards news: pushed and emailed as the person's reward setting says. So
-- is a missing credit support added (until now neither pushed nor emailed: it had no category).
CREATE OR REPLACE FUNCTION public.notice_category(p_kind text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select case
           when p_kind in ('withdrawal_completed', 'withdrawal_failed') then 'withdrawal'
           when p_kind in ('referral_credited', 'welcome_bonus', 'task_reward', 'postback_reward',
                           'earnings_cleared', 'missing_credit_credited') then 'reward'
           when p_kind in ('support_reply', 'ticket_answered') then 'support'
         end
$function$;

-- One notice a person for the held offer earnings that cleared since the last sweep (net of
-- reversals in their hold), with the bonus that clearing unlocked (money_available's rule: a
-- share of cleared earnings unlocks bonus) and any debt it pays first. Credits available at once
-- (no hold) said so in their own notice and are left out. One sweep at a time across servers (the
-- row lock); a sweep that finds another already read past its own start writes nothing.
CREATE OR REPLACE FUNCTION public.notify_cleared_earnings()
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_from timestamptz;
  v_to timestamptz := now();
  v_ratio app_config.bonus_unlock_ratio%type := (select bonus_unlock_ratio from app_config);
  v_written integer;
begin
  select through into v_from from cleared_earnings_sweep for update;
  if v_from is null or v_to <= v_from then
    return 0;
  end if;
  with cleared as (
    select user_id, sum(amount) as amount
      from transaction_history
     where kind = 'earned' and user_id is not null
       and available_at > v_from and available_at <= v_to
       and available_at > created_at
     group by user_id
    having sum(amount) > 0
  ), parts as (
    select c.user_id, c.amount, b.carried_debt,
           b.total_earned - b.earned_total as bonus,
           b.earned_total - coalesce((select sum(t.amount) from transaction_history t
                                       where t.user_id = c.user_id and t.kind = 'earned'
                                         and t.available_at > v_to), 0) as cleared_now
      from cleared c
      join user_balance b on b.user_id = c.user_id
  )
  insert into user_notices (user_id, kind, data)
  select user_id, 'earnings_cleared',
         jsonb_build_object(
           'amount', amount,
           -- Where the ratio is unset (demo settings) bonus is never locked: nothing to unlock.
           'bonus_unlocked', case when v_ratio is null or bonus <= 0 then 0
                                  else greatest(0, least(bonus, floor(v_ratio * greatest(cleared_now, 0) * 100) / 100)
                                                 - least(bonus, floor(v_ratio * greatest(cleared_now - amount, 0) * 100) / 100))
                             end,
           'carried_debt', greatest(carried_debt, 0))
    from parts;
  get diagnostics v_written = row_count;
  update cleared_earnings_sweep set through = v_to;
  return v_written;
end
$function$;
revoke all on function public.notify_cleared_earnings() from public, anon, authenticated;
grant execute on function public.notify_cleared_earnings() to service_role;
