-- Redefines: public.provision_user, public.complete_task, public.try_referral_credit
-- Issue 17, part 1: one person, one identity (docs/decisions/064-one-person-one-identity.md).
--
-- Every alias of one inbox (farmer+1@, farmer+2@; x.y@gmail and xy@gmail) is one identity: the
-- keyed hash of its canonical email (app/domain/identity.ts, hashed by the server with
-- ACCOUNT_HASH_SECRET). The hash is kept on the profile and in `identities`, which outlives the
-- account (its user_id goes back to null when the account is deleted).
-- - provision_user takes p_identity_hash: a new profile whose identity belongs to a live account
--   is refused (`email_identity_taken`); sign-ups of one identity queue on its row, so two at
--   once make one account.
-- - One-time rewards are recorded per identity in `identity_rewards` (primary key: identity and
--   reward), inserted in the transaction that pays: being referred ('referred'), the referral
--   credit that pays the friend's welcome bonus and the referrer's bonus ('referral_credit'),
--   and each of the app's own tasks ('task:<id>'). A reward the identity already had is not paid
--   again, under any account, live or deleted.
-- - Profiles made before this migration get their identity from the server when it starts
--   (profiles_without_identity, assign_identities) or at their next sign-in (provision_user).
-- - `account_signals`: keyed hashes of the device id and the address range seen at sign-up and
--   sign-in, kept after deletion, for the risk review (issue 17, part 5).

alter table public.user_profiles add column identity_hash text;
create unique index user_profiles_identity_hash_key on public.user_profiles (identity_hash);

create table public.identities (
  identity_hash text primary key,
  -- The live account of this identity; null while it has none (deleted, or never finished).
  user_id text unique references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now()
);

create table public.identity_rewards (
  identity_hash text not null references public.identities (identity_hash),
  reward text not null check (reward in ('referred', 'referral_credit') or reward ~ '^task:[a-z0-9-]{1,64}$'),
  -- The account it went to: kept as it was when that account is deleted.
  user_id text not null,
  granted_at timestamptz not null default now(),
  primary key (identity_hash, reward)
);

create table public.account_signals (
  user_id text not null,
  kind text not null check (kind in ('device', 'address')),
  hash text not null check (hash ~ '^[0-9a-f]{64}$'),
  first_seen_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  primary key (user_id, kind, hash)
);
-- The risk review asks "who else has this device / address range".
create index account_signals_kind_hash_idx on public.account_signals (kind, hash);

drop function public.provision_user(text, text, text, text, boolean);

create function public.provision_user(
  p_user_id text,
  p_email text,
  p_display_name text,
  p_referral_code text default null,
  p_email_verified boolean default false,
  p_identity_hash text default null
) returns jsonb
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  -- Referral code alphabet (spec §5): 32 symbols, no I, O, 0, 1.
  c_alphabet constant text := 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  v_email text := nullif(trim(p_email), '');
  -- Default display name (spec §5): the given name, else the email's local part, else "User".
  v_name text := coalesce(clean_display_name(p_display_name),
                          clean_display_name(split_part(v_email, '@', 1)),
                          'User');
  v_identity text := nullif(trim(p_identity_hash), '');
  v_holder text;
  v_referrer text;
  v_code text;
  v_created boolean := false;
  v_attempts integer := 0;
