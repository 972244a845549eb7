import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestPglite, type TestDatabase } from "../support/db";
import { provisionMember } from "../support/arrange";

// supabase/migrations/20261207000000_row_rules_planned_once.sql: the CHECK constraints of the
// tables every postback writes, each table's now checked by one plpgsql function (Postgres plans a
// CHECK's stored text again for every statement that writes the table; a function's rules are
// compiled once per connection). The rules must be exactly the ones they replaced.

/**
 * The rules as they were written until that migration, one expression per table (all its CHECKs),
 * and as later migrations extend them: user_notices' kinds `ticket_answered` (20261209000000) and
 * `earnings_cleared` (20261210000000).
 */
const REPLACED_RULES = {
  transaction_history: `
    ((transaction_type = 'withdrawal' or status = 'completed')) is not false
    and (case when transaction_type = any (array['postback', 'postback_reversal']) then kind = 'earned'
              when transaction_type = 'withdrawal' then kind is null
              when transaction_type = 'adjustment' then kind = any (array['earned', 'bonus'])
              else kind = 'bonus' end) is not false
    and (case when transaction_type = any (array['withdrawal', 'postback_reversal']) then amount < 0
              when transaction_type = 'adjustment' then amount <> 0 and kind = any (array['earned', 'bonus'])
              else amount >= 0 end) is not false
    and (status = any (array['completed', 'pending', 'failed'])) is not false
    and (transaction_type = any (array['checkin', 'task', 'referral', 'referral_bonus', 'withdrawal', 'bonus',
                                       'postback', 'postback_reversal', 'adjustment'])) is not false
    and ((transaction_type = 'withdrawal') = (withdrawal_id is not null)) is not false`,
  user_notices: `
    (jsonb_typeof(data) = 'object') is not false
    and (((push_status = 'pending') or (email_status = 'pending')) = (next_attempt_at is not null)) is not false
    and (length(email_address) <= 320) is not false
    and (email_attempts >= 0) is not false
    and (length(email_detail) <= 1000) is not false
    and ((email_address is null) = (email_reserved_at is null)) is not false
    and (email_status = any (array['pending', 'sent', 'skipped', 'failed'])) is not false
    and (kind = any (array['withdrawal_completed', 'withdrawal_failed', 'referral_credited', 'welcome_bonus',
                           'task_reward', 'postback_reward', 'support_reply', 'missing_credit_credited',
                           'policy_change_waiting', 'ticket_answered', 'earnings_cleared'])) is not false
    and (push_attempts >= 0) is not false
    and (length(push_detail) <= 1000) is not false
    and (push_status = any (array['pending', 'sent', 'skipped', 'failed'])) is not false`,
  postback_log: `
    (signature_digest ~ '^[0-9a-f]{64}$') is not false
    and (verdict = any (array['credited', 'reversed', 'duplicate', 'ignored', 'refused', 'held'])) is not false`,
  completed_tasks: `(reward >= 0) is not false and (status = any (array['pending', 'credited'])) is not false`,
  user_balance: `
    (carried_debt >= 0) is not false and (carried_debt_total >= 0) is not false and (total_earned >= 0) is not false`,
};

/**
 * Each table: its rules function's call, values to try in each column (the first of each makes a
 * row every rule accepts), and the groups of columns whose values are tried in every combination
 * (the others at their first value). Rules on more than one column have their columns in one group.
 */
const GRIDS: Record<
  keyof typeof REPLACED_RULES,
  { call: string; columns: Record<string, string[]>; groups: string[][] }
