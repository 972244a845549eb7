-- Redefines: public.get_user_summary
--
-- Home's "Referral Bonus" tile (issue 36, point 10): the money the person earned by referring friends.
-- It also counted a friend's own welcome bonus (referral_bonus), so a person who had joined with a
-- code read "Referral Bonus $1.00" as if they had referred someone. The welcome bonus is said on
-- Home's invitation card instead.
CREATE OR REPLACE FUNCTION public.get_user_summary(p_user_id text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_result jsonb;
begin
  select jsonb_build_object(
           'id', p.id,
           'email', p.email,
           'email_verified', p.email_verified,
           'display_name', p.display_name,
           'username', p.username,
           'referral_code', p.referral_code,
           'preferences', p.preferences,
           'created_at', p.created_at,
           -- An operator paused this account's cash-outs (docs/decisions/068).
           'payouts_paused', p.payouts_paused_at is not null,
           'balance', coalesce(b.balance, 0),
           'total_earned', coalesce(b.total_earned, 0),
           'referral_earned', coalesce((select sum(amount) from transaction_history t
                                         where t.user_id = p.id
                                           and t.transaction_type = 'referral'), 0))
    into v_result
    from user_profiles p
    left join user_balance b on b.user_id = p.id
   where p.id = p_user_id;
  -- Available, pending and locked bonus, from the balance row and the pending part of the index.
  return v_result || coalesce(money_available(p_user_id), '{}'::jsonb);
end
$function$;

-- The sum reads only the person's referral rewards: the partial index holds just those, so the
-- sum is still read from the index alone.
drop index public.transaction_history_referral_credits_idx;
create index transaction_history_referral_credits_idx on public.transaction_history (user_id) include (amount)
  where transaction_type = 'referral';
