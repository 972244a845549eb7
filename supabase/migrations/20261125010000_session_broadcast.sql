-- Sessions end on every app instance at once (issue 9, item 8).
--
-- Each instance keeps a verified session cookie for a moment (SESSION_VERIFY_CACHE_MS) and holds
-- the live-refresh streams of open pages. `pg_notify('sessions_ended', user_id)` tells all of them
-- that a person's sessions ended, so they drop what they verified for that person and close the
-- person's streams:
--
-- 1. on commit of a deactivation (is_active turned false) or a deletion of the profile, whoever
--    makes it (set_account_active, delete_account, an operator's SQL);
-- 2. from the app through announce_sessions_ended(), once Firebase has revoked the sessions (log
--    out, deactivation) or deleted the account, so that a check made between the commit and
--    Firebase's change is not kept either.

create function public.notify_sessions_ended() returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  perform pg_notify('sessions_ended', old.id);
  return null;
end
$$;

create trigger user_profiles_deleted_end_sessions
  after delete on public.user_profiles
  for each row execute function public.notify_sessions_ended();

-- Compared as text: a preference is never cast here, so no stored value can make the update fail.
create trigger user_profiles_deactivated_end_sessions
  after update of preferences on public.user_profiles
  for each row
  when ((new.preferences ->> 'is_active') = 'false'
        and (old.preferences ->> 'is_active') is distinct from 'false')
  execute function public.notify_sessions_ended();

create function public.announce_sessions_ended(p_user_id text) returns void
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
begin
  if nullif(trim(p_user_id), '') is not null then
    perform pg_notify('sessions_ended', p_user_id);
  end if;
end
$$;

revoke all on function public.notify_sessions_ended() from public, anon, authenticated;
revoke all on function public.announce_sessions_ended(text) from public, anon, authenticated;
grant execute on function public.announce_sessions_ended(text) to service_role;
