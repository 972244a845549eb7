-- The CHECK constraints of transaction_history, user_notices, postback_log, completed_tasks and
-- user_balance: the same rules, each table's checked by one function (issue 35).
-- Postgres reads a table's CHECK constraints back from their stored text and plans them again each
-- time a statement starts writing to it (ExecRelCheck, once per statement). A function's plpgsql
-- statement is one such statement, so a postback paid this again for every row it wrote:
-- transaction_history's six rules, user_notices' eleven, postback_log's two and so on. A text
-- list such as `kind = any (array['withdrawal_completed', ...])` is stored byte by byte. Measured
-- on Postgres 15, one connection, one postback after another: about 0.15 ms of the 0.8 ms of CPU a
-- postback costs Postgres went on it.
--
-- Each table now has one constraint that calls a plpgsql function with the row's columns. Postgres
-- reads back only the call, and plpgsql keeps the function's compiled rules for the connection's
-- life. A row that breaks a rule fails as before: SQLSTATE 23514 (check_violation), with the
-- rule's former constraint name in the error's constraint field and message.
--
-- The functions are immutable (their answers depend on their arguments only) and not strict (a null
-- must reach the rules, as it reached the old constraints: a rule that comes out null passes, as a
-- CHECK does). They have no `set search_path`: that would save and restore a setting on every row
-- written, and their bodies name only pg_catalog's built-ins, which are looked up first whatever
-- the search path says.
--
-- The new constraints are added NOT VALID: every row already in these tables was written under the
-- very rules they replace (transaction_history's kind rule was itself NOT VALID: its column is
-- filled in by a trigger on every insert). They hold for every row written from now on.

create function public.check_violation(p_table text, p_constraint text)
  returns boolean
  language plpgsql
  immutable
as $$
begin
  raise exception 'new row for relation "%" violates check constraint "%"', p_table, p_constraint
    using errcode = 'check_violation', table = p_table, constraint = p_constraint;
end
$$;
comment on function public.check_violation(text, text) is
  'Raises the error Postgres raises for a CHECK constraint, naming the rule: for the tables whose rules one function checks.';

-- Each rule is written as its constraint was: false fails it, true or null passes it.
create function public.transaction_history_rules(p_type text, p_status text, p_amount numeric, p_kind text,
                                                 p_withdrawal_id uuid)
  returns boolean
  language plpgsql
  immutable
as $$
begin
  if (p_type in ('checkin', 'task', 'referral', 'referral_bonus', 'withdrawal', 'bonus', 'postback',
                 'postback_reversal', 'adjustment')) is false then
    return check_violation('transaction_history', 'transaction_history_type_check');
  end if;
  if (p_status in ('completed', 'pending', 'failed')) is false then
    return check_violation('transaction_history', 'transaction_history_status_check');
  end if;
  -- Only a withdrawal waits or fails; every other row is final when written.
  if (p_type = 'withdrawal' or p_status = 'completed') is false then
    return check_violation('transaction_history', 'transaction_history_final_check');
  end if;
  if (case when p_type in ('withdrawal', 'postback_reversal') then p_amount < 0
           when p_type = 'adjustment' then p_amount <> 0 and p_kind in ('earned', 'bonus')
           else p_amount >= 0 end) is false then
    return check_violation('transaction_history', 'transaction_history_sign_check');
  end if;
  if ((p_type = 'withdrawal') = (p_withdrawal_id is not null)) is false then
    return check_violation('transaction_history', 'transaction_history_withdrawal_link_check');
  end if;
  if (case when p_type in ('postback', 'postback_reversal') then p_kind = 'earned'
           when p_type = 'withdrawal' then p_kind is null
           when p_type = 'adjustment' then p_kind in ('earned', 'bonus')
           else p_kind = 'bonus' end) is false then
    return check_violation('transaction_history', 'transaction_history_kind_check');
  end if;
  return true;
end
$$;

alter table public.transaction_history
  drop constraint transaction_history_type_check,
  drop constraint transaction_history_status_check,
  drop constraint transaction_history_final_check,
  drop constraint transaction_history_sign_check,
  drop constraint transaction_history_withdrawal_link_check,
  drop constraint transaction_history_kind_check,
  add constraint transaction_history_rules
    check (public.transaction_history_rules(transaction_type, status, amount, kind, withdrawal_id)) not valid;

create function public.user_notices_rules(p_kind text, p_data jsonb, p_push_status text, p_email_status text,
                                          p_push_attempts integer, p_email_attempts integer, p_push_detail text,
                                          p_email_detail text, p_next_attempt_at timestamptz,
                                          p_email_address text, p_email_reserved_at timestamptz)
  returns boolean
  language plpgsql
  immutable
