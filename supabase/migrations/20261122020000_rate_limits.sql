-- Rate limits: one limiter for the whole app, kept in the database so that every app instance
-- shares it. The server calls it through app/server/http/rate-limit.server.ts; nothing else
-- should count attempts on its own.
--
-- A key (e.g. 'withdrawal:<user id>') has windows of p_window_seconds aligned to the Unix epoch;
-- each row counts the allowed hits of one key in one window.
--   fixed window:   allowed while the current window holds fewer than p_limit hits.
--   sliding window: the usual approximation: the current window's hits plus the previous
--                   window's hits weighted by the share of the previous window that still lies
--                   within the last p_window_seconds. Allowed while that estimate, this hit
--                   included, is at most p_limit.
--
-- A refused hit is NOT counted: a client that keeps hammering a limit is let in again as soon as
-- its earlier, allowed hits age out, instead of extending its own ban with every refusal. The
-- limit therefore caps successful attempts, which is what it protects (withdrawals, sign-ins...).
--
-- Only the current and the previous window are ever read, so a row is useless once two windows
-- have passed (expires_at). Each hit deletes its own key's useless rows and a few expired rows of
-- any key; prune_rate_limits() sweeps them all (e.g. from a scheduled job).
--
-- Runs on PGlite, plain Postgres 15+ and Supabase: no extensions, nothing newer than Postgres 15.
-- Times are exact: epochs are numeric (microseconds), and limits are compared without division.

create table public.rate_limit_windows (
  key text not null check (char_length(key) between 1 and 200),
  window_start timestamptz not null,
  window_seconds integer not null check (window_seconds > 0),
  hits integer not null check (hits > 0),
  -- window_start + 2 windows: from then on the row is neither the current nor the previous window.
  expires_at timestamptz not null,
  primary key (key, window_start)
);
create index rate_limit_windows_expires_idx on public.rate_limit_windows (expires_at);

-- Records one hit for p_key if the limit allows it, atomically, and answers
--   { allowed, remaining (further hits allowed right now), retry_after_seconds (0 when allowed;
--     otherwise the whole seconds until one more hit would be allowed if nothing else happens) }.
-- p_now only exists so that tests can move the clock; the app never passes it.
create function public.hit_rate_limit(p_key text, p_limit integer, p_window_seconds integer,
                                      p_sliding boolean default false,
                                      p_now timestamptz default now())
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_w numeric := p_window_seconds;
  v_now_epoch numeric;
  v_start_epoch numeric;
  v_start timestamptz;
  v_elapsed numeric;
  v_prev_hits integer := 0;
  -- The previous window's weighted hits, times v_w (kept multiplied so that no division rounds).
  v_prev_weighted numeric := 0;
  v_hits integer;
  v_wait numeric;
