-- Notices really arrive by push and email (README, "Notifications: push and email").
--
-- 1. Two more notice kinds, written in the same transaction as their credit: `task_reward` (by
--    complete_task; shown at once, since the page that completed the task says "Task Completed")
--    and `postback_reward` (by record_postback; a toast on the next visit).
-- 2. The outbox remembers, per channel, how far delivery has got. App servers deliver it: each
--    claims a few due notices at a time (`for update skip locked`, so instances never share one)
--    under a lease (a worker that dies leaves its claims to be claimed again when the lease ends),
--    sends, and records each channel's outcome. Delivery is at least once: a notice whose outcome
--    was lost is sent again.
-- 3. `pg_notify('user_notices', user_id)` on every new notice wakes the workers at once.
--
-- complete_task and record_postback are their newest versions (20261122030000_rule_keys_and_config.sql)
-- with only the notice added; `create or replace` keeps their grants.
--
-- Redefines: public.complete_task, public.record_postback

-- ---------------------------------------------------------------------------------------------
-- Constants
alter table public.app_config
  -- Tries per channel before a notice is given up on that channel.
  add column notice_delivery_attempts integer not null default 10
    check (notice_delivery_attempts between 1 and 100),
  -- A notice not delivered this long after it was written is no longer sent: a backlog from a
  -- time without SMTP or FCM would otherwise arrive all at once, long after the fact.
  add column notice_delivery_window_hours integer not null default 72 check (notice_delivery_window_hours > 0);

-- ---------------------------------------------------------------------------------------------
-- The outbox
alter table public.user_notices drop constraint user_notices_kind_check;
alter table public.user_notices add constraint user_notices_kind_check check (
  kind in ('withdrawal_completed', 'withdrawal_failed', 'referral_credited', 'welcome_bonus', 'task_reward',
           'postback_reward'));

-- Per channel a status: pending (to be sent, again after a failed try), sent, skipped (turned
-- off, or no device or address to send to), failed (given up). Notices written before delivery
-- existed have been shown in the app already: they start as skipped and are not sent now.
alter table public.user_notices
  add column push_status text not null default 'skipped'
    check (push_status in ('pending', 'sent', 'skipped', 'failed')),
  add column email_status text not null default 'skipped'
    check (email_status in ('pending', 'sent', 'skipped', 'failed')),
  -- Tries claimed so far (a claim counts, so a worker that dies on every try still gives up).
  add column push_attempts integer not null default 0 check (push_attempts >= 0),
  add column email_attempts integer not null default 0 check (email_attempts >= 0),
  -- Why a channel was skipped, or its last failure.
  add column push_detail text check (length(push_detail) <= 1000),
  add column email_detail text check (length(email_detail) <= 1000),
  -- Push tokens this notice reached, so a retry after a partial failure reaches only the others.
  add column push_delivered_tokens text[] not null default '{}',
  -- When the notice is next due, while a channel is pending; while a worker holds it, the end of
  -- the claim's lease.
  add column next_attempt_at timestamptz,
  -- The claim that holds the notice: only its outcome is recorded.
  add column claim_id uuid;

alter table public.user_notices
  alter column push_status set default 'pending',
  alter column email_status set default 'pending',
  alter column next_attempt_at set default now(),
  add constraint user_notices_due_check
    check ((push_status = 'pending' or email_status = 'pending') = (next_attempt_at is not null));

create index user_notices_due_idx on public.user_notices (next_attempt_at, id) where next_attempt_at is not null;

-- Workers listen for new notices.
create function public.notify_user_notice() returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  perform pg_notify('user_notices', new.user_id);
  return new;
end
$$;

create trigger user_notices_notify
  after insert on public.user_notices
  for each row execute function public.notify_user_notice();

-- Which preference switch (spec §2 Notification settings) governs a kind; null for none (not sent).
create function public.notice_category(p_kind text) returns text
  language sql
  immutable
  set search_path = public, pg_temp
as $$
  select case
           when p_kind in ('withdrawal_completed', 'withdrawal_failed') then 'withdrawal'
           when p_kind in ('referral_credited', 'welcome_bonus', 'task_reward', 'postback_reward') then 'reward'
         end
$$;

-- ---------------------------------------------------------------------------------------------
-- Delivery
--
-- Claims up to p_limit due notices for p_lease_seconds, oldest due first, skipping those another
-- worker holds. Each comes with what sending needs: the words' data, the person's address and
-- name, their switches, and their newest push tokens (at most 10) that this notice has not
-- reached yet. Due notices past the delivery window, and channels whose every try was claimed
-- without an outcome, are closed on the way instead.
create function public.claim_due_notices(p_limit integer default 10, p_lease_seconds integer default 300)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_config app_config;
  v_claim uuid := gen_random_uuid();
  v_notice user_notices;
  v_push text;
  v_email text;
  v_claimed bigint[] := '{}';
