-- Earning: coins and their dollar rate, daily check-in, task completion, provider postbacks,
-- the monthly leaderboard, and a whole-ledger audit.
--
-- Coins become dollars at app_config.coins_per_dollar (default 100: one coin is one cent, so a
-- whole number of coins is always an exact amount of cents). Change the rate with
--   update app_config set coins_per_dollar = <n>;
-- Amounts are rounded down to the cent, so a credit is never more than the rate allows.
--
-- Ledger rule (replaces the one in 20261122000100_functions.sql, which only knew withdrawals):
--   balance      = sum(amount) of the user's ledger rows whose status is not 'failed'
--   total_earned = sum(amount) of the user's ledger rows that are not withdrawals
-- Every credit goes through ledger_move(), which writes the ledger row, the balance, the total
-- and this month's earnings in the caller's transaction, with the balance row locked.
--
-- Redefines: public.transaction_history_append_only, public.verify_user_balance

-- ---------------------------------------------------------------------------------------------
-- The rate
create table public.app_config (
  -- A single row: the primary key can only be true.
  id boolean primary key default true check (id),
  coins_per_dollar integer not null default 100 check (coins_per_dollar > 0)
);
insert into public.app_config default values;

create function public.coins_to_dollars(p_coins integer) returns numeric
  language sql
  stable
  set search_path = public, pg_temp
as $$
  select sign(p_coins) * floor(abs(p_coins) * 100.0 / c.coins_per_dollar) / 100
    from app_config c
$$;

-- What the app needs to show coins and dollars consistently.
create function public.get_app_config() returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select jsonb_build_object('coins_per_dollar', coins_per_dollar) from app_config
$$;

-- ---------------------------------------------------------------------------------------------
-- The ledger learns new kinds of movement: bonus coins (add_user_coins), provider postbacks and
-- their reversals (negative), and remembers the coins behind each dollar amount.
do $$
declare
  r record;
begin
  for r in
    select conname from pg_constraint
     where conrelid = 'public.transaction_history'::regclass
       and contype = 'c'
       and pg_get_constraintdef(oid) like '%transaction_type%'
  loop
    execute format('alter table public.transaction_history drop constraint %I', r.conname);
  end loop;
end
$$;

alter table public.transaction_history
  add column coins integer,
  add constraint transaction_history_type_check check (transaction_type in
    ('checkin', 'task', 'referral', 'withdrawal', 'bonus', 'postback', 'postback_reversal')),
  add constraint transaction_history_withdrawal_link_check
    check ((transaction_type = 'withdrawal') = (withdrawal_id is not null)),
  add constraint transaction_history_sign_check check (
    case when transaction_type in ('withdrawal', 'postback_reversal') then amount < 0
         else amount >= 0 end),
  -- Only a withdrawal waits for settlement or fails; credits are final.
  add constraint transaction_history_final_check
    check (transaction_type = 'withdrawal' or status = 'completed');

create or replace function public.transaction_history_append_only() returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  if tg_op = 'DELETE' then
    if exists (select from public.user_profiles where id = old.user_id) then
      raise exception 'transaction_history is append-only: rows cannot be deleted'
        using errcode = 'P0001';
    end if;
    return old;
  end if;
  if (new.id, new.user_id, new.created_at, new.description, new.transaction_type,
      new.amount, new.withdrawal_id, new.coins)
     is distinct from
     (old.id, old.user_id, old.created_at, old.description, old.transaction_type,
      old.amount, old.withdrawal_id, old.coins) then
    raise exception 'transaction_history is append-only: only status can change'
      using errcode = 'P0001';
  end if;
  return new;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Monthly earnings, kept in step with the ledger so the leaderboard is an index scan.
create table public.monthly_earnings (
  user_id text not null references public.user_profiles (id) on delete cascade,
  month date not null check (extract(day from month) = 1),
  amount numeric(12, 2) not null default 0,
  primary key (user_id, month)
);
create index monthly_earnings_rank_idx on public.monthly_earnings (month, amount desc, user_id);

create function public.current_month() returns date
  language sql
  stable
as $$
  select date_trunc('month', now() at time zone 'UTC')::date
$$;

