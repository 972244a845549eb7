-- The live feed of recent cash-outs (issue 39, point 5; docs/decisions/098): on Home and Withdraw,
-- the last 24 hours' paid withdrawals and large offer credits, each as a masked name made from the
-- account's id (never a name, email or any other text a person chose), the method or "an offer",
-- the amount and when. A person can leave it in Settings.

alter table public.user_profiles add column in_cashout_feed boolean not null default true;

-- What the feed reads, newest first, without reading the big tables whole.
create index withdrawals_paid_settled_idx on public.withdrawals (settled_at desc) where status = 'completed';
create index transaction_history_large_credits_idx on public.transaction_history (created_at desc)
  where transaction_type = 'postback' and amount >= 5;

-- The feed: at most p_limit items of the last 24 hours, newest first. An account that left the feed,
-- or is deleted, or closed, is not in it.
create function public.cashout_feed(p_limit integer)
 returns jsonb
 language sql
 stable
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', item.id, 'kind', item.kind, 'name', 'User' || left(item.user_id, 2) || '**',
           'method', item.method, 'amount', item.amount, 'at', item.at) order by item.at desc, item.id desc), '[]')
    from (select items.*
            from (select * from (select 'w' || w.id as id, 'cashout' as kind, w.user_id, w.payment_method as method,
                                        w.amount, w.settled_at as at
                                   from withdrawals w
                                  where w.status = 'completed' and w.settled_at > now() - interval '24 hours'
                                  order by w.settled_at desc
                                  limit 50) paid
                  union all
                  select * from (select 't' || t.id, 'earned', t.user_id, null, t.amount, t.created_at
                                   from transaction_history t
                                  where t.transaction_type = 'postback' and t.amount >= 5
                                    and t.created_at > now() - interval '24 hours'
                                  order by t.created_at desc
                                  limit 50) credits) items
            join user_profiles p on p.id = items.user_id
           where p.in_cashout_feed and p.banned_at is null
           order by items.at desc, items.id desc
           limit least(greatest(p_limit, 0), 20)) item
$function$;
revoke all on function public.cashout_feed(integer) from public, anon, authenticated;
grant execute on function public.cashout_feed(integer) to service_role;

-- A person joins or leaves the feed (Settings): what it is now.
create function public.set_in_cashout_feed(p_user_id text, p_in_feed boolean)
 returns boolean
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
begin
  if p_in_feed is null then
    raise exception 'Invalid choice' using errcode = 'P0001', hint = 'invalid_choice';
  end if;
  update user_profiles set in_cashout_feed = p_in_feed where id = p_user_id;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  return p_in_feed;
end
$function$;
revoke all on function public.set_in_cashout_feed(text, boolean) from public, anon, authenticated;
grant execute on function public.set_in_cashout_feed(text, boolean) to service_role;

-- Whether a person is in the feed (Settings); null for an account that does not exist.
create function public.in_cashout_feed(p_user_id text)
 returns boolean
 language sql
 stable
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select in_cashout_feed from user_profiles where id = p_user_id
$function$;
revoke all on function public.in_cashout_feed(text) from public, anon, authenticated;
grant execute on function public.in_cashout_feed(text) to service_role;
