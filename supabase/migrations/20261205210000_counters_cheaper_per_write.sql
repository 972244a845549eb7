-- Redefines: public.dashboard_ledger_counts, public.dashboard_balance_counts, public.dashboard_activity_counts
-- Redefines: public.coins_to_dollars
--
-- Issue 35: the work a postback does beside its money, cut; what it counts and when is unchanged.
-- A postback's counters cost about 0.15 ms of Postgres CPU of its 0.75 (one connection, the bench's
-- mix), most of it in the layers, not the counting: each of the three triggers called
-- dashboard_add, a PL/pgSQL function whose arrays were unnested and grouped for one or two rows, and
-- the ledger's trigger called dashboard_mark_active for every row, which tried an upsert of
-- user_activity even on a day already marked.
-- - The ledger's and the balance's triggers write their one or two counter rows themselves, each
--   in one statement, as dashboard_add would (the same rows, the same writer, no row of all zeros).
-- - The ledger's trigger marks the person active only when their user_activity row does not
--   already say so for that day: after the first, a day's ledger rows read the row and write
--   nothing, as the upsert's own condition would have decided. The days only move forward, so what
--   the look sees committed is never undone before this row commits.
-- - user_activity's trigger writes its counter rows itself (netted by day as dashboard_add did).
-- - coins_to_dollars in PL/pgSQL: as an SQL function that reads a table (not inlinable), it was
--   parsed and planned again in every transaction that called it; PL/pgSQL keeps its plan for the
--   connection. The same arithmetic, the same single row of app_config.

create or replace function public.dashboard_ledger_counts()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_day date;
  v_earning boolean;
begin
  if tg_op = 'INSERT' then
    -- Withdrawals are counted from the withdrawals table, by their stage and when they settled.
    insert into dashboard_counts as c (metric, bucket, writer, n, coins, amount)
    select d.metric, d.bucket, pg_backend_pid(), d.n, d.coins, d.amount
      from (values ('ledger:' || new.transaction_type, dashboard_day(new.created_at), 1::bigint,
                    coalesce(new.coins, 0)::bigint, new.amount::numeric),
                   ('held', dashboard_hour(new.available_at), 0, 0, new.amount)) as d(metric, bucket, n, coins, amount)
     where case when d.metric = 'held' then new.kind = 'earned' and new.user_id is not null and new.amount <> 0
                else new.transaction_type <> 'withdrawal' end
    on conflict (metric, bucket, writer) do update
      set n = c.n + excluded.n, coins = c.coins + excluded.coins, amount = c.amount + excluded.amount;
    -- What the person did themselves: not a referral credit (their friend's doing), a bonus an
    -- operator gave, or a reversal (the network's).
    if new.user_id is not null and new.transaction_type in ('checkin', 'task', 'postback', 'withdrawal') then
      v_day := (new.created_at at time zone 'UTC')::date;
      v_earning := new.transaction_type <> 'withdrawal' and new.amount > 0;
      -- A day already marked (most of a person's rows are): read, nothing written.
      if not exists (select from user_activity a
                      where a.user_id = new.user_id and a.active_on >= v_day
                        and (not v_earning or a.earned_on >= v_day)) then
        perform dashboard_mark_active(new.user_id, new.created_at, v_earning);
      end if;
    end if;
  elsif old.kind = 'earned' and old.user_id is not null and new.user_id is null then
    -- The account was deleted: nothing of its money is owed any more, held or not.
    perform dashboard_add(array['held'], array[dashboard_hour(old.available_at)], array[0], array[0],
                          array[-old.amount]);
  end if;
  return null;
end
$function$;

create or replace function public.dashboard_balance_counts()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_old numeric := case when tg_op <> 'INSERT' then old.balance end;
  v_new numeric := case when tg_op <> 'DELETE' then new.balance end;
begin
  insert into dashboard_counts as c (metric, bucket, writer, n, coins, amount)
  select d.metric, '-infinity', pg_backend_pid(), d.n, 0, d.amount
    from (values ('balances', (v_new is not null)::integer - (v_old is not null)::integer,
                  coalesce(v_new, 0) - coalesce(v_old, 0)),
                 ('negative_balances', coalesce((v_new < 0)::integer, 0) - coalesce((v_old < 0)::integer, 0),
                  least(coalesce(v_new, 0), 0) - least(coalesce(v_old, 0), 0))) as d(metric, n, amount)
   where d.n <> 0 or d.amount <> 0
  on conflict (metric, bucket, writer) do update
    set n = c.n + excluded.n, amount = c.amount + excluded.amount;
  return null;
end
$function$;

create or replace function public.dashboard_activity_counts()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_old_active date := case when tg_op <> 'INSERT' then old.active_on end;
  v_new_active date := case when tg_op <> 'DELETE' then new.active_on end;
  v_old_earned date := case when tg_op <> 'INSERT' then old.earned_on end;
  v_new_earned date := case when tg_op <> 'DELETE' then new.earned_on end;
begin
  -- Grouped: a day that is both the old and the new one nets to nothing and writes no row.
  insert into dashboard_counts as c (metric, bucket, writer, n, coins, amount)
  select d.metric, d.day::timestamp at time zone 'UTC', pg_backend_pid(), sum(d.n), 0, 0
    from (values ('active_last', v_old_active, -1), ('active_last', v_new_active, 1),
                 ('earning_last', v_old_earned, -1), ('earning_last', v_new_earned, 1)) as d(metric, day, n)
   where d.day is not null
   group by d.metric, d.day
  having sum(d.n) <> 0
  on conflict (metric, bucket, writer) do update set n = c.n + excluded.n;
  return null;
end
$function$;

create or replace function public.coins_to_dollars(p_coins integer)
 RETURNS numeric
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
begin
  return (select sign(p_coins) * floor(abs(p_coins) * 100.0 / c.coins_per_dollar) / 100 from app_config c);
end
$function$;