begin
  if nullif(trim(p_user_id), '') is null then
    raise exception 'User id is required' using errcode = 'P0001', hint = 'user_id_required';
  end if;

  if v_identity is not null then
    insert into identities (identity_hash) values (v_identity) on conflict do nothing;
    -- Sign-ups of one identity queue here; the later one finds the earlier one's account.
    select user_id into v_holder from identities where identity_hash = v_identity for update;
    if v_holder is not null and v_holder <> p_user_id then
      if not exists (select from user_profiles where id = p_user_id) then
        raise exception 'An account with this email address already exists'
          using errcode = 'P0001', hint = 'email_identity_taken';
      end if;
      -- Two aliases that both had profiles before identities existed: each keeps its account,
      -- the later one without an identity of its own.
      v_identity := null;
    end if;
  end if;

  if not exists (select from user_profiles where id = p_user_id) and nullif(trim(p_referral_code), '') is not null then
    select id into v_referrer from user_profiles where referral_code = upper(trim(p_referral_code));
    if v_referrer is null then
      raise exception 'This referral code is not valid' using errcode = 'P0001', hint = 'invalid_referral_code';
    end if;
    -- Nobody refers themselves through an alias.
    if v_identity is not null and (select identity_hash from user_profiles where id = v_referrer) = v_identity then
      v_referrer := null;
    end if;
  end if;

  -- A conflict is either the same user (created concurrently or earlier: done) or a
  -- referral code collision (try another code).
  while not exists (select from user_profiles where id = p_user_id) loop
    v_attempts := v_attempts + 1;
    if v_attempts > 20 then
      raise exception 'Could not generate a unique referral code'
        using errcode = 'P0001', hint = 'referral_codes_exhausted';
    end if;
    select string_agg(substr(c_alphabet, 1 + floor(random() * 32)::integer, 1), '')
      into v_code
      from generate_series(1, 7);
    insert into user_profiles (id, email, display_name, referral_code, email_verified, identity_hash)
    values (p_user_id, v_email, v_name, v_code, coalesce(p_email_verified, false), v_identity)
    on conflict do nothing;
    v_created := found;
  end loop;

  -- An older profile may lack the email or the identity; fill them in, never replace them.
  if v_email is not null then
    update user_profiles
       set email = v_email, updated_at = now()
     where id = p_user_id and email is null;
  end if;
  if v_identity is not null then
    update user_profiles set identity_hash = v_identity where id = p_user_id and identity_hash is null;
    update identities set user_id = p_user_id
     where identity_hash = v_identity
       and (select identity_hash from user_profiles where id = p_user_id) = v_identity;
  end if;

  insert into user_balance (user_id) values (p_user_id) on conflict (user_id) do nothing;
  insert into notification_preferences (user_id) values (p_user_id) on conflict (user_id) do nothing;

  -- Only the call that made the profile links the referrer (a racing twin finds it made), and
  -- an identity is referred once, ever.
  if v_created and v_referrer is not null and v_referrer <> p_user_id then
    if v_identity is not null then
      insert into identity_rewards (identity_hash, reward, user_id) values (v_identity, 'referred', p_user_id)
      on conflict do nothing;
      if not found then
        v_referrer := null;
      end if;
    end if;
    if v_referrer is not null then
      insert into referrals (referrer_user_id, referred_user_id) values (v_referrer, p_user_id)
      on conflict (referred_user_id) do nothing;
    end if;
  end if;

  if coalesce(p_email_verified, false) then
    perform record_email_verified(p_user_id);
  end if;

  return get_user_summary(p_user_id);
end
$$;

-- Whether an identity belongs to a live account under another address than p_email (a sign-up is
-- refused before any account is made; the very same address is the identity provider's to refuse,
-- with the spec's "already registered").
create function public.identity_taken(p_identity_hash text, p_email text) returns boolean
language sql
stable
security definer
set search_path = public, pg_temp
as $$
  select exists (
    select from identities i join user_profiles p on p.id = i.user_id
     where i.identity_hash = p_identity_hash
       and lower(p.email) is distinct from lower(btrim(p_email))
  )
$$;

-- Profiles made before identities, for the server to hash their emails (in id order, from p_after).
create function public.profiles_without_identity(p_after text, p_limit integer) returns jsonb
language sql
stable
security definer
set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'email', email) order by id), '[]')
    from (select id, email from user_profiles
           where identity_hash is null and email is not null and id > coalesce(p_after, '')
           order by id
           limit least(greatest(p_limit, 1), 1000)) as batch
$$;

-- Gives each profile made before identities its identity ([{id, hash}]), unless another live
-- account has that identity already (that older account keeps working without one). Returns how
-- many were given one.
create function public.assign_identities(p_identities jsonb) returns integer
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  v_item jsonb;
  v_hash text;
  v_holder text;
  v_assigned integer := 0;
