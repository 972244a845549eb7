import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ruleViolation } from "~/server/db/core.server";
import { migrateDatabase } from "~/server/db/migrations.server";
import { pgliteDatabase } from "~/server/db/pglite.server";
import type { ChannelOutcome, ClaimedNotice } from "~/server/notifications/delivery.server";
import { dbRefusal, MIGRATIONS_DIR, openTestPglite, openTestPostgres, type TestDatabase } from "../support/db";
import { eventually } from "../support/wait";
import { newUserId } from "../support/arrange";

// Notice delivery (supabase/migrations/20261124010000_notification_delivery.sql): the new notice
// kinds written with their credits, claiming due notices under a lease, recording each channel's
// outcome with retries and giving up, dropping dead push tokens, and pg_notify on new notices.

interface NoticeRow {
  id: number;
  kind: string;
  data: Record<string, unknown>;
  shown_at: Date | null;
  push_status: string;
  email_status: string;
  push_attempts: number;
  email_attempts: number;
  push_detail: string | null;
  email_detail: string | null;
  push_delivered_tokens: string[];
  push_sent_at: Date | null;
  email_sent_at: Date | null;
  next_attempt_at: Date | string | null;
  due_in_seconds: number | null;
  claim_id: string | null;
}

interface Recorded {
  recorded: boolean;
  push_status?: string;
  email_status?: string;
  next_attempt_at?: string | null;
}

// Not provisionMember: the tests need the address and the referral code it was made with.
async function provision(
  t: TestDatabase,
  options: { name?: string; code?: string; verified?: boolean; email?: string } = {},
) {
  const userId = newUserId("notify");
  const summary = await t.db.rpc<{ referral_code: string }>("provision_user", {
    p_user_id: userId,
    p_email: options.email ?? `${userId}@example.com`,
    p_display_name: options.name ?? "Nora Notified",
    ...(options.code ? { p_referral_code: options.code } : {}),
    p_email_verified: options.verified ?? true,
  });
  return { userId, email: `${userId}@example.com`, referralCode: summary.referral_code };
}

async function notices(t: TestDatabase, userId: string): Promise<NoticeRow[]> {
  return t.sql<NoticeRow>(
    `select id::int as id, kind, data, shown_at, push_status, email_status, push_attempts, email_attempts,
            push_detail, email_detail, push_delivered_tokens, push_sent_at, email_sent_at, next_attempt_at,
            extract(epoch from next_attempt_at - now())::float8 as due_in_seconds, claim_id
       from user_notices where user_id = $1 order by id`,
    [userId],
  );
}

async function notice(t: TestDatabase, id: number): Promise<NoticeRow> {
  const [row] = await t.sql<{ user_id: string }>("select user_id from user_notices where id = $1", [id]);
  return (await notices(t, row!.user_id)).find((candidate) => candidate.id === id)!;
}

/**
 * A postback credit of `coins` for the user, and the postback_reward notice it wrote (its own call,
 * not recordPostback: it answers the notice's id, and writes the description the wall route writes).
 */
async function postbackNotice(t: TestDatabase, userId: string, coins = 250): Promise<number> {
  await t.db.rpc("record_postback", {
    p_provider: "acme",
    p_transaction_id: `tx-${newUserId("notify")}`,
    p_user_id: userId,
    p_coins: coins,
    p_reversal: false,
    p_description: "Offer completed via acme",
  });
  const rows = await notices(t, userId);
  return rows[rows.length - 1]!.id;
}

/** A settled PayPal withdrawal of $5 and its notice. */
async function withdrawalNotice(t: TestDatabase, userId: string, status: "completed" | "failed" = "completed") {
  await t.db.rpc("add_user_coins", { user_id_param: userId, amount_param: 1000 });
  const withdrawal = await t.db.rpc<{ id: string }>("create_withdrawal", {
    p_user_id: userId,
    amount_param: 5,
    payment_method_param: "paypal",
    recipient_email_param: "payee@example.com",
  });
  await t.db.rpc("settle_withdrawal", { p_withdrawal_id: withdrawal.id, p_status: status });
  const rows = await notices(t, userId);
  return rows[rows.length - 1]!.id;
}

type Reservation = { send: true; address: string } | { send: false; detail: string };

function reserve(t: TestDatabase, claimed: Pick<ClaimedNotice, "id" | "claim_id">) {
  return t.db.rpc<Reservation>("reserve_notice_email", { p_notice_id: claimed.id, p_claim_id: claimed.claim_id });
}

function claim(t: TestDatabase, limit = 10, leaseSeconds = 300) {
  return t.db.rpc<ClaimedNotice[]>("claim_due_notices", { p_limit: limit, p_lease_seconds: leaseSeconds });
}

