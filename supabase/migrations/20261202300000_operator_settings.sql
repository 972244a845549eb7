-- Issue 20, "Settings" (docs/operator-console.md): every app_config value read in the console by any
-- operator, and changed by an owner, each change audited.
--
-- - operator_settings(operator): every app_config column but its key (`id`), with its value, and
--   the row's version (an md5 of the row) that the console's form carries back.
-- - operator_set_settings(operator, actor, changes, reason, version): owner only. `changes` is an
--   object {setting: value}; every name must be on the allow-list of settings (app_setting_valid:
--   nothing else is ever written, and no SQL is built from a name) and every value within its
--   bounds, else nothing is written. The bounds are those of app/domain/settings.ts (the console's
--   form checks them first; tests/integration/operator-settings.test.ts holds the two equal); the
--   table's CHECK constraints stay the last line. Given a version that is no longer the row's
--   (another owner saved in between), it refuses, so a form opened earlier cannot quietly put back
--   the values it showed. Writes one operator_actions row per setting whose value changes
--   (`set_setting`, record `setting` / the column, before and after as {"value": ...}, the reason)
--   in the same transaction; a value equal to the current one writes nothing, and when nothing
--   changes the row is not touched (app_config_notify stays quiet).
-- - list_setting_changes(operator, before, limit): the audit entries of settings, newest first, a
--   page at a time, from their own partial index.

create index operator_actions_setting_idx on public.operator_actions (id desc) where record_kind = 'setting';

-- Whether p_value is a valid value of the setting p_name; null when p_name is no setting (the
-- allow-list). Numbers are JSON numbers; money has at most two decimals; counts are whole.
create function public.app_setting_valid(p_name text, p_value jsonb)
  returns boolean
  language plpgsql
  immutable
  set search_path = public, pg_temp
as $$
declare
  v_number numeric;
begin
  if p_name is null or not p_name = any (array[
       'coins_per_dollar', 'checkin_coins', 'checkin_streak_bonus_coins',
       'referral_reward', 'referral_welcome_bonus', 'referral_qualifying_coins', 'referral_requires_earned',
       'min_withdrawal_paypal', 'min_withdrawal_upi', 'min_withdrawal_bank', 'withdrawals_per_hour',
       'risk_review_threshold', 'review_first_withdrawal',
       'postback_hold_days', 'provider_hold_days', 'bonus_unlock_ratio',
       'notice_delivery_attempts', 'notice_delivery_window_hours', 'notice_emails_per_address_per_day',
       'adjustment_approval_above']) then
    return null;
  end if;
  if p_name = 'provider_hold_days' then
    -- {"network": days}: a network's own hold, whole days.
    if jsonb_typeof(p_value) is distinct from 'object' then
      return false;
    end if;
    if (select count(*) from jsonb_object_keys(p_value)) > 50 then
      return false;
    end if;
    return not exists (
      select from jsonb_each(p_value) e
       where e.key !~ '^[a-z0-9-]{2,40}$'
          or case when jsonb_typeof(e.value) = 'number'
                  then (e.value)::numeric <> trunc((e.value)::numeric) or (e.value)::numeric not between 0 and 365
                  else true end);
  end if;
  if p_name in ('referral_requires_earned', 'review_first_withdrawal') then
    return jsonb_typeof(p_value) = 'boolean';
  end if;
  -- The ratio may be null: bonus money is unlocked at once.
  if p_name = 'bonus_unlock_ratio' and jsonb_typeof(p_value) = 'null' then
    return true;
  end if;
  if jsonb_typeof(p_value) is distinct from 'number' then
    return false;
  end if;
  v_number := p_value::numeric;
  return case p_name
    when 'coins_per_dollar' then v_number = trunc(v_number) and v_number between 1 and 10000
    when 'checkin_coins' then v_number = trunc(v_number) and v_number between 1 and 100000
    when 'checkin_streak_bonus_coins' then v_number = trunc(v_number) and v_number between 0 and 100000
    when 'referral_reward' then v_number = round(v_number, 2) and v_number between 0 and 1000
    when 'referral_welcome_bonus' then v_number = round(v_number, 2) and v_number between 0 and 1000
    when 'referral_qualifying_coins' then v_number = trunc(v_number) and v_number between 0 and 1000000
    when 'min_withdrawal_paypal' then v_number = round(v_number, 2) and v_number between 0.01 and 10000
    when 'min_withdrawal_upi' then v_number = round(v_number, 2) and v_number between 0.01 and 10000
    when 'min_withdrawal_bank' then v_number = round(v_number, 2) and v_number between 0.01 and 10000
    when 'withdrawals_per_hour' then v_number = trunc(v_number) and v_number between 1 and 1000
    -- Scores are 0 to 100: 101 sends no withdrawal to review for its score.
    when 'risk_review_threshold' then v_number = trunc(v_number) and v_number between 0 and 101
    when 'postback_hold_days' then v_number = trunc(v_number) and v_number between 0 and 365
    when 'bonus_unlock_ratio' then v_number = round(v_number, 2) and v_number between 0 and 100
    when 'notice_delivery_attempts' then v_number = trunc(v_number) and v_number between 1 and 100
    when 'notice_delivery_window_hours' then v_number = trunc(v_number) and v_number between 1 and 8760
    when 'notice_emails_per_address_per_day' then v_number = trunc(v_number) and v_number between 0 and 1000
    when 'adjustment_approval_above' then v_number = round(v_number, 2) and v_number between 0 and 1000000
  end;
