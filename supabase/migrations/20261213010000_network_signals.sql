-- Redefines: public.withdrawal_risk
--
-- Network signals (issue 38, point 3; docs/decisions/091): what an IP-intelligence provider (ipinfo)
-- says of the address behind a sign-up, a sign-in and a withdrawal request: VPN, proxy, Tor, relay,
-- hosting, the service's name and the country. Each address's answer is kept (by a keyed hash of
-- the address, never the address) so it is asked once a day; the account keeps its latest signal and
-- the country its address is in. A withdrawal asked for from a VPN, a proxy, Tor or a data centre
-- adds its own reason to the risk score. No answer is no signal.

create table public.network_lookups (
  address_hash text primary key check (address_hash ~ '^[0-9a-f]{64}$'),
  country text check (country ~ '^[A-Z]{2}$'),
  vpn boolean not null,
  proxy boolean not null,
  tor boolean not null,
  relay boolean not null,
  hosting boolean not null,
  service text check (length(service) <= 100 and not has_hidden_characters(service)),
  looked_up_at timestamp with time zone not null default now()
);
alter table public.network_lookups enable row level security;
revoke all on public.network_lookups from public, anon, authenticated;

alter table public.user_profiles
  -- The country the provider placed the account's latest address in (the walls target countries).
  add column network_country text constraint user_profiles_network_country_check check (network_country ~ '^[A-Z]{2}$'),
  -- The latest signal: {"context", "vpn", "proxy", "tor", "relay", "hosting", "service", "country"}.
  add column network_signal jsonb constraint user_profiles_network_signal_check check (jsonb_typeof(network_signal) = 'object'),
  add column network_signal_at timestamp with time zone;

-- An address's answer when it is younger than `p_max_age_seconds`, else null.
CREATE OR REPLACE FUNCTION public.network_lookup_of(p_address_hash text, p_max_age_seconds integer)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select jsonb_build_object('country', country, 'vpn', vpn, 'proxy', proxy, 'tor', tor, 'relay', relay,
                            'hosting', hosting, 'service', service)
    from network_lookups
   where address_hash = p_address_hash and looked_up_at > now() - make_interval(secs => p_max_age_seconds)
$function$;
revoke all on function public.network_lookup_of(text, integer) from public, anon, authenticated;
grant execute on function public.network_lookup_of(text, integer) to service_role;

-- Keeps an address's answer (`p_fresh`: just asked of the provider) and makes it the account's
-- latest signal, for `p_context` (signup, signin, withdrawal), with its country.
CREATE OR REPLACE FUNCTION public.record_network_signal(p_user_id text, p_context text, p_address_hash text,
                                                        p_signal jsonb, p_fresh boolean)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_country text := nullif(upper(p_signal ->> 'country'), '');
begin
  if p_context is null or p_context not in ('signup', 'signin', 'withdrawal') or jsonb_typeof(p_signal) <> 'object'
     or exists (select from unnest(array['vpn', 'proxy', 'tor', 'relay', 'hosting']) flag
                 where jsonb_typeof(p_signal -> flag) <> 'boolean') then
    raise exception 'Invalid network signal' using errcode = 'P0001', hint = 'invalid_network_signal';
  end if;
  if v_country !~ '^[A-Z]{2}$' then
    v_country := null;
  end if;
  if p_fresh then
    insert into network_lookups (address_hash, country, vpn, proxy, tor, relay, hosting, service, looked_up_at)
    values (p_address_hash, v_country, (p_signal ->> 'vpn')::boolean, (p_signal ->> 'proxy')::boolean,
            (p_signal ->> 'tor')::boolean, (p_signal ->> 'relay')::boolean, (p_signal ->> 'hosting')::boolean,
            left(nullif(trim(p_signal ->> 'service'), ''), 100), now())
    on conflict (address_hash) do update
      set country = excluded.country, vpn = excluded.vpn, proxy = excluded.proxy, tor = excluded.tor,
          relay = excluded.relay, hosting = excluded.hosting, service = excluded.service, looked_up_at = now();
  end if;
  update user_profiles
     set network_signal = jsonb_build_object('context', p_context, 'vpn', (p_signal ->> 'vpn')::boolean,
                                             'proxy', (p_signal ->> 'proxy')::boolean, 'tor', (p_signal ->> 'tor')::boolean,
                                             'relay', (p_signal ->> 'relay')::boolean,
                                             'hosting', (p_signal ->> 'hosting')::boolean,
                                             'service', left(nullif(trim(p_signal ->> 'service'), ''), 100),
                                             'country', v_country),
         network_signal_at = now(),
         network_country = coalesce(v_country, network_country)
   where id = p_user_id;
