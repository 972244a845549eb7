-- Redefines: public.operator_withdrawal_row
--
-- A UPI ID checked with RazorpayX before its first payout (issue 37, point 1; docs/decisions/088),
-- when RAZORPAYX_VALIDATE_UPI is on: the name the UPI ID is registered to, shown to the operator
-- beside the account's name, and a UPI ID that does not exist refused to the person, the money back
-- in their balance. One row a UPI ID (lower-cased), its last answer.
create table public.upi_validations (
  address text primary key check (address = lower(address) and length(address) between 3 and 330),
  validation_id text check (length(validation_id) between 1 and 100),
  -- RazorpayX's validation status: created (waiting), completed, failed (no answer from the bank).
  status text not null check (status in ('created', 'completed', 'failed')),
  -- Its result once completed: active or valid (it exists), invalid (it does not).
  account_status text check (account_status ~ '^[a-z_]{1,40}$'),
  registered_name text check (length(registered_name) <= 200),
  checked_at timestamp with time zone not null default now()
);
alter table public.upi_validations enable row level security;
revoke all on public.upi_validations from public, anon, authenticated;

-- The last answer about a UPI ID, or null.
CREATE OR REPLACE FUNCTION public.upi_validation_of(p_address text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select to_jsonb(v) from upi_validations v where v.address = lower(trim(p_address))
$function$;
revoke all on function public.upi_validation_of(text) from public, anon, authenticated;
grant execute on function public.upi_validation_of(text) to service_role;

-- Keeps RazorpayX's answer about a UPI ID (a newer one replaces it).
CREATE OR REPLACE FUNCTION public.record_upi_validation(p_address text, p_validation_id text, p_status text,
                                                        p_account_status text, p_registered_name text)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  insert into upi_validations (address, validation_id, status, account_status, registered_name, checked_at)
  values (lower(trim(p_address)), p_validation_id, p_status, lower(nullif(trim(p_account_status), '')),
          left(nullif(trim(p_registered_name), ''), 200), now())
  on conflict (address) do update
    set validation_id = excluded.validation_id, status = excluded.status,
        account_status = excluded.account_status, registered_name = excluded.registered_name,
        checked_at = excluded.checked_at
$function$;
revoke all on function public.record_upi_validation(text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.record_upi_validation(text, text, text, text, text) to service_role;

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
           'display_name', p.display_name,
           'account_created_at', p.created_at,
           'amount', p_withdrawal.amount,
           'payout_currency', p_withdrawal.payout_currency,
           'payout_amount', p_withdrawal.payout_amount,
           'payout_rate', p_withdrawal.payout_rate,
           'payout_rail', p_withdrawal.payout_rail,
           -- RazorpayX's check of the UPI ID: the name it is registered to, beside the account's.
           'upi_registered_name', (select v.registered_name from upi_validations v
                                    where v.address = lower(p_withdrawal.recipient_upi)),
           'upi_account_status', (select v.account_status from upi_validations v
                                   where v.address = lower(p_withdrawal.recipient_upi)),
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