function record(
  t: TestDatabase,
  claimed: Pick<ClaimedNotice, "id" | "claim_id">,
  push: ChannelOutcome | null,
  email: ChannelOutcome | null,
) {
  return t.db.rpc<Recorded>("record_notice_delivery", {
    p_notice_id: claimed.id,
    p_claim_id: claimed.claim_id,
    p_push: push,
    p_email: email,
  });
}

/** Lets time pass for one notice: its lease or retry wait is over now. */
async function makeDue(t: TestDatabase, id: number) {
  await t.sql("update user_notices set next_attempt_at = now() - interval '1 second' where id = $1", [id]);
}

const sent: ChannelOutcome = { outcome: "sent" };

describe.each([
  ["PGlite", openTestPglite],
  ["Postgres", () => openTestPostgres()],
])("notice delivery on %s", (_name, open) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(async () => {
    await t?.close();
  });
  // Claims take whatever is due in the whole database: each test starts with nothing due.
  beforeEach(async () => {
    await t.sql(
      `update user_notices set push_status = 'skipped', email_status = 'skipped', next_attempt_at = null, claim_id = null
        where next_attempt_at is not null`,
    );
  });

  describe("notices written with credits", () => {
    it("complete_task writes a task_reward notice, already shown, with the coins, dollars and task title", async () => {
      const { userId } = await provision(t);
      await t.db.rpc("start_task", {
        p_user_id: userId,
        p_task_id: "task-004",
        p_title: "Rate Five Apps",
        p_reward: 150,
      });
      await t.db.rpc("complete_task", { p_user_id: userId, p_task_id: "task-004", p_min_seconds: 0 });
      const [written] = await notices(t, userId);
      expect(written).toMatchObject({
        kind: "task_reward",
        data: { coins: 150, amount: 1.5, task_id: "task-004", title: "Rate Five Apps" },
        push_status: "pending",
        email_status: "pending",
      });
      expect(written!.shown_at).not.toBeNull();
      expect(await t.db.rpc("take_user_notices", { p_user_id: userId })).toEqual([]);
      // A repeat credits nothing and writes nothing.
      await t.db.rpc("complete_task", { p_user_id: userId, p_task_id: "task-004", p_min_seconds: 0 });
      expect(await notices(t, userId)).toHaveLength(1);
    });

    it("complete_task writes no notice for a task worth no coins", async () => {
      const { userId } = await provision(t);
      await t.db.rpc("start_task", { p_user_id: userId, p_task_id: "free-task", p_title: "Free", p_reward: 0 });
      await t.db.rpc("complete_task", { p_user_id: userId, p_task_id: "free-task", p_min_seconds: 0 });
      expect(await notices(t, userId)).toEqual([]);
    });

    it("record_postback writes a postback_reward notice for a credit (a toast on the next visit), none for a repeat or a reversal", async () => {
      const { userId } = await provision(t);
      const postback = {
        p_provider: "acme",
        p_transaction_id: "tx-notice-1",
        p_user_id: userId,
        p_coins: 250,
        p_reversal: false,
        p_description: "Offer completed via acme",
      };
      await t.db.rpc("record_postback", postback);
      await t.db.rpc("record_postback", postback);
      await t.db.rpc("record_postback", { ...postback, p_reversal: true, p_description: "Offer reversed by acme" });
      const written = await notices(t, userId);
      expect(written).toHaveLength(1);
      expect(written[0]).toMatchObject({
        kind: "postback_reward",
        data: { coins: 250, amount: 2.5, provider: "acme" },
        shown_at: null,
        push_status: "pending",
        email_status: "pending",
      });
      expect(await t.db.rpc("take_user_notices", { p_user_id: userId })).toMatchObject([{ kind: "postback_reward" }]);
    });

    it("a new notice is due at once and announced on pg_notify('user_notices') with its user id", async () => {
      const heard: string[] = [];
      const unlisten = await t.db.listen!("user_notices", (payload) => heard.push(payload));
      try {
        const { userId } = await provision(t);
        const id = await postbackNotice(t, userId);
        await eventually(() => heard.includes(userId), { what: "the notification" });
        expect((await notice(t, id)).due_in_seconds).toBeLessThanOrEqual(0);
      } finally {
        await unlisten();
      }
    });
  });

  describe("claim_due_notices", () => {
    it("hands out a due notice with the address and the time zone kept with the account but not the display name, the switches of its category and the newest ten push tokens", async () => {
      const { userId, email } = await provision(t, { name: "Wanda Withdrawer" });
      for (let device = 1; device <= 12; device++) {
        await t.sql(
          "insert into user_fcm_tokens (user_id, fcm_token, created_at) values ($1, $2, now() - make_interval(mins => $3))",
          [userId, `token-${device}`, 100 - device],
        );
      }
      await t.sql(
        "update notification_preferences set push_notifications = false, withdrawal_notifications = false where user_id = $1",
        [userId],
      );
      const withdrawal = await withdrawalNotice(t, userId);
      const reward = await postbackNotice(t, userId);
      const claimed = await claim(t);
      expect(claimed.map((entry) => entry.id)).toEqual([withdrawal, reward]);
      expect(claimed[0]).toMatchObject({
        user_id: userId,
        kind: "withdrawal_completed",
        data: { amount: 5, payment_method: "paypal" },
        preferences: { email: true, push: false, category: "withdrawal", category_enabled: false },
        push: { due: true, attempt: 1, delivered_before: 0 },
        email: { due: true, attempt: 1 },
      });
      // Only the address, and the zone of its days (none reported yet): a display name is anyone's
      // to set, so no email greets by it.
      expect(claimed[0]!.recipient).toEqual({ email, time_zone: null });
      expect(claimed[0]!.push.tokens).toEqual(Array.from({ length: 10 }, (_, index) => `token-${12 - index}`));
      expect(claimed[1]!.preferences).toEqual({ email: true, push: false, category: "reward", category_enabled: true });
      expect(claimed[0]!.claim_id).toEqual(claimed[1]!.claim_id);
      // The zone the person's browser reported at sign-in comes with the notice.
      await t.db.rpc("record_time_zone", { p_user_id: userId, p_time_zone: "Asia/Kolkata" });
      await t.sql("update user_notices set next_attempt_at = now() where id = $1", [withdrawal]);
      expect((await claim(t)).find((entry) => entry.id === withdrawal)?.recipient).toEqual({
        email,
        time_zone: "Asia/Kolkata",
      });
    });

    it("counts every kind as a withdrawal or a reward notice", async () => {
      const referrer = await provision(t);
      await t.sql("update notification_preferences set reward_notifications = false where user_id = $1", [
        referrer.userId,
      ]);
      const friend = await provision(t, { code: referrer.referralCode });
      await t.sql("update notification_preferences set withdrawal_notifications = false where user_id = $1", [
        friend.userId,
      ]);
      await t.db.rpc("add_user_coins", { user_id_param: friend.userId, amount_param: 100 });
      const claimed = await claim(t);
      expect(
        claimed.map(({ kind, preferences }) => [kind, preferences.category, preferences.category_enabled]),
      ).toEqual([
        ["referral_credited", "reward", false],
        ["welcome_bonus", "reward", true],
      ]);
      const failed = await withdrawalNotice(t, friend.userId, "failed");
      expect((await claim(t)).map(({ id, kind, preferences }) => [id, kind, preferences.category_enabled])).toEqual([
        [failed, "withdrawal_failed", false],
      ]);
    });

    it("holds a claimed notice for the lease; once the lease has run out it is claimed again with the next try counted", async () => {
      const { userId } = await provision(t);
      const id = await postbackNotice(t, userId);
      const [first] = await claim(t, 10, 120);
      expect(first!.id).toBe(id);
      const held = await notice(t, id);
      expect(held.claim_id).toBe(first!.claim_id);
      expect(held.due_in_seconds).toBeGreaterThan(110);
      expect(held.due_in_seconds).toBeLessThanOrEqual(120);
      expect(await claim(t)).toEqual([]);

      await makeDue(t, id); // the worker died: its lease runs out
      const [second] = await claim(t);
      expect(second).toMatchObject({ id, push: { attempt: 2 }, email: { attempt: 2 } });
      expect(second!.claim_id).not.toBe(first!.claim_id);
      // The dead worker's outcome arrives late: only the current claim records.
      expect(await record(t, first!, sent, sent)).toEqual({ recorded: false });
      expect((await notice(t, id)).push_status).toBe("pending");
      expect(await record(t, second!, sent, sent)).toMatchObject({
        recorded: true,
        push_status: "sent",
        email_status: "sent",
      });
    });

    it("claims at most the limit, oldest due first", async () => {
      const { userId } = await provision(t);
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(await postbackNotice(t, userId, 100 + i));
      expect((await claim(t, 2)).map((entry) => entry.id)).toEqual(ids.slice(0, 2));
      expect((await claim(t, 2)).map((entry) => entry.id)).toEqual(ids.slice(2, 4));
      expect((await claim(t, 2)).map((entry) => entry.id)).toEqual(ids.slice(4));
    });

    it("closes a notice older than the delivery window as skipped instead of sending it", async () => {
      const { userId } = await provision(t);
      const id = await postbackNotice(t, userId);
      await t.sql("update user_notices set created_at = now() - interval '73 hours' where id = $1", [id]);
      expect(await claim(t)).toEqual([]);
      expect(await notice(t, id)).toMatchObject({
        push_status: "skipped",
        email_status: "skipped",
        push_detail: "not delivered within the delivery window",
        next_attempt_at: null,
      });
    });

    it("gives a channel up when every try was claimed and no outcome ever came back", async () => {
      const { userId } = await provision(t);
      const id = await postbackNotice(t, userId);
      const [claimed] = await claim(t);
      await record(t, claimed!, sent, null); // email: no outcome, due again at once
      for (let attempt = 2; attempt <= 10; attempt++) {
        expect((await claim(t)).map((entry) => [entry.id, entry.email.attempt, entry.push.due])).toEqual([
          [id, attempt, false],
        ]);
        await makeDue(t, id); // each worker dies before recording
      }
      expect(await claim(t)).toEqual([]);
      expect(await notice(t, id)).toMatchObject({
        push_status: "sent",
        email_status: "failed",
        email_attempts: 10,
        email_detail: "no outcome was recorded",
        next_attempt_at: null,
      });
    });

    it("refuses a limit or lease out of range with invalid_delivery_claim", async () => {
      for (const [limit, lease] of [
        [0, 60],
        [101, 60],
        [10, 0],
        [10, 3601],
      ]) {
        expect(ruleViolation(await dbRefusal(claim(t, limit, lease)))?.rule).toBe("invalid_delivery_claim");
      }
    });
  });

  describe("record_notice_delivery", () => {
    it("records sent and skipped, with when and why, and the notice is done", async () => {
      const { userId } = await provision(t);
      const id = await postbackNotice(t, userId);
      const [claimed] = await claim(t);
      const result = await record(
        t,
        claimed!,
        { outcome: "sent", delivered_tokens: ["device-a"] },
        {
          outcome: "skipped",
          detail: "email notifications are off",
        },
      );
      expect(result).toEqual({ recorded: true, push_status: "sent", email_status: "skipped", next_attempt_at: null });
      const row = await notice(t, id);
      expect(row).toMatchObject({
        push_status: "sent",
        email_status: "skipped",
        email_detail: "email notifications are off",
        push_delivered_tokens: ["device-a"],
        email_sent_at: null,
        claim_id: null,
        next_attempt_at: null,
      });
      expect(row.push_sent_at).toBeInstanceOf(Date);
      expect(await claim(t)).toEqual([]);
    });

    it("keeps a failed channel pending until its retry time, then hands out only that channel", async () => {
      const { userId } = await provision(t);
      const id = await postbackNotice(t, userId);
      const [claimed] = await claim(t);
      const result = await record(t, claimed!, sent, {
        outcome: "failed",
        detail: "SMTP: connect ECONNREFUSED",
        retry_in_seconds: 60,
      });
      expect(result).toMatchObject({ recorded: true, push_status: "sent", email_status: "pending" });
      const waiting = await notice(t, id);
      expect(waiting).toMatchObject({ email_detail: "SMTP: connect ECONNREFUSED", email_attempts: 1, claim_id: null });
      expect(waiting.due_in_seconds).toBeGreaterThan(55);
      expect(waiting.due_in_seconds).toBeLessThanOrEqual(60);
      expect(await claim(t)).toEqual([]);
      await makeDue(t, id);
      const [retry] = await claim(t);
      expect(retry).toMatchObject({ id, push: { due: false, attempt: 1 }, email: { due: true, attempt: 2 } });
      expect(await record(t, retry!, null, sent)).toMatchObject({ push_status: "sent", email_status: "sent" });
      expect(await notice(t, id)).toMatchObject({ email_attempts: 2, email_detail: null, next_attempt_at: null });
    });

    it("the sooner of two failed channels' retries makes the notice due", async () => {
      const { userId } = await provision(t);
      const id = await postbackNotice(t, userId);
      const [claimed] = await claim(t);
      await record(
        t,
        claimed!,
        { outcome: "failed", detail: "FCM 503", retry_in_seconds: 30 },
        { outcome: "failed", detail: "SMTP 421", retry_in_seconds: 600 },
      );
      const due = (await notice(t, id)).due_in_seconds!;
      expect(due).toBeGreaterThan(25);
      expect(due).toBeLessThanOrEqual(30);
    });

    it("gives a channel up once app_config.notice_delivery_attempts tries have failed", async () => {
      const { userId } = await provision(t);
      const id = await postbackNotice(t, userId);
      try {
        await t.sql("update app_config set notice_delivery_attempts = 3");
        for (let attempt = 1; attempt <= 3; attempt++) {
          const [claimed] = await claim(t);
          expect(claimed).toMatchObject({ id, push: { attempt } });
          const result = await record(
            t,
            claimed!,
            { outcome: "failed", detail: `FCM 500 (try ${attempt})`, retry_in_seconds: 1 },
            sent,
          );
          expect(result.push_status).toBe(attempt < 3 ? "pending" : "failed");
          if (attempt < 3) await makeDue(t, id);
        }
      } finally {
        await t.sql("update app_config set notice_delivery_attempts = 10");
      }
      expect(await claim(t)).toEqual([]);
      expect(await notice(t, id)).toMatchObject({
        push_status: "failed",
        push_attempts: 3,
        push_detail: "FCM 500 (try 3)",
        email_status: "sent",
        next_attempt_at: null,
      });
    });

    it("a failure without retry_in_seconds is given up at once", async () => {
      const { userId } = await provision(t);
      const id = await postbackNotice(t, userId);
      const [claimed] = await claim(t);
      await record(t, claimed!, sent, {
        outcome: "failed",
        detail: "SMTP 550 Mailbox unavailable",
        retry_in_seconds: null,
      });
      expect(await notice(t, id)).toMatchObject({ email_status: "failed", email_attempts: 1, next_attempt_at: null });
    });

    it("a push retry after a partial failure goes only to the devices not reached yet", async () => {
      const { userId } = await provision(t);
      for (const token of ["phone", "laptop", "tablet"]) {
        await t.sql("insert into user_fcm_tokens (user_id, fcm_token) values ($1, $2)", [userId, token]);
      }
      const id = await postbackNotice(t, userId);
      const [first] = await claim(t);
      expect([...first!.push.tokens].sort()).toEqual(["laptop", "phone", "tablet"]);
      await record(
        t,
        first!,
        { outcome: "failed", detail: "FCM 500", retry_in_seconds: 1, delivered_tokens: ["phone", "tablet"] },
        sent,
      );
      await makeDue(t, id);
      const [second] = await claim(t);
      expect(second!.push).toMatchObject({ tokens: ["laptop"], delivered_before: 2, attempt: 2 });
      await record(t, second!, { outcome: "sent", delivered_tokens: ["laptop"] }, null);
      expect([...(await notice(t, id)).push_delivered_tokens].sort()).toEqual(["laptop", "phone", "tablet"]);
    });

    it("refuses a malformed outcome with invalid_delivery_outcome", async () => {
      const { userId } = await provision(t);
      await postbackNotice(t, userId);
      const [claimed] = await claim(t);
      for (const push of [
        { outcome: "delivered" },
        { detail: "no outcome" },
        { outcome: "failed", retry_in_seconds: "soon" },
      ]) {
        const refusal = await dbRefusal(record(t, claimed!, push as ChannelOutcome, sent));
        expect(ruleViolation(refusal)?.rule).toBe("invalid_delivery_outcome");
      }
      const badTokens = record(t, claimed!, { outcome: "sent", delivered_tokens: "phone" as never }, sent);
      expect(ruleViolation(await dbRefusal(badTokens))?.rule).toBe("invalid_delivery_outcome");
      const noClaim = t.db.rpc("record_notice_delivery", { p_notice_id: claimed!.id, p_claim_id: null });
      expect(ruleViolation(await dbRefusal(noClaim))?.rule).toBe("invalid_delivery_outcome");
    });
  });

  describe("reserve_notice_email", () => {
    it("lets a claimed notice's email go only to a verified address: unverified, no address, or not claimed says why", async () => {
      const verified = await provision(t);
      const unverified = await provision(t, { verified: false });
      const ids = [await postbackNotice(t, verified.userId), await postbackNotice(t, unverified.userId)];
      const [mine, theirs] = await claim(t);
      expect([mine!.id, theirs!.id]).toEqual(ids);
      expect(await reserve(t, mine!)).toEqual({ send: true, address: verified.email });
      expect(await reserve(t, theirs!)).toEqual({ send: false, detail: "the email address is not verified" });
      expect(await reserve(t, { id: mine!.id, claim_id: crypto.randomUUID() })).toEqual({
        send: false,
        detail: "the notice is no longer claimed",
      });
      await t.sql("update user_profiles set email = null where id = $1", [verified.userId]);
      expect(await reserve(t, mine!)).toEqual({ send: false, detail: "the account has no email address" });
      expect(ruleViolation(await dbRefusal(reserve(t, { id: mine!.id, claim_id: null as never })))?.rule).toBe(
        "invalid_delivery_claim",
      );
    });

    it("counts app_config.notice_emails_per_address_per_day per address over 24 hours, across accounts and letter case; a try that did not send gives its reservation back", async () => {
      const address = `${newUserId("shared")}@example.com`;
      const first = await provision(t, { email: address });
      const second = await provision(t, { email: address.toUpperCase() });
      expect(await t.sql("select notice_emails_per_address_per_day as n from app_config")).toEqual([{ n: 10 }]);
      await t.sql("update app_config set notice_emails_per_address_per_day = 2");
      try {
        for (const userId of [first.userId, second.userId, first.userId, second.userId]) {
          await postbackNotice(t, userId);
        }
        const claimed = await claim(t);
        expect(claimed).toHaveLength(4);
        const [a, b, c, d] = claimed as [ClaimedNotice, ClaimedNotice, ClaimedNotice, ClaimedNotice];
        expect(await reserve(t, a)).toEqual({ send: true, address });
        expect(await reserve(t, b)).toEqual({ send: true, address: address.toUpperCase() });
        // A second try of a reserved notice keeps its reservation.
        expect(await reserve(t, a)).toMatchObject({ send: true });
        const full = {
          send: false,
          detail:
            "this address had its 2 notice emails of the last 24 hours (app_config.notice_emails_per_address_per_day)",
        };
        expect(await reserve(t, c)).toEqual(full);
        // b's email failed (to be tried again): its place is free again; a's was sent and counts.
        await record(t, a, sent, sent);
        await record(t, b, sent, { outcome: "failed", detail: "SMTP: 421", retry_in_seconds: 60 });
        expect(await notice(t, b.id)).toMatchObject({ email_status: "pending" });
        expect(await reserve(t, c)).toMatchObject({ send: true });
        expect(await reserve(t, d)).toEqual(full);
        // What was sent more than 24 hours ago no longer counts.
        await t.sql(
          "update user_notices set email_reserved_at = email_reserved_at - interval '24 hours' where id = $1",
          [a.id],
        );
        expect(await reserve(t, d)).toMatchObject({ send: true });
        // A skipped email gives its reservation back too.
        await record(t, d, sent, { outcome: "skipped", detail: "email notifications are off" });
        const [reserved] = await t.sql<{ n: number }>(
          "select count(*)::int as n from user_notices where email_address = $1 and email_reserved_at > now() - interval '24 hours'",
          [address],
        );
        expect(reserved!.n).toBe(1);
      } finally {
        await t.sql("update app_config set notice_emails_per_address_per_day = 10");
      }
    });
  });

  it("lets only service_role claim, record and drop tokens; the helpers are nobody's to call", async () => {
    const functions = {
      "claim_due_notices(integer, integer)": true,
      "record_notice_delivery(bigint, uuid, jsonb, jsonb)": true,
      "reserve_notice_email(bigint, uuid)": true,
      "apply_paypal_payout(uuid, text, text, text, text, text)": true,
      "forget_push_device(bigint, text)": true,
      "drop_fcm_token(text)": true,
      "next_channel_state(text, integer, jsonb, integer)": false,
      "notice_category(text)": false,
      "notify_user_notice()": false,
    };
    for (const [signature, granted] of Object.entries(functions)) {
      const [row] = await t.sql<Record<string, boolean>>(
        `select has_function_privilege('service_role', $1, 'execute') as service_role,
                has_function_privilege('anon', $1, 'execute') as anon,
                has_function_privilege('authenticated', $1, 'execute') as authenticated`,
        [`public.${signature}`],
      );
      expect({ signature, ...row }).toEqual({ signature, service_role: granted, anon: false, authenticated: false });
    }
  });

  describe("push tokens and accounts", () => {
    it("drop_fcm_token forgets a token, whoever holds it, and nothing else", async () => {
      const first = await provision(t);
      const second = await provision(t);
      await t.sql(
        "insert into user_fcm_tokens (user_id, fcm_token) values ($1, 'dead-device'), ($2, 'alive-device'), ($1, 'alive')",
        [first.userId, second.userId],
      );
      // A token is one device's: no second account can hold it.
      await expect(
        t.sql("insert into user_fcm_tokens (user_id, fcm_token) values ($1, 'dead-device')", [second.userId]),
      ).rejects.toMatchObject({ code: "23505" });
      expect(await t.db.rpc("drop_fcm_token", { p_token: "dead-device" })).toEqual({ dropped: 1 });
      expect(await t.db.rpc("drop_fcm_token", { p_token: "dead-device" })).toEqual({ dropped: 0 });
      expect(
        await t.sql("select user_id, fcm_token from user_fcm_tokens where user_id in ($1, $2) order by fcm_token", [
          first.userId,
          second.userId,
        ]),
      ).toEqual([
        { user_id: first.userId, fcm_token: "alive" },
        { user_id: second.userId, fcm_token: "alive-device" },
      ]);
    });

    it("deleting a profile deletes its notices, claimed or not; a late outcome is not recorded", async () => {
      const { userId } = await provision(t);
      await postbackNotice(t, userId);
      await postbackNotice(t, userId);
      const [claimed] = await claim(t, 1);
      await t.sql("delete from user_profiles where id = $1", [userId]);
      expect(await notices(t, userId)).toEqual([]);
      expect(await record(t, claimed!, sent, sent)).toEqual({ recorded: false });
    });
  });
});

