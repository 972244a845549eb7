-- Redefines: public.try_referral_credit, public.apply_demo_settings, public.get_app_config
--
-- The referrer's bonus on the friend's cleared earned money (issue 17, part 2;
-- docs/decisions/067-referral-on-cleared-earnings.md).
--
-- - app_config.referral_requires_earned (default true): a referral qualifies when the friend's own
--   cleared earned money (earned_total minus what is still pending, reversals netted) reaches
--   referral_qualifying_coins in dollars ($1.00 at 100 coins per dollar). false (the demo
--   settings): today's rule, referral_qualifying_coins of the friend's own of any kind.
-- - referral_qualifies(friend) is that rule, in one place, for try_referral_credit and for
--   credit_cleared_referrals.
-- - Money clears with time and nothing runs at that moment, so credit_cleared_referrals(limit,
--   user) credits the uncredited referrals whose friend now qualifies: every one (the server's
--   interval worker) or one account's, as referrer or friend (the screens that show referral
--   money). It never waits on a lock while holding another candidate's (SKIP LOCKED): a candidate
--   someone else holds is theirs to credit, or the next run's; try_referral_credit credits once.
--
-- The redefined functions are the texts in supabase/schema/functions/ with only those changes.

alter table public.app_config
  add column referral_requires_earned boolean not null default true;

-- The uncredited referrals (the only candidates), by referrer; a friend's is found by
-- referrals_referred_user_id_key.
create index referrals_uncredited_idx on public.referrals (referrer_user_id, id) where credited_at is null;

-- Whether a friend qualifies their referral now: a verified email and, on strict settings, cleared
-- earned money of referral_qualifying_coins in dollars; on the demo settings, that many coins of
-- their own of any kind. Reads the balance row and, on strict settings, the pending earned rows.
create function public.referral_qualifies(p_user_id text)
  returns boolean
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(
           (select email_verified from user_profiles where id = p_user_id)
           and case when c.referral_requires_earned then
                  -- Pending money is read only when the earned total could reach the threshold.
                  b.earned_total >= coins_to_dollars(c.referral_qualifying_coins)
                  and b.earned_total - (money_available(p_user_id) ->> 'pending')::numeric
                      >= coins_to_dollars(c.referral_qualifying_coins)
                else
                  (select coalesce(sum(coins), 0) from transaction_history
                    where user_id = p_user_id
                      and transaction_type in ('checkin', 'task', 'bonus', 'postback', 'postback_reversal'))
                  >= c.referral_qualifying_coins
                end,
           false)
    from app_config c
    left join user_balance b on b.user_id = p_user_id
$$;

