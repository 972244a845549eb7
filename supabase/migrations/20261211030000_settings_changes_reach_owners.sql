-- Redefines: public.notice_category
--
-- An owner was told in the app only that a settings change waits for them (policy_change_waiting
-- had no category, so the delivery worker never took it): it is an operator's notice like
-- ticket_answered, delivered by push and email under the support switch.
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
           when p_kind in ('support_reply', 'ticket_answered', 'policy_change_waiting') then 'support'
         end
$function$;
