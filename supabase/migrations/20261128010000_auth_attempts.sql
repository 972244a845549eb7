-- Sign-in limits that cannot be turned against the account's owner (README, "Rate limits"):
--   * a hit that can be given back: only failed password checks are meant to count, yet the count
--     must be taken before Firebase is asked, or a burst of parallel guesses would all slip past
--     a check made before any of them failed. So each check takes a hit (take_rate_limit, which
--     also says which window it went to) and a right password gives it back (refund_rate_limit);
--   * a pace: at most one attempt per key every so many seconds (pace_attempt), which slows an
--     e-mail address under attack down instead of closing it, and keeps password-reset mails to
--     one per address per quarter hour;
--   * whether an e-mail address or a user id has a profile here, so that attempts for made-up
--     addresses are kept apart from the real users' budget, and a first sign-in counts as a sign-up.
--
-- Redefines: public.prune_rate_limits

-- hit_rate_limit, and the start of the window the hit went to (to give it back), when allowed.
create function public.take_rate_limit(p_key text, p_limit integer, p_window_seconds integer,
                                       p_sliding boolean default false,
                                       p_now timestamptz default now())
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_result jsonb := hit_rate_limit(p_key, p_limit, p_window_seconds, p_sliding, p_now);
begin
  if not (v_result ->> 'allowed')::boolean then
    return v_result;
  end if;
  -- The same window start as hit_rate_limit computes from the same p_now.
  return v_result || jsonb_build_object('window_start', to_timestamp(
    (div(extract(epoch from p_now), p_window_seconds::numeric) * p_window_seconds)::double precision));
end
$$;

-- Gives back one hit taken by take_rate_limit in the window starting at p_window_start (a
-- window already gone is left alone). Answers { refunded }.
create function public.refund_rate_limit(p_key text, p_window_start timestamptz) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_hits integer;
begin
  if p_key is null or p_window_start is null then
    raise exception 'Rate limit key and window are required'
      using errcode = 'P0001', hint = 'invalid_rate_limit';
  end if;
  select hits into v_hits from rate_limit_windows
   where key = p_key and window_start = p_window_start
     for update;
  if v_hits is null then
    return jsonb_build_object('refunded', false);
  elsif v_hits > 1 then
    update rate_limit_windows set hits = hits - 1 where key = p_key and window_start = p_window_start;
  else
    delete from rate_limit_windows where key = p_key and window_start = p_window_start;
  end if;
  return jsonb_build_object('refunded', true);
end
$$;

create table public.rate_limit_paces (
  key text primary key check (char_length(key) between 1 and 200),
  -- The earliest time the next attempt of this key is let through.
  next_at timestamptz not null
);
create index rate_limit_paces_next_at_idx on public.rate_limit_paces (next_at);

-- Lets one attempt of p_key through if none went through in the last p_spacing_seconds, and
-- answers { allowed, retry_after_seconds (0 when allowed; otherwise the whole seconds until the
-- next one may go) }. A refused attempt does not push the next one back.
create function public.pace_attempt(p_key text, p_spacing_seconds integer, p_now timestamptz default now())
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_next timestamptz;
begin
  if p_key is null or btrim(p_key) = '' or char_length(p_key) > 200 then
    raise exception 'Rate limit key must be 1 to 200 characters'
      using errcode = 'P0001', hint = 'invalid_rate_limit';
  end if;
  if p_spacing_seconds is null or p_spacing_seconds < 1 or p_now is null then
    raise exception 'A pace needs a spacing of at least one second and a time'
      using errcode = 'P0001', hint = 'invalid_rate_limit';
  end if;

  -- Racing attempts of one key queue on the row; the WHERE sees the latest committed next_at.
  insert into rate_limit_paces as r (key, next_at)
  values (p_key, p_now + make_interval(secs => p_spacing_seconds))
  on conflict (key) do update set next_at = excluded.next_at where r.next_at <= p_now
  returning r.next_at into v_next;

  -- A few rows whose time has passed (an absent row lets the next attempt through just the same).
  delete from rate_limit_paces
   where key in (select key from rate_limit_paces
                  where next_at <= p_now and key <> p_key
                  order by next_at
                  limit 10
                  for update skip locked);

  if v_next is not null then
    return jsonb_build_object('allowed', true, 'retry_after_seconds', 0);
  end if;
  select next_at into v_next from rate_limit_paces where key = p_key;
  return jsonb_build_object(
    'allowed', false,
    'retry_after_seconds', greatest(1, ceil(extract(epoch from (v_next - p_now))))::integer);
end
$$;

-- prune_rate_limits sweeps the paces too.
create or replace function public.prune_rate_limits(p_now timestamptz default now()) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_windows integer;
  v_paces integer;
begin
  delete from rate_limit_windows where expires_at <= coalesce(p_now, now());
  get diagnostics v_windows = row_count;
  delete from rate_limit_paces where next_at <= coalesce(p_now, now());
  get diagnostics v_paces = row_count;
  return jsonb_build_object('deleted', v_windows + v_paces);
end
$$;

-- Firebase keeps e-mail addresses in lower case and compares them so; the profile keeps Firebase's.
create index user_profiles_email_lower_idx on public.user_profiles (lower(email));

-- Whether some profile here has this e-mail address (any case).
create function public.email_has_profile(p_email text) returns boolean
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  return exists (select from user_profiles where lower(email) = lower(btrim(p_email)));
end
$$;

-- Whether the user (a Firebase uid) has a profile here, i.e. has signed in before.
create function public.profile_exists(p_user_id text) returns boolean
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  return exists (select from user_profiles where id = p_user_id);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Access: as for the other rate-limit objects, service_role only.
alter table public.rate_limit_paces enable row level security;
revoke all on public.rate_limit_paces from public, anon, authenticated;
grant all on public.rate_limit_paces to service_role;

revoke all on function public.take_rate_limit(text, integer, integer, boolean, timestamptz)
  from public, anon, authenticated;
revoke all on function public.refund_rate_limit(text, timestamptz) from public, anon, authenticated;
revoke all on function public.pace_attempt(text, integer, timestamptz) from public, anon, authenticated;
revoke all on function public.email_has_profile(text) from public, anon, authenticated;
revoke all on function public.profile_exists(text) from public, anon, authenticated;
grant execute on function public.take_rate_limit(text, integer, integer, boolean, timestamptz) to service_role;
grant execute on function public.refund_rate_limit(text, timestamptz) to service_role;
grant execute on function public.pace_attempt(text, integer, timestamptz) to service_role;
grant execute on function public.email_has_profile(text) to service_role;
grant execute on function public.profile_exists(text) to service_role;
