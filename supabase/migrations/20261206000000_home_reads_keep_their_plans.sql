-- Redefines: public.money_available, public.checkin_streak
--
-- Home's reads, cheaper per call; same arguments and answers (issue 35).
-- - money_available read app_config's bonus_unlock_ratio as a scalar subquery in a CTE column that
--   later expressions use ten times: Postgres inlines the CTE and copies the subquery into each
--   use, so every call scanned app_config ten times (ten InitPlans; on PGlite each scan is also a
--   file-size call). The ratio is now read once into a variable.
-- - Both were `language sql` with their own search_path, which Postgres 15 plans again on every
--   call (money_available's plan touches ten relations). As plpgsql each statement's plan is kept
--   for the connection's life. On Postgres 15, Home's batch of reads went from about 0.81 to
--   0.30 ms of CPU (server and client) a view.

create or replace function public.money_available(p_user_id text)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_ratio app_config.bonus_unlock_ratio%type := (select bonus_unlock_ratio from app_config);
begin
  return (
    with b as (
      select balance, total_earned, earned_total, carried_debt from user_balance where user_id = p_user_id
    ), p as (
      -- A credit reversed in its hold nets to nothing at its clearing time: that time is not next.
      select coalesce(sum(amount), 0) as pending, min(available_at) as next_clear_at
        from (select available_at, sum(amount) as amount
                from transaction_history
               where user_id = p_user_id and kind = 'earned' and available_at > now()
               group by available_at
              having sum(amount) > 0) due
    ), parts as (
      select b.balance, b.carried_debt, p.pending, p.next_clear_at,
             b.earned_total - p.pending as cleared,
             b.total_earned - b.earned_total as bonus,
             b.total_earned - b.balance as withdrawn,
             v_ratio as ratio
        from b cross join p
    ), unlocked as (
      select parts.*,
             case when ratio is null then bonus
                  else least(bonus, floor(ratio * greatest(cleared, 0) * 100) / 100) end as bonus_unlocked
        from parts
    )
    select jsonb_build_object(
             -- Net of a debt carried from an earlier account, until offer earnings have paid it.
             'available', greatest(0, least(balance, cleared + bonus_unlocked - withdrawn) - carried_debt),
             'carried_debt', carried_debt,
             'pending', pending,
             'next_clear_at', next_clear_at,
             'bonus_locked', bonus - bonus_unlocked,
             -- More cleared earned money that would unlock all of it (none: it never unlocks).
             'earned_to_unlock', case when bonus - bonus_unlocked <= 0 then 0
                                      when ratio > 0 then ceil((bonus - bonus_unlocked) / ratio * 100) / 100
                                           + greatest(-cleared, 0) end)
      from unlocked);
end
$$;

create or replace function public.checkin_streak(p_user_id text, p_day date)
  returns integer
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  return (
    select count(*)::integer
      from (select check_date + (row_number() over (order by check_date desc))::integer as run_end
              from daily_checkins
             where user_id = p_user_id and check_date <= p_day) d
     where run_end = p_day + 1);
end
$$;
