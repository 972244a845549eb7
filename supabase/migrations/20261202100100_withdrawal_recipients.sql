-- Redefines: public.get_user_withdrawals
--
-- Cash-outs the person can follow (issue 18, item 3): the history shows where each withdrawal
-- went, masked by the server (app/domain/withdrawals.ts, maskRecipient) before the page gets it,
-- and the form starts with the method and recipient of the last withdrawal.
--
-- Adds: public.get_last_withdrawal_recipient

-- The person's own withdrawals, newest first, each with its recipient (the chosen method's).
create or replace function public.get_user_withdrawals(p_user_id text) returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  return coalesce(
    (select jsonb_agg(withdrawal_json(w)
                      || jsonb_build_object('recipient', coalesce(w.recipient_email, w.recipient_upi,
                                                                  w.recipient_bank_details ->> 'details'))
                      order by w.created_at desc, l.id desc nulls last, w.id)
       from withdrawals w
       left join transaction_history l on l.withdrawal_id = w.id
      where w.user_id = p_user_id),
    '[]'::jsonb);
end
$$;

-- The method and recipient of the person's last withdrawal (null: none yet), one row of
-- withdrawals_user_created_idx.
create function public.get_last_withdrawal_recipient(p_user_id text) returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select jsonb_build_object('payment_method', w.payment_method,
                            'recipient', coalesce(w.recipient_email, w.recipient_upi,
                                                  w.recipient_bank_details ->> 'details'))
    from withdrawals w
   where w.user_id = p_user_id
   order by w.created_at desc
   limit 1
$$;

revoke all on function public.get_user_withdrawals(text) from public, anon, authenticated;
grant execute on function public.get_user_withdrawals(text) to service_role;
revoke all on function public.get_last_withdrawal_recipient(text) from public, anon, authenticated;
grant execute on function public.get_last_withdrawal_recipient(text) to service_role;
