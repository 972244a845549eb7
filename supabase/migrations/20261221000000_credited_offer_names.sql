-- Earn leaves out of its featured offers those the person was already credited for (decision 100,
-- amended): the walls and names of their last 200 offer credits.
--
-- A network's postback names the offer as its wall shows it (AdGate's {vc_title}, Lootably's
-- {offerName}), which is the title the app reads from the same network's catalogue, so the pair
-- (network, name) finds the listed offer. Reversed credits count too: the offer was done, and the
-- network does not pay it twice. Read from the partial index of a person's credits.

create function public.credited_offer_names(p_user_id text)
 returns jsonb
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select coalesce(jsonb_agg(distinct jsonb_build_array(c.provider, lower(btrim(c.offer_name)))), '[]')
    from (select provider, offer_name from provider_postbacks
           where user_id = p_user_id and kind = 'credit'
           order by created_at desc
           limit 200) c
   where c.offer_name is not null
$function$;
revoke all on function public.credited_offer_names(text) from public, anon, authenticated;
grant execute on function public.credited_offer_names(text) to service_role;
