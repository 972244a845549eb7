import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDay } from "~/domain/dates";
import { endHolds } from "../support/holds";
import { html, HttpClient, uniqueEmail } from "../support/http";
import { startPostgresApp, startPostgresAppWithProvider, type PostgresApp } from "../support/postgres-app";
import { startSmtpStandIn, type SmtpStandIn } from "../support/smtp";
import { eventually } from "../support/wait";

// Issue 36, "One money timeline" (docs/decisions/080): each money event, posted as it happens in
// production (a signed postback over HTTP, form posts, the operators' SQL functions), read where a
// person reads it: the toast on their next page, the notice stored for them, the email the
// delivery worker sends to a local SMTP server, and Recent Activity. Once on the strict production
// settings (holds, locked bonus, first cash-outs reviewed) and once on the demo settings.
const SECRET = "postback-secret-for-money-timeline";
const FROM = "notices@rewards.example";

describe.each([["production"], ["demo"]] as const)("money words on %s settings", (settings) => {
  const production = settings === "production";
  let app: PostgresApp;
  let postback: (params: Record<string, string>) => Promise<string>;
  let smtp: SmtpStandIn;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    ({ app, postback, stop } = await startPostgresAppWithProvider(
      SECRET,
      { settings },
      // A try the mail server did not answer in time on a busy machine is tried again a second later.
      {
        SMTP_URL: smtp.url,
        EMAIL_FROM: `Rewards <${FROM}>`,
        PUBLIC_URL: "https://rewards.example",
        NOTIFY_RETRY_SECONDS: "1",
      },
    ));
  }, 120_000);

  afterAll(async () => {
    await stop?.();
    await smtp?.close();
  });

  async function person(referralCode?: string) {
    const { client, email, response } = await app.signUp(referralCode ? { referralCode } : {});
    expect(response.status).toBe(302);
    const [profile] = await app.sql<{ id: string; referral_code: string }>(
      "select id, referral_code from user_profiles where email = $1",
      [email],
    );
    await app.sql("select record_email_verified($1)", [profile!.id]);
    return { client, email, id: profile!.id, referralCode: profile!.referral_code };
  }

  let transactions = 0;
  async function offerCredit(userId: string, coins: number) {
    transactions += 1;
    const answer = await postback({
      user_id: userId,
      transaction_id: `${userId}-${transactions}`,
      amount: String(coins),
    });
    expect(answer).toBe("OK");
  }

  /**
   * The description of the toast titled `title` on the person's next page that shows it (each
   * notice shows once). A page passes over a notice the delivery worker is claiming for its email
   * at that moment (take_user_notices skips locked rows): the next page shows it.
   */
  async function toast(client: HttpClient, title: string): Promise<string> {
    const pattern = new RegExp(`>${title}</p><p[^>]*>([^<]*)</p>`);
    const match = await eventually(async () => pattern.exec((await client.visit("/earn")).html) ?? undefined, {
      what: `a toast "${title}"`,
    });
    // React 18.3's streaming renderer can send a NUL byte where a character of several bytes falls
    // on its 2 KB buffer's edge (facebook/react#31134); browsers drop it, and so does this reading.
    return match[1]!.replaceAll("\u0000", "");
  }

  /**
   * The text of the newest email to `email` whose subject is `subject`. Waits for the delivery
   * worker to settle every email of the person's notices (sent, skipped or failed; none pending),
   * not for a time: the timeout only stops a hang. A skipped or failed email fails here with why.
   */
  async function emailText(email: string, subject: string): Promise<string> {
    const outcomes = await eventually(
      async () => {
        const rows = await app.sql<{ kind: string; email_status: string; email_detail: string | null }>(
          `select n.kind, n.email_status, n.email_detail from user_notices n
             join user_profiles p on p.id = n.user_id
            where p.email = $1 order by n.id`,
          [email],
        );
        return rows.every((row) => row.email_status !== "pending") && rows;
      },
      { what: `the emails of ${email}'s notices to be settled`, timeoutMs: 60_000 },
    );
    expect(outcomes.filter((row) => row.email_status === "failed")).toEqual([]);
    const mail = smtp.mailTo(email).findLast((message) => message.parsed.subject === subject);
    expect(mail, `an email "${subject}" to ${email}; the notices' emails: ${JSON.stringify(outcomes)}`).toBeDefined();
    return mail!.parsed.text ?? "";
  }

  /** Recent Activity on Profile: each row's label and its one state badge, newest first. */
  async function activity(client: HttpClient): Promise<[string, string | null][]> {
    const { html: page } = await client.visit("/profile");
    const list = page.slice(
      page.indexOf('aria-label="Recent activity"'),
      page.indexOf("</ul>", page.indexOf('aria-label="Recent activity"')),
    );
    return list
      .split("<li")
      .slice(1)
      .map((row) => [
        /class="truncate[^"]*">([^<]*)</.exec(row)![1]!,
        /data-testid="money-state">([^<]*)</.exec(row)?.[1] ?? null,
      ]);
  }

  async function clearingDay(userId: string): Promise<string> {
    const [row] = await app.sql<{ available_at: Date }>(
      "select max(available_at) as available_at from transaction_history where user_id = $1 and kind = 'earned'",
      [userId],
    );
    return formatDay(row!.available_at.toISOString());
  }

  it("an offer's credit: pending with the day it clears (production), then available; the same words in the toast, the notice, the email and Recent Activity", async () => {
    const earner = await person();
    await offerCredit(earner.id, 350);
    const day = await clearingDay(earner.id);
    const state = production ? `pending, clears ${day}` : "available to withdraw";
    const words = `You earned 350 coins ($3.50) for completing an offer — ${state}.`;

    const [notice] = await app.sql<{ data: { available_at?: string } }>(
      "select data from user_notices where user_id = $1 and kind = 'postback_reward'",
      [earner.id],
    );
    expect(notice!.data.available_at).toBeTruthy();
    expect(await toast(earner.client, "Offer completed")).toBe(html(words));
    expect(await emailText(earner.email, "Offer completed")).toContain(words);
    expect(await activity(earner.client)).toEqual([
      ["Offer completed", production ? `Pending · clears ${day}` : "Available"],
    ]);

    // Cleared: the same row is now available, and the card can pay it out.
    await endHolds(app, earner.id);
    expect(await activity(earner.client)).toEqual([["Offer completed", "Available"]]);
    expect((await earner.client.visit("/")).html).toMatch(/data-testid="balance">\$3\.50</);
  });

  // Issue 36, point 10 (docs/decisions/085): Kiritimati (UTC+14) and Pago Pago (UTC-11) are 25
  // hours apart, so the day a credit clears is never the same day in both.
  it.runIf(production)(
    "the day an offer's credit clears, in the person's time zone (tz cookie): the toast, the notices page, Recent Activity and the balance card",
    async () => {
      const earner = await person();
      await offerCredit(earner.id, 250);
      const [row] = await app.sql<{ available_at: Date }>(
        "select max(available_at) as available_at from transaction_history where user_id = $1 and kind = 'earned'",
        [earner.id],
      );
      const dayIn = (zone: string) =>
        row!.available_at.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: zone });
      const words = (zone: string) =>
        html(`You earned 250 coins ($2.50) for completing an offer — pending, clears ${dayIn(zone)}.`);
      earner.client.cookies.set("tz", "Pacific/Kiritimati");
      expect(await toast(earner.client, "Offer completed")).toBe(words("Pacific/Kiritimati"));
      for (const zone of ["Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
        earner.client.cookies.set("tz", zone);
        expect((await earner.client.visit("/notices")).html).toContain(words(zone));
        expect(await activity(earner.client)).toEqual([["Offer completed", `Pending · clears ${dayIn(zone)}`]]);
        expect((await earner.client.visit("/")).html).toContain(`next clears ${dayIn(zone)}`);
      }
      expect(dayIn("Pacific/Kiritimati")).not.toBe(dayIn("Pacific/Pago_Pago"));
    },
  );

  it.runIf(production)(
    "the email names the day in the zone the browser reported at sign-up, kept with the account: a sign-in reporting none keeps it, one reporting another changes it",
    async () => {
      const browser = (zone: string | null) => {
        const client = new HttpClient(app.url);
        client.cookies.set("hasSeenOnboarding", "true");
        if (zone) client.cookies.set("tz", zone);
        return client;
      };
      const email = uniqueEmail("zone");
      const signUp = { intent: "signup", email, password: "s3cret-pass" };
      expect((await browser("Pacific/Kiritimati").post("/auth?tab=signup", signUp)).status).toBe(302);
      const zoneKept = async () =>
        (
          await app.sql<{ id: string; time_zone: string | null }>(
            "select id, time_zone from user_profiles where email = $1",
            [email],
          )
        )[0]!;
      const { id, time_zone } = await zoneKept();
      expect(time_zone).toBe("Pacific/Kiritimati");
      await app.sql("select record_email_verified($1)", [id]);
      await offerCredit(id, 120);
      const [row] = await app.sql<{ available_at: Date }>(
        "select max(available_at) as available_at from transaction_history where user_id = $1 and kind = 'earned'",
        [id],
      );
      const day = row!.available_at.toLocaleDateString("en-US", {
        month: "short",
        day: "numeric",
        timeZone: "Pacific/Kiritimati",
      });
      expect(await emailText(email, "Offer completed")).toContain(
        `You earned 120 coins ($1.20) for completing an offer — pending, clears ${day}.`,
      );

      const signIn = { intent: "signin", email, password: "s3cret-pass" };
      expect((await browser(null).post("/auth", signIn)).status).toBe(302);
      expect((await zoneKept()).time_zone).toBe("Pacific/Kiritimati");
      expect((await browser("Not/AZone").post("/auth", signIn)).status).toBe(302);
      expect((await zoneKept()).time_zone).toBe("Pacific/Kiritimati");
      expect((await browser("Pacific/Pago_Pago").post("/auth", signIn)).status).toBe(302);
      expect((await zoneKept()).time_zone).toBe("Pacific/Pago_Pago");
    },
  );

  it("a referral bonus: locked until the referrer's own offer earnings clear (production), then available", async () => {
    const referrer = await person();
    const friend = await person(referrer.referralCode);
    // The friend qualifies: $1.00 of cleared offer earnings (production), 100 coins of any kind (demo).
    await offerCredit(friend.id, 100);
    await endHolds(app, friend.id);
    await app.sql("select credit_cleared_referrals(200)");
    const state = production ? "locked until your offer earnings clear" : "available to withdraw";
    const words = `A friend you referred qualified: $5.00 referral bonus — ${state}.`;

    const [notice] = await app.sql<{ data: { locked?: boolean } }>(
      "select data from user_notices where user_id = $1 and kind = 'referral_credited'",
      [referrer.id],
    );
    expect(notice!.data.locked).toBe(production);
    expect(await toast(referrer.client, "Referral bonus earned")).toBe(html(words));
    expect(await emailText(referrer.email, "Referral bonus earned")).toContain(words);
    // The friend's own cleared $1.00 unlocks their $1.00 welcome bonus (production); demo locks nothing.
    expect(await toast(friend.client, "Welcome bonus")).toBe(
      "You earned $1.00 for joining with a referral code — available to withdraw.",
    );
    expect(await activity(referrer.client)).toEqual([["Referral bonus", production ? "Locked bonus" : "Available"]]);

    // The referrer's own $5.00 of offer earnings clear: the bonus unlocks.
    await offerCredit(referrer.id, 500);
    await endHolds(app, referrer.id);
    expect(await activity(referrer.client)).toEqual([
      ["Offer completed", "Available"],
      ["Referral bonus", "Available"],
    ]);
    expect((await referrer.client.visit("/")).html).toMatch(/data-testid="balance">\$10\.00</);
  });

  it("a check-in: its toast names the coins, their dollars and whether they are locked bonus; Recent Activity agrees", async () => {
    const member = await person();
    const answer = await member.client.post("/?index", { intent: "checkin" });
    expect(answer.status).toBe(302);
    const state = production ? "locked until your offer earnings clear" : "available to withdraw";
    expect(await toast(member.client, "Checked in!")).toBe(html(`You earned 10 coins ($0.10) — ${state}.`));
    expect(await activity(member.client)).toEqual([["Daily check-in", production ? "Locked bonus" : "Available"]]);
  });

  it("a refused cash-out: 'Refused — $2.00 refunded' in the toast, the email, Recent Activity and the history", async () => {
    const member = await person();
    await offerCredit(member.id, 500);
    await endHolds(app, member.id);
    const requested = await member.client.post("/withdraw", {
      intent: "withdraw",
      amount: "2",
      method: "upi",
      upiId: "me@okaxis",
    });
    expect(requested.status).toBe(302);
    // Production reviews a first cash-out; demo sends it at once. The toast says which.
    expect(await toast(member.client, "Withdrawal request submitted successfully")).toBe(
      production
        ? "Your $2.00 withdrawal has been initiated. It is in review: we check first cash-outs and unusual ones by hand before anything is sent."
        : "Your $2.00 withdrawal has been initiated. It is sending: on its way to your UPI account.",
    );
    expect((await activity(member.client))[0]).toEqual(["Withdrawal via UPI", production ? "In review" : "Sending"]);

    const [withdrawal] = await app.sql<{ id: string }>("select id from withdrawals where user_id = $1", [member.id]);
    await app.sql("select reject_withdrawal($1, 'Offer earnings under investigation', 'ops-test')", [withdrawal!.id]);
    const words =
      "Your $2.00 UPI withdrawal was refused after review — $2.00 refunded to your balance. Offer earnings under investigation.";
    expect(await toast(member.client, "Withdrawal refused")).toBe(html(words));
    expect(await emailText(member.email, "Withdrawal refused")).toContain(words);
    expect((await activity(member.client))[0]).toEqual(["Withdrawal via UPI", "Refused — $2.00 refunded"]);
    const history = (await member.client.visit("/withdraw?history=1")).html;
    expect(history).toContain('data-testid="money-state">Refused — $2.00 refunded<');
    expect(history).not.toMatch(/>(failed|Failed|pending)</);
  });
  it("the notices page lists every notice in the words of its toast, New until read; the bell counts the unread and empties once they are read", async () => {
    const member = await person();
    await offerCredit(member.id, 350);
    await offerCredit(member.id, 120);
    // Seen as toasts (once), and still unread: the bell says two.
    const home = (await member.client.visit("/")).html;
    expect(home).toContain('aria-label="Notices, 2 unread"');
    expect(home).toMatch(/data-testid="unread-notices"[^>]*>2</);

    const page = (await member.client.visit("/notices")).html;
    const day = await clearingDay(member.id);
    const state = production ? `pending, clears ${day}` : "available to withdraw";
    const items = page.slice(page.indexOf('aria-label="Notices"'));
    expect(items.indexOf("120 coins ($1.20)")).toBeLessThan(items.indexOf("350 coins ($3.50)"));
    expect(items).toContain(html(`You earned 350 coins ($3.50) for completing an offer — ${state}.`));
    expect([...items.matchAll(/>New</g)]).toHaveLength(2);
    expect(items).toMatch(/href="\/"/);
    // Read now: the bell has no count, and the list no longer says New.
    const after = (await member.client.visit("/")).html;
    expect(after).toContain('aria-label="Notices"');
    expect(after).not.toContain("unread-notices");
    expect((await member.client.visit("/notices")).html).not.toContain(">New<");
    // Another person's notices are not listed.
    const other = await person();
    expect((await other.client.visit("/notices")).html).toContain("No notices yet.");
  });
});

