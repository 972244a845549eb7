-- Issue 20, "Walls" (docs/operator-console.md, docs/offer-walls.md): offer walls configured from the
-- operator console as well as from the environment.
--
-- - wall_settings: one row per network an owner has configured in the console, holding only what
--   the console overrides: on or off, hold days, the sender allowlist, the network's own settings
--   and its secrets. A value in the row wins over WALL_{NAME}_…; what the row leaves null (or out of
--   `settings` and `secrets`) comes from the environment; resetting a network deletes its row.
-- - Secrets arrive sealed by the app (AES-256-GCM, a key derived from ACCOUNT_HASH_SECRET,
--   docs/decisions/076), so a dump of the database alone does not hold them: the row keeps the
--   ciphertext and, for a secret of 12 characters or more, its last four characters to show. No
--   function a console page calls returns a sealed secret: operator_walls says which are set, with
--   that hint; only wall_overrides, the servers' read (app/server/walls/registry.server.ts), returns
--   them, for the app to open.
-- - Every change sends pg_notify('wall_settings', network) on commit: each server drops its copy of
--   the walls at once (one that cannot listen, over supabase-js, keeps it 30 seconds at most).
-- - operator_set_wall, operator_reset_wall (owner): the change and its audit entry in one
--   transaction (set_wall, reset_wall; record kind `wall`, record id the network; before and after
--   name the secrets set in the console, never their values; the reason).
-- - operator_postback_log (every role): one network's postback log, newest first, refused ones only,
--   one person's or one transaction's, a page at a time (`p_before`: older than that entry). Each
--   filter is read through an index: two new ones for refused entries and transactions per network.
-- - operator_record_test_postback (owner): the audit entry of a test postback the console sends,
--   written before it is sent, naming the account it credits; a form sent twice is recorded once.

create table public.wall_settings (
  network text primary key check (network ~ '^[a-z0-9-]{2,40}$'),
  -- null: WALL_{NAME}_ENABLED decides.
  enabled boolean,
  hold_days integer check (hold_days between 0 and 365),
  -- "any" or comma-separated addresses (the app checks each is an IP address).
  allowed_addresses text check (length(allowed_addresses) between 1 and 2000),
  -- The network's settings that are not secret, by their variable's suffix: {"APP_TOKEN": "…"}.
  settings jsonb not null default '{}'::jsonb check (jsonb_typeof(settings) = 'object'),
  -- Its secrets, sealed: {"APP_SECRET": {"sealed": "v1.…", "hint": "1a2b"}}.
  secrets jsonb not null default '{}'::jsonb check (jsonb_typeof(secrets) = 'object'),
  updated_at timestamptz not null default now(),
  updated_by text not null check (length(updated_by) between 1 and 100)
);
alter table public.wall_settings enable row level security;
revoke all on table public.wall_settings from public, anon, authenticated;

create function public.wall_settings_notify()
  returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  perform pg_notify('wall_settings', coalesce(new.network, old.network));
  return null;
end
$$;

create trigger wall_settings_notify
  after insert or update or delete on public.wall_settings
  for each row execute function public.wall_settings_notify();

-- The console's filters of one network's log: its refused entries, and one transaction's.
create index postback_log_network_refused_idx on public.postback_log (network, received_at desc, id desc)
  where verdict = 'refused';
create index postback_log_network_transaction_idx on public.postback_log (network, transaction_id)
  where transaction_id is not null;
-- Refusals come in floods, one network at a time: without this the planner takes a network's share
-- of the refusals to be its share of the log, and reads one network's page through every network's.
create statistics public.postback_log_network_verdict (mcv) on network, verdict from public.postback_log;

-- Settings that are not secret, as the console sends them: names as the variables' suffixes
-- (APP_TOKEN), values of 1 to 500 characters without hidden characters.
create function public.wall_setting_values_valid(p_values jsonb)
  returns boolean
  language sql
  immutable
  set search_path = public, pg_temp
