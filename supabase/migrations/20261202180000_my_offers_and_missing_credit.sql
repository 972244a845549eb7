-- Issue 19, item 4: the person's side of offer walls (docs/offer-walls.md, "My offers").
--
-- - get_offer_credits(person): each offer credit of theirs, newest first, with the network, the
--   offer's name (as the network sent it, else the task's title for the offer provider's), the
--   coins, when it was credited, until when it is held, and when it was reversed (if it was).
-- - missing_credit_reports: "I did an offer and got nothing", per network, for the operator's
--   support inbox (status open, answered or closed). report_missing_credit(...) checks it and
--   allows 5 open reports a person; get_missing_credit_reports(person) lists theirs, and
--   list_missing_credit_reports(open only, limit) everyone's, oldest open first, for the operator
--   (`npm run walls -- reports`, and the console to come).

create function public.get_offer_credits(p_user_id text, p_limit integer default 100)
 returns jsonb
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select coalesce(jsonb_agg(jsonb_build_object(
           'network', c.provider,
           'transaction_id', c.transaction_id,
           'offer_name', coalesce(c.offer_name,
                                  (select s.title from completed_tasks t
                                     join task_starts s on s.user_id = t.user_id and s.task_id = t.task_id
                                    where t.user_id = c.user_id and t.provider = c.provider
                                      and t.transaction_id = c.transaction_id)),
           'coins', c.coins,
           'credited_at', c.created_at,
           'available_at', c.available_at,
           'reversed_at', r.created_at)
         order by c.created_at desc, c.id desc), '[]')
    from (select * from provider_postbacks
           where user_id = p_user_id and kind = 'credit'
           order by created_at desc, id desc
           limit least(greatest(coalesce(p_limit, 100), 1), 500)) c
    left join provider_postbacks r
      on r.provider = c.provider and r.transaction_id = c.transaction_id and r.kind = 'reversal'
$function$;

create table public.missing_credit_reports (
  id bigint generated always as identity primary key,
  user_id text references public.user_profiles (id) on delete cascade,
  network text not null check (char_length(network) between 1 and 100),
  offer_name text not null check (char_length(offer_name) between 1 and 200),
  completed_on date not null,
  details text not null check (char_length(details) between 1 and 2000),
  status text not null default 'open' check (status in ('open', 'answered', 'closed')),
  created_at timestamptz not null default now()
);
create index missing_credit_reports_user_idx on public.missing_credit_reports (user_id, created_at desc);
create index missing_credit_reports_open_idx on public.missing_credit_reports (created_at) where status = 'open';
alter table public.missing_credit_reports enable row level security;

create function public.report_missing_credit(p_user_id text, p_network text, p_offer_name text, p_completed_on date,
                                             p_details text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_offer text := btrim(coalesce(p_offer_name, ''), E' \t\n\r\f\x0B');
  v_details text := btrim(coalesce(p_details, ''), E' \t\n\r\f\x0B');
  v_id bigint;
begin
  if v_offer = '' or v_details = '' or p_completed_on is null or coalesce(p_network, '') = '' then
    raise exception 'Please fill out all fields' using errcode = 'P0001', hint = 'missing_credit_fields_required';
  end if;
  if char_length(v_offer) > 200 or char_length(v_details) > 2000 then
    raise exception 'Report too long' using errcode = 'P0001', hint = 'missing_credit_too_long';
  end if;
  -- Networks look into the last few weeks only; a date ahead of today is a mistake.
  if p_completed_on > current_date or p_completed_on < current_date - 90 then
    raise exception 'Date out of range' using errcode = 'P0001', hint = 'missing_credit_date_out_of_range';
  end if;
  if not exists (select from user_profiles where id = p_user_id) then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- One at a time per person, so the count below sees the one before.
  perform pg_advisory_xact_lock(hashtext('missing_credit_reports'), hashtext(p_user_id));
  if (select count(*) from missing_credit_reports where user_id = p_user_id and status = 'open') >= 5 then
    raise exception 'Too many open reports' using errcode = 'P0001', hint = 'too_many_missing_credit_reports';
  end if;
  insert into missing_credit_reports (user_id, network, offer_name, completed_on, details)
  values (p_user_id, p_network, v_offer, p_completed_on, v_details)
  returning id into v_id;
  return jsonb_build_object('id', v_id);
end
$function$;

create function public.get_missing_credit_reports(p_user_id text)
 returns jsonb
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'network', network, 'offer_name', offer_name,
                                               'completed_on', completed_on, 'status', status,
                                               'created_at', created_at)
                            order by created_at desc, id desc), '[]')
    from (select * from missing_credit_reports where user_id = p_user_id
           order by created_at desc, id desc limit 50) r
$function$;

create function public.list_missing_credit_reports(p_open_only boolean, p_limit integer)
 returns jsonb
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'created_at', r.created_at, 'network', r.network,
                                               'offer_name', r.offer_name, 'completed_on', r.completed_on,
                                               'details', r.details, 'status', r.status, 'user_id', r.user_id,
                                               'email', p.email)
                            order by r.created_at, r.id), '[]')
    from (select * from missing_credit_reports
           where not coalesce(p_open_only, true) or status = 'open'
           order by created_at, id
           limit least(greatest(coalesce(p_limit, 50), 1), 1000)) r
    left join user_profiles p on p.id = r.user_id
$function$;

revoke all on function public.get_offer_credits(text, integer) from public, anon, authenticated;
grant execute on function public.get_offer_credits(text, integer) to service_role;
revoke all on function public.report_missing_credit(text, text, text, date, text) from public, anon, authenticated;
grant execute on function public.report_missing_credit(text, text, text, date, text) to service_role;
revoke all on function public.get_missing_credit_reports(text) from public, anon, authenticated;
grant execute on function public.get_missing_credit_reports(text) to service_role;
revoke all on function public.list_missing_credit_reports(boolean, integer) from public, anon, authenticated;
grant execute on function public.list_missing_credit_reports(boolean, integer) to service_role;
