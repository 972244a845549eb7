-- Whether this person's next cash-out waits for review as a first one (issue 36, "When money
-- arrives"): the review of first cash-outs is on and nothing was paid to them yet, exactly as
-- withdrawal_risk decides `first_withdrawal`. Withdraw says it next to the spec's "24-48 hours".
create function public.cash_out_reviewed_first(p_user_id text)
  returns boolean
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  return (select review_first_withdrawal from app_config)
         and not exists (select from withdrawals where user_id = p_user_id and status = 'completed');
end
$$;
revoke all on function public.cash_out_reviewed_first(text) from public, anon, authenticated;
grant execute on function public.cash_out_reviewed_first(text) to service_role;
