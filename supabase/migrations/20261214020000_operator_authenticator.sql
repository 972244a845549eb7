-- An authenticator for operators (issue 38, point 2; docs/decisions/093): in production the console
-- needs a TOTP second factor (RFC 6238: 30-second steps, 6 digits, one step either way), enrolled on
-- the first visit after a role is granted, with ten recovery codes. The secret is kept sealed by the
-- server (AES-256-GCM under a key of the server's: the database alone cannot make codes); each code
-- is used once (the last step used is kept, and only a later one passes); recovery codes are kept as
-- keyed hashes and used once. `npm run operator -- reset-2fa <email>` ends an enrolment, audited.

create table public.operator_totp (
  user_id text primary key references public.operators (user_id) on delete cascade,
  -- base64 of iv (12 bytes) | tag (16) | ciphertext: the base32 secret, sealed by the server.
  secret_sealed text not null check (length(secret_sealed) between 40 and 200),
  -- Null until a first code confirms the enrolment (the QR code was scanned).
  confirmed_at timestamptz,
  -- The last 30-second step a code was accepted for: a code of that step or an earlier one is refused.
  last_step bigint not null default 0,
  created_at timestamptz not null default now()
);
alter table public.operator_totp enable row level security;
revoke all on public.operator_totp from public, anon, authenticated;

create table public.operator_recovery_codes (
  user_id text not null references public.operators (user_id) on delete cascade,
  code_hash text not null check (code_hash ~ '^[0-9a-f]{64}$'),
  used_at timestamptz,
  primary key (user_id, code_hash)
);
alter table public.operator_recovery_codes enable row level security;
revoke all on public.operator_recovery_codes from public, anon, authenticated;

-- The operator's enrolment: {sealed, confirmed} or null. Only for someone who holds a role.
create function public.operator_totp_of(p_user_id text)
 returns jsonb
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select jsonb_build_object('sealed', t.secret_sealed, 'confirmed', t.confirmed_at is not null)
    from operator_totp t join operators o on o.user_id = t.user_id
   where t.user_id = p_user_id
$function$;
revoke all on function public.operator_totp_of(text) from public, anon, authenticated;
grant execute on function public.operator_totp_of(text) to service_role;

-- A new, unconfirmed secret (a first visit, or one whose QR code was never confirmed); refused once
-- an enrolment is confirmed (only reset-2fa ends one).
create function public.start_operator_totp(p_user_id text, p_sealed text)
 returns void
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
begin
  if not exists (select from operators where user_id = p_user_id) then
    raise exception 'Your operator role does not allow this' using errcode = 'P0001', hint = 'operator_role_required';
  end if;
  if exists (select from operator_totp where user_id = p_user_id and confirmed_at is not null) then
    raise exception 'An authenticator is already set up' using errcode = 'P0001', hint = 'totp_already_enrolled';
  end if;
  insert into operator_totp (user_id, secret_sealed) values (p_user_id, p_sealed)
  on conflict (user_id) do update set secret_sealed = excluded.secret_sealed, last_step = 0, created_at = now();
end
$function$;
revoke all on function public.start_operator_totp(text, text) from public, anon, authenticated;
grant execute on function public.start_operator_totp(text, text) to service_role;

-- A code the server found right for `p_step`: accepted once, only later than the last step used
-- (a replayed code, or an older one, is refused). The first confirms the enrolment and stores its
-- recovery codes' hashes (jsonb array), audited.
create function public.use_operator_totp_step(p_user_id text, p_step bigint, p_recovery_hashes jsonb default null)
 returns boolean
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_totp operator_totp;
begin
  update operator_totp set last_step = p_step
   where user_id = p_user_id and last_step < p_step
  returning * into v_totp;
  if not found then
    return false;
  end if;
  if v_totp.confirmed_at is null then
    if jsonb_typeof(p_recovery_hashes) is distinct from 'array' or jsonb_array_length(p_recovery_hashes) <> 10 then
      raise exception 'Ten recovery codes are needed' using errcode = 'P0001', hint = 'invalid_recovery_codes';
    end if;
    update operator_totp set confirmed_at = now() where user_id = p_user_id;
    delete from operator_recovery_codes where user_id = p_user_id;
    insert into operator_recovery_codes (user_id, code_hash)
    select p_user_id, h from jsonb_array_elements_text(p_recovery_hashes) h;
    insert into operator_actions (actor, actor_user_id, action, user_id, record_kind, record_id, after)
    values (operator_name(p_user_id), p_user_id, 'enrol_authenticator', p_user_id, 'operator', p_user_id,
            jsonb_build_object('authenticator', true, 'recovery_codes', 10));
  end if;
  return true;
end
$function$;
revoke all on function public.use_operator_totp_step(text, bigint, jsonb) from public, anon, authenticated;
grant execute on function public.use_operator_totp_step(text, bigint, jsonb) to service_role;

-- A recovery code (its keyed hash), used once; how many are left, or null when it is not one of them.
create function public.use_operator_recovery_code(p_user_id text, p_code_hash text)
 returns integer
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
begin
  update operator_recovery_codes set used_at = now()
   where user_id = p_user_id and code_hash = p_code_hash and used_at is null;
  if not found then
    return null;
  end if;
  insert into operator_actions (actor, actor_user_id, action, user_id, record_kind, record_id, after)
  values (operator_name(p_user_id), p_user_id, 'use_recovery_code', p_user_id, 'operator', p_user_id,
          jsonb_build_object('recovery_codes_left',
                             (select count(*) from operator_recovery_codes where user_id = p_user_id and used_at is null)));
  return (select count(*) from operator_recovery_codes where user_id = p_user_id and used_at is null);
end
$function$;
revoke all on function public.use_operator_recovery_code(text, text) from public, anon, authenticated;
grant execute on function public.use_operator_recovery_code(text, text) to service_role;

-- `npm run operator -- reset-2fa <email>`: the enrolment and its recovery codes go, audited with the
-- actor's name; the person's sessions end, and their next visit enrols again.
create function public.reset_operator_totp(p_actor text, p_user_id text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_actor text := operator_actor(p_actor);
  v_had boolean;
begin
  if not exists (select from operators where user_id = p_user_id) then
    raise exception 'This account holds no operator role' using errcode = 'P0001', hint = 'not_an_operator';
  end if;
  delete from operator_totp where user_id = p_user_id returning true into v_had;
  delete from operator_recovery_codes where user_id = p_user_id;
  insert into operator_actions (actor, action, user_id, record_kind, record_id, before, after)
  values (v_actor, 'reset_authenticator', p_user_id, 'operator', p_user_id,
          jsonb_build_object('authenticator', coalesce(v_had, false)), jsonb_build_object('authenticator', false));
  perform announce_sessions_ended(p_user_id);
  return jsonb_build_object('user_id', p_user_id, 'had_authenticator', coalesce(v_had, false));
end
$function$;
revoke all on function public.reset_operator_totp(text, text) from public, anon, authenticated;
grant execute on function public.reset_operator_totp(text, text) to service_role;
