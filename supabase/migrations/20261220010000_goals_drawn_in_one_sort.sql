-- Redefines: public.goals_progress
--
-- The day's three goals were drawn in two sorts: the list ordered by its md5 key for row_number,
-- then ordered again by that row number (which the planner does not know is the same order). Now
-- the draw orders by the key itself, so one sort serves both. The same goals, in the same order.

create or replace function public.goals_progress(p_user_id text, p_day date)
 returns table(goal jsonb, n bigint, progress integer)
 language sql
 stable
as $function$
  select d.goal, d.n,
         case d.goal ->> 'kind'
           when 'checkin' then
             (select count(*)::integer from daily_checkins where user_id = p_user_id and check_date = p_day)
           -- Offer money that cleared its hold that day (a reversal in its hold nets it out).
           when 'earn_coins' then
             (select greatest(0, floor(coalesce(sum(t.amount), 0) * (select coins_per_dollar from app_config)))::integer
                from transaction_history t
               where t.user_id = p_user_id and t.kind = 'earned'
                 and t.available_at >= p_day::timestamp at time zone 'UTC'
                 and t.available_at < (p_day + 1)::timestamp at time zone 'UTC'
                 and t.available_at <= now())
           -- Offers credited that day and not reversed, on the goal's wall when it names one.
           when 'complete_offer' then
             (select count(*)::integer
                from provider_postbacks c
               where c.user_id = p_user_id and c.kind = 'credit'
                 and c.created_at >= p_day::timestamp at time zone 'UTC'
                 and c.created_at < (p_day + 1)::timestamp at time zone 'UTC'
                 and (d.goal ->> 'network' is null or c.provider = d.goal ->> 'network')
                 and not exists (select from provider_postbacks r
                                  where r.provider = c.provider and r.transaction_id = c.transaction_id
                                    and r.kind = 'reversal'))
           -- Friends who joined with the code that day and have verified their email.
           when 'refer_verified' then
             (select count(*)::integer
                from referrals r join user_profiles f on f.id = r.referred_user_id
               where r.referrer_user_id = p_user_id
                 and r.created_at >= p_day::timestamp at time zone 'UTC'
                 and r.created_at < (p_day + 1)::timestamp at time zone 'UTC'
                 and f.email_verified)
           else 0
         end
    -- The day's three goals: the operator's list in an order drawn from the day (the same for
    -- everyone that day, another the next).
    from (select g.value as goal,
                 row_number() over (order by md5(p_day::text || ':' || (g.value ->> 'id'))) as n
            from jsonb_array_elements((select daily_goals from app_config)) g
           -- The window's own order: one sort for the row numbers and the three taken.
           order by md5(p_day::text || ':' || (g.value ->> 'id'))
           limit 3) d
$function$;