CREATE OR REPLACE FUNCTION public.try_referral_credit(p_user_id text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_config app_config;
  v_referral referrals;
  v_own_coins bigint;
  v_identity text;
begin
  perform from user_profiles where id = p_user_id for key share;
  perform from user_balance where user_id = p_user_id for update;
  select * into v_referral from referrals
   where referred_user_id = p_user_id and credited_at is null
   for update;
  if not found or not (select email_verified from user_profiles where id = p_user_id) then
    return jsonb_build_object('credited', false);
  end if;
  select * into v_config from app_config;
  if not referral_qualifies(p_user_id) then
    if v_config.referral_requires_earned then
      return jsonb_build_object('credited', false, 'requires_earned', true);
    end if;
    select coalesce(sum(coins), 0) into v_own_coins
      from transaction_history
     where user_id = p_user_id
       and transaction_type in ('checkin', 'task', 'bonus', 'postback', 'postback_reversal');
    return jsonb_build_object('credited', false, 'own_coins', v_own_coins);
  end if;

  -- The friend's welcome bonus and the referrer's bonus for this friend are paid once per
  -- identity, ever (provision_user already refers an identity once only: this holds even so).
  select identity_hash into v_identity from user_profiles where id = p_user_id;
  if v_identity is not null then
    insert into identity_rewards (identity_hash, reward, user_id) values (v_identity, 'referral_credit', p_user_id)
    on conflict do nothing;
    if not found then
      update referrals set credited_at = now(), referrer_amount = 0, referred_amount = 0 where id = v_referral.id;
      return jsonb_build_object('credited', false, 'already_rewarded', true);
    end if;
  end if;

  update referrals
     set credited_at = now(),
         referrer_amount = v_config.referral_reward,
         referred_amount = v_config.referral_welcome_bonus
   where id = v_referral.id;
  -- The friend chose their name, so it is not in the referrer's ledger row or notice.
  if v_config.referral_reward > 0 then
    perform ledger_move(v_referral.referrer_user_id, 'referral', null, v_config.referral_reward,
                        'Referral bonus: a friend joined');
    insert into user_notices (user_id, kind, data)
    values (v_referral.referrer_user_id, 'referral_credited',
            jsonb_build_object('amount', v_config.referral_reward));
  end if;
  if v_config.referral_welcome_bonus > 0 then
    perform ledger_move(p_user_id, 'referral_bonus', null, v_config.referral_welcome_bonus,
                        'Welcome bonus for joining with a referral code');
    insert into user_notices (user_id, kind, data)
    values (p_user_id, 'welcome_bonus', jsonb_build_object('amount', v_config.referral_welcome_bonus));
  end if;
  return jsonb_build_object('credited', true, 'referrer_amount', v_config.referral_reward,
                            'referred_amount', v_config.referral_welcome_bonus);
end
$function$;

-- Credits, at most p_limit (1 to 1000) at a time, the uncredited referrals whose friend qualifies
-- now: all of them (p_user_id null), or those where p_user_id is the friend or the referrer.
-- Returns {"credited": n, "skipped": n} (skipped: held by someone else, left to them or the next run).
create function public.credit_cleared_referrals(p_limit integer, p_user_id text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_limit integer := least(greatest(coalesce(p_limit, 100), 1), 1000);
  v_candidate record;
  v_locked integer;
  v_credited integer := 0;
  v_skipped integer := 0;
begin
  for v_candidate in
    select c.id, c.referred_user_id, c.referrer_user_id
      from (select r.id, r.referred_user_id, r.referrer_user_id from referrals r
             where r.credited_at is null and p_user_id is null
            union all
            select r.id, r.referred_user_id, r.referrer_user_id from referrals r
             where r.credited_at is null and r.referred_user_id = p_user_id
            union all
            select r.id, r.referred_user_id, r.referrer_user_id from referrals r
             where r.credited_at is null and r.referrer_user_id = p_user_id) c
     where referral_qualifies(c.referred_user_id)
     order by c.id
     limit v_limit
  loop
    -- The lock order of the money functions (profiles key share, then balances for update), but
    -- never waiting: this transaction already holds earlier candidates' locks, and a postback on
    -- this friend (friend, then referrer) or a deletion would wait on those while holding these.
    select count(*) into v_locked from (
      select from user_profiles where id in (v_candidate.referred_user_id, v_candidate.referrer_user_id)
       for key share skip locked) p;
    if v_locked = 2 then
      select count(*) into v_locked from (
        select from user_balance where user_id in (v_candidate.referred_user_id, v_candidate.referrer_user_id)
         for update skip locked) b;
    end if;
    if v_locked < 2 then
      v_skipped := v_skipped + 1;
      continue;
    end if;
    -- Under these locks it checks again that the referral is uncredited and the friend qualifies.
    if (try_referral_credit(v_candidate.referred_user_id) ->> 'credited')::boolean then
      v_credited := v_credited + 1;
    end if;
  end loop;
  return jsonb_build_object('credited', v_credited, 'skipped', v_skipped);
end
$$;

CREATE OR REPLACE FUNCTION public.apply_demo_settings()
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  update app_config set postback_hold_days = 0, provider_hold_days = '{}', bonus_unlock_ratio = null,
                        referral_requires_earned = false;
$function$;

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
                                          'requires_earned', referral_requires_earned))
    from app_config
$function$;

revoke all on function public.referral_qualifies(text) from public, anon, authenticated;
revoke all on function public.credit_cleared_referrals(integer, text) from public, anon, authenticated;
grant execute on function public.credit_cleared_referrals(integer, text) to service_role;
