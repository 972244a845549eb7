/**
 * A read-only audit of the money and of what bad input must not touch, for tests that compare it
 * before and after: `problems` must stay empty (every balance equals its ledger, per
 * verify_all_balances(); no total earned below zero), and `fingerprint` must not change. A balance
 * may be negative: a reversal takes back money already withdrawn (docs/decisions/065).
 */
export async function ledgerAudit(sql: <R>(text: string) => Promise<R[]>) {
  const [row] = await sql<{ mismatches: unknown[]; negative: number; fingerprint: Record<string, string> }>(`
    select verify_all_balances() as mismatches,
           (select count(*)::int from user_balance where total_earned < 0) as negative,
           jsonb_build_object(
             'ledger', (select count(*) || ' rows, ' || coalesce(sum(amount), 0) || ', ' || md5(coalesce(string_agg(
                         id || user_id || amount || status, ',' order by id), '')) from transaction_history),
             'balances', (select md5(coalesce(string_agg(user_id || ':' || balance || ':' || total_earned, ','
                           order by user_id), '')) from user_balance),
             'withdrawals', (select count(*) || ' ' || md5(coalesce(string_agg(id || status, ',' order by id), ''))
                              from withdrawals),
             'completions', (select count(*)::text from completed_tasks),
             'check-ins', (select count(*)::text from daily_checkins),
             'postbacks', (select count(*)::text from provider_postbacks),
             'profiles', (select md5(coalesce(string_agg(id || display_name || coalesce(email, '') || preferences::text,
                           ',' order by id), '')) from user_profiles),
             'notification settings', (select md5(coalesce(string_agg(n::text, ',' order by user_id), ''))
                                        from notification_preferences n),
             'push tokens', (select count(*)::text from user_fcm_tokens),
             'feedback', (select count(*)::text from user_feedback),
             'settings', (select md5(to_jsonb(c)::text) from app_config c),
             -- An export changes nothing; its entry only records who took the payout addresses.
             'operator actions', (select count(*)::text from operator_actions where action <> 'export_unpaid'),
             'wall settings', (select md5(coalesce(string_agg(w::text, ',' order by network), '')) from wall_settings w)
           ) as fingerprint`);
  const { mismatches, negative, fingerprint } = row!;
  return {
    problems: [
      ...mismatches.map((mismatch) => `balance differs from its ledger: ${JSON.stringify(mismatch)}`),
      ...(negative > 0 ? [`${negative} negative total(s) earned`] : []),
    ],
    fingerprint,
  };
}