end
$$;

-- Every setting and its value, and the row's version. Every operator role may read them.
create function public.operator_settings(p_operator_id text)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_config app_config;
begin
  perform require_operator_role(p_operator_id, array['support']);
  select * into v_config from app_config;
  return jsonb_build_object('settings', to_jsonb(v_config) - 'id', 'version', md5(to_jsonb(v_config)::text));
end
$$;

-- Changes settings (owner only), with one audit entry per setting whose value changed. Returns
-- {"changed": [{"setting", "before", "after"}], "version"}.
create function public.operator_set_settings(p_operator_id text, p_actor text, p_changes jsonb, p_reason text,
                                             p_version text default null)
  returns jsonb
  language plpgsql
  security definer
  set search_path = public, pg_temp
as $$
declare
  v_actor text;
  v_reason text;
  v_name text;
  v_value jsonb;
  v_valid boolean;
  v_before app_config;
  v_after app_config;
  v_patch jsonb := '{}';
  v_changed jsonb := '[]';
begin
  perform require_operator_role(p_operator_id, array['owner']);
  v_actor := operator_actor(p_actor);
  v_reason := operator_reason(p_reason);
  if jsonb_typeof(p_changes) is distinct from 'object' then
    raise exception 'Settings must be an object of names and values'
      using errcode = 'P0001', hint = 'invalid_settings';
  end if;
  -- Every name and value checked before anything is written: all of it, or none.
  for v_name, v_value in select key, value from jsonb_each(p_changes) order by key loop
    v_valid := app_setting_valid(v_name, v_value);
    if v_valid is null then
      raise exception 'Unknown setting' using errcode = 'P0001', hint = 'unknown_setting';
    end if;
    if not v_valid then
      raise exception 'Invalid value for the setting %', v_name
        using errcode = 'P0001', hint = 'invalid_setting', detail = v_name;
    end if;
  end loop;

  select * into v_before from app_config for update;
  if p_version is not null and p_version is distinct from md5(to_jsonb(v_before)::text) then
    raise exception 'The settings changed since they were read' using errcode = 'P0001', hint = 'settings_changed';
  end if;
  -- Only the values that differ (numbers compare as numbers: 5 is 5.00).
  select coalesce(jsonb_object_agg(c.key, c.value), '{}') into v_patch
    from jsonb_each(p_changes) c
   where c.value is distinct from to_jsonb(v_before) -> c.key;
  if v_patch = '{}' then
    return jsonb_build_object('changed', '[]'::jsonb, 'version', md5(to_jsonb(v_before)::text));
  end if;

  -- Each column from the checked patch, else as it was: a static list, no SQL made from names.
  v_after := jsonb_populate_record(v_before, v_patch);
  update app_config
     set coins_per_dollar = v_after.coins_per_dollar,
         checkin_coins = v_after.checkin_coins,
         checkin_streak_bonus_coins = v_after.checkin_streak_bonus_coins,
         referral_reward = v_after.referral_reward,
         referral_welcome_bonus = v_after.referral_welcome_bonus,
         referral_qualifying_coins = v_after.referral_qualifying_coins,
         referral_requires_earned = v_after.referral_requires_earned,
         min_withdrawal_paypal = v_after.min_withdrawal_paypal,
         min_withdrawal_upi = v_after.min_withdrawal_upi,
         min_withdrawal_bank = v_after.min_withdrawal_bank,
         withdrawals_per_hour = v_after.withdrawals_per_hour,
         risk_review_threshold = v_after.risk_review_threshold,
         review_first_withdrawal = v_after.review_first_withdrawal,
         postback_hold_days = v_after.postback_hold_days,
         provider_hold_days = v_after.provider_hold_days,
         bonus_unlock_ratio = v_after.bonus_unlock_ratio,
         notice_delivery_attempts = v_after.notice_delivery_attempts,
         notice_delivery_window_hours = v_after.notice_delivery_window_hours,
         notice_emails_per_address_per_day = v_after.notice_emails_per_address_per_day,
         adjustment_approval_above = v_after.adjustment_approval_above
   where id
  returning * into v_after;

  for v_name in select key from jsonb_object_keys(v_patch) key order by key loop
    insert into operator_actions (actor, actor_user_id, action, reason, record_kind, record_id, before, after)
    values (v_actor, p_operator_id, 'set_setting', v_reason, 'setting', v_name,
            jsonb_build_object('value', to_jsonb(v_before) -> v_name),
            jsonb_build_object('value', to_jsonb(v_after) -> v_name));
    v_changed := v_changed || jsonb_build_object('setting', v_name, 'before', to_jsonb(v_before) -> v_name,
                                                 'after', to_jsonb(v_after) -> v_name);
  end loop;
  return jsonb_build_object('changed', v_changed, 'version', md5(to_jsonb(v_after)::text));
