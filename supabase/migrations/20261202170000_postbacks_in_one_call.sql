-- Redefines: public.log_postback
-- Issue 19, items 1, 4 and 5: one path for every postback (docs/offer-walls.md).
--
-- - take_postback(...) records a verified postback and writes its postback_log entry in one call
--   (one round trip, one transaction: the log never says "credited" for a credit rolled back).
--   The person is named by their wall id (offer walls) or, for the offer provider of
--   OFFER_PROVIDER, by their account id as that protocol always has; no one by that id is a
--   refusal it logs and answers ({"verdict": "refused"}), not an error that would lose the entry.
--   It replaces record_wall_postback.
-- - provider_postbacks keeps the offer's name as the network sent it, for "My offers"; an index
--   serves one person's credits newest first.
-- - log_postback, for what is refused before anything is recorded, takes the account's id (or
--   none) instead of a wall id.

alter table public.provider_postbacks add column offer_name text;
create index provider_postbacks_user_credits_idx on public.provider_postbacks (user_id, created_at desc)
  where kind = 'credit';

drop function public.record_wall_postback(text, text, text, integer, boolean, text, integer);
drop function public.log_postback(text, text, text, text, text, text, text, text, text, integer);

create function public.log_postback(p_network text, p_client_address text, p_method text, p_query text, p_body text,
                                    p_verdict text, p_reason text, p_user_id text, p_transaction_id text,
                                    p_coins integer)
 returns void
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
begin
  insert into postback_log (network, client_address, method, query, body, verdict, reason, user_id, transaction_id, coins)
  values (p_network, p_client_address, p_method, left(p_query, 4000), left(p_body, 4000), p_verdict,
          left(p_reason, 500), p_user_id, left(p_transaction_id, 200), p_coins);
  -- Kept 90 days: a few older entries go with each new one.
  delete from postback_log
   where id in (select id from postback_log where received_at < now() - interval '90 days'
                 order by received_at limit 20);
end
$function$;

create function public.take_postback(p_network text, p_transaction_id text, p_person text, p_person_is_account boolean,
                                     p_coins integer, p_reversal boolean, p_description text, p_hold_days integer,
                                     p_offer_id text, p_offer_name text, p_client_address text, p_method text,
                                     p_query text, p_body text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_user_id text := case when p_person_is_account then (select id from user_profiles where id = p_person)
                         else (select id from user_profiles where wall_id = p_person) end;
  v_result jsonb;
  v_verdict text;
begin
  if v_user_id is null then
    perform log_postback(p_network, p_client_address, p_method, p_query, p_body, 'refused',
                         format('no one has %s %s', case when p_person_is_account then 'account id' else 'wall id' end,
                                left(p_person, 100)),
                         null, p_transaction_id, p_coins);
    return jsonb_build_object('verdict', 'refused', 'reason', 'account_not_found');
  end if;
  v_result := record_postback(p_network, p_transaction_id, v_user_id, p_coins, p_reversal, p_description,
                              p_offer_id, p_hold_days);
  v_verdict := case when (v_result ->> 'duplicate')::boolean then 'duplicate'
                    when p_reversal then 'reversed' else 'credited' end;
  if v_verdict = 'credited' and p_offer_name is not null then
    update provider_postbacks set offer_name = left(p_offer_name, 200)
     where provider = p_network and transaction_id = p_transaction_id and kind = 'credit';
  end if;
  perform log_postback(p_network, p_client_address, p_method, p_query, p_body, v_verdict, null, v_user_id,
                       p_transaction_id, p_coins);
  return v_result || jsonb_build_object('verdict', v_verdict, 'user_id', v_user_id);
end
$function$;

revoke all on function public.log_postback(text, text, text, text, text, text, text, text, text, integer) from public, anon, authenticated;
grant execute on function public.log_postback(text, text, text, text, text, text, text, text, text, integer) to service_role;
revoke all on function public.take_postback(text, text, text, boolean, integer, boolean, text, integer, text, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.take_postback(text, text, text, boolean, integer, boolean, text, integer, text, text, text, text, text, text) to service_role;
