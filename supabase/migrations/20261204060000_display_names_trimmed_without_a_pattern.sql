-- Redefines: public.clean_display_name
--
-- A display name is trimmed of its end spaces by btrim with the list of space characters, not by
-- the pattern '^[ …]+|[ …]+$': Postgres's engine reads that pattern in linear time, but it is
-- quadratic in any backtracking engine (a run of spaces inside the text is tried from each of its
-- positions), and the pattern analysis of tests/integration/sql-pattern-backtracking.test.ts
-- holds every migration's pattern to what a backtracking engine reads in linear time. Same result:
-- the space and Unicode's other space separators (U+00A0, U+1680, U+2000 to U+200A, U+202F,
-- U+205F, U+3000) removed from both ends.
create or replace function public.clean_display_name(p_name text) returns text
  language sql
  immutable
  set search_path = public, pg_temp
as $$
  select case when char_length(v_name) between 1 and 50 and not has_hidden_characters(v_name) then v_name end
    from (select btrim(p_name, U&' \00A0\1680\2000\2001\2002\2003\2004\2005\2006\2007\2008\2009\200A\202F\205F\3000')
                   as v_name) trimmed
$$;