begin
  if p_key is null or btrim(p_key) = '' or char_length(p_key) > 200 then
    raise exception 'Rate limit key must be 1 to 200 characters'
      using errcode = 'P0001', hint = 'invalid_rate_limit';
  end if;
  if p_limit is null or p_limit < 1 then
    raise exception 'Rate limit must allow at least one hit'
      using errcode = 'P0001', hint = 'invalid_rate_limit';
  end if;
  if p_window_seconds is null or p_window_seconds < 1 then
    raise exception 'Rate limit window must be at least one second'
      using errcode = 'P0001', hint = 'invalid_rate_limit';
  end if;
  if p_now is null then
    raise exception 'Rate limit time is required'
      using errcode = 'P0001', hint = 'invalid_rate_limit';
  end if;

  -- div() truncates exactly; a numeric "/" could round a time just before a boundary onto it.
  v_now_epoch := extract(epoch from p_now);
  v_start_epoch := div(v_now_epoch, v_w) * v_w;
  v_start := to_timestamp(v_start_epoch::double precision);
  v_elapsed := v_now_epoch - v_start_epoch;

  if coalesce(p_sliding, false) then
    -- The previous window is over, so its count no longer changes: no lock needed.
    select hits into v_prev_hits
      from rate_limit_windows
     where key = p_key and window_start = v_start - make_interval(secs => p_window_seconds);
    v_prev_hits := coalesce(v_prev_hits, 0);
    v_prev_weighted := v_prev_hits * (v_w - v_elapsed);
  end if;

  -- Count the hit only if it fits: (hits + 1) * W + previous weighted <= limit * W.
  -- Racing hits of one key queue on the row's lock; ON CONFLICT DO UPDATE evaluates its WHERE
  -- against the latest committed count, so exactly p_limit of them get through.
  if v_w + v_prev_weighted <= p_limit * v_w then
    insert into rate_limit_windows as r (key, window_start, window_seconds, hits, expires_at)
    values (p_key, v_start, p_window_seconds, 1, v_start + make_interval(secs => 2.0 * p_window_seconds))
    on conflict (key, window_start) do update
      set hits = r.hits + 1
      where (r.hits + 1.0) * v_w + v_prev_weighted <= p_limit * v_w
    returning r.hits into v_hits;
  end if;

  -- Clean-up, after the upsert so that racing hits of a key lock rows in the same order.
  delete from rate_limit_windows
   where key = p_key and window_start < v_start - make_interval(secs => p_window_seconds);
  -- A few expired rows of any key (keys such as e-mail addresses may never come back). SKIP
  -- LOCKED: never wait for, or deadlock with, another key's hit.
  delete from rate_limit_windows
   where (key, window_start) in (select key, window_start from rate_limit_windows
                                  where expires_at <= p_now
                                  order by expires_at
                                  limit 10
                                  for update skip locked);

  if v_hits is not null then
    return jsonb_build_object(
      'allowed', true,
      'remaining', div(p_limit * v_w - v_prev_weighted - v_hits * v_w, v_w)::integer,
      'retry_after_seconds', 0);
  end if;

  select hits into v_hits from rate_limit_windows where key = p_key and window_start = v_start;
  v_hits := coalesce(v_hits, 0);
  if not coalesce(p_sliding, false) then
    v_wait := v_w - v_elapsed;
  elsif v_hits < p_limit then
    -- This window has room; wait until the previous window's weight has fallen far enough:
    -- prev * (W - e) <= (limit - hits - 1) * W.
    v_wait := greatest(0, v_w - (p_limit - v_hits - 1) * v_w / nullif(v_prev_hits, 0) - v_elapsed);
  else
    -- This window is full; wait for the next one, and in it until this window's weight has
    -- fallen far enough: hits * (W - e) <= (limit - 1) * W.
    v_wait := v_w - v_elapsed + greatest(0, v_w - (p_limit - 1) * v_w / v_hits);
  end if;
  return jsonb_build_object(
    'allowed', false,
    'remaining', 0,
    'retry_after_seconds', greatest(1, ceil(coalesce(v_wait, 0)))::integer);
end
$$;

-- Deletes every row that no longer matters; answers { deleted }.
create function public.prune_rate_limits(p_now timestamptz default now()) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_deleted integer;
begin
  delete from rate_limit_windows where expires_at <= coalesce(p_now, now());
  get diagnostics v_deleted = row_count;
  return jsonb_build_object('deleted', v_deleted);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Access: row level security on, nothing for anon/authenticated, functions for service_role.
alter table public.rate_limit_windows enable row level security;
revoke all on public.rate_limit_windows from public, anon, authenticated;
grant all on public.rate_limit_windows to service_role;

revoke all on function public.hit_rate_limit(text, integer, integer, boolean, timestamptz)
  from public, anon, authenticated;
revoke all on function public.prune_rate_limits(timestamptz) from public, anon, authenticated;
grant execute on function public.hit_rate_limit(text, integer, integer, boolean, timestamptz) to service_role;
grant execute on function public.prune_rate_limits(timestamptz) to service_role;