> = {
  transaction_history: {
    call: "transaction_history_rules(transaction_type, status, amount, kind, withdrawal_id)",
    columns: {
      transaction_type: [
        ...["checkin", "task", "referral", "referral_bonus", "withdrawal", "bonus", "postback"],
        ...["postback_reversal", "adjustment", "gift"],
      ]
        .map((value) => `'${value}'`)
        .concat("null::text"),
      status: ["'completed'", "'pending'", "'failed'", "'lost'", "null::text"],
      amount: ["-1.00", "0", "2.50", "null::numeric"],
      kind: ["'earned'", "'bonus'", "'other'", "null::text"],
      withdrawal_id: ["null::uuid", "'00000000-0000-0000-0000-000000000001'::uuid"],
    },
    groups: [["transaction_type", "status", "amount", "kind", "withdrawal_id"]],
  },
  user_notices: {
    call:
      "user_notices_rules(kind, data, push_status, email_status, push_attempts, email_attempts, push_detail, " +
      "email_detail, next_attempt_at, email_address, email_reserved_at)",
    columns: {
      kind: [
        ...["'postback_reward'", "'policy_change_waiting'", "'ticket_answered'", "'earnings_cleared'"],
        ...["'withdrawal_completed'"],
        ...["'spam'", "null::text"],
      ],
      data: [`'{}'::jsonb`, `'[]'::jsonb`, `'"x"'::jsonb`, "null::jsonb"],
      push_status: ["'pending'", "'sent'", "'skipped'", "'failed'", "'lost'", "null::text"],
      email_status: ["'pending'", "'sent'", "'skipped'", "'failed'", "'lost'", "null::text"],
      push_attempts: ["0", "3", "-1", "null::integer"],
      email_attempts: ["0", "3", "-1", "null::integer"],
      push_detail: ["null::text", "repeat('d', 1000)", "repeat('d', 1001)"],
      email_detail: ["null::text", "repeat('d', 1000)", "repeat('d', 1001)"],
      next_attempt_at: ["now()", "null::timestamptz"],
      email_address: [
        ...["null::text", "'a@example.com'"],
        ...["repeat('a', 308) || '@example.com'", "repeat('a', 309) || '@example.com'"],
      ],
      email_reserved_at: ["null::timestamptz", "now()"],
    },
    groups: [
      ["kind", "data"],
      ["push_status", "email_status", "next_attempt_at"],
      ["push_attempts", "email_attempts", "push_detail", "email_detail"],
      ["email_address", "email_reserved_at"],
    ],
  },
  postback_log: {
    call: "postback_log_rules(verdict, signature_digest)",
    columns: {
      verdict: ["'credited'", "'reversed'", "'duplicate'", "'ignored'", "'refused'", "'held'", "'paid'", "null::text"],
      signature_digest: ["null::text", `'${"ab".repeat(32)}'`, `'${"AB".repeat(32)}'`, `'${"a".repeat(63)}'`, "''"],
    },
    groups: [["verdict", "signature_digest"]],
  },
  completed_tasks: {
    call: "completed_tasks_rules(status, reward)",
    columns: {
      status: ["'pending'", "'credited'", "'done'", "null::text"],
      reward: ["0", "120", "-1", "null::integer"],
    },
    groups: [["status", "reward"]],
  },
  user_balance: {
    call: "user_balance_rules(total_earned, carried_debt, carried_debt_total)",
    columns: {
      total_earned: ["0", "5.00", "-0.01", "null::numeric"],
      carried_debt: ["0", "5.00", "-0.01", "null::numeric"],
      carried_debt_total: ["0", "5.00", "-0.01", "null::numeric"],
    },
    groups: [["total_earned", "carried_debt", "carried_debt_total"]],
  },
};

/** The grid's rows, each as the select list of one row (`value as column, ...`). */
function gridRows({ columns, groups }: (typeof GRIDS)[keyof typeof GRIDS]): string[] {
  return groups.flatMap((group) =>
    Object.entries(columns).reduce<string[]>(
      (rows, [column, values]) =>
        rows.flatMap((row) =>
          (group.includes(column) ? values : values.slice(0, 1)).map(
            (value) => `${row}${row ? ", " : ""}${value} as ${column}`,
          ),
        ),
      [""],
    ),
  );
}