begin
  if p_limit is null or p_limit not between 1 and 100 or p_lease_seconds is null
     or p_lease_seconds not between 1 and 3600 then
    raise exception 'Invalid delivery claim' using errcode = 'P0001', hint = 'invalid_delivery_claim';
  end if;
  select * into v_config from app_config;

  for v_notice in
    select * from user_notices
     where next_attempt_at <= now()
     order by next_attempt_at, id
       for update skip locked
  loop
    v_push := v_notice.push_status;
    v_email := v_notice.email_status;
    if v_notice.created_at < now() - make_interval(hours => v_config.notice_delivery_window_hours) then
      v_push := case when v_push = 'pending' then 'skipped' else v_push end;
      v_email := case when v_email = 'pending' then 'skipped' else v_email end;
    else
      v_push := case when v_push = 'pending' and v_notice.push_attempts >= v_config.notice_delivery_attempts
                     then 'failed' else v_push end;
      v_email := case when v_email = 'pending' and v_notice.email_attempts >= v_config.notice_delivery_attempts
                      then 'failed' else v_email end;
    end if;

    if v_push <> 'pending' and v_email <> 'pending' then
      update user_notices
         set push_status = v_push,
             email_status = v_email,
             push_detail = case when push_status = 'pending' then
                             case v_push when 'skipped' then 'not delivered within the delivery window'
                                         else coalesce(push_detail, 'no outcome was recorded') end
                           else push_detail end,
             email_detail = case when email_status = 'pending' then
                              case v_email when 'skipped' then 'not delivered within the delivery window'
                                           else coalesce(email_detail, 'no outcome was recorded') end
                            else email_detail end,
             next_attempt_at = null,
             claim_id = null
       where id = v_notice.id;
      continue;
    end if;

    update user_notices
       set push_status = v_push,
           email_status = v_email,
           push_attempts = push_attempts + (v_push = 'pending')::integer,
           email_attempts = email_attempts + (v_email = 'pending')::integer,
           next_attempt_at = now() + make_interval(secs => p_lease_seconds),
           claim_id = v_claim
     where id = v_notice.id;
    v_claimed := v_claimed || v_notice.id;
    exit when cardinality(v_claimed) >= p_limit;
  end loop;

  return (
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', n.id,
             'claim_id', n.claim_id,
             'user_id', n.user_id,
             'kind', n.kind,
             'data', n.data,
             'created_at', n.created_at,
             'recipient', jsonb_build_object('email', p.email, 'display_name', p.display_name),
             'preferences', jsonb_build_object(
               'email', coalesce(np.email_notifications, true),
               'push', coalesce(np.push_notifications, true),
               'category', notice_category(n.kind),
               'category_enabled', case notice_category(n.kind)
                                     when 'withdrawal' then coalesce(np.withdrawal_notifications, true)
                                     when 'reward' then coalesce(np.reward_notifications, true)
                                     else false
                                   end),
             'push', jsonb_build_object(
               'due', n.push_status = 'pending',
               'attempt', n.push_attempts,
               'delivered_before', cardinality(n.push_delivered_tokens),
               'tokens', coalesce((
                 select jsonb_agg(newest.fcm_token order by newest.created_at desc, newest.id desc)
                   from (select t.id, t.fcm_token, t.created_at
                           from user_fcm_tokens t
                          where t.user_id = n.user_id
                          order by t.created_at desc, t.id desc
                          limit 10) newest
                  where not newest.fcm_token = any (n.push_delivered_tokens)), '[]'::jsonb)),
             'email', jsonb_build_object('due', n.email_status = 'pending', 'attempt', n.email_attempts))
           order by n.id), '[]'::jsonb)
      from user_notices n
      join user_profiles p on p.id = n.user_id
      left join notification_preferences np on np.user_id = n.user_id
     where n.id = any (v_claimed));
end
$$;

-- One channel's next state after a try. p_outcome: null (not tried: due again at once, if it
-- was due), or {"outcome": "sent" | "skipped" | "failed", "detail": text, "retry_in_seconds":
-- seconds or null}. A failure is tried again after retry_in_seconds while tries remain; without
-- retry_in_seconds it is final (a recipient the mail server refuses for good).
create function public.next_channel_state(p_status text, p_attempts integer, p_outcome jsonb,
                                          p_max_attempts integer, out status text, out due_at timestamptz,
                                          out detail text)
  language plpgsql
  stable
  set search_path = public, pg_temp
as $$
declare
  v_outcome text := p_outcome ->> 'outcome';
  v_retry numeric;
begin
  detail := left(p_outcome ->> 'detail', 1000);
  if p_status <> 'pending' then
    -- Closed before this try reported (e.g. past the window): it stays closed.
    status := p_status;
    detail := null;
    return;
  end if;
  if p_outcome is null or jsonb_typeof(p_outcome) = 'null' then
    status := 'pending';
    due_at := now();
    return;
  end if;
  if jsonb_typeof(p_outcome) <> 'object' or v_outcome is null
     or v_outcome not in ('sent', 'skipped', 'failed')
     or (p_outcome ? 'retry_in_seconds' and jsonb_typeof(p_outcome -> 'retry_in_seconds') not in ('number', 'null')) then
    raise exception 'Invalid delivery outcome' using errcode = 'P0001', hint = 'invalid_delivery_outcome';
  end if;
  if v_outcome <> 'failed' then
    status := v_outcome;
    return;
  end if;
  v_retry := (p_outcome ->> 'retry_in_seconds')::numeric;
  if v_retry is null or p_attempts >= p_max_attempts then
    status := 'failed';
  else
    status := 'pending';
    due_at := now() + make_interval(secs => greatest(least(v_retry, 86400), 0)::double precision);
  end if;
