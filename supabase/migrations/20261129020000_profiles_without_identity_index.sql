-- Every server start asks for the profiles made before identities (profiles_without_identity,
-- decision 064). Without an index that is a scan of every profile on every start, forever, since a
-- legacy alias whose identity another account holds keeps a null hash. This partial index holds
-- only those profiles, in the order the backfill pages through them.
create index if not exists user_profiles_without_identity_idx
  on public.user_profiles (id)
  where identity_hash is null and email is not null;
