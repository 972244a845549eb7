-- Security round 2: notice emails, PayPal settlement and push tokens (README, "Notifications: push
-- and email", "Paying out withdrawals" and the differences list).
--
-- 1. A notice email goes only to a verified address, and at most
--    app_config.notice_emails_per_address_per_day a day to one address (counted over the last 24
--    hours, across every account with that address). The worker reserves the email
--    (reserve_notice_email) before it sends; the reservation is the count, so two workers cannot
--    both send the last one of the day.
-- 2. A PayPal payout event settles only a withdrawal that was sent to PayPal, in that payout batch
--    (apply_paypal_payout); anything else changes nothing.
-- 3. A push token belongs to one account at a time: registering it moves it. Deactivation deletes
--    the account's tokens; log out deletes this device's (forget_push_device).
--
-- record_notice_delivery, register_push_token and set_account_active are their newest versions
-- (20261124010000_notification_delivery.sql, 20261126010000_bad_input.sql,
-- 20261124000000_profile.sql) with only the changes described; `create or replace` keeps their grants.
--
-- Redefines: public.record_notice_delivery, public.register_push_token, public.set_account_active

-- ---------------------------------------------------------------------------------------------
-- 1. Notice emails
alter table public.app_config
  -- Notice emails one address may get in 24 hours; past it, its notices' email is skipped.
  add column notice_emails_per_address_per_day integer not null default 10
    check (notice_emails_per_address_per_day between 0 and 1000);

-- The address a notice's email was reserved for (lower case), and when; kept once it was sent,
-- cleared when the try failed or was skipped. These rows are the daily count.
alter table public.user_notices
  add column email_address text check (length(email_address) <= 320),
  add column email_reserved_at timestamptz,
  add constraint user_notices_email_reservation_check check ((email_address is null) = (email_reserved_at is null));

create index user_notices_email_address_idx on public.user_notices (email_address, email_reserved_at)
  where email_address is not null;

-- Whether the worker may send this claimed notice's email now, and to which address:
-- {"send": true, "address": ...} or {"send": false, "detail": why}. Refused for an account without
-- a verified address and for an address that had its day's notice emails. A notice that already
-- holds a reservation (an earlier try of it stopped before recording) keeps it.
create function public.reserve_notice_email(p_notice_id bigint, p_claim_id uuid) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_notice user_notices;
  v_email text;
  v_verified boolean;
  v_address text;
  v_limit integer := (select notice_emails_per_address_per_day from app_config);
  v_sent integer;
begin
  if p_notice_id is null or p_claim_id is null then
    raise exception 'Invalid delivery claim' using errcode = 'P0001', hint = 'invalid_delivery_claim';
  end if;
  select * into v_notice from user_notices where id = p_notice_id for update;
  if not found or v_notice.claim_id is distinct from p_claim_id or v_notice.email_status <> 'pending' then
    return jsonb_build_object('send', false, 'detail', 'the notice is no longer claimed');
  end if;
  select nullif(btrim(email), ''), email_verified into v_email, v_verified
    from user_profiles where id = v_notice.user_id;
  if v_email is null then
    return jsonb_build_object('send', false, 'detail', 'the account has no email address');
  end if;
  if not coalesce(v_verified, false) then
    return jsonb_build_object('send', false, 'detail', 'the email address is not verified');
  end if;
  v_address := lower(v_email);
  if v_notice.email_address = v_address then
    return jsonb_build_object('send', true, 'address', v_email);
  end if;

  -- Reservations for one address queue here, so each counts the ones committed before it.
  perform pg_advisory_xact_lock(hashtextextended('notice_email:' || v_address, 0));
  select count(*) into v_sent
    from user_notices
   where email_address = v_address and email_reserved_at > now() - interval '24 hours';
  if v_sent >= v_limit then
    return jsonb_build_object('send', false, 'detail',
      format('this address had its %s notice emails of the last 24 hours (app_config.notice_emails_per_address_per_day)',
             v_limit));
  end if;
  update user_notices set email_address = v_address, email_reserved_at = now() where id = p_notice_id;
  return jsonb_build_object('send', true, 'address', v_email);
end
$$;

-- As in 20261124010000_notification_delivery.sql, and an email that was not sent gives its
-- reservation back (a retry reserves again).
create or replace function public.record_notice_delivery(p_notice_id bigint, p_claim_id uuid, p_push jsonb default null,
                                                         p_email jsonb default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_notice user_notices;
  v_max integer := (select notice_delivery_attempts from app_config);
  v_push record;
  v_email record;
  v_delivered text[];
begin
  if p_notice_id is null or p_claim_id is null
     or (p_push ? 'delivered_tokens' and jsonb_typeof(p_push -> 'delivered_tokens') <> 'array') then
    raise exception 'Invalid delivery outcome' using errcode = 'P0001', hint = 'invalid_delivery_outcome';
  end if;
  select * into v_notice from user_notices where id = p_notice_id for update;
  if not found or v_notice.claim_id is distinct from p_claim_id then
    return jsonb_build_object('recorded', false);
  end if;

  select * into v_push from next_channel_state(v_notice.push_status, v_notice.push_attempts, p_push, v_max);
  select * into v_email from next_channel_state(v_notice.email_status, v_notice.email_attempts, p_email, v_max);
  select coalesce(array_agg(distinct token), '{}') into v_delivered
    from (select unnest(v_notice.push_delivered_tokens) as token
          union
          select jsonb_array_elements_text(coalesce(p_push -> 'delivered_tokens', '[]'))) tokens;

  update user_notices
     set push_status = v_push.status,
         email_status = v_email.status,
         push_detail = coalesce(v_push.detail, case when v_push.status = 'sent' then null else push_detail end),
         email_detail = coalesce(v_email.detail, case when v_email.status = 'sent' then null else email_detail end),
         push_delivered_tokens = v_delivered,
         push_sent_at = case when v_push.status = 'sent' then coalesce(push_sent_at, now()) else push_sent_at end,
         email_sent_at = case when v_email.status = 'sent' then coalesce(email_sent_at, now()) else email_sent_at end,
         email_address = case when v_email.status = 'sent' then email_address end,
         email_reserved_at = case when v_email.status = 'sent' then email_reserved_at end,
         next_attempt_at = least(v_push.due_at, v_email.due_at),
         claim_id = null
   where id = p_notice_id
  returning * into v_notice;

  return jsonb_build_object('recorded', true,
                            'push_status', v_notice.push_status,
                            'email_status', v_notice.email_status,
                            'next_attempt_at', v_notice.next_attempt_at);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- 2. PayPal settlement
--
-- What PayPal reported for a withdrawal's payout item (a verified webhook, or `sync`): the status
-- is recorded and, with p_settle ('completed' or 'failed'), the withdrawal is settled once
-- (settle_withdrawal). Only a PayPal withdrawal that was sent (payout_batch_id, sent_at), in
-- p_payout_batch_id when that is given, is touched: for any other the answer is
-- {"status": "not_sent", "changed": false} and nothing changes.
create function public.apply_paypal_payout(p_withdrawal_id uuid, p_payout_batch_id text, p_payout_status text,
                                           p_settle text default null, p_reference text default null,
                                           p_reason text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_withdrawal withdrawals;
  v_settled jsonb;
begin
  if p_settle is not null and p_settle not in ('completed', 'failed') then
    raise exception 'Invalid status' using errcode = 'P0001', hint = 'invalid_settlement_status';
  end if;
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  if v_withdrawal.payment_method <> 'paypal' or v_withdrawal.sent_at is null or v_withdrawal.payout_batch_id is null
     or (p_payout_batch_id is not null and p_payout_batch_id <> v_withdrawal.payout_batch_id) then
    return jsonb_build_object('status', 'not_sent', 'changed', false);
  end if;
  if v_withdrawal.status <> 'pending' then
    return jsonb_build_object('status', case when p_settle is null then 'not_pending' else v_withdrawal.status end,
                              'changed', false);
  end if;
  update withdrawals set payout_status = p_payout_status where id = p_withdrawal_id;
  if p_settle is null then
    return jsonb_build_object('status', 'pending', 'changed', false);
  end if;
  v_settled := settle_withdrawal(p_withdrawal_id, p_settle, p_reference, p_reason);
  return jsonb_build_object('status', v_settled ->> 'status', 'changed', (v_settled ->> 'changed')::boolean);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- 3. Push tokens
--
-- A token is one browser's: it belongs to the account that registered it last. Of duplicates,
-- the newest registration stays.
delete from public.user_fcm_tokens t
 using public.user_fcm_tokens newer
 where newer.fcm_token = t.fcm_token
   and (newer.created_at, newer.id) > (t.created_at, t.id);

alter table public.user_fcm_tokens add constraint user_fcm_tokens_fcm_token_key unique (fcm_token);

-- As in 20261126010000_bad_input.sql, but a token another account holds moves to this one, and the
-- answer carries the row's id ('device_id', which the app keeps in this browser's cookie).
create or replace function public.register_push_token(p_user_id text, p_token text, p_now timestamptz default now())
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_id bigint;
begin
  -- FCM's tokens are made of letters, digits and - _ : (base64 and separators allowed too).
  if p_token is null or char_length(p_token) not between 20 and 4096 or p_token ~ '[^A-Za-z0-9_:.+/=-]' then
    raise exception 'Invalid push token' using errcode = 'P0001', hint = 'invalid_push_token';
  end if;
  if not exists (select from user_profiles where id = p_user_id) then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  insert into user_fcm_tokens (user_id, fcm_token, created_at) values (p_user_id, p_token, p_now)
  on conflict (fcm_token) do update set user_id = excluded.user_id, created_at = excluded.created_at
  returning id into v_id;
  delete from user_fcm_tokens
   where user_id = p_user_id
     and id not in (select id from user_fcm_tokens where user_id = p_user_id
                     order by created_at desc, id desc limit 10);
  return push_token_status(p_user_id, p_token, p_now)
         || jsonb_build_object('device_id', (select id from user_fcm_tokens where id = v_id));
end
$$;

-- Log out (p_except_user_id null) forgets this device's token, whoever holds it; a sign-in forgets
-- it unless it is the signing-in account's (p_except_user_id).
create function public.forget_push_device(p_device_id bigint, p_except_user_id text default null) returns jsonb
  language sql
  security definer
  set search_path = public, pg_temp
as $$
  with gone as (
    delete from user_fcm_tokens
     where id = p_device_id and (p_except_user_id is null or user_id <> p_except_user_id)
    returning 1)
  select jsonb_build_object('deleted', (select count(*) from gone))
$$;

-- As in 20261124000000_profile.sql; deactivating also deletes the account's push tokens (it signs
-- out every device).
create or replace function public.set_account_active(p_user_id text, p_active boolean) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_was boolean;
begin
  select coalesce((preferences ->> 'is_active')::boolean, true) into v_was
    from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  update user_profiles
     set preferences = preferences || jsonb_build_object('is_active', coalesce(p_active, true)),
         updated_at = now()
   where id = p_user_id;
  if not coalesce(p_active, true) then
    delete from user_fcm_tokens where user_id = p_user_id;
  end if;
  return jsonb_build_object('was_active', v_was, 'is_active', coalesce(p_active, true));
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Access: the new functions for service_role only.
revoke all on function public.reserve_notice_email(bigint, uuid) from public, anon, authenticated;
revoke all on function public.apply_paypal_payout(uuid, text, text, text, text, text) from public, anon, authenticated;
revoke all on function public.forget_push_device(bigint, text) from public, anon, authenticated;

grant execute on function public.reserve_notice_email(bigint, uuid) to service_role;
grant execute on function public.apply_paypal_payout(uuid, text, text, text, text, text) to service_role;
grant execute on function public.forget_push_device(bigint, text) to service_role;