// Issue 36, point 10: Home's teaser said "No data available" while the Leaderboard showed the
// person first: the board is kept for minutes (LEADERBOARD_REFRESH_SECONDS), and was computed
// before anyone earned this month.
describe("an app on production settings with the app's own tasks (no offer provider), its leaderboard kept for an hour", () => {
  let app: PostgresApp;
  beforeAll(async () => {
    app = await startPostgresApp({ LEADERBOARD_REFRESH_SECONDS: "3600" }, { settings: "production" });
  }, 120_000);

  it("Earn says beside the tasks that their coins are bonus money that unlocks as offer earnings clear", async () => {
    const { client } = await app.signUp();
    const earn = (await client.visit("/earn")).html;
    expect(earn).toMatch(
      /data-testid="bonus-waits"[^>]*>These coins are bonus money: they unlock for cash-out as your offer earnings clear\.</,
    );
    // Where bonus money is not held back (the demo settings), nothing is said.
    await app.sql("select apply_demo_settings()");
    try {
      // The server hears of the change from the database's announcement, a moment later.
      await eventually(async () => !(await client.visit("/earn")).html.includes("bonus-waits"), {
        what: "Earn without the bonus line on the demo settings",
      });
    } finally {
      await app.sql("select apply_production_settings()");
    }
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("shows the person's own row once they have earned, as the Leaderboard does, not No data available", async () => {
    const { client, response } = await app.signUp();
    expect(response.status).toBe(302);
    // The board is computed now, while nobody has earned this month.
    expect((await client.visit("/")).html).toContain("No data available");
    expect((await client.post("/?index", { intent: "checkin" })).status).toBe(302);
    const home = (await client.visit("/")).html;
    expect(home).not.toContain("No data available");
    // The person's own row, marked as theirs, with this month's $0.10.
    const row = /<tr[^>]*aria-current="true"[^>]*>(.*?)<\/tr>/s.exec(home)?.[1] ?? "";
    expect(row).toContain(">You<");
    expect(row).toContain("$0.10");
  });
});
