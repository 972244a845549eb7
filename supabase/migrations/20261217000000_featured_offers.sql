-- Featured offers and what each wall is good for (issue 39, point 7; docs/decisions/100).
-- No catalogue says when an offer was added, so an offer is "new" for the days after this app first
-- saw it listed; and a wall's typical payout is the median of what its recent credits paid here.

-- When the app first saw each listed offer. The offers of a network's first listing were there
-- before the app looked (`from_first_listing`): never called new.
create table public.wall_offers_seen (
  network text not null constraint wall_offers_seen_network_check check (network ~ '^[a-z0-9_-]{1,40}$'),
  offer_id text not null constraint wall_offers_seen_offer_id_check check (char_length(offer_id) between 1 and 200),
  first_seen_at timestamptz not null default now(),
  from_first_listing boolean not null,
  primary key (network, offer_id)
);
alter table public.wall_offers_seen enable row level security;
revoke all on public.wall_offers_seen from public, anon, authenticated;

-- Notes a fetched catalogue's offers (at most 5,000 ids of at most 200 characters; others are left
-- out) and answers, by offer id, when each was first seen: null for those of the first listing.
-- Offers first seen over 90 days ago and no longer listed are forgotten.
create function public.note_wall_offers_seen(p_network text, p_offer_ids jsonb)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_ids text[];
  v_first_listing boolean;
begin
  if p_network is null or p_network !~ '^[a-z0-9_-]{1,40}$' then
    raise exception 'Unknown network' using errcode = 'P0001', hint = 'invalid_network';
  end if;
  if jsonb_typeof(p_offer_ids) is distinct from 'array' then
    raise exception 'Offer ids must be a list' using errcode = 'P0001', hint = 'invalid_offer_ids';
  end if;
  select coalesce(array_agg(distinct ids.value #>> '{}'), '{}') into v_ids
    from (select value from jsonb_array_elements(p_offer_ids) limit 5000) ids
   where jsonb_typeof(ids.value) = 'string' and char_length(ids.value #>> '{}') between 1 and 200;
  -- Two servers noting a first listing together may both count as first: both lists were there
  -- before the app looked, so neither's offers are new.
  v_first_listing := not exists (select from wall_offers_seen s where s.network = p_network);
  insert into wall_offers_seen (network, offer_id, from_first_listing)
  select p_network, id, v_first_listing from unnest(v_ids) id
  on conflict do nothing;
  -- Offers gone from the listing for long are forgotten, a few at a time (one back is new again).
  delete from wall_offers_seen s
   where (s.network, s.offer_id) in (select o.network, o.offer_id from wall_offers_seen o
                                      where o.network = p_network and o.first_seen_at < now() - interval '90 days'
                                        and not (o.offer_id = any (v_ids))
                                      limit 500);
  return (select coalesce(jsonb_object_agg(s.offer_id, case when s.from_first_listing then null else s.first_seen_at end),
                          '{}')
            from wall_offers_seen s
           where s.network = p_network and s.offer_id = any (v_ids));
end
$function$;
revoke all on function public.note_wall_offers_seen(text, jsonb) from public, anon, authenticated;
grant execute on function public.note_wall_offers_seen(text, jsonb) to service_role;

-- A wall's recent credits, newest first, without reading the table whole.
create index provider_postbacks_network_credits_idx on public.provider_postbacks (provider, created_at desc)
  where kind = 'credit';

-- Each named network's typical payout (a list of at most 50 names): the median coins of its last 500 credits of the last 30 days,
-- with how many credits that is (a wall with few says nothing: Earn needs at least 20).
create function public.wall_typical_payouts(p_networks jsonb)
 returns jsonb
 language sql
 stable
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select coalesce(jsonb_agg(jsonb_build_object('network', n.network, 'typical_coins', recent.typical_coins,
                                                'credits', recent.credits) order by n.network), '[]')
    from (select distinct names.value #>> '{}' as network
            from (select value from jsonb_array_elements(case when jsonb_typeof(p_networks) = 'array'
                                                              then p_networks else '[]' end) limit 50) names
           where jsonb_typeof(names.value) = 'string') n
   cross join lateral (
     select percentile_disc(0.5) within group (order by last.coins)::integer as typical_coins,
            count(*)::integer as credits
       from (select p.coins from provider_postbacks p
              where p.provider = n.network and p.kind = 'credit' and p.created_at > now() - interval '30 days'
              order by p.created_at desc
              limit 500) last
   ) recent
   where recent.credits > 0
$function$;
revoke all on function public.wall_typical_payouts(jsonb) from public, anon, authenticated;
grant execute on function public.wall_typical_payouts(jsonb) to service_role;
