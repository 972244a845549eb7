import type { DashboardData } from "~/domain/operator-dashboard";

// The dashboard's figures recomputed straight from the tables, by their definitions
// (docs/operator-console.md, "Dashboard"), without the counters: what operator_dashboard must say.
// Run in the same statement as operator_dashboard, so both see one now() and one snapshot.

const SOURCES = ["checkin", "task", "postback", "postback_reversal", "referral", "referral_bonus", "bonus"];

/** A SQL expression: the figures as the tables say them, in the shape of `dashboardFigures`. */
export const RECOMPUTED_FIGURES = `
  (with days as (select (now() at time zone 'UTC')::date as today),
        windows as (select key, (today - back)::timestamp at time zone 'UTC' as since
                      from days, (values ('day', 0), ('week', 6), ('month', 29)) v(key, back))
   select jsonb_build_object(
     'accounts', (select count(*) from user_profiles),
     'windows', (select jsonb_object_agg(key, jsonb_build_object(
        'signups', (select count(*) from user_profiles where created_at >= since),
        'active', (select count(*) from user_profiles p
                    where exists (select from account_signals s where s.user_id = p.id and s.last_seen_at >= since)
                       or exists (select from transaction_history t
                                   where t.user_id = p.id and t.created_at >= since
                                     and t.transaction_type in ('checkin', 'task', 'postback', 'withdrawal'))),
        'earning', (select count(*) from user_profiles p
                     where exists (select from transaction_history t
                                    where t.user_id = p.id and t.created_at >= since and t.amount > 0
                                      and t.transaction_type in ('checkin', 'task', 'postback'))),
        'sources', (select coalesce(jsonb_object_agg(transaction_type,
                                      jsonb_build_object('n', n, 'coins', coins, 'amount', amount)), '{}')
                      from (select transaction_type, count(*) as n, coalesce(sum(coins), 0) as coins, sum(amount) as amount
                              from transaction_history
                             where transaction_type <> 'withdrawal' and created_at >= since
                             group by transaction_type) s),
        'paid', (select jsonb_build_object('n', count(*), 'amount', coalesce(sum(amount), 0))
                   from withdrawals where status = 'completed' and settled_at >= since),
        'failed', (select jsonb_build_object('n', count(*), 'amount', coalesce(sum(amount), 0))
                     from withdrawals where status = 'failed' and settled_at >= since)))
       from windows),
     'balances', (select coalesce(sum(balance), 0) from user_balance),
     'negative', (select jsonb_build_object('n', count(*), 'amount', coalesce(sum(balance), 0))
                    from user_balance where balance < 0),
     'pending', (select coalesce(sum(amount), 0) from transaction_history
                  where kind = 'earned' and user_id is not null and available_at > now()),
     'review', (select jsonb_build_object('n', count(*), 'amount', coalesce(sum(amount), 0), 'oldest_at', min(created_at))
                  from withdrawals where status = 'pending' and review_state = 'review'),
     'unpaid', (select jsonb_build_object('n', count(*), 'amount', coalesce(sum(amount), 0), 'oldest_at', min(created_at))
                  from withdrawals where status = 'pending' and review_state <> 'review' and sent_at is null),
     'sent', (select jsonb_build_object('n', count(*), 'amount', coalesce(sum(amount), 0))
                from withdrawals where status = 'pending' and review_state <> 'review' and sent_at is not null)))`;

type Sums = { n: number; amount: number };

/** operator_dashboard's answer in the shape of RECOMPUTED_FIGURES. */
export function dashboardFigures(data: DashboardData) {
  const windows = Object.fromEntries(
    (["day", "week", "month"] as const).map((key) => {
      const sum = (metric: keyof DashboardData["windows"]) => data.windows[metric]?.[key];
      const sources = Object.fromEntries(
        SOURCES.flatMap((source) => {
          const found = sum(`ledger:${source}` as keyof DashboardData["windows"]);
          return found && found.n !== 0 ? [[source, found]] : [];
        }),
      );
      const money = (metric: keyof DashboardData["windows"]): Sums => ({
        n: sum(metric)?.n ?? 0,
        amount: sum(metric)?.amount ?? 0,
      });
      return [
        key,
        {
          signups: sum("signups")?.n ?? 0,
          active: sum("active_last")?.n ?? 0,
          earning: sum("earning_last")?.n ?? 0,
          sources,
          paid: money("withdrawals:paid"),
          failed: money("withdrawals:failed"),
        },
      ];
    }),
  );
  const { review, unpaid, sent } = data.withdrawals;
  return {
    accounts: data.accounts,
    windows,
    balances: data.liabilities.balances,
    negative: data.liabilities.negative,
    pending: data.liabilities.pending,
    review: { n: review.n, amount: review.amount, oldest_at: review.oldest_at ?? null },
    unpaid: { n: unpaid.n, amount: unpaid.amount, oldest_at: unpaid.oldest_at ?? null },
    sent: { n: sent.n, amount: sent.amount },
  };
}
