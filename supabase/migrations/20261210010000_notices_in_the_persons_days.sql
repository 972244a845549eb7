-- Redefines: public.claim_due_notices
--
-- Push and email in the person's own days (issue 36, point 10; docs/decisions/085): the zone their
-- browser reported (the tz cookie) is kept with the account at each sign-in, and the delivery
-- worker's claim hands it over with the notice. Checked as the app checks the cookie's value (an
-- IANA name, at most 64 characters); the app also asks the runtime whether it knows the name.
alter table public.user_profiles add column time_zone text
  constraint user_profiles_time_zone_check check (time_zone ~ '^[A-Za-z][A-Za-z0-9_+/-]{0,63}$');

-- Keeps the zone a browser reported at sign-in; none (JavaScript off, UTC) keeps the one before.
CREATE OR REPLACE FUNCTION public.record_time_zone(p_user_id text, p_time_zone text)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
  update user_profiles set time_zone = p_time_zone
   where id = p_user_id and p_time_zone is not null and time_zone is distinct from p_time_zone
$function$;
revoke all on function public.record_time_zone(text, text) from public, anon, authenticated;
grant execute on function public.record_time_zone(text, text) to service_role;

CREATE OR REPLACE FUNCTION public.claim_due_notices(p_limit integer DEFAULT 10, p_lease_seconds integer DEFAULT 300)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_config app_config;
  v_claim uuid := gen_random_uuid();
  v_notice user_notices;
  v_push text;
  v_email text;
  v_claimed bigint[] := '{}';
  -- An explicit cursor, read a row at a time: a FOR loop over a query fetches ten rows at once,
  -- and each row fetched under FOR UPDATE stays locked until the claim commits, so a claim of 3
  -- held 10 and a worker claiming beside it found nothing due.
  v_due cursor for
    select * from user_notices
     where next_attempt_at <= now()
     order by next_attempt_at, id
       for update skip locked;
begin
  if p_limit is null or p_limit not between 1 and 100 or p_lease_seconds is null
     or p_lease_seconds not between 1 and 3600 then
    raise exception 'Invalid delivery claim' using errcode = 'P0001', hint = 'invalid_delivery_claim';
  end if;
  select * into v_config from app_config;

  open v_due;
  loop
    fetch v_due into v_notice;
    exit when not found;
    v_push := v_notice.push_status;
    v_email := v_notice.email_status;
    if v_notice.created_at < now() - make_interval(hours => v_config.notice_delivery_window_hours) then
      v_push := case when v_push = 'pending' then 'skipped' else v_push end;
      v_email := case when v_email = 'pending' then 'skipped' else v_email end;
    else
      v_push := case when v_push = 'pending' and v_notice.push_attempts >= v_config.notice_delivery_attempts
                     then 'failed' else v_push end;
      v_email := case when v_email = 'pending' and v_notice.email_attempts >= v_config.notice_delivery_attempts
                      then 'failed' else v_email end;
    end if;

    if v_push <> 'pending' and v_email <> 'pending' then
      update user_notices
         set push_status = v_push,
             email_status = v_email,
             push_detail = case when push_status = 'pending' then
                             case v_push when 'skipped' then 'not delivered within the delivery window'
                                         else coalesce(push_detail, 'no outcome was recorded') end
                           else push_detail end,
             email_detail = case when email_status = 'pending' then
                              case v_email when 'skipped' then 'not delivered within the delivery window'
                                           else coalesce(email_detail, 'no outcome was recorded') end
                            else email_detail end,
             next_attempt_at = null,
             claim_id = null
       where id = v_notice.id;
      continue;
    end if;

    update user_notices
       set push_status = v_push,
           email_status = v_email,
           push_attempts = push_attempts + (v_push = 'pending')::integer,
           email_attempts = email_attempts + (v_email = 'pending')::integer,
           next_attempt_at = now() + make_interval(secs => p_lease_seconds),
           claim_id = v_claim
     where id = v_notice.id;
    v_claimed := v_claimed || v_notice.id;
    exit when cardinality(v_claimed) >= p_limit;
  end loop;
  close v_due;

  return (
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', n.id,
             'claim_id', n.claim_id,
             'user_id', n.user_id,
             'kind', n.kind,
             'data', n.data,
             'created_at', n.created_at,
             -- Changed: no display name. Anyone can give an account any name (one made with
             -- someone else's address, say), so an email does not greet by it.
             -- The zone the person's browser last reported at sign-in: the days the notice's
             -- words name are theirs (docs/decisions/085); null for UTC.
             'recipient', jsonb_build_object('email', p.email, 'time_zone', p.time_zone),
             'preferences', jsonb_build_object(
               'email', coalesce(np.email_notifications, true),
               'push', coalesce(np.push_notifications, true),
               'category', notice_category(n.kind),
               'category_enabled', case notice_category(n.kind)
                                     when 'withdrawal' then coalesce(np.withdrawal_notifications, true)
                                     when 'reward' then coalesce(np.reward_notifications, true)
                                     else false
                                   end),
             'push', jsonb_build_object(
               'due', n.push_status = 'pending',
               'attempt', n.push_attempts,
               'delivered_before', cardinality(n.push_delivered_tokens),
               'tokens', coalesce((
                 select jsonb_agg(newest.fcm_token order by newest.created_at desc, newest.id desc)
                   from (select t.id, t.fcm_token, t.created_at
                           from user_fcm_tokens t
                          where t.user_id = n.user_id
                          order by t.created_at desc, t.id desc
                          limit 10) newest
                  where not newest.fcm_token = any (n.push_delivered_tokens)), '[]'::jsonb)),
             'email', jsonb_build_object('due', n.email_status = 'pending', 'attempt', n.email_attempts))
           order by n.id), '[]'::jsonb)
      from user_notices n
      join user_profiles p on p.id = n.user_id
      left join notification_preferences np on np.user_id = n.user_id
     where n.id = any (v_claimed));
end
$function$;