describe("claiming notices on a Postgres server", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPostgres(12);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a due notice a page holds (taking it as a toast, or reading the list) is passed over by a claim, and announced again on pg_notify('user_notices') when the page commits, so a worker claims it then; a delivered notice a page reads is not announced", async () => {
    await t.sql(
      `update user_notices set push_status = 'skipped', email_status = 'skipped', next_attempt_at = null, claim_id = null
        where next_attempt_at is not null`,
    );
    const heard: string[] = [];
    const unlisten = await t.db.listen!("user_notices", (payload) => heard.push(payload));
    const page = new pg.Client({ connectionString: t.url });
    await page.connect();
    try {
      for (const read of ["select take_user_notices($1)", "select read_notices($1)"]) {
        const { userId } = await provision(t);
        const id = await postbackNotice(t, userId);
        await eventually(() => heard.includes(userId), { what: "the new notice's notification" });
        heard.length = 0;
        await page.query("begin");
        await page.query(read, [userId]);
        expect((await claim(t, 100)).map((entry) => entry.id)).not.toContain(id);
        await page.query("commit");
        await eventually(() => heard.includes(userId), { what: `a notification once ${read} commits` });
        expect((await claim(t, 100)).map((entry) => entry.id)).toContain(id);
      }

      // Delivered: reading it again wakes nobody. Notifications arrive in commit order, so the
      // marker sent after the page's commit comes after any the page would have sent.
      const { userId } = await provision(t);
      const id = await postbackNotice(t, userId);
      const [claimed] = (await claim(t, 100)).filter((entry) => entry.id === id);
      await record(t, claimed!, sent, sent);
      heard.length = 0;
      await page.query("select read_notices($1)", [userId]);
      await t.sql("select pg_notify('user_notices', 'marker')");
      await eventually(() => heard.includes("marker"), { what: "the marker" });
      expect(heard).toEqual(["marker"]);
    } finally {
      await page.end();
      await unlisten();
    }
  });

  it("a claim still open holds its notices, and a second claim meanwhile takes the next ones instead of waiting or taking the same", async () => {
    const userId = (await provision(t)).userId;
    const written = [];
    for (let i = 0; i < 6; i++) written.push(await postbackNotice(t, userId, 100 + i));
    const holder = new pg.Client({ connectionString: t.url });
    await holder.connect();
    try {
      await holder.query("begin");
      const [held] = (await holder.query("select claim_due_notices(3, 300) as batch")).rows;
      const heldIds = (held.batch as ClaimedNotice[]).map((entry) => entry.id);
      expect(heldIds).toEqual(written.slice(0, 3));
      // The holder's transaction is open: its rows are locked, and claiming skips them.
      const meanwhile = await claim(t, 3, 300);
      expect(meanwhile.map((entry) => entry.id)).toEqual(written.slice(3));
      await holder.query("commit");
      expect(await claim(t, 3, 300)).toEqual([]);
    } finally {
      await holder.end();
    }
  });

  it("eight workers claiming at once, each on its own connection, never get the same notice, and together get every one", async () => {
    const userIds = [];
    for (let i = 0; i < 4; i++) userIds.push((await provision(t)).userId);
    const written = [];
    for (let i = 0; i < 60; i++) written.push(await postbackNotice(t, userIds[i % 4]!, 100 + i));

    // Connected before the race starts, so no worker waits for a connection while another runs.
    const clients = Array.from({ length: 8 }, () => new pg.Client({ connectionString: t.url }));
    await Promise.all(clients.map((client) => client.connect()));
    try {
      const worker = async (client: pg.Client) => {
        const mine: number[] = [];
        for (;;) {
          const [row] = (await client.query("select claim_due_notices(3, 300) as batch")).rows;
          const batch = row.batch as ClaimedNotice[];
          if (batch.length === 0) return mine;
          mine.push(...batch.map((entry) => entry.id));
        }
      };
      const all = (await Promise.all(clients.map(worker))).flat();
      expect(new Set(all).size).toBe(all.length);
      expect([...all].sort((a, b) => a - b)).toEqual(written);
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  });
});

