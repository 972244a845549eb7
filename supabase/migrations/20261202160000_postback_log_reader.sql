-- Issue 19, item 3: reading the postback log (docs/offer-walls.md, "Reading the postback log").
--
-- - list_postback_log(network, refused only, person, limit): the newest entries first, each with
--   the person's email, for `npm run walls -- log` and the operator console to come.
-- - accounts_by_email(email): the accounts with that email address (any case), each with its wall
--   id, so an operator can name a person by email (`npm run walls -- log --user`, `simulate`).
--   Addresses are not unique in user_profiles, so every match comes back and the caller decides.

create function public.list_postback_log(p_network text, p_refused_only boolean, p_user_id text, p_limit integer)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    raise exception 'A limit is 1 to 1000 entries' using errcode = 'P0001', hint = 'invalid_log_limit';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', l.id, 'received_at', l.received_at, 'network', l.network,
             'client_address', l.client_address, 'method', l.method, 'query', l.query, 'body', l.body,
             'verdict', l.verdict, 'reason', l.reason, 'user_id', l.user_id, 'email', p.email,
             'transaction_id', l.transaction_id, 'coins', l.coins)
           order by l.received_at desc, l.id desc)
      from (select * from postback_log
             where (p_network is null or network = p_network)
               and (not coalesce(p_refused_only, false) or verdict = 'refused')
               and (p_user_id is null or user_id = p_user_id)
             order by received_at desc, id desc
             limit p_limit) l
      left join user_profiles p on p.id = l.user_id), '[]');
end
$$;

create function public.accounts_by_email(p_email text)
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object('user_id', id, 'email', email, 'wall_id', wall_id)
                            order by created_at, id), '[]')
    from user_profiles
   where lower(email) = lower(btrim(p_email))
$$;

revoke all on function public.list_postback_log(text, boolean, text, integer) from public, anon, authenticated;
grant execute on function public.list_postback_log(text, boolean, text, integer) to service_role;
revoke all on function public.accounts_by_email(text) from public, anon, authenticated;
grant execute on function public.accounts_by_email(text) to service_role;
