import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newMember, newOperator } from "../support/console";
import { ledgerAudit } from "../support/ledger-audit";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// The console's dashboard (docs/operator-console.md, "Dashboard"), over HTTP with JavaScript off on
// the production build with its own Postgres: the figures the page shows change exactly as people
// sign up, earn, are reversed and withdraw; the charts are SVG with words and a table; a member
// gets the 404 page.

const WINDOWS = ["day", "week", "month"] as const;

/**
 * The text of the element with `data-testid="<id>"` on the page. React 18.3's streaming renderer
 * sends a NUL byte where a character of several bytes falls on its 2 KB buffer's edge
 * (facebook/react#31134); browsers drop it, and so does this reading.
 */
function shown(page: string, id: string): string {
  const match = new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(page);
  if (!match) throw new Error(`no ${id} on the page`);
  return match[1]!.replaceAll("\u0000", "");
}

/** "$1,234.56" or "-$7.00" as whole cents. */
function cents(text: string): number {
  const match = /^(-?)\$([\d,]+)\.(\d\d)$/.exec(text.trim());
  if (!match) throw new Error(`not dollars: ${text}`);
  return (match[1] ? -1 : 1) * (Number(match[2]!.replace(/,/g, "")) * 100 + Number(match[3]));
}

const count = (text: string) => Number(text.replace(/,/g, ""));

/** "2 · $11.00": how many and how much. */
function queue(text: string) {
  const [n, amount] = text.split(" · ");
  if (amount === undefined) throw new Error(`not a count and an amount: ${JSON.stringify(text)}`);
  return { n: count(n!), cents: cents(amount!) };
}

/** Every figure of the page, as numbers (money in cents). */
function figures(page: string) {
  const windowed = (id: string, read: (text: string) => number) =>
    Object.fromEntries(WINDOWS.map((window) => [window, read(shown(page, `${id}-${window}`))])) as Record<
      (typeof WINDOWS)[number],
      number
    >;
  return {
    accounts: count(shown(page, "figure-accounts")),
    signups: windowed("figure-signups", count),
    active: windowed("figure-active", count),
    earning: windowed("figure-earning", count),
    offers: windowed("figure-offers", cents),
    reversed: windowed("figure-reversed", cents),
    bonus: windowed("figure-source-bonus", cents),
    checkins: windowed("figure-source-checkin", cents),
    paid: windowed("figure-paid", cents),
    failed: windowed("figure-failed", cents),
    balances: cents(shown(page, "figure-balances")),
    available: cents(shown(page, "figure-available")),
    pending: cents(shown(page, "figure-pending")),
    negative: cents(shown(page, "figure-negative")),
    review: queue(shown(page, "figure-review")),
    unpaid: queue(shown(page, "figure-unpaid")),
  };
}

type Figures = ReturnType<typeof figures>;

/** What changed between two readings of the page (windows as one number when all three moved alike). */
function change(before: Figures, after: Figures) {
  const windowed = (key: keyof Figures) => {
    const [day, week, month] = WINDOWS.map(
      (window) => (after[key] as Record<string, number>)[window]! - (before[key] as Record<string, number>)[window]!,
    );
    return day === week && week === month ? day : { day, week, month };
  };
  return {
    accounts: after.accounts - before.accounts,
    signups: windowed("signups"),
    active: windowed("active"),
    earning: windowed("earning"),
    offers: windowed("offers"),
    reversed: windowed("reversed"),
    bonus: windowed("bonus"),
    checkins: windowed("checkins"),
    paid: windowed("paid"),
    failed: windowed("failed"),
    balances: after.balances - before.balances,
    available: after.available - before.available,
    pending: after.pending - before.pending,
    negative: after.negative - before.negative,
    review: { n: after.review.n - before.review.n, cents: after.review.cents - before.review.cents },
    unpaid: { n: after.unpaid.n - before.unpaid.n, cents: after.unpaid.cents - before.unpaid.cents },
  };
}

const NOTHING = {
  accounts: 0,
  signups: 0,
  active: 0,
  earning: 0,
  offers: 0,
  reversed: 0,
  bonus: 0,
  checkins: 0,
  paid: 0,
  failed: 0,
  balances: 0,
  available: 0,
  pending: 0,
  negative: 0,
  review: { n: 0, cents: 0 },
  unpaid: { n: 0, cents: 0 },
};

