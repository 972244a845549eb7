-- Issue 19, section 5: postback ingestion at 1,000 a second on one instance.
--
-- take_rate_limit_hits takes up to p_hits hits of a fixed-window limit at once, for an app
-- instance to hand out itself (app/server/http/rate-limit.server.ts, leasedRateLimit): a network's
-- postbacks then cost a call here once per lease, not each one a round trip and an update of the
-- same hot row. Shares the rows (and the windows) of hit_rate_limit, so both count against one
-- limit. It grants what is left when fewer than p_hits are (a single instance still lets exactly
-- p_limit through in a window); what an instance holds unused when the window ends is lost, so
-- other instances see at most that many fewer.
--
-- Answers { granted, window_ends_in_seconds (from the database's now, so the app's clock does not
-- matter), retry_after_seconds (0 when something was granted) }.
create function public.take_rate_limit_hits(p_key text, p_limit integer, p_window_seconds integer, p_hits integer)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_now_epoch numeric := extract(epoch from now());
  v_start_epoch numeric;
  v_start timestamptz;
  v_ends_in numeric;
  v_before integer;
  v_granted integer;
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
  if p_hits is null or p_hits < 1 then
    raise exception 'Take at least one hit'
      using errcode = 'P0001', hint = 'invalid_rate_limit';
  end if;

  -- The window as hit_rate_limit computes it (div() truncates exactly).
  v_start_epoch := div(v_now_epoch, p_window_seconds) * p_window_seconds;
  v_start := to_timestamp(v_start_epoch::double precision);
  v_ends_in := v_start_epoch + p_window_seconds - v_now_epoch;

  -- The window's row, locked until commit: takers of one key queue here and each sees the last count.
  select hits into v_before from rate_limit_windows where key = p_key and window_start = v_start for update;
  if not found then
    insert into rate_limit_windows (key, window_start, window_seconds, hits, expires_at)
    values (p_key, v_start, p_window_seconds, least(p_hits, p_limit), v_start + make_interval(secs => 2.0 * p_window_seconds))
    on conflict (key, window_start) do nothing;
    if found then
      v_granted := least(p_hits, p_limit);
    else
      -- Another taker made the row meanwhile.
      select hits into v_before from rate_limit_windows where key = p_key and window_start = v_start for update;
    end if;
  end if;
  if v_granted is null then
    v_granted := greatest(0, least(p_hits, p_limit - v_before));
    if v_granted > 0 then
      update rate_limit_windows set hits = hits + v_granted where key = p_key and window_start = v_start;
    end if;
  end if;

  -- Clean-up as hit_rate_limit does: this key's windows that no longer matter, and a few expired
  -- rows of any key (SKIP LOCKED: never wait for another key's hit).
  delete from rate_limit_windows
   where key = p_key and window_start < v_start - make_interval(secs => p_window_seconds);
  delete from rate_limit_windows
   where (key, window_start) in (select key, window_start from rate_limit_windows
                                  where expires_at <= now()
                                  order by expires_at
                                  limit 10
                                  for update skip locked);

  return jsonb_build_object(
    'granted', v_granted,
    'window_ends_in_seconds', v_ends_in,
    'retry_after_seconds', case when v_granted > 0 then 0 else greatest(1, ceil(v_ends_in))::integer end);
end
$function$;

revoke all on function public.take_rate_limit_hits(text, integer, integer, integer) from public, anon, authenticated;
grant execute on function public.take_rate_limit_hits(text, integer, integer, integer) to service_role;
