-- Issue 18, item 2: what a referral promises, where the person can see it. Home shows a person
-- who joined with a code what they and their friend get and the steps left, and a referrer
-- what is still pending. One read, beside Home's others.
create or replace function public.get_referral_status(p_user_id text)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_config app_config;
  v_invite referrals;
  v_invited jsonb;
  v_verified boolean;
  v_progress numeric;
begin
  select * into v_config from app_config;
  select * into v_invite from referrals where referred_user_id = p_user_id;
  if found then
    select email_verified into v_verified from user_profiles where id = p_user_id;
    -- What counts toward the friend's part: the same measure referral_qualifies uses.
    if v_config.referral_requires_earned then
      select coalesce(b.earned_total, 0) - coalesce((money_available(p_user_id) ->> 'pending')::numeric, 0)
        into v_progress
        from user_profiles p left join user_balance b on b.user_id = p.id
       where p.id = p_user_id;
    else
      select coalesce(sum(coins), 0) into v_progress
        from transaction_history
       where user_id = p_user_id
         and transaction_type in ('checkin', 'task', 'bonus', 'postback', 'postback_reversal');
    end if;
    v_invited := jsonb_build_object(
      'credited', v_invite.credited_at is not null,
      'you_get', coalesce(v_invite.referred_amount, v_config.referral_welcome_bonus),
      'friend_gets', coalesce(v_invite.referrer_amount, v_config.referral_reward),
      'email_verified', coalesce(v_verified, false),
      'requires_earned', v_config.referral_requires_earned,
      -- Dollars of cleared offer earnings (strict settings), else coins of any kind.
      'progress', greatest(coalesce(v_progress, 0), 0),
      'target', case when v_config.referral_requires_earned
                     then coins_to_dollars(v_config.referral_qualifying_coins)
                     else v_config.referral_qualifying_coins end);
  end if;
  return jsonb_build_object(
    'pending_count', (select count(*) from referrals
                       where referrer_user_id = p_user_id and credited_at is null),
    'pending_amount', (select count(*) from referrals
                        where referrer_user_id = p_user_id and credited_at is null) * v_config.referral_reward,
    'invited', v_invited);
end
$function$;

revoke all on function public.get_referral_status(text) from public, anon, authenticated;
grant execute on function public.get_referral_status(text) to service_role;
