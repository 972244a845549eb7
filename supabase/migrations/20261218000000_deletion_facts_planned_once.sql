-- Redefines: public.account_deletion_facts
--
-- Profile and Settings read account_deletion_facts on every view (what keeps deletion back). As a
-- SQL function with its own search_path it cannot be inlined and was planned again on every call;
-- as plpgsql its statement is planned once per connection and kept (as rewards_status, 094's
-- follow-up). The answer is the same.

create or replace function public.account_deletion_facts(p_user_id text)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
begin
  return (
    select jsonb_build_object(
             'email', p.email,
             'balance', coalesce((select b.balance from user_balance b where b.user_id = p.id), 0),
             'carried_debt', coalesce((select b.carried_debt from user_balance b where b.user_id = p.id), 0),
             'pending_withdrawals', (select count(*) from withdrawals w
                                      where w.user_id = p.id and w.status = 'pending'),
             'unhashed_recipients', coalesce((
               select jsonb_object_agg(w.id, coalesce(w.recipient_email, w.recipient_upi,
                                                      w.recipient_bank_details ->> 'details'))
                 from withdrawals w where w.user_id = p.id and w.recipient_hash is null), '{}'::jsonb))
      from user_profiles p
     where p.id = p_user_id);
end
$function$;