as $$
  select jsonb_typeof(p_values) = 'object'
     and not exists (
       select from jsonb_each(p_values) e
        where length(e.key) > 40 or e.key !~ '^[A-Z][A-Z0-9_]*$'
           or jsonb_typeof(e.value) <> 'string'
           or length(e.value #>> '{}') not between 1 and 500
           or has_hidden_characters(e.value #>> '{}'))
$$;

-- Sealed secrets as the app sends them: {"sealed": "v1.<base64url>", "hint": null or 4 characters}.
create function public.wall_sealed_secrets_valid(p_secrets jsonb)
  returns boolean
  language sql
  immutable
  set search_path = public, pg_temp
as $$
  select jsonb_typeof(p_secrets) = 'object'
     and not exists (
       select from jsonb_each(p_secrets) e
        where length(e.key) > 40 or e.key !~ '^[A-Z][A-Z0-9_]*$'
           or jsonb_typeof(e.value) <> 'object'
           or exists (select from jsonb_object_keys(e.value) k where k not in ('sealed', 'hint'))
           or jsonb_typeof(e.value -> 'sealed') is distinct from 'string'
           or length(e.value ->> 'sealed') not between 20 and 4000
           or (e.value ->> 'sealed') !~ '^v1[.][A-Za-z0-9_-]+$'
           or coalesce(jsonb_typeof(e.value -> 'hint'), 'null') not in ('null', 'string')
           or length(e.value ->> 'hint') > 4
           or has_hidden_characters(e.value ->> 'hint'))
$$;

-- What the audit log and the console may know of a row: every value but the secrets, which are
-- named only. Null when there is no row.
create function public.wall_settings_public(p_row public.wall_settings)
  returns jsonb
  language sql
  immutable
  set search_path = public, pg_temp
as $$
  select case when p_row.network is not null then jsonb_build_object(
    'enabled', p_row.enabled,
    'hold_days', p_row.hold_days,
    'allowed_addresses', p_row.allowed_addresses,
    'settings', p_row.settings,
    'secrets', coalesce((select jsonb_agg(k order by k) from jsonb_object_keys(p_row.secrets) k), '[]'::jsonb))
  end
$$;

-- The name the audit log gives a signed-in operator: their email, else their display name.
create function public.operator_name(p_operator_id text)
  returns text
  language sql
  stable
  set search_path = public, pg_temp
as $$
  select operator_actor(left(coalesce(email, display_name), 100)) from user_profiles where id = p_operator_id
$$;

create function public.check_wall_network(p_network text)
  returns void
  language plpgsql
  immutable
  set search_path = public, pg_temp
as $$
begin
  if p_network is null or length(p_network) > 40 or p_network !~ '^[a-z0-9-]{2,}$' then
    raise exception 'Unknown offer wall' using errcode = 'P0001', hint = 'unknown_wall';
  end if;
end
$$;

-- Sets what the console overrides for one network, as a whole: p_enabled, p_hold_days,
-- p_allowed_addresses and p_settings replace what was there (null and {} leave the environment's);
-- p_secrets (sealed) are set, and p_clear_secrets (a JSON array of names) go back to the
-- environment, the other secrets kept. The app has checked that the wall it leaves can run
-- (app/server/operator/walls.server.ts).
-- Returns {"changed": false} and writes nothing when nothing would change.
create function public.operator_set_wall(
  p_operator_id text,
  p_network text,
  p_enabled boolean,
  p_hold_days integer,
  p_allowed_addresses text,
  p_settings jsonb,
  p_secrets jsonb,
  p_clear_secrets jsonb,
  p_reason text
)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_settings jsonb := coalesce(p_settings, '{}'::jsonb);
  v_new_secrets jsonb := coalesce(p_secrets, '{}'::jsonb);
  v_clear text[];
  v_reason text;
  v_actor text;
  v_before wall_settings;
  v_after wall_settings;
  v_secrets jsonb;
  v_cleared jsonb;
begin
  perform require_operator_role(p_operator_id, array['owner']);
  perform check_wall_network(p_network);
  if coalesce(jsonb_typeof(p_clear_secrets), 'array') <> 'array' then
    raise exception 'Invalid wall setting' using errcode = 'P0001', hint = 'invalid_wall_setting';
  end if;
  if exists (select from jsonb_array_elements(coalesce(p_clear_secrets, '[]'::jsonb)) e where jsonb_typeof(e) <> 'string') then
    raise exception 'Invalid wall setting' using errcode = 'P0001', hint = 'invalid_wall_setting';
  end if;
  v_clear := array(select jsonb_array_elements_text(coalesce(p_clear_secrets, '[]'::jsonb)));
  if p_hold_days is not null and (p_hold_days < 0 or p_hold_days > 365) then
    raise exception 'Invalid hold' using errcode = 'P0001', hint = 'invalid_hold_days';
  end if;
  if (p_allowed_addresses is not null
        and (length(p_allowed_addresses) not between 1 and 2000 or has_hidden_characters(p_allowed_addresses)))
     or not wall_setting_values_valid(v_settings)
     or not wall_sealed_secrets_valid(v_new_secrets)
     or exists (select from unnest(v_clear) k where k is null or length(k) > 40 or k !~ '^[A-Z][A-Z0-9_]*$')
     -- A setting is secret or not, and a secret is set or cleared: never both at once.
     or exists (select from jsonb_object_keys(v_settings) k where v_new_secrets ? k or k = any(v_clear))
     or exists (select from jsonb_object_keys(v_new_secrets) k where k = any(v_clear)) then
    raise exception 'Invalid wall setting' using errcode = 'P0001', hint = 'invalid_wall_setting';
  end if;
  v_reason := operator_reason(p_reason);
  v_actor := operator_name(p_operator_id);

  select * into v_before from wall_settings where network = p_network for update;
  v_secrets := (coalesce(v_before.secrets, '{}'::jsonb) - v_clear) || v_new_secrets;
  v_cleared := coalesce((select jsonb_agg(k order by k) from jsonb_object_keys(coalesce(v_before.secrets, '{}'::jsonb)) k
                          where k = any(v_clear) and not v_new_secrets ? k), '[]'::jsonb);
  if p_enabled is not null or p_hold_days is not null or p_allowed_addresses is not null
     or v_settings <> '{}'::jsonb or v_secrets <> '{}'::jsonb then
    v_after := (p_network, p_enabled, p_hold_days, p_allowed_addresses, v_settings, v_secrets, now(), v_actor);
  end if;
  if wall_settings_public(v_before) is not distinct from wall_settings_public(v_after)
     and v_new_secrets = '{}'::jsonb then
    return jsonb_build_object('network', p_network, 'changed', false);
  end if;

  if v_after.network is null then
    delete from wall_settings where network = p_network;
  else
    insert into wall_settings (network, enabled, hold_days, allowed_addresses, settings, secrets, updated_at, updated_by)
    values (v_after.network, v_after.enabled, v_after.hold_days, v_after.allowed_addresses, v_after.settings,
            v_after.secrets, v_after.updated_at, v_after.updated_by)
    on conflict (network) do update
      set enabled = excluded.enabled, hold_days = excluded.hold_days,
          allowed_addresses = excluded.allowed_addresses, settings = excluded.settings,
          secrets = excluded.secrets, updated_at = excluded.updated_at, updated_by = excluded.updated_by;
  end if;
  insert into operator_actions (actor, actor_user_id, action, record_kind, record_id, before, after, reason, detail)
  values (v_actor, p_operator_id, 'set_wall', 'wall', p_network,
          wall_settings_public(v_before), wall_settings_public(v_after), v_reason,
          jsonb_build_object(
            'secrets_replaced', coalesce((select jsonb_agg(k order by k) from jsonb_object_keys(v_new_secrets) k), '[]'::jsonb),
            'secrets_cleared', v_cleared));
  return jsonb_build_object('network', p_network, 'changed', true);
end
$$;

-- Gives every setting of one network back to the environment (its row goes), with the audit entry.
create function public.operator_reset_wall(p_operator_id text, p_network text, p_reason text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_reason text;
  v_actor text;
  v_before wall_settings;
begin
  perform require_operator_role(p_operator_id, array['owner']);
  perform check_wall_network(p_network);
  v_reason := operator_reason(p_reason);
  v_actor := operator_name(p_operator_id);
  delete from wall_settings where network = p_network returning * into v_before;
  if v_before.network is null then
    return jsonb_build_object('network', p_network, 'changed', false);
  end if;
  insert into operator_actions (actor, actor_user_id, action, record_kind, record_id, before, after, reason)
  values (v_actor, p_operator_id, 'reset_wall', 'wall', p_network, wall_settings_public(v_before), null, v_reason);
  return jsonb_build_object('network', p_network, 'changed', true);
end
$$;

-- What the console overrides, for every network it has touched: the secrets only as whether they
-- are set and their hint. Every role may read it.
create function public.operator_walls(p_operator_id text)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  perform require_operator_role(p_operator_id, array['support']);
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'network', w.network, 'enabled', w.enabled, 'hold_days', w.hold_days,
             'allowed_addresses', w.allowed_addresses, 'settings', w.settings,
             'secrets', coalesce((select jsonb_object_agg(s.key, jsonb_build_object('hint', s.value -> 'hint'))
                                    from jsonb_each(w.secrets) s), '{}'::jsonb),
             'updated_at', w.updated_at, 'updated_by', w.updated_by)
           order by w.network)
      from wall_settings w), '[]'::jsonb);
end
$$;

-- The servers' read of the console's overrides, sealed secrets included, for the wall registry to
-- open with the app's key. No console page calls it.
create function public.wall_overrides()
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'network', network, 'enabled', enabled, 'hold_days', hold_days,
           'allowed_addresses', allowed_addresses, 'settings', settings, 'secrets', secrets,
           'updated_at', updated_at, 'updated_by', updated_by)
         order by network), '[]'::jsonb)
    from wall_settings