as $$
begin
  if (p_kind in ('withdrawal_completed', 'withdrawal_failed', 'referral_credited', 'welcome_bonus', 'task_reward',
                 'postback_reward', 'support_reply', 'missing_credit_credited', 'policy_change_waiting')) is false then
    return check_violation('user_notices', 'user_notices_kind_check');
  end if;
  if (jsonb_typeof(p_data) = 'object') is false then
    return check_violation('user_notices', 'user_notices_data_check');
  end if;
  if (p_push_status in ('pending', 'sent', 'skipped', 'failed')) is false then
    return check_violation('user_notices', 'user_notices_push_status_check');
  end if;
  if (p_email_status in ('pending', 'sent', 'skipped', 'failed')) is false then
    return check_violation('user_notices', 'user_notices_email_status_check');
  end if;
  if (p_push_attempts >= 0) is false then
    return check_violation('user_notices', 'user_notices_push_attempts_check');
  end if;
  if (p_email_attempts >= 0) is false then
    return check_violation('user_notices', 'user_notices_email_attempts_check');
  end if;
  if (length(p_push_detail) <= 1000) is false then
    return check_violation('user_notices', 'user_notices_push_detail_check');
  end if;
  if (length(p_email_detail) <= 1000) is false then
    return check_violation('user_notices', 'user_notices_email_detail_check');
  end if;
  -- Due for another attempt exactly while a channel is still pending.
  if ((p_push_status = 'pending' or p_email_status = 'pending') = (p_next_attempt_at is not null)) is false then
    return check_violation('user_notices', 'user_notices_due_check');
  end if;
  if (length(p_email_address) <= 320) is false then
    return check_violation('user_notices', 'user_notices_email_address_check');
  end if;
  if ((p_email_address is null) = (p_email_reserved_at is null)) is false then
    return check_violation('user_notices', 'user_notices_email_reservation_check');
  end if;
  return true;
end
$$;

alter table public.user_notices
  drop constraint user_notices_kind_check,
  drop constraint user_notices_data_check,
  drop constraint user_notices_push_status_check,
  drop constraint user_notices_email_status_check,
  drop constraint user_notices_push_attempts_check,
  drop constraint user_notices_email_attempts_check,
  drop constraint user_notices_push_detail_check,
  drop constraint user_notices_email_detail_check,
  drop constraint user_notices_due_check,
  drop constraint user_notices_email_address_check,
  drop constraint user_notices_email_reservation_check,
  add constraint user_notices_rules
    check (public.user_notices_rules(kind, data, push_status, email_status, push_attempts, email_attempts,
                                     push_detail, email_detail, next_attempt_at, email_address,
                                     email_reserved_at)) not valid;

create function public.postback_log_rules(p_verdict text, p_signature_digest text)
  returns boolean
  language plpgsql
  immutable
as $$
begin
  if (p_verdict in ('credited', 'reversed', 'duplicate', 'ignored', 'refused', 'held')) is false then
    return check_violation('postback_log', 'postback_log_verdict_check');
  end if;
  if (p_signature_digest ~ '^[0-9a-f]{64}$') is false then
    return check_violation('postback_log', 'postback_log_signature_digest_check');
  end if;
  return true;
end
$$;

alter table public.postback_log
  drop constraint postback_log_verdict_check,
  drop constraint postback_log_signature_digest_check,
  add constraint postback_log_rules check (public.postback_log_rules(verdict, signature_digest)) not valid;

create function public.completed_tasks_rules(p_status text, p_reward integer)
  returns boolean
  language plpgsql
  immutable
as $$
begin
  if (p_status in ('pending', 'credited')) is false then
    return check_violation('completed_tasks', 'completed_tasks_status_check');
  end if;
  if (p_reward >= 0) is false then
    return check_violation('completed_tasks', 'completed_tasks_reward_check');
  end if;
  return true;
end
$$;

alter table public.completed_tasks
  drop constraint completed_tasks_status_check,
  drop constraint completed_tasks_reward_check,
  add constraint completed_tasks_rules check (public.completed_tasks_rules(status, reward)) not valid;

create function public.user_balance_rules(p_total_earned numeric, p_carried_debt numeric,
                                          p_carried_debt_total numeric)
  returns boolean
  language plpgsql
  immutable
as $$
begin
  if (p_total_earned >= 0) is false then
    return check_violation('user_balance', 'user_balance_total_earned_check');
  end if;
  if (p_carried_debt >= 0) is false then
    return check_violation('user_balance', 'user_balance_carried_debt_check');
  end if;
  if (p_carried_debt_total >= 0) is false then
    return check_violation('user_balance', 'user_balance_carried_debt_total_check');
  end if;
  return true;
end
$$;

alter table public.user_balance
  drop constraint user_balance_total_earned_check,
  drop constraint user_balance_carried_debt_check,
  drop constraint user_balance_carried_debt_total_check,
  add constraint user_balance_rules
    check (public.user_balance_rules(total_earned, carried_debt, carried_debt_total)) not valid;

-- Called by the constraints only, as the role that writes the row: the owner, in the money functions.
revoke all on function public.check_violation(text, text) from public, anon, authenticated, service_role;
revoke all on function public.transaction_history_rules(text, text, numeric, text, uuid) from public, anon, authenticated, service_role;
revoke all on function public.user_notices_rules(text, jsonb, text, text, integer, integer, text, text, timestamptz,
                                                 text, timestamptz) from public, anon, authenticated, service_role;
revoke all on function public.postback_log_rules(text, text) from public, anon, authenticated, service_role;
revoke all on function public.completed_tasks_rules(text, integer) from public, anon, authenticated, service_role;
revoke all on function public.user_balance_rules(numeric, numeric, numeric) from public, anon, authenticated, service_role;