end
$$;

-- Records what became of a claimed notice: p_push and p_email as next_channel_state describes,
-- p_push's "delivered_tokens" listing the devices it reached. An outcome that comes after the
-- claim's lease ran out and another claim took the notice is not recorded ('recorded': false):
-- that claim sends again.
create function public.record_notice_delivery(p_notice_id bigint, p_claim_id uuid, p_push jsonb default null,
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

-- FCM says a token no longer reaches a device (the app was uninstalled, the browser dropped its
-- subscription): it is forgotten for every account that stored it.
create function public.drop_fcm_token(p_token text) returns jsonb
  language sql
  security definer
  set search_path = public, pg_temp
as $$
  with dropped as (delete from user_fcm_tokens where fcm_token = p_token returning 1)
  select jsonb_build_object('dropped', count(*)) from dropped
$$;

-- ---------------------------------------------------------------------------------------------
-- Credits that now write a notice
create or replace function public.complete_task(p_user_id text, p_task_id text, p_min_seconds integer)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_start task_starts;
  v_move jsonb;
begin
  if exists (select from completed_tasks where user_id = p_user_id and task_id = p_task_id) then
    return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', 0);
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
  insert into completed_tasks (user_id, task_id, reward)
  values (p_user_id, p_task_id, v_start.reward)
  on conflict (user_id, task_id) do nothing;
  if not found then
    return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', 0);
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
                            'balance', v_move -> 'balance');
end
$$;

create or replace function public.record_postback(p_provider text, p_transaction_id text, p_user_id text,
                                                  p_coins integer, p_reversal boolean, p_description text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_kind text := case when p_reversal then 'reversal' else 'credit' end;
  v_id bigint;
  v_credited numeric;
  v_balance numeric;
  v_amount numeric;
  v_coins integer;
  c_rate integer := (select coins_per_dollar from app_config);
begin
  if p_coins is null or p_coins < 0 then
    raise exception 'Coins must be zero or more' using errcode = 'P0001', hint = 'invalid_coins';
  end if;
  if not exists (select from user_profiles where id = p_user_id) then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- Racing repeats of one postback queue on the unique key; only the first is recorded.
  insert into provider_postbacks (provider, transaction_id, kind, user_id, coins)
  values (p_provider, p_transaction_id, v_kind, p_user_id, p_coins)
  on conflict (provider, transaction_id, kind) do nothing
  returning id into v_id;
  if v_id is null then
    return jsonb_build_object('duplicate', true, 'amount', 0);
  end if;

  if not p_reversal then
    v_amount := coins_to_dollars(p_coins);
    v_coins := p_coins;
    perform ledger_move(p_user_id, 'postback', v_coins, v_amount, p_description);
    -- A toast on the next visit, and push and email.
    if v_amount > 0 then
      insert into user_notices (user_id, kind, data)
      values (p_user_id, 'postback_reward',
              jsonb_build_object('coins', v_coins, 'amount', v_amount, 'provider', p_provider));
    end if;
  else
    -- Take back what the matching credit gave, but never more than the balance holds now.
    select amount into v_credited from provider_postbacks
     where provider = p_provider and transaction_id = p_transaction_id and kind = 'credit'
       and user_id = p_user_id;
    select balance into v_balance from user_balance where user_id = p_user_id for update;
    v_amount := -least(coalesce(v_credited, 0), coins_to_dollars(p_coins), v_balance);
    v_coins := -ceil(-v_amount * c_rate)::integer;
    if v_amount < 0 then
      perform ledger_move(p_user_id, 'postback_reversal', v_coins, v_amount, p_description);
    end if;
  end if;
  update provider_postbacks set amount = v_amount where id = v_id;
  return jsonb_build_object('duplicate', false, 'amount', v_amount, 'coins', v_coins);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Access: nothing for anon/authenticated, the delivery functions for service_role.
revoke all on function public.notify_user_notice() from public, anon, authenticated;
revoke all on function public.notice_category(text) from public, anon, authenticated;
revoke all on function public.claim_due_notices(integer, integer) from public, anon, authenticated;
revoke all on function public.next_channel_state(text, integer, jsonb, integer) from public, anon, authenticated;
revoke all on function public.record_notice_delivery(bigint, uuid, jsonb, jsonb) from public, anon, authenticated;
revoke all on function public.drop_fcm_token(text) from public, anon, authenticated;

grant execute on function public.claim_due_notices(integer, integer) to service_role;
grant execute on function public.record_notice_delivery(bigint, uuid, jsonb, jsonb) to service_role;
grant execute on function public.drop_fcm_token(text) to service_role;
