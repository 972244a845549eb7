-- Redefines: public.submit_feedback
--
-- Feedback is read by operators in the console and in their email: a name, address or message with
-- hidden characters (a bidi override, ESC sequences, zero-width characters) is refused, as display
-- names and payment addresses are. The message keeps its line breaks and tabs.
CREATE OR REPLACE FUNCTION public.submit_feedback(p_user_id text, p_name text, p_email text, p_message text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  -- Trimmed of spaces, tabs and line breaks, as the form trims: a message of line breaks is blank.
  v_name text := btrim(coalesce(p_name, ''), E' \t\n\r\f\x0B');
  v_email text := btrim(coalesce(p_email, ''), E' \t\n\r\f\x0B');
  v_message text := btrim(coalesce(p_message, ''), E' \t\n\r\f\x0B');
  v_id bigint;
begin
  if v_name = '' or v_email = '' or v_message = '' then
    raise exception 'Please fill out all fields' using errcode = 'P0001', hint = 'feedback_fields_required';
  end if;
  if char_length(v_message) > 2000 or char_length(v_name) > 100 or char_length(v_email) > 254 then
    raise exception 'Feedback too long' using errcode = 'P0001', hint = 'feedback_too_long';
  end if;
  if has_hidden_characters(v_name) or has_hidden_characters(v_email)
     or has_hidden_characters(translate(v_message, E'\r\n\t', '')) then
    raise exception 'Feedback contains hidden characters' using errcode = 'P0001', hint = 'feedback_hidden_characters';
  end if;
  if not exists (select from user_profiles where id = p_user_id) then
    raise exception 'Account not found' using errcode = 'P0001', hint = 'account_not_found';
  end if;
  insert into user_feedback (user_id, name, email, message)
  values (p_user_id, v_name, v_email, v_message)
  returning id into v_id;
  return jsonb_build_object('id', v_id);
end
$function$;