-- Moves money for an earning (or its reversal): ledger row, balance, total earned and this
-- month's earnings, in the caller's transaction. Not callable by the app directly.
create function public.ledger_move(p_user_id text, p_type text, p_coins integer,
                                   p_amount numeric, p_description text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_balance numeric;
begin
  select balance into v_balance from user_balance where user_id = p_user_id for update;
  if not found then
    raise exception 'Account not found' using errcode = 'P0001';
  end if;
  if p_amount <> 0 then
    insert into transaction_history (user_id, description, transaction_type, amount, status, coins)
    values (p_user_id, p_description, p_type, p_amount, 'completed', p_coins);
    update user_balance
       set balance = balance + p_amount,
           total_earned = total_earned + p_amount,
           updated_at = now()
     where user_id = p_user_id
    returning balance into v_balance;
    insert into monthly_earnings (user_id, month, amount)
    values (p_user_id, current_month(), p_amount)
    on conflict (user_id, month)
      do update set amount = monthly_earnings.amount + excluded.amount;
  end if;
  return jsonb_build_object('coins', p_coins, 'amount', p_amount, 'balance', v_balance);
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Spec §7: add_user_coins(user_id_param, amount_param) credits bonus coins.
create function public.add_user_coins(user_id_param text, amount_param integer) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
begin
  if amount_param is null or amount_param <= 0 then
    raise exception 'Coins must be a positive whole number' using errcode = 'P0001';
  end if;
  return ledger_move(user_id_param, 'bonus', amount_param, coins_to_dollars(amount_param),
                     'Bonus coins');
end
$$;

-- Spec §4/§5: one check-in per user and calendar date (UTC), 10 coins.
create function public.daily_checkin(p_user_id text) returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  c_coins constant integer := 10;
  v_today date := (now() at time zone 'UTC')::date;
begin
  -- Racing check-ins queue on the unique (user_id, check_date) index; only one inserts.
  insert into daily_checkins (user_id, check_date, coins_earned)
  values (p_user_id, v_today, c_coins)
  on conflict (user_id, check_date) do nothing;
  if not found then
    raise exception 'Already checked in today!' using errcode = 'P0001';
  end if;
  return ledger_move(p_user_id, 'checkin', c_coins, coins_to_dollars(c_coins), 'Daily check-in')
         || jsonb_build_object('check_date', v_today);
end
$$;

-- Whether the user checked in today, and on which of the last seven days.
create function public.get_checkin_status(p_user_id text) returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_today date := (now() at time zone 'UTC')::date;
begin
  return jsonb_build_object(
    'today', v_today,
    'checked_in_today', exists (select from daily_checkins
                                 where user_id = p_user_id and check_date = v_today),
    'recent_dates', coalesce((select jsonb_agg(check_date order by check_date)
                                from daily_checkins
                               where user_id = p_user_id and check_date > v_today - 7), '[]'));
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Tasks. The server decides the reward (from the offer it fetched, or the fallback list) when
-- the person starts a task; completion needs the start to be at least p_min_seconds old.
create table public.task_starts (
  user_id text not null references public.user_profiles (id) on delete cascade,
  task_id text not null check (length(task_id) between 1 and 200),
  title text not null,
  reward integer not null check (reward >= 0),
  started_at timestamptz not null default now(),
  primary key (user_id, task_id)
);

create function public.start_task(p_user_id text, p_task_id text, p_title text, p_reward integer)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_started_at timestamptz;
begin
  if exists (select from completed_tasks where user_id = p_user_id and task_id = p_task_id) then
    return jsonb_build_object('task_id', p_task_id, 'already_completed', true);
  end if;
  if p_reward is null or p_reward < 0 then
    raise exception 'Invalid reward' using errcode = 'P0001';
  end if;
  -- Starting again restarts the clock.
  insert into task_starts (user_id, task_id, title, reward)
  values (p_user_id, p_task_id, coalesce(nullif(trim(p_title), ''), p_task_id), p_reward)
  on conflict (user_id, task_id)
    do update set title = excluded.title, reward = excluded.reward, started_at = now()
  returning started_at into v_started_at;
  return jsonb_build_object('task_id', p_task_id, 'already_completed', false,
                            'started_at', v_started_at);
end
$$;

-- Spec §5: completing an already recorded task succeeds with reward 0.
create function public.complete_task(p_user_id text, p_task_id text, p_min_seconds integer)
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
    raise exception 'Task was not started' using errcode = 'P0001';
  end if;
  if now() < v_start.started_at + make_interval(secs => greatest(p_min_seconds, 0)) then
    raise exception 'Task is not finished yet' using errcode = 'P0001';
  end if;
  insert into completed_tasks (user_id, task_id, reward)
  values (p_user_id, p_task_id, v_start.reward)
  on conflict (user_id, task_id) do nothing;
  if not found then
    return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', 0);
  end if;
  v_move := ledger_move(p_user_id, 'task', v_start.reward, coins_to_dollars(v_start.reward),
                        'Task completed: ' || v_start.title);
  return jsonb_build_object('success', true, 'task_id', p_task_id, 'reward', v_start.reward,
                            'balance', v_move -> 'balance');
end
$$;

create function public.get_completed_task_ids(p_user_id text) returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(task_id order by task_id), '[]')
    from completed_tasks where user_id = p_user_id
$$;

-- Live refresh: an open Home or Earn page listens for its user's completions.
create function public.notify_task_completed() returns trigger
  language plpgsql
  set search_path = public, pg_temp
as $$
begin
  perform pg_notify('completed_tasks', new.user_id);
  return new;
end
$$;

create trigger completed_tasks_notify
  after insert on public.completed_tasks
  for each row execute function public.notify_task_completed();

-- ---------------------------------------------------------------------------------------------
-- Provider postbacks: server-to-server credits, idempotent on the provider's transaction id.
create table public.provider_postbacks (
  id bigint generated always as identity primary key,
  provider text not null,
  transaction_id text not null,
  kind text not null check (kind in ('credit', 'reversal')),
  user_id text not null references public.user_profiles (id) on delete cascade,
  coins integer not null,
  -- Dollars actually moved: what a reversal could take back may be less than was credited.
  amount numeric(12, 2) not null default 0,
  created_at timestamptz not null default now(),
  unique (provider, transaction_id, kind)
);