end
$function$;
revoke all on function public.record_network_signal(text, text, text, jsonb, boolean) from public, anon, authenticated;
grant execute on function public.record_network_signal(text, text, text, jsonb, boolean) to service_role;

-- A withdrawal asked for from a VPN, a proxy, Tor or a data centre adds its reason.
CREATE OR REPLACE FUNCTION public.withdrawal_risk(p_user_id text, p_recipient_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  c_linked_limit constant integer := 20;
  v_profile user_profiles;
  v_balance user_balance;
  v_reasons jsonb := '[]';
  v_linked text[] := '{}';
  v_accounts text[];
  v_age interval;
  v_recent numeric;
  v_reversed numeric;
  v_earned numeric;
  v_last_paid withdrawals;
begin
  select * into v_profile from user_profiles where id = p_user_id;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  select * into v_balance from user_balance where user_id = p_user_id;

  v_age := now() - v_profile.created_at;
  if v_age < interval '1 hour' then
    v_reasons := v_reasons || risk_reason('new_account', 20, 'account made less than an hour ago');
  elsif v_age < interval '1 day' then
    v_reasons := v_reasons || risk_reason('new_account', 20,
      format('account made %s hours ago', floor(extract(epoch from v_age) / 3600)));
  elsif v_age < interval '7 days' then
    v_reasons := v_reasons || risk_reason('new_account', 10,
      format('account made %s days ago', floor(extract(epoch from v_age) / 86400)));
  end if;

  if not v_profile.email_verified then
    v_reasons := v_reasons || risk_reason('email_unverified', 30, 'email address not verified');
  end if;

  -- The same canonical email before: an account that was deleted (its rewards stay recorded
  -- against the identity), or an identity older than this account.
  if v_profile.identity_hash is not null then
    select array_agg(distinct r.user_id) into v_accounts
      from identity_rewards r
     where r.identity_hash = v_profile.identity_hash and r.user_id <> p_user_id;
    if v_accounts is not null or exists (
         select from identities i
          where i.identity_hash = v_profile.identity_hash and i.created_at < v_profile.created_at) then
      v_reasons := v_reasons || risk_reason('same_email', 25,
        'the same email address (or an alias of it) had an account before', v_accounts);
      v_linked := v_linked || coalesce(v_accounts, '{}');
    end if;
  end if;

  -- Other accounts, live or deleted, that asked for money to this address.
  if p_recipient_hash is not null then
    select array_agg(distinct coalesce(o.user_id, 'a deleted account')) into v_accounts
      from (select user_id from withdrawals
             where recipient_hash = p_recipient_hash and user_id is distinct from p_user_id
             limit c_linked_limit) o;
    if v_accounts is not null then
      v_reasons := v_reasons || risk_reason('same_payout_address', 40,
        format('payout address used by %s other account(s)', cardinality(v_accounts)), v_accounts);
      v_linked := v_linked || v_accounts;
    end if;
  end if;

  -- Other accounts seen on this account's devices (first-party cookie) and address ranges.
  select array_agg(distinct o.user_id) into v_accounts
    from (select hash from account_signals
           where user_id = p_user_id and kind = 'device'
           order by last_seen_at desc limit c_linked_limit) mine
    cross join lateral (select user_id from account_signals o
                         where o.kind = 'device' and o.hash = mine.hash and o.user_id <> p_user_id
                         limit c_linked_limit) o;
  if v_accounts is not null then
    v_reasons := v_reasons || risk_reason('same_device', 30,
      format('signed in on the same device as %s other account(s)', cardinality(v_accounts)), v_accounts);
    v_linked := v_linked || v_accounts;
  end if;
  select array_agg(distinct o.user_id) into v_accounts
    from (select hash from account_signals
           where user_id = p_user_id and kind = 'address'
           order by last_seen_at desc limit c_linked_limit) mine
    cross join lateral (select user_id from account_signals o
                         where o.kind = 'address' and o.hash = mine.hash and o.user_id <> p_user_id
                         limit c_linked_limit) o;
  if v_accounts is not null then
    v_reasons := v_reasons || risk_reason('same_address_range', 10,
      format('signed in from the same network as %s other account(s)', cardinality(v_accounts)), v_accounts);
    v_linked := v_linked || v_accounts;
  end if;

  -- A referral between this account and one it shares a signal with: one person referring themself.
  if cardinality(v_linked) > 0 then
    select array_agg(distinct other) into v_accounts
      -- Each linked account's own referrer, from the unique index: reading this account's referrals
      -- instead costs a big referrer tens of milliseconds (scripts/bench/risk.mjs).
      from (select l.id as other from unnest(v_linked) l(id)
             where (select r.referrer_user_id from referrals r where r.referred_user_id = l.id) = p_user_id
            union
            select r.referrer_user_id from referrals r
             where r.referred_user_id = p_user_id and r.referrer_user_id = any(v_linked)) links;
    if v_accounts is not null then
      v_reasons := v_reasons || risk_reason('referral_between_linked', 20,
        'referred, or was referred by, an account it shares a signal with', v_accounts);
    end if;
  end if;

  -- More earned in the last day than in the whole account's life before it.
  select coalesce(sum(amount), 0) into v_recent
    from transaction_history
   where user_id = p_user_id and created_at > now() - interval '24 hours'
     and amount > 0 and transaction_type <> 'withdrawal';
  if v_recent >= 5 and v_recent > coalesce(v_balance.total_earned, 0) - v_recent then
    v_reasons := v_reasons || risk_reason('earnings_burst', 15,
      format('$%s earned in the last 24 hours, $%s before', to_char(v_recent, 'FM999999990.00'),
             to_char(greatest(coalesce(v_balance.total_earned, 0) - v_recent, 0), 'FM999999990.00')));
  end if;

  -- Offers taken back by their network, and their share of what offers paid.
  select coalesce(sum(-amount), 0) into v_reversed
    from provider_postbacks where user_id = p_user_id and kind = 'reversal';
  if v_reversed > 0 then
    v_earned := coalesce(v_balance.earned_total, 0) + v_reversed;
    v_reasons := v_reasons || risk_reason('reversals',
      case when v_reversed >= 0.25 * v_earned then 30 else 10 end,
      format('$%s of offer earnings reversed (%s%%)', to_char(v_reversed, 'FM999999990.00'),
             round(100 * v_reversed / nullif(v_earned, 0))));
  end if;

  -- Owed from an earlier account of the same identity (a network took back what it was paid for).
  if v_balance.carried_debt_total > 0 then
    v_reasons := v_reasons || risk_reason('earlier_account_debt', 30,
      case when v_balance.carried_debt > 0
           then format('owes $%s from an earlier account', to_char(v_balance.carried_debt, 'FM999999990.00'))
           else format('owed $%s from an earlier account, paid from this one''s earnings',
                       to_char(v_balance.carried_debt_total, 'FM999999990.00')) end);
  end if;

  if v_balance.was_negative_at is not null then
    v_reasons := v_reasons || risk_reason('was_negative', 20,
      format('balance went below zero on %s', to_char(v_balance.was_negative_at, 'YYYY-MM-DD')));
  end if;

  -- Paid before: to another address?
  select * into v_last_paid from withdrawals
   where user_id = p_user_id and status = 'completed'
   order by created_at desc limit 1;
  if found and v_last_paid.recipient_hash is not null
     and v_last_paid.recipient_hash is distinct from p_recipient_hash then
    v_reasons := v_reasons || risk_reason('payout_address_changed', 15,
      format('payout address differs from the one paid on %s', to_char(v_last_paid.settled_at, 'YYYY-MM-DD')));
  end if;

  -- The network the request came from (docs/decisions/091), as the provider saw it just before
  -- (no answer is no signal). A relay (iCloud Private Relay) hides the address but not the person.
  if v_profile.network_signal ->> 'context' = 'withdrawal' and v_profile.network_signal_at > now() - interval '10 minutes' then
    if (v_profile.network_signal ->> 'tor')::boolean then
      v_reasons := v_reasons || risk_reason('network_tor', 40, 'withdrawal asked for through Tor');
    end if;
    if (v_profile.network_signal ->> 'vpn')::boolean then
      v_reasons := v_reasons || risk_reason('network_vpn', 25,
        'withdrawal from a VPN' || coalesce(' (' || (v_profile.network_signal ->> 'service') || ')', ''));
    end if;
    if (v_profile.network_signal ->> 'proxy')::boolean then
      v_reasons := v_reasons || risk_reason('network_proxy', 25,
        'withdrawal through a proxy' || coalesce(' (' || (v_profile.network_signal ->> 'service') || ')', ''));
    end if;
    if (v_profile.network_signal ->> 'hosting')::boolean then
      v_reasons := v_reasons || risk_reason('network_hosting', 15, 'withdrawal from a data centre address');
    end if;
  end if;

  return jsonb_build_object(
    'score', least(100, (select coalesce(sum((reason ->> 'points')::integer), 0)
                           from jsonb_array_elements(v_reasons) reason)),
    'reasons', v_reasons,
    'linked_accounts', to_jsonb(array(select distinct unnest(v_linked))),
    'first_withdrawal', v_last_paid.id is null);
end
$function$;

