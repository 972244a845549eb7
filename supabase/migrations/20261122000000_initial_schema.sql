-- Initial schema of the rewards app (spec §3 table and column names, DESIGN.md §3).
--
-- Runs on PGlite (Postgres WASM), on plain Postgres 15+ and on a hosted Supabase project,
-- so: no extensions (gen_random_uuid() is core since PG13), nothing newer than Postgres 15.
--
-- Ledger rule (transaction_history is the append-only ledger; amounts are dollars, signed):
--   user_balance.balance      = sum(amount) of the user's ledger rows with status <> 'failed'
--   user_balance.total_earned = sum(amount) of the user's ledger rows with amount > 0
--                               and status <> 'failed'
-- A pending withdrawal already counts as deducted (its row is -amount, 'pending'). When a
-- withdrawal fails, its own ledger row is marked 'failed' and the balance is credited back;
-- no refund row is written. Every function that changes a balance writes exactly the ledger
-- row(s) that keep these two equations true (public.verify_user_balance checks them).
--
-- Access: only the server (table owner / service_role) touches the data. Row level security
-- is on for every table with no policies, and anon/authenticated get no privileges.

-- Supabase's API roles already exist on a Supabase project; elsewhere create them so the
-- grants below are valid everywhere.
-- Roles belong to the whole server, so databases migrating at the same moment (test databases,
-- say) can race to create them: the loser's duplicate is ignored.
do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    begin
      create role anon nologin noinherit;
    exception when duplicate_object or unique_violation then null;
    end;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    begin
      create role authenticated nologin noinherit;
    exception when duplicate_object or unique_violation then null;
    end;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    begin
      create role service_role nologin noinherit bypassrls;
    exception when duplicate_object or unique_violation then null;
    end;
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------
-- Profiles. id is the identity provider's (Firebase) uid, hence text.
create table public.user_profiles (
  id text primary key,
  email text,
  display_name text not null,
  username text unique,
  -- 7 characters, uppercase letters and digits without the look-alikes I, O, 0, 1 (spec §5).
  referral_code text not null unique
    check (referral_code ~ '^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{7}$'),
  -- Holds is_active (deactivation), and optionally referral_bonus, display_name (spec §3).
  preferences jsonb not null default '{"is_active": true}'::jsonb
    check (jsonb_typeof(preferences) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.user_balance (
  user_id text primary key references public.user_profiles (id) on delete cascade,
  balance numeric(12, 2) not null default 0 check (balance >= 0),
  total_earned numeric(12, 2) not null default 0 check (total_earned >= 0),
  updated_at timestamptz not null default now()
);

-- The leaderboard reads the top earners.
create index user_balance_total_earned_idx on public.user_balance (total_earned desc);

create table public.daily_checkins (
  id bigint generated always as identity primary key,
  user_id text not null references public.user_profiles (id) on delete cascade,
  check_date date not null,
  coins_earned integer not null check (coins_earned > 0),
  created_at timestamptz not null default now(),
  -- One check-in per user and day.
  unique (user_id, check_date)
);

create table public.completed_tasks (
  id bigint generated always as identity primary key,
  user_id text not null references public.user_profiles (id) on delete cascade,
  task_id text not null,
  reward integer not null check (reward >= 0),
  created_at timestamptz not null default now(),
  -- One completion per user and task.
  unique (user_id, task_id)
);

create table public.referrals (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  referrer_user_id text not null references public.user_profiles (id) on delete cascade,
  -- A user can be referred only once.
  referred_user_id text not null unique references public.user_profiles (id) on delete cascade,
  check (referrer_user_id <> referred_user_id)
);

create index referrals_referrer_idx on public.referrals (referrer_user_id, created_at desc);

create table public.notification_preferences (
  user_id text primary key references public.user_profiles (id) on delete cascade,
  email_notifications boolean not null default true,
  push_notifications boolean not null default true,
  marketing_notifications boolean not null default true,
  withdrawal_notifications boolean not null default true,
  reward_notifications boolean not null default true,
  updated_at timestamptz not null default now()
);

create table public.withdrawals (
  id uuid primary key default gen_random_uuid(),
  user_id text not null references public.user_profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  amount numeric(12, 2) not null check (amount > 0),
  payment_method text not null check (payment_method in ('paypal', 'upi', 'bank')),
  recipient_email text,
  recipient_upi text,
  recipient_bank_details jsonb,
  status text not null default 'pending' check (status in ('pending', 'completed', 'failed')),
  settled_at timestamptz,
  -- The recipient of the chosen method must be present.
  check (payment_method <> 'paypal' or coalesce(trim(recipient_email), '') <> ''),
  check (payment_method <> 'upi' or coalesce(trim(recipient_upi), '') <> ''),
  check (payment_method <> 'bank' or coalesce(trim(recipient_bank_details ->> 'details'), '') <> ''),
  -- Settled exactly when no longer pending.
  check ((status = 'pending') = (settled_at is null))
);

create index withdrawals_user_created_idx on public.withdrawals (user_id, created_at desc);

-- The ledger (rule at the top of this file).
create table public.transaction_history (
  id bigint generated always as identity primary key,
  user_id text not null references public.user_profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  description text not null,
  transaction_type text not null
    check (transaction_type in ('checkin', 'task', 'referral', 'withdrawal')),
  -- Signed dollars: credits >= 0, withdrawals < 0.
  amount numeric(12, 2) not null,
  status text not null check (status in ('completed', 'pending', 'failed')),
  -- One ledger row per withdrawal. Cascade only matters when the profile (and with it the
  -- withdrawal) is deleted; the append-only trigger forbids any other delete.
  withdrawal_id uuid unique references public.withdrawals (id) on delete cascade,
  check ((transaction_type = 'withdrawal') = (withdrawal_id is not null)),
  check (case when transaction_type = 'withdrawal' then amount < 0 else amount >= 0 end),
  -- Only a withdrawal waits for settlement or fails; credits are final.
  check (transaction_type = 'withdrawal' or status = 'completed')
);

create index transaction_history_user_created_idx
  on public.transaction_history (user_id, created_at desc);

-- Append-only: the only allowed UPDATE is a status change (settling a withdrawal), and the
-- only allowed DELETE is the cascade from deleting the user's profile (account deletion).
-- The cascade runs after the profile row is deleted, so "the profile no longer exists" tells
-- it apart from a direct delete.
create function public.transaction_history_append_only() returns trigger
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
      new.amount, new.withdrawal_id)
     is distinct from
     (old.id, old.user_id, old.created_at, old.description, old.transaction_type,
      old.amount, old.withdrawal_id) then
    raise exception 'transaction_history is append-only: only status can change'
      using errcode = 'P0001';
  end if;
  return new;
end
$$;

create trigger transaction_history_append_only
  before update or delete on public.transaction_history
  for each row execute function public.transaction_history_append_only();

create table public.user_feedback (
  id bigint generated always as identity primary key,
  -- Feedback outlives the account that sent it.
  user_id text references public.user_profiles (id) on delete set null,
  name text not null check (length(trim(name)) > 0),
  email text not null check (length(trim(email)) > 0),
  message text not null check (length(trim(message)) > 0),
  created_at timestamptz not null default now()
);

-- Feedback history is listed by the user's email, newest first (spec §6).
create index user_feedback_email_created_idx on public.user_feedback (email, created_at desc);

create table public.user_fcm_tokens (
  id bigint generated always as identity primary key,
  user_id text not null references public.user_profiles (id) on delete cascade,
  fcm_token text not null,
  created_at timestamptz not null default now(),
  unique (user_id, fcm_token)
);

-- ---------------------------------------------------------------------------------------
-- Access: RLS on with no policies, nothing for the API roles, everything for service_role
-- (which bypasses RLS on Supabase). Supabase's default privileges would otherwise grant
-- anon/authenticated full access to every new table, sequence and function.
alter table public.user_profiles enable row level security;
alter table public.user_balance enable row level security;
alter table public.daily_checkins enable row level security;
alter table public.completed_tasks enable row level security;
alter table public.referrals enable row level security;
alter table public.notification_preferences enable row level security;
alter table public.withdrawals enable row level security;
alter table public.transaction_history enable row level security;
alter table public.user_feedback enable row level security;
alter table public.user_fcm_tokens enable row level security;

revoke all on table public.user_profiles from anon, authenticated;
revoke all on table public.user_balance from anon, authenticated;
revoke all on table public.daily_checkins from anon, authenticated;
revoke all on table public.completed_tasks from anon, authenticated;
revoke all on table public.referrals from anon, authenticated;
revoke all on table public.notification_preferences from anon, authenticated;
revoke all on table public.withdrawals from anon, authenticated;
revoke all on table public.transaction_history from anon, authenticated;
revoke all on table public.user_feedback from anon, authenticated;
revoke all on table public.user_fcm_tokens from anon, authenticated;

-- The identity columns' sequences.
revoke all on sequence public.daily_checkins_id_seq from anon, authenticated;
revoke all on sequence public.completed_tasks_id_seq from anon, authenticated;
revoke all on sequence public.referrals_id_seq from anon, authenticated;
revoke all on sequence public.transaction_history_id_seq from anon, authenticated;
revoke all on sequence public.user_feedback_id_seq from anon, authenticated;
revoke all on sequence public.user_fcm_tokens_id_seq from anon, authenticated;

grant all on table
  public.user_profiles, public.user_balance, public.daily_checkins, public.completed_tasks,
  public.referrals, public.notification_preferences, public.withdrawals,
  public.transaction_history, public.user_feedback, public.user_fcm_tokens
  to service_role;
grant usage, select on sequence
  public.daily_checkins_id_seq, public.completed_tasks_id_seq, public.referrals_id_seq,
  public.transaction_history_id_seq, public.user_feedback_id_seq, public.user_fcm_tokens_id_seq
  to service_role;

-- A trigger function is never called directly; keep it off the API anyway.
revoke all on function public.transaction_history_append_only() from public, anon, authenticated;
