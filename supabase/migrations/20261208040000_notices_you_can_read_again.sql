-- Notices you can read again (issue 36): every notice a person received stays listed on /notices,
-- the header's bell counts those not yet read, and reading is kept on the server (`read_at`), so
-- it is the same on every device and without JavaScript. A toast still shows each once
-- (`shown_at`); reading is opening the list, not seeing a toast.
alter table public.user_notices add column read_at timestamptz;
-- Notices from before this were seen as toasts: they are not news.
update public.user_notices set read_at = coalesce(shown_at, created_at);

create index user_notices_unread_idx on public.user_notices (user_id) where read_at is null;
create index user_notices_user_newest_idx on public.user_notices (user_id, id desc);

-- How many of the person's notices are unread (the bell's count), at most 100 counted.
create function public.count_unread_notices(p_user_id text)
  returns integer
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  return (select count(*) from (select from user_notices where user_id = p_user_id and read_at is null limit 100) unread);
end
$$;
revoke all on function public.count_unread_notices(text) from public, anon, authenticated;
grant execute on function public.count_unread_notices(text) to service_role;

-- The person's newest notices (at most 50), each with whether it was unread, and marks them read:
-- the list is where they are read. What was new stays marked as new on the page that shows it.
create function public.read_notices(p_user_id text, p_limit integer default 50)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_list jsonb;
begin
  with newest as (
    select id, kind, data, created_at, read_at is null as unread
      from user_notices
     where user_id = p_user_id
     order by id desc
     limit least(greatest(coalesce(p_limit, 50), 1), 50)
  )
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'kind', kind, 'data', data, 'created_at', created_at,
                                               'unread', unread) order by id desc), '[]')
    into v_list
    from newest;
  -- Then all are read (older unread ones beyond the list too: the bell counts none it cannot show).
  update user_notices set read_at = now() where user_id = p_user_id and read_at is null;
  return v_list;
end
$$;
revoke all on function public.read_notices(text, integer) from public, anon, authenticated;
grant execute on function public.read_notices(text, integer) to service_role;