describe("row rules checked by one function per table (PGlite)", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPglite();
    // Whether a rules function takes a row: its check_violation caught, as a CHECK would fail.
    await t.sql(`create function pg_temp.accepts(p_call text, p_row text) returns boolean language plpgsql as $$
      begin
        execute format('select %s from (select %s) r', p_call, p_row);
        return true;
      exception when check_violation then
        return false;
      end $$`);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("leaves each of the five tables one CHECK constraint, a call of its rules function", async () => {
    const rows = await t.sql<{ table: string; checks: string[] }>(
      `select conrelid::regclass::text as table, array_agg(pg_get_constraintdef(oid) order by conname) as checks
         from pg_constraint
        where contype = 'c' and conrelid = any (array['transaction_history', 'user_notices', 'postback_log',
                                                      'completed_tasks', 'user_balance']::regclass[])
        group by conrelid order by 1`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.table, row.checks]))).toEqual(
      Object.fromEntries(
        Object.entries(GRIDS)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([table, grid]) => [table, [`CHECK (${grid.call}) NOT VALID`]]),
      ),
    );
  });

  it.each(Object.keys(GRIDS) as (keyof typeof REPLACED_RULES)[])(
    "%s: the rules function accepts exactly the rows the replaced CHECK constraints accepted",
    async (table) => {
      const grid = GRIDS[table];
      const rows = gridRows(grid);
      const verdicts = await replacedVerdicts(t, table, rows);
      const differing = await t.sql<{ row: string; before: boolean; now: boolean }>(
        `select g.row, g.before, pg_temp.accepts($1, g.row) as now
           from unnest($2::text[], $3::boolean[]) as g(row, before)
          where pg_temp.accepts($1, g.row) is distinct from g.before`,
        [grid.call, rows, verdicts],
      );
      expect(differing).toEqual([]);
      // Both answers occur: the grid tries each side of the rules.
      expect(new Set(verdicts)).toEqual(new Set([true, false]));
    },
  );

  it("refuses a row breaking each rule with 23514, naming the constraint that rule had", async () => {
    const userId = await provisionMember(t, { prefix: "rules" });
    const refusals = {
      transaction_history_type_check: `insert into transaction_history (user_id, description, transaction_type, amount, status, kind) values ($1, 'x', 'gift', 1, 'completed', 'bonus')`,
      transaction_history_status_check: `insert into transaction_history (user_id, description, transaction_type, amount, status) values ($1, 'x', 'bonus', 1, 'lost')`,
      transaction_history_final_check: `insert into transaction_history (user_id, description, transaction_type, amount, status) values ($1, 'x', 'bonus', 1, 'pending')`,
      transaction_history_sign_check: `insert into transaction_history (user_id, description, transaction_type, amount, status) values ($1, 'x', 'bonus', -1, 'completed')`,
      transaction_history_withdrawal_link_check: `insert into transaction_history (user_id, description, transaction_type, amount, status, withdrawal_id) values ($1, 'x', 'bonus', 1, 'completed', gen_random_uuid())`,
      user_notices_kind_check: `insert into user_notices (user_id, kind) values ($1, 'spam')`,
      user_notices_data_check: `insert into user_notices (user_id, kind, data) values ($1, 'task_reward', '[]')`,
      user_notices_push_status_check: `insert into user_notices (user_id, kind, push_status) values ($1, 'task_reward', 'lost')`,
      user_notices_email_status_check: `insert into user_notices (user_id, kind, email_status) values ($1, 'task_reward', 'lost')`,
      user_notices_push_attempts_check: `insert into user_notices (user_id, kind, push_attempts) values ($1, 'task_reward', -1)`,
      user_notices_email_attempts_check: `insert into user_notices (user_id, kind, email_attempts) values ($1, 'task_reward', -1)`,
      user_notices_push_detail_check: `insert into user_notices (user_id, kind, push_detail) values ($1, 'task_reward', repeat('d', 1001))`,
      user_notices_email_detail_check: `insert into user_notices (user_id, kind, email_detail) values ($1, 'task_reward', repeat('d', 1001))`,
      user_notices_due_check: `insert into user_notices (user_id, kind, next_attempt_at) values ($1, 'task_reward', null)`,
      user_notices_email_address_check: `insert into user_notices (user_id, kind, email_address, email_reserved_at) values ($1, 'task_reward', repeat('a', 321), now())`,
      user_notices_email_reservation_check: `insert into user_notices (user_id, kind, email_address) values ($1, 'task_reward', 'a@example.com')`,
      postback_log_verdict_check: `insert into postback_log (network, method, query, body, verdict, user_id) values ('cpx', 'GET', '', '', 'paid', $1)`,
      postback_log_signature_digest_check: `insert into postback_log (network, method, query, body, verdict, signature_digest, user_id) values ('cpx', 'GET', '', '', 'credited', 'ABC', $1)`,
      completed_tasks_status_check: `insert into completed_tasks (user_id, task_id, reward, status) values ($1, 'rules-task', 1, 'done')`,
      completed_tasks_reward_check: `insert into completed_tasks (user_id, task_id, reward) values ($1, 'rules-task', -1)`,
      user_balance_total_earned_check: `update user_balance set total_earned = -0.01 where user_id = $1`,
      user_balance_carried_debt_check: `update user_balance set carried_debt = -0.01 where user_id = $1`,
      user_balance_carried_debt_total_check: `update user_balance set carried_debt_total = -0.01 where user_id = $1`,
    };
    const seen: Record<string, { code: unknown; constraint: unknown; message: unknown }> = {};
    for (const [constraint, statement] of Object.entries(refusals)) {
      const error = await t.sql(statement, [userId]).then(
        () => null,
        (caught: { code?: string; constraint?: string; message?: string }) => caught,
      );
      seen[constraint] = { code: error?.code, constraint: error?.constraint, message: error?.message };
    }
    expect(seen).toEqual(
      Object.fromEntries(
        Object.keys(refusals).map((constraint) => {
          const table = constraint.replace(
            /_(type|status|final|sign|withdrawal_link|kind|data|push_status|email_status|push_attempts|email_attempts|push_detail|email_detail|due|email_address|email_reservation|verdict|signature_digest|reward|total_earned|carried_debt|carried_debt_total)_check$/,
            "",
          );
          return [
            constraint,
            {
              code: "23514",
              constraint,
              message: `new row for relation "${table}" violates check constraint "${constraint}"`,
            },
          ];
        }),
      ),
    );
    // Nothing was written by the refused statements.
    const [counts] = await t.sql<{ ledger: number; notices: number; log: number; tasks: number; debt: string }>(
      `select (select count(*)::int from transaction_history where description = 'x') as ledger,
              (select count(*)::int from user_notices where user_id = $1 and kind in ('spam', 'task_reward')) as notices,
              (select count(*)::int from postback_log where user_id = $1) as log,
              (select count(*)::int from completed_tasks where task_id = 'rules-task') as tasks,
              (select carried_debt::text from user_balance where user_id = $1) as debt`,
      [userId],
    );
    expect(counts).toEqual({ ledger: 0, notices: 0, log: 0, tasks: 0, debt: "0.00" });
  });
});

/** The replaced constraints' verdict on each row of the grid, in order. */
async function replacedVerdicts(
  t: TestDatabase,
  table: keyof typeof REPLACED_RULES,
  rows: string[],
): Promise<boolean[]> {
  const verdicts: boolean[] = [];
  // In slices: one statement per slice, each row a `select` of its own.
  for (let start = 0; start < rows.length; start += 500) {
    const slice = rows.slice(start, start + 500);
    const result = await t.sql<{ accepted: boolean }>(
      slice
        .map((row, index) => `select ${index} as i, (${REPLACED_RULES[table]}) as accepted from (select ${row}) r`)
        .join(" union all ")
        .concat(" order by i"),
    );
    verdicts.push(...result.map((row) => row.accepted));
  }
  return verdicts;
}