create function public.record_postback(p_provider text, p_transaction_id text, p_user_id text,
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
    raise exception 'Coins must be zero or more' using errcode = 'P0001';
  end if;
  if not exists (select from user_profiles where id = p_user_id) then
    raise exception 'Account not found' using errcode = 'P0001';
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
-- Spec §2 leaderboard: top earners of the current calendar month (UTC), with the display name
-- of spec §7 ("User" plus the first four characters of the user id). The server marks the
-- signed-in user's row and never sends user ids to the browser.
create function public.get_leaderboard(p_limit integer) returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'rank', ranked.rank,
           'user_id', ranked.user_id,
           'username', 'User' || left(ranked.user_id, 4),
           'total_earned', ranked.amount) order by ranked.rank), '[]')
    from (select user_id, amount, row_number() over (order by amount desc, user_id) as rank
            from monthly_earnings
           where month = current_month() and amount > 0
           order by amount desc, user_id
           limit least(greatest(p_limit, 0), 100)) ranked
$$;

-- ---------------------------------------------------------------------------------------------
-- Audit: every balance against its ledger (rule at the top). An empty array means all agree.
create or replace function public.verify_user_balance(p_user_id text) returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_result jsonb;
begin
  select jsonb_build_object(
           'balance', b.balance,
           'total_earned', b.total_earned,
           'ledger_balance', l.balance,
           'ledger_total_earned', l.total_earned,
           'consistent', b.balance = l.balance and b.total_earned = l.total_earned)
    into v_result
    from user_balance b
    cross join lateral (
      select coalesce(sum(amount) filter (where status <> 'failed'), 0) as balance,
             coalesce(sum(amount) filter (where transaction_type <> 'withdrawal'), 0) as total_earned
        from transaction_history t where t.user_id = b.user_id) l
   where b.user_id = p_user_id;
  return v_result;
end
$$;

create function public.verify_all_balances() returns jsonb
  language sql
  stable
  security definer
  set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'user_id', b.user_id,
           'balance', b.balance, 'ledger_balance', coalesce(l.balance, 0),
           'total_earned', b.total_earned, 'ledger_total_earned', coalesce(l.total_earned, 0))
         order by b.user_id), '[]')
    from user_balance b
    left join (
      select user_id,
             sum(amount) filter (where status <> 'failed') as balance,
             sum(amount) filter (where transaction_type <> 'withdrawal') as total_earned
        from transaction_history group by user_id) l on l.user_id = b.user_id
   where b.balance <> coalesce(l.balance, 0) or b.total_earned <> coalesce(l.total_earned, 0)
$$;

-- ---------------------------------------------------------------------------------------------
-- Access: row level security on, nothing for anon/authenticated, functions for service_role.
alter table public.app_config enable row level security;
alter table public.monthly_earnings enable row level security;
alter table public.task_starts enable row level security;
alter table public.provider_postbacks enable row level security;
revoke all on public.app_config, public.monthly_earnings, public.task_starts,
  public.provider_postbacks from anon, authenticated;
grant all on public.app_config, public.monthly_earnings, public.task_starts,
  public.provider_postbacks to service_role;
revoke all on sequence public.provider_postbacks_id_seq from anon, authenticated;

revoke all on function public.coins_to_dollars(integer) from public, anon, authenticated;
revoke all on function public.current_month() from public, anon, authenticated;
revoke all on function public.get_app_config() from public, anon, authenticated;
revoke all on function public.ledger_move(text, text, integer, numeric, text) from public, anon, authenticated;
revoke all on function public.add_user_coins(text, integer) from public, anon, authenticated;
revoke all on function public.daily_checkin(text) from public, anon, authenticated;
revoke all on function public.get_checkin_status(text) from public, anon, authenticated;
revoke all on function public.start_task(text, text, text, integer) from public, anon, authenticated;
revoke all on function public.complete_task(text, text, integer) from public, anon, authenticated;
revoke all on function public.get_completed_task_ids(text) from public, anon, authenticated;
revoke all on function public.record_postback(text, text, text, integer, boolean, text) from public, anon, authenticated;
revoke all on function public.get_leaderboard(integer) from public, anon, authenticated;
revoke all on function public.verify_all_balances() from public, anon, authenticated;

grant execute on function public.coins_to_dollars(integer) to service_role;
grant execute on function public.current_month() to service_role;
grant execute on function public.get_app_config() to service_role;
grant execute on function public.add_user_coins(text, integer) to service_role;
grant execute on function public.daily_checkin(text) to service_role;
grant execute on function public.get_checkin_status(text) to service_role;
grant execute on function public.start_task(text, text, text, integer) to service_role;
grant execute on function public.complete_task(text, text, integer) to service_role;
grant execute on function public.get_completed_task_ids(text) to service_role;
grant execute on function public.record_postback(text, text, text, integer, boolean, text) to service_role;
grant execute on function public.get_leaderboard(integer) to service_role;
grant execute on function public.verify_all_balances() to service_role;
