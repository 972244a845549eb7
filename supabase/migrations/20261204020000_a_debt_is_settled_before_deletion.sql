-- Redefines: public.account_deletion_facts, public.delete_account
--
-- An account below zero cannot be deleted (issue 33, docs/decisions/078): deleting it would write
-- the debt off (a returning person starts at zero with the same email). The person is told why and
-- how to settle it before typing a password; SQL refuses it whatever the caller checked.

create or replace function public.account_deletion_facts(p_user_id text)
 returns jsonb
 language sql
 stable security definer
 set search_path to 'public', 'pg_temp'
as $function$
  select jsonb_build_object(
           'email', p.email,
           'balance', coalesce((select b.balance from user_balance b where b.user_id = p.id), 0),
           'pending_withdrawals', (select count(*) from withdrawals w
                                    where w.user_id = p.id and w.status = 'pending'),
           'unhashed_recipients', coalesce((
             select jsonb_object_agg(w.id, coalesce(w.recipient_email, w.recipient_upi,
                                                    w.recipient_bank_details ->> 'details'))
               from withdrawals w where w.user_id = p.id and w.recipient_hash is null), '{}'::jsonb))
    from user_profiles p
   where p.id = p_user_id
$function$;

create or replace function public.delete_account(p_user_id text, p_email_hash text,
                                                 p_recipient_hashes jsonb default '{}'::jsonb)
 returns jsonb
 language plpgsql
 security definer
 set search_path to 'public', 'pg_temp'
as $function$
declare
  v_withdrawals uuid[];
  v_balance numeric;
begin
  perform from user_profiles where id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  -- The profile lock above queues behind a withdrawal being made right now (create_withdrawal
  -- holds the profile before the balance); the balance lock queues behind any other balance change.
  select balance into v_balance from user_balance where user_id = p_user_id for update;
  if exists (select from withdrawals where user_id = p_user_id and status = 'pending') then
    raise exception 'A withdrawal is pending' using errcode = 'P0001', hint = 'withdrawal_pending';
  end if;
  -- Below zero (a network took back coins already cashed out): the debt is settled first.
  if v_balance < 0 then
    raise exception 'The balance is below zero' using errcode = 'P0001', hint = 'account_in_debt',
      detail = (-v_balance)::text;
  end if;

  if nullif(trim(p_email_hash), '') is not null then
    insert into deleted_accounts (email_hash) values (p_email_hash)
    on conflict (email_hash) do update set deleted_at = now();
  end if;
  select coalesce(array_agg(id), '{}') into v_withdrawals from withdrawals where user_id = p_user_id;
  update withdrawals
     set recipient_hash = coalesce(recipient_hash, p_recipient_hashes ->> id::text)
   where id = any (v_withdrawals);
  delete from user_feedback where user_id = p_user_id;
  -- Cascades to what is only about the person; detaches the ledger, withdrawals and postbacks.
  delete from user_profiles where id = p_user_id;
  update withdrawals
     set recipient_email = null, recipient_upi = null, recipient_bank_details = null
   where id = any (v_withdrawals);
  return jsonb_build_object('deleted', true, 'withdrawals_kept', coalesce(array_length(v_withdrawals, 1), 0));
end
$function$;