describe("the console's dashboard", () => {
  let app: PostgresApp;
  let support: Awaited<ReturnType<typeof newOperator>>;
  let finance: Awaited<ReturnType<typeof newOperator>>;

  beforeAll(async () => {
    app = await startPostgresApp();
    // Offer money held for a week (pending), and a first cash-out reviewed, as in production.
    await app.sql("update app_config set postback_hold_days = 7, review_first_withdrawal = true");
    [support, finance] = await Promise.all([newOperator(app, "support"), newOperator(app, "finance")]);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  async function read(client = support.client) {
    const response = await client.get("/admin");
    expect(response.status).toBe(200);
    return figures(await response.text());
  }

  function postback(userId: string, transactionId: string, coins: number, reversal = false) {
    return app.sql("select record_postback('acme', $1, $2, $3, $4, 'Offer')", [transactionId, userId, coins, reversal]);
  }

  it("a sign-up adds one account signed up and active today, this week and this month, and nothing else", async () => {
    const before = await read();
    await newMember(app);
    expect(change(before, await read())).toEqual({ ...NOTHING, accounts: 1, signups: 1, active: 1 });
  });

  it("bonus coins, a check-in, an offer held for a week and its partial reversal move the sources, the earning count and the balances exactly", async () => {
    const member = await newMember(app);
    let before = await read();
    await app.sql("select add_user_coins($1, 250)", [member.uid]);
    // Bonus coins are money owed, not earning.
    expect(change(before, await read())).toEqual({ ...NOTHING, bonus: 250, balances: 250, available: 250 });

    before = await read();
    const checkin = await member.client.post("/?index", { intent: "checkin" });
    expect(checkin.status).toBe(302);
    expect(change(before, await read())).toEqual({
      ...NOTHING,
      checkins: 10,
      earning: 1,
      balances: 10,
      available: 10,
    });

    before = await read();
    await postback(member.uid, "dash-1", 400);
    // Held: owed, but pending, not available.
    expect(change(before, await read())).toEqual({ ...NOTHING, offers: 400, balances: 400, pending: 400 });

    before = await read();
    await postback(member.uid, "dash-1", 100, true);
    expect(change(before, await read())).toEqual({ ...NOTHING, reversed: 100, balances: -100, pending: -100 });
    const page = await (await support.client.get("/admin")).text();
    // This member's offers alone would make 25 %; the share is of every offer credited today.
    expect(shown(page, "figure-reversal-share-day")).toMatch(/^\d+\.\d %$/);
  });

  it("a withdrawal waits in review, then is paid: the queue, the balances and the money paid out follow exactly", async () => {
    const member = await newMember(app);
    await app.sql("select record_email_verified($1)", [member.uid]);
    await app.sql("select add_user_coins($1, 900)", [member.uid]);
    let before = await read();
    const asked = await member.client.post("/withdraw", {
      intent: "withdraw",
      amount: "7",
      method: "upi",
      upiId: `dash.${Date.now().toString(36)}@okaxis`,
    });
    expect(asked.status).toBe(302);
    expect(change(before, await read())).toEqual({
      ...NOTHING,
      review: { n: 1, cents: 700 },
      balances: -700,
      available: -700,
    });
    const page = await (await support.client.get("/admin")).text();
    expect(shown(page, "figure-review-oldest")).toMatch(/^the oldest has waited (under a minute|\d+ min)$/);

    const [withdrawal] = await app.sql<{ id: string }>("select id from withdrawals where user_id = $1", [member.uid]);
    before = await read();
    const approved = await finance.client.post(`/admin/withdrawals/${withdrawal!.id}`, { intent: "approve" });
    expect(approved.status).toBe(302);
    expect(change(before, await read())).toEqual({
      ...NOTHING,
      review: { n: -1, cents: -700 },
      unpaid: { n: 1, cents: 700 },
    });

    before = await read();
    const marked = await finance.client.post(`/admin/withdrawals/${withdrawal!.id}`, {
      intent: "mark-paid",
      reference: "UTR-DASH-1",
    });
    expect(marked.status).toBe(302);
    expect(change(before, await read())).toEqual({ ...NOTHING, unpaid: { n: -1, cents: -700 }, paid: 700 });
  });

  it("a reversal of money already withdrawn shows as a balance below zero", async () => {
    const member = await newMember(app);
    await app.sql("select record_email_verified($1)", [member.uid]);
    await app.sql("update app_config set postback_hold_days = 0, review_first_withdrawal = false");
    try {
      await postback(member.uid, "dash-2", 500);
      const asked = await member.client.post("/withdraw", {
        intent: "withdraw",
        amount: "5",
        method: "upi",
        upiId: `neg.${Date.now().toString(36)}@okaxis`,
      });
      expect(asked.status).toBe(302);
      const before = await read();
      await postback(member.uid, "dash-2", 500, true);
      const after = await read();
      expect(change(before, after)).toMatchObject({ reversed: 500, balances: -500, available: -500, negative: -500 });
    } finally {
      await app.sql("update app_config set postback_hold_days = 7, review_first_withdrawal = true");
    }
  });

  it("shows what each bonus loop paid today, in 7 and 30 days and this month against its cap (docs/decisions/094)", async () => {
    await app.sql("update app_config set daily_goals = $1", [
      JSON.stringify([{ id: "check-in", kind: "checkin", target: 1, bonus_coins: 5 }]),
    ]);
    const loopFigures = async () => {
      const page = await (await support.client.get("/admin")).text();
      return {
        goals: Object.fromEntries(WINDOWS.map((window) => [window, cents(shown(page, `figure-loop-goals-${window}`))])),
        // A line of several parts: its text with React's markers between them left out.
        month: /data-testid="loop-month-goals"[^>]*>([\s\S]*?)<\/span>/.exec(page)![1]!.replace(/<[^>]*>/g, ""),
        levels: cents(shown(page, "figure-loop-levels-month")),
      };
    };
    const before = await loopFigures();
    const { uid } = await newMember(app);
    await app.sql("select daily_checkin($1)", [uid]);
    expect(await app.sql("select claim_daily_goal($1, 'check-in') ->> 'paid' as paid", [uid])).toEqual([
      { paid: "true" },
    ]);
    const after = await loopFigures();
    expect(WINDOWS.map((window) => after.goals[window]! - before.goals[window]!)).toEqual([5, 5, 5]);
    expect(after.levels).toBe(before.levels);
    const [month] = await app.sql<{ paid: string }>(
      "select to_char(paid, 'FM999990.00') as paid from loop_months where loop = 'goals' and month = current_month()",
    );
    expect(after.month).toBe(`$${month!.paid} of $1,000.00 this month`);
    await app.sql("update app_config set goals_on = false");
    expect((await loopFigures()).month).toBe(`$${month!.paid} of $1,000.00 this month · off`);
    await app.sql("update app_config set goals_on = true, daily_goals = default");
  });

  it("marks an account active on the 7th day after signing up toward its sign-up week's retention, once", async () => {
    const { uid } = await newMember(app);
    await app.sql("update user_profiles set created_at = now() - interval '7 days' where id = $1", [uid]);
    await app.sql("select rebuild_dashboard_counts()");
    await app.sql("select daily_checkin($1)", [uid]);
    await app.sql("select add_user_coins($1, 5)", [uid]);
    expect(
      await app.sql(
        "select day_offset, cohort = dashboard_week(now() - interval '7 days') as in_its_week from retention_marks where user_id = $1",
        [uid],
      ),
    ).toEqual([{ day_offset: 7, in_its_week: true }]);
  });

  it("shows a sign-up week's retention as shares of its sign-ups once the week is old enough, and a dash before", async () => {
    // Four accounts of a week six weeks ago: two came back on day 1, one on day 7, none on day 30.
    const members = await Promise.all(Array.from({ length: 4 }, () => newMember(app)));
    const ids = members.map((member) => member.uid);
    await app.sql(
      "update user_profiles set created_at = dashboard_week(now()) - interval '42 days' + interval '10 hours' where id = any($1)",
      [ids],
    );
    await app.sql("select rebuild_dashboard_counts()");
    for (const [id, offset] of [
      [ids[0], 1],
      [ids[1], 1],
      [ids[2], 7],
    ] as const)
      await app.sql(
        "insert into retention_marks (user_id, day_offset, cohort) values ($1, $2, dashboard_week(now()) - interval '42 days')",
        [id, offset],
      );
    const page = await (await support.client.get("/admin")).text();
    const [week] = await app.sql<{ week: string }>(
      "select to_char(dashboard_week(now()) - interval '42 days', 'YYYY-MM-DD') as week",
    );
    const row = new RegExp(`data-testid="retention-${week!.week}"[^>]*>([\\s\\S]*?)</tr>`).exec(page)![1]!;
    const cells = [...row.matchAll(/<td[^>]*>([^<]*)</g)].map((match) => match[1]);
    expect(cells).toEqual(["4", "50.0 %", "25.0 %", "0.0 %"]);
    const thisWeek = new RegExp(`data-testid="retention-[0-9-]+"[^>]*>([\\s\\S]*?)</tr>`).exec(page)![1]!;
    expect([...thisWeek.matchAll(/<td[^>]*>([^<]*)</g)].map((match) => match[1]).slice(1)).toEqual(["—", "—", "—"]);
  });

  it("shows the share of bonus money that ever became withdrawable: locked bonus counts when offer earnings unlock it, and stays counted after a reversal", async () => {
    await app.sql("update app_config set bonus_unlock_ratio = 1.0");
    try {
      const bonus = async () =>
        (
          await app.sql<{ bonus: { total: number; unlocked: number } }>(
            "select operator_dashboard($1) -> 'bonus' as bonus",
            [support.uid],
          )
        )[0]!.bonus;
      const before = await bonus();
      const { uid } = await newMember(app);
      await app.sql("select add_user_coins($1, 50)", [uid]);
      const locked = await bonus();
      expect([Number(locked.total) - Number(before.total), Number(locked.unlocked) - Number(before.unlocked)]).toEqual([
        0.5, 0,
      ]);
      // An offer that clears at once (its own hold of 0 days) unlocks $0.20 of the bonus.
      await app.sql("select record_postback('acme', $1, $2, 20, false, 'Offer', null, 0)", [`${uid}-clear`, uid]);
      const unlocked = await bonus();
      expect(Math.round((Number(unlocked.unlocked) - Number(before.unlocked)) * 100)).toBe(20);
      // Taken back: what became withdrawable once stays counted.
      await app.sql("select record_postback('acme', $1, $2, 20, true, 'Reversed')", [`${uid}-clear`, uid]);
      expect(Number((await bonus()).unlocked)).toBe(Number(unlocked.unlocked));
      const page = await (await support.client.get("/admin")).text();
      const line = /data-testid="bonus-withdrawable"[^>]*>([\s\S]*?)<\/p>/.exec(page)![1]!.replace(/<[^>]*>/g, "");
      const now = await bonus();
      expect(line).toContain("of bonus money ever withdrawable");
      expect(line).toContain(`$${Number(now.unlocked).toFixed(2)} of $`);
    } finally {
      await app.sql("update app_config set bonus_unlock_ratio = null");
    }
  });

  it("every figure on the page equals the tables recounted, and the money stays audited", async () => {
    const [row] = await app.sql<{ differences: unknown[] }>("select check_dashboard_counts() as differences");
    expect(row!.differences).toEqual([]);
    expect((await ledgerAudit(app.sql)).problems).toEqual([]);
    const shownNow = await read();
    const [tables] = await app.sql<{ balances: string; pending: string; accounts: number }>(
      `select to_char((select sum(balance) from user_balance), 'FM999999990.00') as balances,
              to_char((select coalesce(sum(amount), 0) from transaction_history
                        where kind = 'earned' and user_id is not null and available_at > now()), 'FM999999990.00') as pending,
              (select count(*)::int from user_profiles) as accounts`,
    );
    expect(shownNow.balances).toBe(cents(`$${tables!.balances}`));
    expect(shownNow.pending).toBe(cents(`$${tables!.pending}`));
    expect(shownNow.accounts).toBe(tables!.accounts);
  });

  it("draws its charts as SVG images named in words, each with a table of the 30 days", async () => {
    const page = await (await support.client.get("/admin")).text();
    for (const chart of ["signups", "paid", "credited"]) {
      const figure = page.slice(page.indexOf(`data-testid="chart-${chart}"`));
      const body = figure.slice(0, figure.indexOf("</figure>"));
      expect(body).toMatch(
        /<svg role="img" aria-label="[^"]+: (?:[^"]+ in all from \w{3} \d+ to \w{3} \d+; the most, [^"]+|none from \w{3} \d+ to \w{3} \d+)"/,
      );
      expect(body.match(/<tr>/g)?.length).toBe(31);
      expect(body).toContain("<details");
    }
    // Today's sign-ups drawn as a bar, its figure in the bar's own title.
    expect(page).toMatch(/<rect [^>]*class="fill-brand-600"[^>]*><title>\w{3} \d+: \d+<\/title>/);
  });

  it("a member gets the app's 404 page for the dashboard and its data", async () => {
    const member = await newMember(app);
    const response = await member.client.get("/admin");
    expect(response.status).toBe(404);
    const page = await response.text();
    expect(page).toContain("Oops! Page not found");
    expect(page).not.toMatch(/Dashboard|figure-/);
    const data = await member.client.get("/admin.data");
    expect(data.status).toBe(404);
    expect(await data.text()).not.toMatch(/liabilities|windows/);
  });
});
