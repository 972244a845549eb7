-- Redefines: public.take_user_notices
--
-- The root's notice claim runs on every page a signed-in person opens (issue 35). It was
-- `language sql` with its own search_path, which Postgres 15 (and PGlite) plans again on every call:
-- the update, its locking subquery and the aggregate. As plpgsql its one statement's plan is kept
-- for the connection's life (as money_available's and checkin_streak's since
-- 20261206000000_home_reads_keep_their_plans.sql). Same argument, same answer, same locks.

create or replace function public.take_user_notices(p_user_id text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_taken jsonb;
begin
  with taken as (
    update user_notices set shown_at = now()
     where id in (select id from user_notices
                   where user_id = p_user_id and shown_at is null
                   order by id
                   limit 5
                   for update skip locked)
    returning id, kind, data, created_at)
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'kind', kind, 'data', data, 'created_at', created_at)
                            order by id), '[]')
    into v_taken
    from taken;
  return v_taken;
end
$$;
