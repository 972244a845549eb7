-- Issue 18, item 2: what a referral promises, where the person can see it. Home shows a person
-- who joined with a code what they and their friend get and the steps left, and a referrer
-- what is still pending. One read, beside Home's others; `invited` is null for an account that
-- joined without a code, and once its invitation is paid.
create or replace function public.get_referral_status(p_user_id text)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
begin
  -- One statement (Home reads it on every view), in plpgsql so that its plan is kept between
  -- calls (an SQL function plans it again each time): what the person's friends still have to
  -- earn them, and, while their own invitation is unpaid, their steps.
  return (select jsonb_build_object(
    'pending_count', pending.n,
    'pending_amount', pending.n * c.referral_reward,
    'invited', (
      select jsonb_build_object(
        'you_get', c.referral_welcome_bonus,
        'friend_gets', c.referral_reward,
        'email_verified', coalesce(p.email_verified, false),
        'requires_earned', c.referral_requires_earned,
        -- What counts toward the friend's part: the measure referral_qualifies uses. Dollars
        -- of cleared offer earnings (strict settings), else coins of any kind.
        'progress', greatest(0, case
          when c.referral_requires_earned then
            coalesce(b.earned_total, 0) - coalesce((money_available(p_user_id) ->> 'pending')::numeric, 0)
          else
            (select coalesce(sum(t.coins), 0) from transaction_history t
              where t.user_id = p_user_id
                and t.transaction_type in ('checkin', 'task', 'bonus', 'postback', 'postback_reversal'))
          end),
        'target', case when c.referral_requires_earned
                       then coins_to_dollars(c.referral_qualifying_coins)
                       else c.referral_qualifying_coins end)
        from referrals r
        join user_profiles p on p.id = r.referred_user_id
        left join user_balance b on b.user_id = r.referred_user_id
       where r.referred_user_id = p_user_id and r.credited_at is null))
    from app_config c
   cross join lateral (select count(*) as n from referrals
                        where referrer_user_id = p_user_id and credited_at is null) pending);
end
$function$;

revoke all on function public.get_referral_status(text) from public, anon, authenticated;
grant execute on function public.get_referral_status(text) to service_role;
