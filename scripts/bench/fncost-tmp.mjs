import { openPostgres } from "../lib/database.mjs";
import { startPostgres } from "../lib/services.mjs";
import { seed } from "./seed.mjs";
const pgs = await startPostgres();
const db = await openPostgres(pgs.url);
const person = { id: "benchperson1", email: "bench.x@example.com" };
await seed(db, { users: 10000, ledgerRows: 100000, person });
const uid = person.id;
const calls = {
  summary: [`select public.get_user_summary(p_user_id => $1)`, [uid]],
  checkin: [`select public.get_checkin_status(p_user_id => $1)`, [uid]],
  referral: [`select public.get_referral_status(p_user_id => $1)`, [uid]],
  noop: [`select 1`, []],
};
const fns = (await db.query(`select proname from pg_proc where proname like 'get_%' or proname like '%completion%' order by 1`, [])).map(r=>r.proname);
console.log(fns.join(" "));
for (const [name, [sql, v]] of Object.entries(calls)) {
  try {
  for (let i = 0; i < 200; i++) await db.query(sql, v);
  const t = performance.now();
  for (let i = 0; i < 3000; i++) await db.query(sql, v);
  console.log(name, ((performance.now() - t) / 3000 * 1000).toFixed(0), "µs");
  } catch (e) { console.log(name, e.message); }
}
await db.close(); await pgs.stop();
