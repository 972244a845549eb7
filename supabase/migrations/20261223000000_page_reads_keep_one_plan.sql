-- Four reads of the signed-in pages are plpgsql so that each statement's plan is kept for the
-- connection's life (as since 20261206000000_home_reads_keep_their_plans.sql): rewards_status and
-- get_referral_status (Home, Levels, Refer), get_referrals (Refer) and get_recent_activity (Profile).
-- Postgres keeps a statement's generic plan only when its estimated cost is close to the custom
-- plans' it made for the first five calls. With 1,000,000 accounts and 20,000,000 ledger rows, the
-- estimates for one person's rows of skewed tables (a referrer with 333,333 friends) put every
-- generic plan above, and each call planned its statements again: rewards_status took 1.8–2.2 ms
-- a call there against 0.5 with 10,000 accounts, and Home's share of /legal's throughput fell from
-- 67 % to 54 % (docs/benchmarks.md, "Plans kept at scale"). Each statement finds the person's rows
-- by index whatever the value, so the generic plan is the plan; with it, rewards_status takes
-- 0.48–0.55 ms a call at 1,000,000 accounts, for the biggest referrer and the heaviest ledger too.

alter function public.rewards_status(text) set plan_cache_mode = force_generic_plan;
alter function public.get_referral_status(text) set plan_cache_mode = force_generic_plan;
alter function public.get_referrals(text) set plan_cache_mode = force_generic_plan;
alter function public.get_recent_activity(text, integer) set plan_cache_mode = force_generic_plan;
