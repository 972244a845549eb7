-- Redefines: public.settle_withdrawal, public.operator_export_unpaid, public.operator_withdrawals, public.operator_withdrawal_row, public.mark_payout_sent, public.operator_withdrawal, public.withdrawal_json
--
-- UPI paid by RazorpayX Payouts (issue 37, point 1; docs/decisions/088, docs/rails/razorpayx.md).
-- An approved UPI withdrawal whose rupees were fixed (decision 087) is claimed with the exact
-- request the app will send, kept here: every attempt (after a timeout, a 5xx, a crash between the
-- call and the write) sends the same X-Payout-Idempotency key (the withdrawal id) and the same
-- body, so RazorpayX makes one payout whatever fails. What RazorpayX reports (its answer, a
-- webhook, a read-back) is applied once per payout and status, and never backwards.
alter table public.withdrawals
  -- The rail that pays it: 'paypal' (payout_batch_id is PayPal's batch), 'razorpayx' (its payout id).
  add column payout_rail text
    constraint withdrawals_payout_rail_check check (payout_rail in ('paypal', 'razorpayx')),
  -- The body sent to the rail, stored before the first call and sent unchanged on every retry.
  add column payout_request jsonb
    constraint withdrawals_payout_request_check check (jsonb_typeof(payout_request) = 'object');

update public.withdrawals set payout_rail = 'paypal' where payout_batch_id is not null;

-- Each status a rail reported for a payout, once (webhooks come more than once and out of order).
create table public.payout_events (
  id bigint generated always as identity primary key,
  withdrawal_id uuid not null references public.withdrawals (id),
  rail text not null check (rail in ('paypal', 'razorpayx')),
  payout_id text not null check (length(payout_id) between 1 and 100),
  status text not null check (status ~ '^[a-z_]{1,40}$'),
  utr text check (length(utr) <= 100),
  reason text check (length(reason) <= 500),
  -- Where it was learnt: the create call's answer, a webhook, or the reconciler's read-back.
  source text not null check (source in ('create', 'webhook', 'reconciler')),
  -- Whether it moved the withdrawal (false: a repeat, or behind what was known).
  applied boolean not null,
  received_at timestamp with time zone not null default now(),
  unique (rail, payout_id, status)
);
create index payout_events_withdrawal_idx on public.payout_events (withdrawal_id, id);
alter table public.payout_events enable row level security;
revoke all on public.payout_events from public, anon, authenticated;
create trigger payout_events_never_emptied before truncate on public.payout_events
  for each statement execute function public.refuse_truncate();

-- How far along a RazorpayX status is (docs/rails/razorpayx.md, "States"): a status at or behind
-- the one recorded changes nothing. processed, reversed, failed, rejected and cancelled are final.
CREATE OR REPLACE FUNCTION public.razorpayx_status_rank(p_status text)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select case p_status
    when 'pending' then 1 when 'queued' then 1 when 'scheduled' then 1
    when 'processing' then 2
    when 'processed' then 3 when 'reversed' then 3 when 'failed' then 3 when 'rejected' then 3
    when 'cancelled' then 3
  end
$function$;
revoke all on function public.razorpayx_status_rank(text) from public, anon, authenticated;

-- The UPI withdrawals RazorpayX is to pay now: approved, pending, rupees fixed, not yet answered
-- for (claimed ones too: their stored request is sent again), oldest first; and those sent whose
-- last word is older than `p_settle_after_seconds` and not final, to read back.
CREATE OR REPLACE FUNCTION public.razorpayx_due(p_limit integer, p_settle_after_seconds integer)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select jsonb_build_object(
    'send', coalesce((select jsonb_agg(jsonb_build_object('id', w.id, 'user_id', w.user_id,
                                                          'recipient_upi', w.recipient_upi,
                                                          'payout_amount', w.payout_amount)
                                       order by w.created_at, w.id)
                        from (select w.id, w.created_at, w.user_id, w.recipient_upi, w.payout_amount from withdrawals w
                               join user_profiles p on p.id = w.user_id
                              where w.status = 'pending' and w.review_state = 'approved' and w.sent_at is null
                                and w.payment_method = 'upi' and w.payout_currency = 'INR'
                                and w.payout_rail is distinct from 'paypal'
                                and p.payouts_paused_at is null and p.banned_at is null
                              order by w.created_at, w.id
                              limit greatest(p_limit, 0)) w), '[]'),
    'settle', coalesce((select jsonb_agg(jsonb_build_object('id', w.id, 'payout_id', w.payout_batch_id)
                                         order by w.sent_at, w.id)
                          from (select w.id, w.sent_at, w.payout_batch_id from withdrawals w
                                 where w.status = 'pending' and w.payout_rail = 'razorpayx' and w.sent_at is not null
                                   and coalesce((select max(e.received_at) from payout_events e
                                                  where e.withdrawal_id = w.id), w.sent_at)
                                       < now() - make_interval(secs => p_settle_after_seconds)
                                 order by w.sent_at, w.id
                                 limit greatest(p_limit, 0)) w), '[]'))
$function$;
revoke all on function public.razorpayx_due(integer, integer) from public, anon, authenticated;
grant execute on function public.razorpayx_due(integer, integer) to service_role;

-- Claims a withdrawal for RazorpayX with the request to send: the first claim stores it, every
-- later one returns the stored request unchanged (the same body on every retry). Refused when the
-- withdrawal is no longer to be paid (settled, refused, not approved, paid by PayPal).
CREATE OR REPLACE FUNCTION public.claim_razorpayx_payout(p_withdrawal_id uuid, p_request jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_withdrawal withdrawals;
begin
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  if v_withdrawal.status <> 'pending' then
    raise exception 'Withdrawal is not pending' using errcode = 'P0001', hint = 'withdrawal_not_pending';
  end if;
  if v_withdrawal.review_state <> 'approved' then
    raise exception 'Withdrawal is not approved' using errcode = 'P0001', hint = 'withdrawal_not_approved';
  end if;
  if v_withdrawal.payment_method <> 'upi' or v_withdrawal.payout_currency is distinct from 'INR'
     or v_withdrawal.payout_rail = 'paypal' then
    raise exception 'Not a RazorpayX payout' using errcode = 'P0001', hint = 'not_a_razorpayx_payout';
  end if;
  if v_withdrawal.payout_request is null then
    if jsonb_typeof(p_request) is distinct from 'object' then
      raise exception 'Invalid request' using errcode = 'P0001', hint = 'invalid_payout_request';
    end if;
    update withdrawals
       set payout_rail = 'razorpayx', payout_request = p_request,
           payout_claimed_at = coalesce(payout_claimed_at, now())
     where id = p_withdrawal_id
    returning * into v_withdrawal;
  end if;
  return jsonb_build_object('id', v_withdrawal.id, 'request', v_withdrawal.payout_request,
                            'sent_at', v_withdrawal.sent_at, 'payout_id', v_withdrawal.payout_batch_id);
end
$function$;
revoke all on function public.claim_razorpayx_payout(uuid, jsonb) from public, anon, authenticated;
grant execute on function public.claim_razorpayx_payout(uuid, jsonb) to service_role;

-- Gives a claim back when RazorpayX refused the request for certain (nothing was made) for a reason
-- of ours (credentials, configuration): the next run builds the request again.
CREATE OR REPLACE FUNCTION public.release_razorpayx_claim(p_withdrawal_id uuid)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  update withdrawals set payout_request = null, payout_claimed_at = null, payout_rail = null
   where id = p_withdrawal_id and sent_at is null and payout_rail = 'razorpayx' and status = 'pending';
$function$;
revoke all on function public.release_razorpayx_claim(uuid) from public, anon, authenticated;
grant execute on function public.release_razorpayx_claim(uuid) to service_role;

-- What RazorpayX reported about a withdrawal's payout (its create answer, a webhook, a read-back):
-- recorded once per payout and status; applied when it is ahead of what was known: the payout id
-- recorded (sent) if it was not yet; processed → paid with the UTR as reference; reversed, failed,
-- rejected, cancelled → not paid, the money back (settle_withdrawal: ledger, balance, notice);
-- queued, pending, processing → the status kept ("Sending" to the person). A payout that is not
-- this withdrawal's (another id recorded, another rail) changes nothing.
CREATE OR REPLACE FUNCTION public.apply_razorpayx_payout(p_withdrawal_id uuid, p_payout_id text, p_status text,
                                                         p_utr text, p_reason text, p_source text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_withdrawal withdrawals;
  v_rank integer := razorpayx_status_rank(p_status);
  v_known integer;
  v_event bigint;
  v_settled jsonb;
begin
  if v_rank is null or p_payout_id is null or p_payout_id !~ '^[A-Za-z0-9_]{1,100}$' then
    raise exception 'Invalid payout status' using errcode = 'P0001', hint = 'invalid_payout_status';
  end if;
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  if v_withdrawal.payout_rail is distinct from 'razorpayx'
     or (v_withdrawal.payout_batch_id is not null and v_withdrawal.payout_batch_id <> p_payout_id) then
    return jsonb_build_object('status', 'not_sent', 'changed', false);
  end if;
  v_known := coalesce(razorpayx_status_rank(v_withdrawal.payout_status), 0);
  insert into payout_events (withdrawal_id, rail, payout_id, status, utr, reason, source, applied)
  values (p_withdrawal_id, 'razorpayx', p_payout_id, p_status, left(nullif(trim(p_utr), ''), 100),
          left(nullif(trim(p_reason), ''), 500), p_source,
          v_withdrawal.status = 'pending' and v_rank > v_known)
  on conflict (rail, payout_id, status) do nothing
  returning id into v_event;
  -- A repeat (this payout and status seen before), or behind what was known: nothing moves.
  if v_event is null or v_withdrawal.status <> 'pending' or v_rank <= v_known then
    -- A UTR that arrives after the payout was paid (payout.updated) is kept as its reference.
    if p_status = 'processed' and v_withdrawal.status = 'completed' and nullif(trim(p_utr), '') is not null
       and v_withdrawal.reference = p_payout_id then
      update withdrawals set reference = left(trim(p_utr), 200) where id = p_withdrawal_id;
      return jsonb_build_object('status', 'completed', 'changed', true);
    end if;
    return jsonb_build_object('status', case when v_withdrawal.status = 'pending' then 'pending'
                                             else v_withdrawal.status end, 'changed', false);
  end if;
  update withdrawals
     set payout_batch_id = p_payout_id, payout_status = p_status, sent_at = coalesce(sent_at, now())
   where id = p_withdrawal_id;
  if v_rank < 3 then
    return jsonb_build_object('status', 'pending', 'changed', true);
  end if;
  if p_status = 'processed' then
    v_settled := settle_withdrawal(p_withdrawal_id, 'completed', coalesce(nullif(trim(p_utr), ''), p_payout_id));
  else
    v_settled := settle_withdrawal(p_withdrawal_id, 'failed', null,
                                   left(case p_status
                                          when 'reversed' then 'The bank returned the UPI payout'
                                          when 'rejected' then 'The UPI payout was rejected'
                                          when 'cancelled' then 'The UPI payout was cancelled'
                                          else 'The UPI payout failed' end
                                        || coalesce(': ' || nullif(trim(p_reason), ''), ''), 500));
  end if;
  return jsonb_build_object('status', v_settled ->> 'status', 'changed', (v_settled ->> 'changed')::boolean);
end
$function$;
revoke all on function public.apply_razorpayx_payout(uuid, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.apply_razorpayx_payout(uuid, text, text, text, text, text) to service_role;


CREATE OR REPLACE FUNCTION public.settle_withdrawal(p_withdrawal_id uuid, p_status text, p_reference text DEFAULT NULL::text, p_reason text DEFAULT NULL::text, p_actor text DEFAULT NULL::text, p_actor_user_id text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_actor text := case when p_actor is not null or p_actor_user_id is not null then operator_actor(p_actor) end;
  v_withdrawal withdrawals;
  v_before withdrawals;
begin
  if p_actor_user_id is not null then
    perform require_operator_role(p_actor_user_id, array['finance']);
  end if;
  if p_status is null or p_status not in ('completed', 'failed') then
    raise exception 'Invalid status' using errcode = 'P0001', hint = 'invalid_settlement_status';
  end if;
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;
  if not found then
    raise exception 'Withdrawal not found' using errcode = 'P0001', hint = 'withdrawal_not_found';
  end if;
  perform refuse_own_account(p_actor_user_id, v_withdrawal.user_id);
  if v_withdrawal.status <> 'pending' then
    return withdrawal_json(v_withdrawal) || jsonb_build_object('changed', false);
  end if;
  -- Paid only once an operator (or the risk score) approved it; failing one is always possible.
  if p_status = 'completed' and v_withdrawal.review_state <> 'approved' then
    raise exception 'Withdrawal is not approved' using errcode = 'P0001', hint = 'withdrawal_not_approved';
  end if;
  -- Failed by hand while PayPal may be paying it (claimed, no answer recorded): refunding would pay twice.
  if p_status = 'failed' and v_actor is not null and v_withdrawal.payout_claimed_at is not null
     and v_withdrawal.sent_at is null then
    raise exception 'Withdrawal is being paid' using errcode = 'P0001', hint = 'withdrawal_sending';
  end if;
  -- RazorpayX's to settle once claimed (its answer, webhook or read-back): settled by hand, a
  -- refund or a second payment by hand could pay twice.
  if v_actor is not null and v_withdrawal.payout_rail = 'razorpayx' and v_withdrawal.payout_claimed_at is not null then
    raise exception 'Withdrawal is paid by RazorpayX' using errcode = 'P0001', hint = 'withdrawal_paid_by_razorpayx';
  end if;
  v_before := v_withdrawal;
  update withdrawals
     set status = p_status,
         settled_at = now(),
         reference = coalesce(nullif(trim(p_reference), ''), reference),
         failure_reason = case when p_status = 'failed' then nullif(trim(p_reason), '') end
   where id = p_withdrawal_id
  returning * into v_withdrawal;
  update transaction_history set status = p_status where withdrawal_id = p_withdrawal_id;
  if p_status = 'failed' then
    update user_balance
       set balance = balance + v_withdrawal.amount, updated_at = now()
     where user_id = v_withdrawal.user_id;
  end if;
  insert into user_notices (user_id, kind, data)
  values (v_withdrawal.user_id, 'withdrawal_' || p_status,
          jsonb_build_object('withdrawal_id', v_withdrawal.id, 'amount', v_withdrawal.amount,
                             'payment_method', v_withdrawal.payment_method,
                             'reason', v_withdrawal.failure_reason));
  -- Settled by hand: audited. (PayPal's settlements, through apply_paypal_payout, name no actor.)
  if v_actor is not null then
    insert into operator_actions (actor, actor_user_id, action, user_id, withdrawal_id, reason, record_kind, record_id,
                                  before, after, detail)
    values (v_actor, p_actor_user_id, case p_status when 'completed' then 'mark_paid' else 'mark_failed' end,
            v_withdrawal.user_id, v_withdrawal.id, v_withdrawal.failure_reason, 'withdrawal', v_withdrawal.id::text,
            jsonb_build_object('status', v_before.status),
            jsonb_build_object('status', v_withdrawal.status, 'reference', v_withdrawal.reference),
            jsonb_build_object('amount', v_withdrawal.amount));
  end if;
  return withdrawal_json(v_withdrawal) || jsonb_build_object('changed', true);
end
$function$;

-- With RazorpayX on, the server asks for the hand export without the UPI cash-outs it pays.
drop function public.operator_export_unpaid(text, text);
CREATE OR REPLACE FUNCTION public.operator_export_unpaid(p_operator_id text, p_actor text, p_rupee_upi_by_rail boolean DEFAULT false)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_actor text := operator_actor(p_actor);
  v_rows jsonb;
begin
  perform require_operator_role(p_operator_id, array['finance']);
  select coalesce(jsonb_agg(operator_withdrawal_row(w) order by w.created_at, w.id), '[]') into v_rows
    from withdrawals w
   where w.status = 'pending' and w.review_state = 'approved' and w.payment_method in ('upi', 'bank')
     -- Paid by RazorpayX (docs/decisions/088): not handed out to be paid by hand as well.
     and w.payout_rail is null
     and not (p_rupee_upi_by_rail and w.payment_method = 'upi' and w.payout_currency = 'INR');
  insert into operator_actions (actor, actor_user_id, action, record_kind, detail)
  values (v_actor, p_operator_id, 'export_unpaid', 'withdrawals',
          jsonb_build_object('count', jsonb_array_length(v_rows),
                             'ids', (select coalesce(jsonb_agg(r -> 'id'), '[]') from jsonb_array_elements(v_rows) r)));
  return v_rows;
end
$function$;
revoke all on function public.operator_export_unpaid(text, text, boolean) from public, anon, authenticated;
grant execute on function public.operator_export_unpaid(text, text, boolean) to service_role;

CREATE OR REPLACE FUNCTION public.operator_withdrawals(p_status text DEFAULT 'pending'::text, p_method text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', w.id,
           'created_at', w.created_at,
           'user_id', w.user_id,
           'email', p.email,
           'email_verified', p.email_verified,
           'amount', w.amount,
           'payout_currency', w.payout_currency,
           'payout_amount', w.payout_amount,
           'payout_rate', w.payout_rate,
           'payout_rail', w.payout_rail,
           'payment_method', w.payment_method,
           'recipient', coalesce(w.recipient_email, w.recipient_upi, w.recipient_bank_details ->> 'details'),
           'status', w.status,
           'reference', w.reference,
           'failure_reason', w.failure_reason,
           'payout_batch_id', w.payout_batch_id,
           'payout_status', w.payout_status,
           'sent_at', w.sent_at,
           'review_state', w.review_state,
           'risk_score', w.risk_score,
           'risk_reasons', w.risk_reasons,
           'reviewed_at', w.reviewed_at,
           'reviewed_by', w.reviewed_by,
           'payouts_paused', p.payouts_paused_at is not null,
           'banned', p.banned_at is not null,
           'account_created_at', p.created_at,
           -- Below zero: a reversal took back money already withdrawn (docs/decisions/065).
           'balance', coalesce(b.balance, 0),
           'earnings_by_source', coalesce((
             select jsonb_object_agg(t.transaction_type, t.total)
               from (select transaction_type, sum(amount) as total
                       from transaction_history
                      where user_id = w.user_id and transaction_type <> 'withdrawal'
                      group by transaction_type) t), '{}'::jsonb),
           -- Other accounts paid to the same address; a deleted account is matched by the hash.
           'same_address_accounts', coalesce((
             select jsonb_agg(distinct coalesce(o.user_id, 'deleted account'))
               from withdrawals o
              where o.id <> w.id
                and o.user_id is distinct from w.user_id
                and ((o.recipient_hash is not null and o.recipient_hash = w.recipient_hash)
                     or lower(coalesce(o.recipient_email, o.recipient_upi, o.recipient_bank_details ->> 'details'))
                        = lower(coalesce(w.recipient_email, w.recipient_upi, w.recipient_bank_details ->> 'details')))),
             '[]'::jsonb))
         order by w.created_at, l.id nulls first, w.id), '[]')
    from withdrawals w
    join user_profiles p on p.id = w.user_id
    left join user_balance b on b.user_id = w.user_id
    -- The ledger row's identity orders withdrawals of one millisecond (see get_user_withdrawals).
    left join transaction_history l on l.withdrawal_id = w.id
   where (p_status is null or w.status = p_status)
     and (p_method is null or w.payment_method = p_method)
$function$;

CREATE OR REPLACE FUNCTION public.operator_withdrawal_row(p_withdrawal withdrawals)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select jsonb_build_object(
           'id', p_withdrawal.id,
           'created_at', p_withdrawal.created_at,
           'user_id', p_withdrawal.user_id,
           'email', p.email,
           'account_created_at', p.created_at,
           'amount', p_withdrawal.amount,
           'payout_currency', p_withdrawal.payout_currency,
           'payout_amount', p_withdrawal.payout_amount,
           'payout_rate', p_withdrawal.payout_rate,
           'payout_rail', p_withdrawal.payout_rail,
           'payment_method', p_withdrawal.payment_method,
           'recipient', coalesce(p_withdrawal.recipient_email, p_withdrawal.recipient_upi,
                                 p_withdrawal.recipient_bank_details ->> 'details'),
           'status', p_withdrawal.status,
           'review_state', p_withdrawal.review_state,
           'risk_score', p_withdrawal.risk_score,
           'risk_reasons', coalesce((
             select jsonb_agg(reason || jsonb_build_object('linked', coalesce((
                      select jsonb_agg(jsonb_build_object('id', linked.id, 'email', o.email) order by linked.n)
                        from jsonb_array_elements_text(reason -> 'accounts') with ordinality linked(id, n)
                        left join user_profiles o on o.id = linked.id), '[]'::jsonb))
                    order by (reason ->> 'points')::integer desc)
               from jsonb_array_elements(p_withdrawal.risk_reasons) reason), '[]'::jsonb),
           'reviewed_at', p_withdrawal.reviewed_at,
           'reviewed_by', p_withdrawal.reviewed_by,
           'sent_at', p_withdrawal.sent_at,
           'payout_claimed_at', p_withdrawal.payout_claimed_at,
           'payout_batch_id', p_withdrawal.payout_batch_id,
           'payout_status', p_withdrawal.payout_status,
           'settled_at', p_withdrawal.settled_at,
           'reference', p_withdrawal.reference,
           'failure_reason', p_withdrawal.failure_reason,
           'payouts_paused', coalesce(p.payouts_paused_at is not null, false),
           'banned', coalesce(p.banned_at is not null, false),
           'balance', coalesce(b.balance, 0),
           'first_withdrawal', not exists (select from withdrawals c
                                            where c.user_id = p_withdrawal.user_id and c.status = 'completed'
                                              and c.id <> p_withdrawal.id))
    from (select 1) one
    left join user_profiles p on p.id = p_withdrawal.user_id
    left join user_balance b on b.user_id = p_withdrawal.user_id
$function$;

-- PayPal's sends name their rail; one RazorpayX holds is not PayPal's to send.
CREATE OR REPLACE FUNCTION public.mark_payout_sent(p_withdrawal_id uuid, p_batch_id text, p_payout_status text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_withdrawal withdrawals;
begin
  update withdrawals
     set sent_at = coalesce(sent_at, now()), payout_batch_id = p_batch_id, payout_status = p_payout_status,
         payout_rail = 'paypal'
   where id = p_withdrawal_id and status = 'pending' and review_state = 'approved'
     and payout_rail is distinct from 'razorpayx'
  returning * into v_withdrawal;
  if not found then
    if exists (select from withdrawals where id = p_withdrawal_id and status = 'pending') then
      raise exception 'Withdrawal is not approved' using errcode = 'P0001', hint = 'withdrawal_not_approved';
    end if;
    raise exception 'Withdrawal is not pending' using errcode = 'P0001', hint = 'withdrawal_not_pending';
  end if;
  return withdrawal_json(v_withdrawal);
end
$function$;

CREATE OR REPLACE FUNCTION public.operator_withdrawal(p_operator_id text, p_withdrawal_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_withdrawal withdrawals;
begin
  perform require_operator_role(p_operator_id, array['support']);
  select * into v_withdrawal from withdrawals where id = p_withdrawal_id;
  if not found then
    return null;
  end if;
  return operator_withdrawal_row(v_withdrawal) || jsonb_build_object(
    'actions', coalesce((
      select jsonb_agg(jsonb_build_object('id', a.id, 'at', a.at, 'actor', a.actor, 'action', a.action,
                                          'reason', a.reason) order by a.id desc)
        from (select * from operator_actions where withdrawal_id = p_withdrawal_id order by id desc limit 50) a),
      '[]'::jsonb),
    -- What the payout's rail reported, each status as it was learnt (docs/decisions/088).
    'payout_events', coalesce((
      select jsonb_agg(jsonb_build_object('status', e.status, 'payout_id', e.payout_id, 'utr', e.utr,
                                          'reason', e.reason, 'source', e.source, 'applied', e.applied,
                                          'received_at', e.received_at) order by e.id)
        from payout_events e where e.withdrawal_id = p_withdrawal_id),
      '[]'::jsonb));
end
$function$;

-- The person's history says the paid payment's reference (the UTR their bank shows).
CREATE OR REPLACE FUNCTION public.withdrawal_json(w withdrawals)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select jsonb_build_object(
    'id', w.id,
    'created_at', w.created_at,
    'amount', w.amount,
    'payment_method', w.payment_method,
    'status', w.status,
    -- The step the person is told about (docs/decisions/068): in review, sending, paid, refused.
    'review_state', w.review_state,
    'sent_at', w.sent_at,
    'settled_at', w.settled_at,
    'failure_reason', w.failure_reason,
    -- What is sent in the rail's own money, fixed when it was asked for (UPI: rupees).
    'payout_currency', w.payout_currency,
    'payout_amount', w.payout_amount,
    -- Once paid, the payment's reference (RazorpayX: the bank's UTR; PayPal: its payout item).
    'reference', case when w.status = 'completed' then w.reference end)
$function$;
