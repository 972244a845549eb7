-- Redefines: public.delete_account
--
-- Deleting an account with money left gives that money up; the person says so first (issue 36,
-- "Delete account"): the page shows the balance and asks for "I give up $2.10", and the amount they
-- confirmed comes here as p_forfeit. What the account would leave behind (its balance, net of a
-- debt carried in) must not exceed it: a credit that arrives between the page and the post is
-- not given up unseen. Missing, nothing may be given up (fail closed): an account with money
-- left is refused with `forfeit_unconfirmed`, and the amount in its detail.
drop function public.delete_account(text, text, jsonb);
create function public.delete_account(p_user_id text, p_email_hash text, p_recipient_hashes jsonb default '{}'::jsonb,
                                      p_forfeit numeric default 0)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_withdrawals uuid[];
  v_balance numeric;
  v_carried numeric;
begin
  perform from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- The profile lock above queues behind a withdrawal being made right now (create_withdrawal
  -- holds the profile before the balance); the balance lock queues behind any other balance change.
  select balance, carried_debt into v_balance, v_carried from user_balance where user_id = p_user_id for update;
  if exists (select from withdrawals where user_id = p_user_id and status = 'pending') then
    raise exception 'A withdrawal is pending' using errcode = 'P0001', hint = 'withdrawal_pending';
  end if;
  -- Below zero (a network took back coins already cashed out): the debt is settled first.
  -- So is a debt carried from an earlier account that this one's balance does not cover.
  if v_balance - v_carried < 0 then
    raise exception 'The balance is below zero' using errcode = 'P0001', hint = 'account_in_debt',
      detail = (v_carried - v_balance)::text;
  end if;
  -- Money left is given up only as far as the person confirmed it.
  if v_balance - v_carried > coalesce(p_forfeit, 0) then
    raise exception 'Deleting the account would give up money not confirmed' using errcode = 'P0001',
      hint = 'forfeit_unconfirmed', detail = (v_balance - v_carried)::text;
  end if;

  if nullif(trim(p_email_hash), '') is not null then
    insert into deleted_accounts (email_hash) values (p_email_hash)
    on conflict (email_hash) do update set deleted_at = now();
  end if;
  select coalesce(array_agg(id), '{}') into v_withdrawals from withdrawals where user_id = p_user_id;
  update withdrawals
     set recipient_hash = coalesce(recipient_hash, p_recipient_hashes ->> id::text)
   where id = any (v_withdrawals);
  -- A network may take an offer back after the account is gone: who owes it stays known (by the
  -- identity, the same email or an alias of it), and the balance left behind pays it first (what
  -- is left once a debt carried in is paid: the account forfeits it, the debt is settled with it).
  insert into departed_accounts (user_id, wall_id, identity_hash, left_behind)
  select p.id, p.wall_id, p.identity_hash, v_balance - v_carried
    from user_profiles p
   where p.id = p_user_id and p.identity_hash is not null
  on conflict (user_id) do nothing;
  update provider_postbacks set departed_user_id = p_user_id where user_id = p_user_id and kind = 'credit';
  delete from user_feedback where user_id = p_user_id;
  -- Cascades to what is only about the person; detaches the ledger, withdrawals and postbacks.
  delete from user_profiles where id = p_user_id;
  update withdrawals
     set recipient_email = null, recipient_upi = null, recipient_bank_details = null
   where id = any (v_withdrawals);
  return jsonb_build_object('deleted', true, 'withdrawals_kept', coalesce(array_length(v_withdrawals, 1), 0));
end
$function$;
revoke all on function public.delete_account(text, text, jsonb, numeric) from public, anon, authenticated;
grant execute on function public.delete_account(text, text, jsonb, numeric) to service_role;
