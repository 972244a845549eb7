-- Issue 20, "People" (docs/operator-console.md): an operator looks a person up and reads their page.
--
-- - operator_find_people(operator, term, identity hash, payout address hash): the accounts a term
--   names, each key read through its own index: the account id, the email (lower), the referral
--   code, the wall id; the canonical email and a payout address arrive as the hashes the app keeps
--   (app/server/account/account-hash.server.ts), so neither is stored in clear to be searched.
-- - operator_person(operator, person, ledger type, ledger before): the person's page: profile,
--   balances (available, pending, locked bonus, and the balance itself, below zero after a reversal
--   of money already withdrawn), a page of the ledger, withdrawals, referrals both ways, and the
--   operator notes of the audit log about them.
-- Both read only, and both start with require_operator_role: every role may read people.

-- What the audit log says about a person, read by the record it names as well as by user_id.
create index operator_actions_record_idx on public.operator_actions (record_id, id desc) where record_id is not null;
-- A person's feedback, for their page (Help & Support reads it by email, as the spec does).
create index user_feedback_user_idx on public.user_feedback (user_id, created_at desc);

create function public.operator_find_people(
  p_operator_id text,
  p_term text,
  p_identity_hash text default null,
  p_recipient_hash text default null
)
returns jsonb
language plpgsql
stable
security definer
set search_path = public, pg_temp
as $$
declare
  v_term text := nullif(btrim(coalesce(p_term, '')), '');
begin
  perform require_operator_role(p_operator_id, array['support']);
  if v_term is null then
    return '[]'::jsonb;
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
           order by p.created_at desc)
      from (select id, min(matched_by) as matched_by
              from (select id, 'account id' as matched_by from user_profiles where id = v_term
                    union all
                    select id, 'email' from user_profiles where lower(email) = lower(v_term)
                    union all
                    select id, 'referral code' from user_profiles where referral_code = upper(v_term)
                    union all
                    select id, 'wall id' from user_profiles where wall_id = v_term
                    union all
                    select user_id, 'canonical email' from identities
                     where identity_hash = p_identity_hash and user_id is not null
                    union all
                    select distinct user_id, 'payout address' from withdrawals
                     where recipient_hash = p_recipient_hash and user_id is not null) found
             group by id
             limit 50) m
      join user_profiles p on p.id = m.id
      left join user_balance b on b.user_id = p.id), '[]'::jsonb);
end
$$;

create function public.operator_person(
  p_operator_id text,
  p_user_id text,
  p_ledger_type text default null,
  p_ledger_before bigint default null
)
returns jsonb
language plpgsql
stable
security definer
set search_path = public, pg_temp
as $$
declare
  v_profile jsonb;
  v_before record;
