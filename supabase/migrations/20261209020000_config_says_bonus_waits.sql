-- Redefines: public.get_app_config
--
-- Whether bonus money (check-ins, the app's own tasks, referral bonuses) waits for cleared offer
-- earnings before it can be withdrawn (bonus_unlock_ratio set: production; null: demo), so Earn can
-- say so beside the tasks that pay it (issue 36, point 10).
CREATE OR REPLACE FUNCTION public.get_app_config()
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select jsonb_build_object(
           'coins_per_dollar', coins_per_dollar,
           'checkin_coins', checkin_coins,
           'min_withdrawal', jsonb_build_object('paypal', min_withdrawal_paypal,
                                                'upi', min_withdrawal_upi,
                                                'bank', min_withdrawal_bank),
           'referral', jsonb_build_object('reward', referral_reward,
                                          'welcome_bonus', referral_welcome_bonus,
                                          'qualifying_coins', referral_qualifying_coins,
                                          'requires_earned', referral_requires_earned),
           'bonus_locked_until_earned', bonus_unlock_ratio is not null)
    from app_config
$function$;
