-- What stands between a person and their first possible cash-out (issue 36, "Withdraw says what to
-- do"): how much is missing to the smallest minimum offered (PayPal and UPI), and when enough of
-- the offer earnings still in their hold will have cleared to cover it. Withdraw disables its form
-- and says "Wait until Dec 5" or "Earn $1.00 more" instead of answering a post with "Amount
-- exceeds your available balance". Cleared earnings also unlock bonus money (decision 066); that
-- is not counted here, so the day said is never earlier than the true one.
create function public.cash_out_outlook(p_user_id text)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_available numeric := coalesce((money_available(p_user_id) ->> 'available')::numeric, 0);
  v_minimum numeric := (select least(min_withdrawal_paypal, min_withdrawal_upi) from app_config);
  v_missing numeric := greatest(v_minimum - v_available, 0);
begin
  if v_missing = 0 then
    return jsonb_build_object('missing', 0, 'enough_clears_at', null);
  end if;
  return jsonb_build_object(
    'missing', v_missing,
    'enough_clears_at', (
      select min(available_at)
        from (select available_at, sum(amount) over (order by available_at) as cleared
                from (select available_at, sum(amount) as amount
                        from transaction_history
                       where user_id = p_user_id and kind = 'earned' and available_at > now()
                       group by available_at) due) running
       where cleared >= v_missing));
end
$$;
revoke all on function public.cash_out_outlook(text) from public, anon, authenticated;
grant execute on function public.cash_out_outlook(text) to service_role;
