-- Issue 20, "Withdrawals" (docs/operator-console.md): the console's review queue and withdrawal pages.
--
-- - operator_withdrawal_row(withdrawal): what the console shows of one withdrawal: the account and
--   its standing, the recipient, the review (score, each reason with its linked accounts named by
--   email where they still exist), PayPal's part and the settlement.
-- - operator_withdrawal_list(operator, view, method, min age, cursor, limit): one view a page:
--   `review` (waiting for an operator), `unpaid` (approved, not sent or paid yet), `sent` (with
--   PayPal, waiting for its outcome) oldest first, as a queue is worked; `paid`, `failed` and `all`
--   newest first. Keyset paging by (created_at, id), through the partial indexes below.
-- - operator_withdrawal_counts(operator): how many wait in each queue view, and since when.
-- - operator_withdrawal(operator, id): one withdrawal with its audit entries.
-- Every role may read them (support answers people about their cash-outs); the actions are
-- approve_withdrawals, reject_withdrawal and settle_withdrawal with the operator's id (finance).

create index withdrawals_pending_created_idx on public.withdrawals (created_at, id) where status = 'pending';
create index withdrawals_settled_created_idx on public.withdrawals (status, created_at desc, id desc)
  where status <> 'pending';
-- A withdrawal's audit entries, for its page.
create index operator_actions_withdrawal_idx on public.operator_actions (withdrawal_id, id desc)
  where withdrawal_id is not null;

create function public.operator_withdrawal_row(p_withdrawal withdrawals)
  returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select jsonb_build_object(
           'id', p_withdrawal.id,
           'created_at', p_withdrawal.created_at,
           'user_id', p_withdrawal.user_id,
           'email', p.email,
           'account_created_at', p.created_at,
           'amount', p_withdrawal.amount,
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
$$;

create function public.operator_withdrawal_list(
  p_operator_id text,
  p_view text,
  p_method text default null,
  p_min_age_hours integer default null,
  p_cursor_created_at timestamptz default null,
  p_cursor_id uuid default null,
  p_limit integer default 50
)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_limit integer := least(greatest(coalesce(p_limit, 50), 1), 201);
  v_older_than timestamptz := case when p_min_age_hours > 0 then now() - make_interval(hours => p_min_age_hours) end;
  v_rows jsonb;
begin
  perform require_operator_role(p_operator_id, array['support']);
  if p_view is null or p_view not in ('review', 'unpaid', 'sent', 'paid', 'failed', 'all') then
    raise exception 'Unknown view' using errcode = 'P0001', hint = 'invalid_withdrawal_view';
  end if;
  if p_method is not null and p_method not in ('paypal', 'upi', 'bank') then
    raise exception 'Invalid payment method' using errcode = 'P0001', hint = 'unsupported_payment_method';
  end if;
  if p_view in ('review', 'unpaid', 'sent') then
    -- A queue, oldest first: the cursor is the last row of the page before.
    select coalesce(jsonb_agg(operator_withdrawal_row(w) order by w.created_at, w.id), '[]') into v_rows
      from (select * from withdrawals w
             where w.status = 'pending'
               and case p_view
                     when 'review' then w.review_state = 'review'
                     when 'unpaid' then w.review_state = 'approved' and w.sent_at is null
                     else w.sent_at is not null
                   end
               and (p_method is null or w.payment_method = p_method)
               and (v_older_than is null or w.created_at <= v_older_than)
               and (p_cursor_created_at is null or (w.created_at, w.id) > (p_cursor_created_at, p_cursor_id))
             order by w.created_at, w.id
             limit v_limit) w;
  else
    -- History, newest first.
    select coalesce(jsonb_agg(operator_withdrawal_row(w) order by w.created_at desc, w.id desc), '[]') into v_rows
      from (select * from withdrawals w
             where case p_view when 'paid' then w.status = 'completed'
                               when 'failed' then w.status = 'failed'
                               else true end
               and (p_method is null or w.payment_method = p_method)
               and (v_older_than is null or w.created_at <= v_older_than)
               and (p_cursor_created_at is null or (w.created_at, w.id) < (p_cursor_created_at, p_cursor_id))
             order by w.created_at desc, w.id desc
             limit v_limit) w;
  end if;
  return v_rows;
end
$$;

create function public.operator_withdrawal_counts(p_operator_id text)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  perform require_operator_role(p_operator_id, array['support']);
  return (
    select jsonb_build_object(
             'review', count(*) filter (where review_state = 'review'),
             'review_oldest_at', min(created_at) filter (where review_state = 'review'),
             'unpaid', count(*) filter (where review_state = 'approved' and sent_at is null),
             'unpaid_oldest_at', min(created_at) filter (where review_state = 'approved' and sent_at is null),
             'sent', count(*) filter (where sent_at is not null))
      from withdrawals
     where status = 'pending');
end
$$;

create function public.operator_withdrawal(p_operator_id text, p_withdrawal_id uuid)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
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
      '[]'::jsonb));
end
$$;

revoke all on function public.operator_withdrawal_row(withdrawals) from public, anon, authenticated;
revoke all on function public.operator_withdrawal_list(text, text, text, integer, timestamptz, uuid, integer)
  from public, anon, authenticated;
grant execute on function public.operator_withdrawal_list(text, text, text, integer, timestamptz, uuid, integer)
  to service_role;
revoke all on function public.operator_withdrawal_counts(text) from public, anon, authenticated;
grant execute on function public.operator_withdrawal_counts(text) to service_role;
revoke all on function public.operator_withdrawal(text, uuid) from public, anon, authenticated;
grant execute on function public.operator_withdrawal(text, uuid) to service_role;

-- The approved, unpaid UPI and bank withdrawals to pay by hand (what `npm run payouts -- export-upi`
-- writes), for the console's CSV export: finance only, since it holds payout addresses, and the
-- audit entry saying who took which ones is written in the same call.
create function public.operator_export_unpaid(p_operator_id text, p_actor text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text := operator_actor(p_actor);
  v_rows jsonb;
begin
  perform require_operator_role(p_operator_id, array['finance']);
  select coalesce(jsonb_agg(operator_withdrawal_row(w) order by w.created_at, w.id), '[]') into v_rows
    from withdrawals w
   where w.status = 'pending' and w.review_state = 'approved' and w.payment_method in ('upi', 'bank');
  insert into operator_actions (actor, actor_user_id, action, record_kind, detail)
  values (v_actor, p_operator_id, 'export_unpaid', 'withdrawals',
          jsonb_build_object('count', jsonb_array_length(v_rows),
                             'ids', (select coalesce(jsonb_agg(r -> 'id'), '[]') from jsonb_array_elements(v_rows) r)));
  return v_rows;
end
$$;

revoke all on function public.operator_export_unpaid(text, text) from public, anon, authenticated;
grant execute on function public.operator_export_unpaid(text, text) to service_role;
