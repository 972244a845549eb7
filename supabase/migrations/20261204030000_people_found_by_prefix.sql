-- Redefines: public.operator_find_people
--
-- The console's people search finds by the start of an email, a name, a referral code or a wall id
-- ("priya" finds priya.k@example.com and Priya Sharma), besides the exact matches it had (issue 33).
-- Each prefix is read in order from its own index in the "C" collation (which serves both LIKE 'x%'
-- and ORDER BY ... COLLATE "C"), 50 at most, so a short prefix that a hundred thousand accounts
-- share costs what a long one does (`npm run bench -- --only=console`). Each call is planned with
-- its own pattern (plan_cache_mode): a generic plan cannot turn LIKE into an index range.

create index user_profiles_email_prefix_idx on public.user_profiles ((lower(email)) collate "C");
create index user_profiles_name_prefix_idx on public.user_profiles ((lower(display_name)) collate "C");
create index user_profiles_referral_code_prefix_idx on public.user_profiles (referral_code collate "C");
create index user_profiles_wall_id_prefix_idx on public.user_profiles (wall_id collate "C");

create or replace function public.operator_find_people(p_operator_id text, p_term text, p_identity_hash text default null,
                                                      p_recipient_hash text default null)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to 'public', 'pg_temp'
 set plan_cache_mode to 'force_custom_plan'
as $function$
declare
  v_term text := nullif(btrim(coalesce(p_term, '')), '');
  -- The term as the start of a LIKE pattern: its own %, _ and \ taken literally.
  v_prefix text;
  v_wall_prefix text;
begin
  perform require_operator_role(p_operator_id, array['support']);
  if v_term is null then
    return '[]'::jsonb;
  end if;
  v_wall_prefix := replace(replace(replace(v_term, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  v_prefix := lower(v_wall_prefix);
  -- One character finds too much to be a search: exact matches only.
  if length(v_term) < 2 then
    v_prefix := null;
    v_wall_prefix := null;
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', p.id,
             'email', p.email,
             'display_name', p.display_name,
             'created_at', p.created_at,
             'banned', p.banned_at is not null,
             'payouts_paused', p.payouts_paused_at is not null,
             'balance', coalesce(b.balance, 0),
             'matched_by', m.matched_by)
           order by m.exact desc, p.created_at desc)
      from (select id, coalesce(min(matched_by) filter (where exact), min(matched_by)) as matched_by,
                   bool_or(exact) as exact
              from (select id, 'account id' as matched_by, true as exact from user_profiles where id = v_term
                    union all
                    select id, 'email', true from user_profiles where lower(email) = lower(v_term)
                    union all
                    select id, 'referral code', true from user_profiles where referral_code = upper(v_term)
                    union all
                    select id, 'wall id', true from user_profiles where wall_id = v_term
                    union all
                    select user_id, 'canonical email', true from identities
                     where identity_hash = p_identity_hash and user_id is not null
                    union all
                    select user_id, 'payout address', true
                      from (select distinct user_id from withdrawals
                             where recipient_hash = p_recipient_hash and user_id is not null
                             order by user_id
                             limit 50) paid_to
                    union all
                    select id, 'start of email', false
                      from (select id from user_profiles where lower(email) collate "C" like v_prefix escape '\'
                             order by lower(email) collate "C" limit 50) by_email
                    union all
                    select id, 'start of name', false
                      from (select id from user_profiles where lower(display_name) collate "C" like v_prefix escape '\'
                             order by lower(display_name) collate "C" limit 50) by_name
                    union all
                    select id, 'start of referral code', false
                      from (select id from user_profiles where referral_code collate "C" like upper(v_prefix) escape '\'
                             order by referral_code collate "C" limit 50) by_code
                    union all
                    select id, 'start of wall id', false
                      from (select id from user_profiles where wall_id collate "C" like v_wall_prefix escape '\'
                             order by wall_id collate "C" limit 50) by_wall) found
             group by id
             order by bool_or(exact) desc
             limit 50) m
      join user_profiles p on p.id = m.id
      left join user_balance b on b.user_id = p.id), '[]'::jsonb);
end
$function$;