begin
  for v_item in select * from jsonb_array_elements(coalesce(p_identities, '[]')) loop
    v_hash := nullif(trim(v_item ->> 'hash'), '');
    continue when v_hash is null;
    insert into identities (identity_hash) values (v_hash) on conflict do nothing;
    select user_id into v_holder from identities where identity_hash = v_hash for update;
    continue when v_holder is not null;
    update user_profiles set identity_hash = v_hash where id = v_item ->> 'id' and identity_hash is null;
    if found then
      update identities set user_id = v_item ->> 'id' where identity_hash = v_hash;
      v_assigned := v_assigned + 1;
    end if;
  end loop;
  return v_assigned;
end
$$;

-- Notes the device and address range hashes seen at a sign-up or sign-in ([{kind, hash}]).
create function public.record_account_signals(p_user_id text, p_signals jsonb) returns void
language sql
security definer
set search_path = public, pg_temp
as $$
  insert into account_signals (user_id, kind, hash)
  select distinct p_user_id, signal ->> 'kind', signal ->> 'hash'
    from jsonb_array_elements(coalesce(p_signals, '[]')) as signal
  on conflict (user_id, kind, hash) do update set last_seen_at = now()
$$;

create or replace function public.complete_task(
  p_user_id text,
  p_task_id text,
  p_min_seconds integer,
  p_pay_own_tasks boolean default true
) returns jsonb
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  v_start task_starts;
  v_move jsonb;
  v_status text;
  v_identity text;
  v_paid boolean := true;
begin
  select status into v_status from completed_tasks where user_id = p_user_id and task_id = p_task_id;
  if found then
    return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', 0,
                              'pending', v_status = 'pending');
  end if;
  -- Racing completions queue here; the start row is kept, so each finds it.
  select * into v_start from task_starts
   where user_id = p_user_id and task_id = p_task_id
   for update;
  if not found then
    raise exception 'Task was not started' using errcode = 'P0001', hint = 'task_not_started';
  end if;
  if now() < v_start.started_at + make_interval(secs => greatest(p_min_seconds, 0)) then
    raise exception 'Task is not finished yet' using errcode = 'P0001', hint = 'task_not_finished';
  end if;

  if v_start.provider is not null then
    -- A postback may have credited it meanwhile: then this changes nothing.
    insert into completed_tasks (user_id, task_id, reward, status, provider)
    values (p_user_id, p_task_id, v_start.reward, 'pending', v_start.provider)
    on conflict (user_id, task_id) do nothing;
    select status into v_status from completed_tasks where user_id = p_user_id and task_id = p_task_id;
    return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', 0,
                              'pending', v_status = 'pending', 'expected_reward', v_start.reward);
  end if;

  -- The app's own (fallback) tasks pay only while no offer provider is configured: a start made
  -- from the fallback list (an older server, a time without a provider) is not paid later.
  if not coalesce(p_pay_own_tasks, false) then
    raise exception 'This task is no longer available' using errcode = 'P0001', hint = 'task_unavailable';
  end if;

  -- Each of the app's own tasks pays an identity once, ever: not again under an alias's account
  -- or after the account was deleted (it is still marked completed, for 0 coins).
  select identity_hash into v_identity from user_profiles where id = p_user_id;
  if v_identity is not null then
    insert into identity_rewards (identity_hash, reward, user_id)
    values (v_identity, 'task:' || p_task_id, p_user_id)
    on conflict do nothing;
    v_paid := found;
  end if;

  insert into completed_tasks (user_id, task_id, reward)
  values (p_user_id, p_task_id, case when v_paid then v_start.reward else 0 end)
  on conflict (user_id, task_id) do nothing;
  if not found then
    return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', 0, 'pending', false);
  end if;
  if not v_paid then
    return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', 0, 'pending', false,
                              'already_rewarded', true);
  end if;
  v_move := ledger_move(p_user_id, 'task', v_start.reward, coins_to_dollars(v_start.reward),
                        'Task completed: ' || v_start.title);
  -- Shown already: the page that completed the task says "Task Completed". Push and email remain.
  if (v_move ->> 'amount')::numeric > 0 then
    insert into user_notices (user_id, kind, data, shown_at)
    values (p_user_id, 'task_reward',
            jsonb_build_object('coins', v_start.reward, 'amount', v_move -> 'amount', 'task_id', p_task_id,
                               'title', v_start.title),
            now());
  end if;
  return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', v_start.reward,
                            'pending', false, 'balance', v_move -> 'balance');
