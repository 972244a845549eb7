-- Redefines: public.record_wall_postback
-- Issue 19, item 3: every postback on record (docs/offer-walls.md, "The postback log").
--
-- - postback_log holds every request to an offer wall's postback route: the network, when, the
--   sender's address (when TRUST_PROXY makes it known), the method, the query and the body as
--   received with the wall's secrets removed, and the verdict (credited, reversed, duplicate,
--   ignored, or refused with the reason), with the person and the coins when the postback named
--   them. Kept 90 days: each new entry removes a few older than that, so no job is needed.
-- - log_postback(...) writes one entry; the person is found by the wall id the network sent.
-- - record_wall_postback now answers whether the postback was a repeat (`duplicate`) and whose it
--   was (`user_id`), for the log.

create table public.postback_log (
  id bigint generated always as identity primary key,
  received_at timestamptz not null default now(),
  network text not null,
  client_address text,
  method text not null,
  query text not null,
  body text not null,
  verdict text not null check (verdict in ('credited', 'reversed', 'duplicate', 'ignored', 'refused')),
  reason text,
  user_id text references public.user_profiles (id) on delete set null,
  transaction_id text,
  coins integer
);
-- The console reads the newest first, by network, by person, and the refused ones.
create index postback_log_received_idx on public.postback_log (received_at desc);
create index postback_log_network_idx on public.postback_log (network, received_at desc);
create index postback_log_user_idx on public.postback_log (user_id, received_at desc) where user_id is not null;
create index postback_log_refused_idx on public.postback_log (received_at desc) where verdict = 'refused';
alter table public.postback_log enable row level security;

create function public.log_postback(p_network text, p_client_address text, p_method text, p_query text, p_body text,
                                    p_verdict text, p_reason text, p_wall_id text, p_transaction_id text,
                                    p_coins integer)
 returns void
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
begin
  insert into postback_log (network, client_address, method, query, body, verdict, reason, user_id, transaction_id, coins)
  values (p_network, p_client_address, p_method, left(p_query, 4000), left(p_body, 4000), p_verdict,
          left(p_reason, 500),
          (select id from user_profiles where wall_id = p_wall_id), left(p_transaction_id, 200), p_coins);
  -- Older than 90 days: a few at a time, oldest first, from the index.
  delete from postback_log
   where id in (select id from postback_log where received_at < now() - interval '90 days'
                 order by received_at limit 20);
end
$function$;

create or replace function public.record_wall_postback(p_network text, p_transaction_id text, p_wall_id text,
                                                       p_coins integer, p_reversal boolean, p_description text,
                                                       p_hold_days integer)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_user_id text := (select id from user_profiles where wall_id = p_wall_id);
begin
  if v_user_id is null then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  return record_postback(p_network, p_transaction_id, v_user_id, p_coins, p_reversal, p_description,
                         null, p_hold_days)
         || jsonb_build_object('user_id', v_user_id);
end
$function$;

revoke all on function public.log_postback(text, text, text, text, text, text, text, text, text, integer) from public, anon, authenticated;
grant execute on function public.log_postback(text, text, text, text, text, text, text, text, text, integer) to service_role;