$$;

-- One network's postback log for the console, newest first: at most p_limit entries, refused ones
-- only, one person's, one transaction's, older than entry p_before. Each filter reads its own index
-- (a statement each, so the plan cached for one never serves another).
create function public.operator_postback_log(
  p_operator_id text,
  p_network text,
  p_refused_only boolean,
  p_user_id text,
  p_transaction_id text,
  p_before bigint,
  p_limit integer
)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_refused boolean := coalesce(p_refused_only, false);
  -- The page starts below this entry: from the newest when there is none.
  v_at timestamptz := 'infinity';
  v_id bigint := 9223372036854775807;
  v_ids bigint[];
begin
  perform require_operator_role(p_operator_id, array['support']);
  perform check_wall_network(p_network);
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    raise exception 'A limit is 1 to 1000 entries' using errcode = 'P0001', hint = 'invalid_log_limit';
  end if;
  if p_before is not null then
    select received_at, id into v_at, v_id from postback_log where id = p_before;
    if not found then
      return '[]'::jsonb;
    end if;
  end if;
  if p_transaction_id is not null then
    select array_agg(id order by received_at desc, id desc) into v_ids
      from (select id, received_at from postback_log
             where network = p_network and transaction_id = p_transaction_id
               and (not v_refused or verdict = 'refused')
               and (p_user_id is null or user_id = p_user_id)
               and (received_at, id) < (v_at, v_id)
             order by received_at desc, id desc
             limit p_limit) l;
  elsif p_user_id is not null then
    select array_agg(id order by received_at desc, id desc) into v_ids
      from (select id, received_at from postback_log
             where user_id = p_user_id and network = p_network
               and (not v_refused or verdict = 'refused')
               and (received_at, id) < (v_at, v_id)
             order by received_at desc, id desc
             limit p_limit) l;
  elsif v_refused then
    select array_agg(id order by received_at desc, id desc) into v_ids
      from (select id, received_at from postback_log
             where network = p_network and verdict = 'refused'
               and (received_at, id) < (v_at, v_id)
             order by received_at desc, id desc
             limit p_limit) l;
  else
    select array_agg(id order by received_at desc, id desc) into v_ids
      from (select id, received_at from postback_log
             where network = p_network
               and (received_at, id) < (v_at, v_id)
             order by received_at desc, id desc
             limit p_limit) l;
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', l.id, 'received_at', l.received_at, 'network', l.network,
             'client_address', l.client_address, 'method', l.method, 'query', l.query, 'body', l.body,
             'verdict', l.verdict, 'reason', l.reason, 'user_id', l.user_id, 'email', p.email,
             'transaction_id', l.transaction_id, 'coins', l.coins)
           order by l.received_at desc, l.id desc)
      from postback_log l
      left join user_profiles p on p.id = l.user_id
     where l.id = any(v_ids)), '[]'::jsonb);
