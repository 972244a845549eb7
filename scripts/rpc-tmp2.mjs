import { PGlite } from "@electric-sql/pglite";
const db = await PGlite.create(process.argv[2]);
const {
  rows: [u],
} = await db.query("select user_id from user_balance order by total_earned desc limit 1 offset 50");
const uid = u.user_id;
await db.exec(`create or replace function public.recent2(p_user_id text, p_limit integer default 10) returns jsonb
  language plpgsql stable security definer set search_path = public, pg_temp as $f$
begin
  return (select coalesce(jsonb_agg(jsonb_build_object(
           'id', t.id, 'created_at', t.created_at, 'description', t.description,
           'transaction_type', t.transaction_type, 'amount', t.amount, 'status', t.status,
           'coins', t.coins) order by t.created_at desc, t.id desc), '[]')
    from (select * from transaction_history where user_id = p_user_id
           order by created_at desc, id desc limit least(greatest(coalesce(p_limit, 10), 1), 50)) t);
end $f$;
create or replace function public.page2(p_user_id text) returns jsonb
  language plpgsql stable security definer set search_path = public, pg_temp as $f$
begin
  return jsonb_build_object('summary', get_user_summary(p_user_id), 'activity', recent2(p_user_id, 10), 'prefs', get_notification_preferences(p_user_id));
end $f$;`);
const calls = [
  ["select 1", []],
  ["select public.get_recent_activity(p_user_id => $1, p_limit => $2) as result", [uid, 10]],
  ["select public.recent2(p_user_id => $1, p_limit => $2) as result", [uid, 10]],
  ["select public.get_user_summary(p_user_id => $1) as result", [uid]],
  ["select public.get_notification_preferences(p_user_id => $1) as result", [uid]],
  ["select public.page2(p_user_id => $1) as result", [uid]],
];
for (let rep = 0; rep < 2; rep++)
  for (const [sql, v] of calls) {
    for (let i = 0; i < 300; i++) await db.query(sql, v);
    const t = performance.now();
    const N = 2000;
    for (let i = 0; i < N; i++) await db.query(sql, v);
    console.log(((performance.now() - t) / N).toFixed(3), "ms", sql.slice(14, 60));
  }
await db.close();
