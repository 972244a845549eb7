-- No JIT compilation in this database. Postgres compiles a query with LLVM once its estimated cost
-- passes jit_above_cost (100,000). This app's reads are short index reads, but an estimate can pass
-- that at a million accounts (app_config, one row that autovacuum never analyzes, is estimated at
-- hundreds of rows, and a join multiplies by it): Home's get_referral_status then spent 14-50 ms
-- compiling what it ran in 0.2 ms, and Home's throughput share fell from 59 % at 10,000 accounts
-- to 20 % at 1,000,000 (docs/benchmarks.md, "The operator console at scale"). JIT pays off for long
-- analytical queries, which this database does not serve. The setting applies to new sessions.
do $$
begin
  execute format('alter database %I set jit = off', current_database());
exception when insufficient_privilege then
  -- A managed Postgres that keeps database settings to its owner: set jit = off there by hand.
  raise notice 'jit stays as the server sets it (%): set jit = off for this database', sqlerrm;
end
$$;