end
$$;

-- The audit entry of a test postback the console is about to send: p_coins (1 to 1,000) to the
-- account p_user_id, as transaction p_transaction_id (sim-<uuid>, made by the page) of p_network.
-- Written before the postback goes, so no test credit is ever without its entry. The same
-- transaction twice (a form sent twice) is recorded once: {"recorded": false} the second time.
create function public.operator_record_test_postback(
  p_operator_id text,
  p_network text,
  p_user_id text,
  p_transaction_id text,
  p_coins integer
)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_email text;
  v_actor text;
begin
  perform require_operator_role(p_operator_id, array['owner']);
  perform check_wall_network(p_network);
  if p_coins is null or p_coins < 1 or p_coins > 1000 then
    raise exception 'Invalid coins' using errcode = 'P0001', hint = 'invalid_coins';
  end if;
  if p_transaction_id is null or length(p_transaction_id) <> 40
     or p_transaction_id !~ '^sim-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    raise exception 'Invalid test postback' using errcode = 'P0001', hint = 'invalid_test_postback';
  end if;
  select email into v_email from user_profiles where id = p_user_id for key share;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  v_actor := operator_name(p_operator_id);
  -- Two posts of one form wait for each other here; the second finds the first's entry.
  perform pg_advisory_xact_lock(hashtextextended('test_postback:' || p_network || ':' || p_transaction_id, 0));
  if exists (select from operator_actions
              where record_id = p_user_id and action = 'test_postback'
                and detail ->> 'network' = p_network and detail ->> 'transaction_id' = p_transaction_id) then
    return jsonb_build_object('recorded', false);
  end if;
  insert into operator_actions (actor, actor_user_id, action, user_id, record_kind, record_id, after, reason, detail)
  values (v_actor, p_operator_id, 'test_postback', p_user_id, 'account', p_user_id,
          jsonb_build_object('network', p_network, 'transaction_id', p_transaction_id, 'coins', p_coins,
                             'email', v_email),
          format('Test postback from the console: %s coins through %s to %s', p_coins, p_network,
                 coalesce(v_email, p_user_id)),
          jsonb_build_object('network', p_network, 'transaction_id', p_transaction_id, 'coins', p_coins));
  return jsonb_build_object('recorded', true);
