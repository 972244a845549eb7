-- The signed-in person's own place on this month's leaderboard, also when it is below the top 50
-- (issue 18, item 8; docs/decisions/075-the-leaderboard-says-what-shows.md).
--
-- - get_leaderboard_position(user, within) is the person's rank, shown name and earnings this month
--   by the rules of get_leaderboard (amount above $0.00, ties by user id), or null when they
--   earned nothing this month. The rank is exact up to `within` (at most 10,000) and null beyond it
--   ("outside the top 1,000"): a rank is a count of the people ahead, and a B-tree cannot count
--   without reading each entry, so an exact rank at the bottom of a million earners read a million
--   index entries (about 50 ms, docs/benchmarks.md). Counting stops at `within` entries of
--   monthly_earnings_rank_idx read in its order (an index-only scan), whatever the month holds.

create function public.get_leaderboard_position(p_user_id text, p_within integer) returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select jsonb_build_object(
           'rank', case when ahead.n < bound.n then ahead.n + 1 end,
           'username', 'User' || left(mine.user_id, 4),
           'total_earned', mine.amount)
    from monthly_earnings mine
   cross join (select least(greatest(p_within, 1), 10000) as n) bound
   cross join lateral (
     select count(*) as n
       from (select 1
               from monthly_earnings ahead
              where ahead.month = mine.month
                and ahead.amount > 0
                and ahead.amount >= mine.amount
                and (ahead.amount > mine.amount or ahead.user_id < mine.user_id)
              order by ahead.amount desc, ahead.user_id
              limit bound.n) first_ahead) ahead
   where mine.user_id = p_user_id and mine.month = current_month() and mine.amount > 0
$$;

revoke all on function public.get_leaderboard_position(text, integer) from public, anon, authenticated;
grant execute on function public.get_leaderboard_position(text, integer) to service_role;