begin
  perform require_operator_role(p_operator_id, array['support']);
  select get_user_summary(p.id)
         || jsonb_build_object(
              'wall_id', p.wall_id,
              'banned_at', p.banned_at,
              'ban_reason', p.ban_reason,
              'payouts_paused_at', p.payouts_paused_at,
              'is_active', coalesce((p.preferences ->> 'is_active')::boolean, true),
              'operator_role', (select role from operators o where o.user_id = p.id))
    into v_profile
    from user_profiles p
   where p.id = p_user_id;
  if v_profile is null then
    return null;
  end if;
  select created_at, id into v_before from transaction_history
   where id = p_ledger_before and user_id = p_user_id;
  return jsonb_build_object(
    'profile', v_profile,
    -- 51 rows for a page of 50: the 51st says whether there is an older page.
    'ledger', coalesce((
      select jsonb_agg(to_jsonb(t) order by t.created_at desc, t.id desc)
        from (select id, created_at, description, transaction_type, amount, coins, status, kind, available_at
                from transaction_history
               where user_id = p_user_id
                 and (p_ledger_type is null or transaction_type = p_ledger_type)
                 and (v_before.id is null or (created_at, id) < (v_before.created_at, v_before.id))
               order by created_at desc, id desc
               limit 51) t), '[]'::jsonb),
    'withdrawals', coalesce((
      select jsonb_agg(to_jsonb(w) order by w.created_at desc)
        from (select id, created_at, amount, payment_method, status, review_state, risk_score, reference,
                     failure_reason
                from withdrawals
               where user_id = p_user_id
               order by created_at desc
               limit 20) w), '[]'::jsonb),
    'referred_by', (
      select jsonb_build_object('id', p.id, 'email', p.email, 'created_at', r.created_at,
                                'credited_at', r.credited_at)
        from referrals r join user_profiles p on p.id = r.referrer_user_id
       where r.referred_user_id = p_user_id),
    'referrals', coalesce((
      select jsonb_agg(x order by x ->> 'created_at' desc)
        from (select jsonb_build_object('id', p.id, 'email', p.email, 'created_at', r.created_at,
                                        'credited_at', r.credited_at, 'amount', r.referrer_amount) as x
                from referrals r join user_profiles p on p.id = r.referred_user_id
               where r.referrer_user_id = p_user_id
               order by r.created_at desc
               limit 50) refs), '[]'::jsonb),
    'referral_count', (select count(*) from referrals where referrer_user_id = p_user_id),
    -- What offer networks paid and took back, newest first.
    'offers', coalesce((
      select jsonb_agg(to_jsonb(o) order by o.created_at desc, o.id desc)
        from (select id, created_at, provider, transaction_id, kind, offer_name, coins, amount, available_at
                from provider_postbacks
               where user_id = p_user_id
               order by created_at desc, id desc
               limit 20) o), '[]'::jsonb),
    -- Every postback that named them, refused ones included (the log keeps 90 days).
    'postbacks', coalesce((
      select jsonb_agg(to_jsonb(l) order by l.received_at desc, l.id desc)
        from (select id, received_at, network, verdict, reason, transaction_id, coins
                from postback_log
               where user_id = p_user_id
               order by received_at desc, id desc
               limit 20) l), '[]'::jsonb),
    -- The browsers (first-party device ids) and networks (/24 or /64) they signed in from.
    'signals', coalesce((
      select jsonb_agg(jsonb_build_object('kind', kind, 'count', n, 'first_seen_at', first_seen, 'last_seen_at', last_seen)
                       order by kind)
        from (select kind, count(*) as n, min(first_seen_at) as first_seen, max(last_seen_at) as last_seen
                from account_signals where user_id = p_user_id group by kind) s), '[]'::jsonb),
    -- Other accounts that share something with this one: what withdrawal_risk links, read the same way.
    'linked', coalesce((
      select jsonb_agg(jsonb_build_object('id', linked.id, 'email', p.email, 'via', linked.via)
                       order by linked.via, linked.id)
        from (select o.user_id as id, min(case mine.kind when 'device' then 'same device' else 'same network' end) as via
                from (select kind, hash from account_signals where user_id = p_user_id
                       order by last_seen_at desc limit 20) mine
                cross join lateral (select user_id from account_signals o
                                     where o.kind = mine.kind and o.hash = mine.hash and o.user_id <> p_user_id
                                     limit 20) o
               group by o.user_id
              union
              select distinct o.user_id, 'same payout address'
                from withdrawals mine
                join withdrawals o on o.recipient_hash = mine.recipient_hash
               where mine.user_id = p_user_id and o.user_id <> p_user_id and mine.recipient_hash is not null) linked
        join user_profiles p on p.id = linked.id), '[]'::jsonb),
    -- Feedback and missing-credit reports they sent, newest first.
    'tickets', coalesce((
      select jsonb_agg(t order by t ->> 'created_at' desc)
        from (select jsonb_build_object('kind', 'feedback', 'id', f.id, 'created_at', f.created_at,
                                        'subject', left(f.message, 120), 'status', f.status) as t
                from (select * from user_feedback where user_id = p_user_id order by created_at desc limit 20) f
              union all
              select jsonb_build_object('kind', 'missing_credit', 'id', r.id, 'created_at', r.created_at,
                                        'subject', r.network || ': ' || r.offer_name, 'status', r.status)
                from (select * from missing_credit_reports where user_id = p_user_id
                       order by created_at desc limit 20) r) tickets), '[]'::jsonb),
    'actions', coalesce((
      select jsonb_agg(to_jsonb(a) order by a.id desc)
        from (select id, at, actor, action, reason
                from operator_actions
               where user_id = p_user_id
                  or (record_id = p_user_id and record_kind in ('account', 'operator'))
               order by id desc
               limit 20) a), '[]'::jsonb));
end
$$;

revoke all on function public.operator_find_people(text, text, text, text) from public, anon, authenticated;
grant execute on function public.operator_find_people(text, text, text, text) to service_role;
revoke all on function public.operator_person(text, text, text, bigint) from public, anon, authenticated;
grant execute on function public.operator_person(text, text, text, bigint) to service_role;