end
$$;

revoke all on function public.wall_settings_notify() from public, anon, authenticated;
revoke all on function public.wall_setting_values_valid(jsonb) from public, anon, authenticated;
revoke all on function public.wall_sealed_secrets_valid(jsonb) from public, anon, authenticated;
revoke all on function public.wall_settings_public(public.wall_settings) from public, anon, authenticated;
revoke all on function public.operator_name(text) from public, anon, authenticated;
revoke all on function public.check_wall_network(text) from public, anon, authenticated;
revoke all on function public.operator_set_wall(text, text, boolean, integer, text, jsonb, jsonb, jsonb, text)
  from public, anon, authenticated;
grant execute on function public.operator_set_wall(text, text, boolean, integer, text, jsonb, jsonb, jsonb, text)
  to service_role;
revoke all on function public.operator_reset_wall(text, text, text) from public, anon, authenticated;
grant execute on function public.operator_reset_wall(text, text, text) to service_role;
revoke all on function public.operator_walls(text) from public, anon, authenticated;
grant execute on function public.operator_walls(text) to service_role;
revoke all on function public.wall_overrides() from public, anon, authenticated;
grant execute on function public.wall_overrides() to service_role;
revoke all on function public.operator_postback_log(text, text, boolean, text, text, bigint, integer)
  from public, anon, authenticated;
grant execute on function public.operator_postback_log(text, text, boolean, text, text, bigint, integer)
  to service_role;
revoke all on function public.operator_record_test_postback(text, text, text, text, integer)
  from public, anon, authenticated;
grant execute on function public.operator_record_test_postback(text, text, text, text, integer) to service_role;