describe("reserving notice emails on a Postgres server", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPostgres(12);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("workers reserving emails to one address at the same moment never pass app_config.notice_emails_per_address_per_day together", async () => {
    const address = `${newUserId("racing")}@example.com`;
    const users = [];
    for (let i = 0; i < 4; i++) users.push(await provision(t, { email: i % 2 ? address.toUpperCase() : address }));
    for (let i = 0; i < 12; i++) await postbackNotice(t, users[i % 4]!.userId, 100 + i);
    await t.sql("update app_config set notice_emails_per_address_per_day = 5");
    try {
      const claimed = await claim(t, 20);
      expect(claimed).toHaveLength(12);
      const answers = await Promise.all(claimed.map((entry) => reserve(t, entry)));
      expect(answers.filter((answer) => answer.send)).toHaveLength(5);
    } finally {
      await t.sql("update app_config set notice_emails_per_address_per_day = 10");
    }
  });
});

describe("the migration that makes a push token one account's (20261128020000)", () => {
  it("keeps the newest registration of a token several accounts held, and leaves other tokens alone", async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "migrations-"));
    const pglite = await PGlite.create();
    try {
      const files = readdirSync(MIGRATIONS_DIR).sort();
      const unique = files.findIndex((file) => file.startsWith("20261128020000"));
      for (const file of files.slice(0, unique)) cpSync(path.join(MIGRATIONS_DIR, file), path.join(directory, file));
      await migrateDatabase({ pglite }, directory);
      const t: TestDatabase = {
        db: pgliteDatabase(pglite),
        sql: async (text, values) => (await pglite.query(text, values)).rows as never[],
        close: async () => {},
      };
      const [older, newer, third] = [await provision(t), await provision(t), await provision(t)];
      await t.sql(
        `insert into user_fcm_tokens (user_id, fcm_token, created_at) values
           ($1, 'shared-token', now() - interval '2 days'), ($2, 'shared-token', now() - interval '1 day'),
           ($3, 'shared-token', now() - interval '3 days'), ($1, 'own-token', now() - interval '5 days')`,
        [older.userId, newer.userId, third.userId],
      );
      for (const file of files.slice(unique)) cpSync(path.join(MIGRATIONS_DIR, file), path.join(directory, file));
      await migrateDatabase({ pglite }, directory);
      expect(await t.sql("select user_id, fcm_token from user_fcm_tokens order by fcm_token")).toEqual([
        { user_id: older.userId, fcm_token: "own-token" },
        { user_id: newer.userId, fcm_token: "shared-token" },
      ]);
    } finally {
      await pglite.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe("the migration itself", () => {
  it("leaves the notices written before it unsent (they were shown in the app already) and sends the ones after", async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "migrations-"));
    const pglite = await PGlite.create();
    try {
      const files = readdirSync(MIGRATIONS_DIR).sort();
      const delivery = files.indexOf("20261124010000_notification_delivery.sql");
      for (const file of files.slice(0, delivery)) cpSync(path.join(MIGRATIONS_DIR, file), path.join(directory, file));
      await migrateDatabase({ pglite }, directory);
      const t: TestDatabase = {
        db: pgliteDatabase(pglite),
        sql: async (text, values) => (await pglite.query(text, values)).rows as never[],
        close: async () => {},
      };
      const { userId } = await provision(t);
      await t.db.rpc("add_user_coins", { user_id_param: userId, amount_param: 1000 });
      const withdrawal = await t.db.rpc<{ id: string }>("create_withdrawal", {
        p_user_id: userId,
        amount_param: 5,
        payment_method_param: "paypal",
        recipient_email_param: "payee@example.com",
      });
      await t.db.rpc("settle_withdrawal", { p_withdrawal_id: withdrawal.id, p_status: "completed" });
      const [last] = await t.sql<{ id: number }>("select max(id)::int as id from user_notices");
      const before = last!.id;

      for (const file of files.slice(delivery)) cpSync(path.join(MIGRATIONS_DIR, file), path.join(directory, file));
      await migrateDatabase({ pglite }, directory);
      // The next withdrawal spends bonus coins at once (docs/decisions/066).
      await pglite.query("select apply_demo_settings()");
      const after = await withdrawalNotice(t, userId);
      expect(await notice(t, before)).toMatchObject({
        push_status: "skipped",
        email_status: "skipped",
        next_attempt_at: null,
      });
      expect(await notice(t, after)).toMatchObject({ push_status: "pending", email_status: "pending" });
      expect((await claim(t)).map((claimed) => claimed.id)).toEqual([after]);
    } finally {
      await pglite.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