end
$$;

-- The audit entries of settings, newest first: at most p_limit older than p_before (null: from the
-- newest). Every role may read them.
create function public.list_setting_changes(p_operator_id text, p_before bigint, p_limit integer)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = public, pg_temp
as $$
begin
  perform require_operator_role(p_operator_id, array['support']);
  if p_limit is null or p_limit < 1 or p_limit > 1000 then
    raise exception 'A limit is 1 to 1000 entries' using errcode = 'P0001', hint = 'invalid_log_limit';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', a.id, 'at', a.at, 'actor', a.actor, 'actor_user_id', a.actor_user_id, 'setting', a.record_id,
             'before', a.before -> 'value', 'after', a.after -> 'value', 'reason', a.reason)
           order by a.id desc)
      from (select * from operator_actions
             where record_kind = 'setting' and (p_before is null or id < p_before)
             order by id desc
             limit p_limit) a), '[]');
end
$$;

revoke all on function public.app_setting_valid(text, jsonb) from public, anon, authenticated;
revoke all on function public.operator_settings(text) from public, anon, authenticated;
grant execute on function public.operator_settings(text) to service_role;
revoke all on function public.operator_set_settings(text, text, jsonb, text, text) from public, anon, authenticated;
grant execute on function public.operator_set_settings(text, text, jsonb, text, text) to service_role;
revoke all on function public.list_setting_changes(text, bigint, integer) from public, anon, authenticated;
grant execute on function public.list_setting_changes(text, bigint, integer) to service_role;