end
$$;

create or replace function public.try_referral_credit(p_user_id text) returns jsonb
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  v_config app_config;
  v_referral referrals;
  v_own_coins bigint;
  v_identity text;
begin
  perform from user_profiles where id = p_user_id for key share;
  perform from user_balance where user_id = p_user_id for update;
  select * into v_referral from referrals
   where referred_user_id = p_user_id and credited_at is null
   for update;
  if not found or not (select email_verified from user_profiles where id = p_user_id) then
    return jsonb_build_object('credited', false);
  end if;
  select * into v_config from app_config;
  select coalesce(sum(coins), 0) into v_own_coins
    from transaction_history
   where user_id = p_user_id
     and transaction_type in ('checkin', 'task', 'bonus', 'postback', 'postback_reversal');
  if v_own_coins < v_config.referral_qualifying_coins then
    return jsonb_build_object('credited', false, 'own_coins', v_own_coins);
  end if;

  -- The friend's welcome bonus and the referrer's bonus for this friend are paid once per
  -- identity, ever (provision_user already refers an identity once only: this holds even so).
  select identity_hash into v_identity from user_profiles where id = p_user_id;
  if v_identity is not null then
    insert into identity_rewards (identity_hash, reward, user_id) values (v_identity, 'referral_credit', p_user_id)
    on conflict do nothing;
    if not found then
      update referrals set credited_at = now(), referrer_amount = 0, referred_amount = 0 where id = v_referral.id;
      return jsonb_build_object('credited', false, 'already_rewarded', true);
    end if;
  end if;

  update referrals
     set credited_at = now(),
         referrer_amount = v_config.referral_reward,
         referred_amount = v_config.referral_welcome_bonus
   where id = v_referral.id;
  -- The friend chose their name, so it is not in the referrer's ledger row or notice.
  if v_config.referral_reward > 0 then
    perform ledger_move(v_referral.referrer_user_id, 'referral', null, v_config.referral_reward,
                        'Referral bonus: a friend joined');
    insert into user_notices (user_id, kind, data)
    values (v_referral.referrer_user_id, 'referral_credited',
            jsonb_build_object('amount', v_config.referral_reward));
  end if;
  if v_config.referral_welcome_bonus > 0 then
    perform ledger_move(p_user_id, 'referral_bonus', null, v_config.referral_welcome_bonus,
                        'Welcome bonus for joining with a referral code');
    insert into user_notices (user_id, kind, data)
    values (p_user_id, 'welcome_bonus', jsonb_build_object('amount', v_config.referral_welcome_bonus));
  end if;
  return jsonb_build_object('credited', true, 'referrer_amount', v_config.referral_reward,
                            'referred_amount', v_config.referral_welcome_bonus);
end
$$;

alter table public.identities enable row level security;
alter table public.identity_rewards enable row level security;
alter table public.account_signals enable row level security;
revoke all on public.identities, public.identity_rewards, public.account_signals from public, anon, authenticated;
grant all on public.identities, public.identity_rewards, public.account_signals to service_role;

revoke all on function public.provision_user(text, text, text, text, boolean, text) from public, anon, authenticated;
revoke all on function public.identity_taken(text, text) from public, anon, authenticated;
revoke all on function public.record_account_signals(text, jsonb) from public, anon, authenticated;
revoke all on function public.profiles_without_identity(text, integer) from public, anon, authenticated;
revoke all on function public.assign_identities(jsonb) from public, anon, authenticated;
revoke all on function public.complete_task(text, text, integer, boolean) from public, anon, authenticated;
revoke all on function public.try_referral_credit(text) from public, anon, authenticated;
grant execute on function public.provision_user(text, text, text, text, boolean, text) to service_role;
grant execute on function public.identity_taken(text, text) to service_role;
grant execute on function public.record_account_signals(text, jsonb) to service_role;
grant execute on function public.profiles_without_identity(text, integer) to service_role;
grant execute on function public.assign_identities(jsonb) to service_role;
grant execute on function public.complete_task(text, text, integer, boolean) to service_role;
