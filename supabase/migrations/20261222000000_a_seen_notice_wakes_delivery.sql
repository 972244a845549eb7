-- A page that takes a person's toasts (take_user_notices) or reads their notices (read_notices)
-- holds those rows for a moment. A delivery worker claiming then passes over them (claim_due_notices
-- locks `for update skip locked`) and, woken only when a notice is written, would send their push
-- and email at its next interval (NOTIFY_INTERVAL_SECONDS, a minute by default). A notice still due
-- that a page lets go of is announced again on pg_notify('user_notices') when the page commits,
-- after its locks are gone, so a worker claims it at once. Several rows of one person make one
-- notification (Postgres folds equal ones in a transaction); a notice already delivered, or claimed
-- by a worker (its next_attempt_at is the lease's end), is not announced.

create trigger user_notices_notify_when_seen
  after update of shown_at, read_at on public.user_notices
  for each row
  when (new.next_attempt_at is not null and new.next_attempt_at <= now())
  execute function public.notify_user_notice();
