import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ruleViolation, toDbError } from "~/server/db/core.server";
import { dbRefusal, openTestPglite, openTestPostgres, type TestDatabase } from "../support/db";
import { newUserId } from "../support/arrange";

// Profile (supabase/migrations/20261124000000_profile.sql): the display name, recent activity,
// notification switches, push tokens with their 7-day refresh, feedback, deactivation, and the
// deletion that removes the person and keeps the money (detached, with hashed recipients).

interface Summary {
  id: string;
  email: string | null;
  email_verified: boolean;
  display_name: string;
  referral_code: string;
  preferences: Record<string, unknown>;
  balance: number;
  total_earned: number;
  referral_earned: number;
}

interface Activity {
  id: number;
  created_at: string;
  description: string;
  transaction_type: string;
  amount: number;
  status: string;
  coins: number | null;
}

interface Withdrawal {
  id: string;
  amount: number;
  payment_method: string;
  status: string;
}

interface TokenStatus {
  registered: boolean;
  registered_at: string | null;
  refresh: boolean;
}

/** What register_push_token answers: the status and the row's id (for the browser's cookie). */
interface Registered extends TokenStatus {
  device_id: number | null;
}

interface Feedback {
  id: number;
  created_at: string;
  message: string;
}

interface OperatorRow {
  id: string;
  user_id: string;
  recipient: string;
  same_address_accounts: string[];
}

interface Recipient {
  email?: string | null;
  upi?: string | null;
  bank?: unknown;
  /** create_withdrawal's p_recipient_hash; left out of the call when undefined. */
  hash?: string | null;
}

interface ProvisionOptions {
  userId?: string;
  email?: string | null;
  name?: string;
  code?: string;
  verified?: boolean;
  coins?: number;
}

const KINDS = ["email", "push", "marketing", "withdrawal", "reward"] as const;
const ALL_ON = { email: true, push: true, marketing: true, withdrawal: true, reward: true };

// Not provisionMember: the tests read the summary provision_user answers.
async function provision(t: TestDatabase, options: ProvisionOptions = {}) {
  const userId = options.userId ?? newUserId("prof");
  const created = await t.db.rpc<Summary>("provision_user", {
    p_user_id: userId,
    p_email: options.email === undefined ? `${userId}@example.com` : options.email,
    p_display_name: options.name ?? "Pat Profile",
    ...(options.code !== undefined ? { p_referral_code: options.code } : {}),
    p_email_verified: options.verified ?? true,
  });
  if (options.coins) await addCoins(t, userId, options.coins);
  return created;
}

function addCoins(t: TestDatabase, userId: string, coins: number) {
  return t.db.rpc("add_user_coins", { user_id_param: userId, amount_param: coins });
}

function summary(t: TestDatabase, userId: string) {
  return t.db.rpc<Summary | null>("get_user_summary", { p_user_id: userId });
}

function withdraw(t: TestDatabase, userId: string, amount: number, method: string, recipient: Recipient = {}) {
  return t.db.rpc<Withdrawal>("create_withdrawal", {
    p_user_id: userId,
    amount_param: amount,
    payment_method_param: method,
    recipient_email_param: recipient.email ?? null,
    recipient_upi_param: recipient.upi ?? null,
    recipient_bank_details_param: recipient.bank ?? null,
    ...(recipient.hash !== undefined ? { p_recipient_hash: recipient.hash } : {}),
  });
}

function settle(t: TestDatabase, withdrawalId: string, status: "completed" | "failed") {
  return t.db.rpc<Withdrawal & { changed: boolean }>("settle_withdrawal", {
    p_withdrawal_id: withdrawalId,
    p_status: status,
  });
}

function updateName(t: TestDatabase, userId: string, name: unknown) {
  return t.db.rpc<Summary>("update_display_name", { p_user_id: userId, p_display_name: name });
}

function activity(t: TestDatabase, userId: string, limit?: unknown) {
  return t.db.rpc<Activity[]>("get_recent_activity", {
    p_user_id: userId,
    ...(limit !== undefined ? { p_limit: limit } : {}),
  });
}

function preferences(t: TestDatabase, userId: string) {
  return t.db.rpc<typeof ALL_ON>("get_notification_preferences", { p_user_id: userId });
}

function setPreference(t: TestDatabase, userId: string, kind: unknown, enabled: unknown) {
  return t.db.rpc<typeof ALL_ON>("set_notification_preference", {
    p_user_id: userId,
    p_kind: kind,
    p_enabled: enabled,
  });
}

function registerToken(t: TestDatabase, userId: string, token: unknown, now?: string) {
  return t.db.rpc<Registered>("register_push_token", {
    p_user_id: userId,
    p_token: token,
    ...(now !== undefined ? { p_now: now } : {}),
  });
}

function tokenStatus(t: TestDatabase, userId: string, token: string, now?: string) {
  return t.db.rpc<TokenStatus>("push_token_status", {
    p_user_id: userId,
    p_token: token,
    ...(now !== undefined ? { p_now: now } : {}),
  });
}

function deleteToken(t: TestDatabase, userId: string, token: string) {
  return t.db.rpc<{ deleted: number }>("delete_push_token", { p_user_id: userId, p_token: token });
}

function submitFeedback(t: TestDatabase, userId: string, name: unknown, email: unknown, message: unknown) {
  return t.db.rpc<{ id: number }>("submit_feedback", {
    p_user_id: userId,
    p_name: name,
    p_email: email,
    p_message: message,
  });
}

function feedbackOf(t: TestDatabase, userId: string) {
  return t.db.rpc<Feedback[]>("get_user_feedback", { p_user_id: userId });
}

function setActive(t: TestDatabase, userId: string, active: boolean) {
  return t.db.rpc<{ was_active: boolean; is_active: boolean }>("set_account_active", {
    p_user_id: userId,
    p_active: active,
  });
}

function deletionFacts(t: TestDatabase, userId: string) {
  return t.db.rpc<{
    email: string | null;
    balance: number;
    pending_withdrawals: number;
    unhashed_recipients: Record<string, string>;
  } | null>("account_deletion_facts", { p_user_id: userId });
}

/** delete_account as the app calls it; `forfeit`: the balance the person agreed to give up (by default, any). */
function deleteAccount(
  t: TestDatabase,
  userId: string,
  emailHash: string | null,
  recipientHashes?: Record<string, string>,
  forfeit: number | null = 1_000_000,
) {
  return t.db.rpc<{ deleted: boolean; withdrawals_kept: number }>("delete_account", {
    p_user_id: userId,
    p_email_hash: emailHash,
    ...(recipientHashes !== undefined ? { p_recipient_hashes: recipientHashes } : {}),
    ...(forfeit !== null ? { p_forfeit: forfeit } : {}),
  });
}

function referralAllowed(t: TestDatabase, emailHash: string | null) {
  return t.db.rpc<boolean>("referral_allowed_for", { p_email_hash: emailHash });
}

/** The rule identifier a refused call was refused with. */
async function ruleKey(promise: Promise<unknown>) {
  return ruleViolation(await dbRefusal(promise))?.rule;
}

/** Raw SQL whose failure is turned into a DbError, as the transports report it. */
function rawSql(t: TestDatabase, text: string, values?: unknown[]) {
  return t.sql(text, values).catch((error: unknown) => {
    throw toDbError(error);
  });
}

async function count(t: TestDatabase, query: string, values: unknown[] = []) {
  const [row] = await t.sql<{ n: number }>(`select (${query})::int as n`, values);
  return row!.n;
}

async function profileRow(t: TestDatabase, userId: string) {
  const [row] = await t.sql<{ display_name: string; preferences: Record<string, unknown> }>(
    "select display_name, preferences from user_profiles where id = $1",
    [userId],
  );
  return row;
}

async function withdrawalRow(t: TestDatabase, withdrawalId: string) {
  const [row] = await t.sql<{
    user_id: string | null;
    status: string;
    amount: number;
    recipient_email: string | null;
    recipient_upi: string | null;
    recipient_bank_details: unknown;
    recipient_hash: string | null;
  }>(
    `select user_id, status, amount::float8 as amount, recipient_email, recipient_upi, recipient_bank_details,
            recipient_hash
       from withdrawals where id = $1`,
    [withdrawalId],
  );
  return row!;
}

async function expectLedgerAudit(t: TestDatabase) {
  expect(await t.db.rpc("verify_all_balances")).toEqual([]);
}

const T0 = Date.parse("2030-01-01T00:00:00.000Z");
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
/** A moment `offset` milliseconds after T0, for p_now. */
const at = (offset: number) => new Date(T0 + offset).toISOString();
const sameInstant = (value: string | null | undefined) => (value ? new Date(value).toISOString() : value);

/** A well-formed push token of `length` characters, distinct per `tag`. */
const pushToken = (tag: string | number, length = 64) => `tok${tag}:`.padEnd(length, "x");

// The rules are SQL, run here on PGlite (Postgres's own engine, compiled); the HTTP suite runs them
// again through the app on the Postgres server, and races are proven on the server
// (tests/integration/concurrency.test.ts, tests/http/pooler.test.ts).
describe.each([["PGlite", openTestPglite]])("profile on %s", (_name, open) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("update_display_name", () => {
    it("trims the name and stores it in display_name and preferences.display_name, returning the summary", async () => {
      const user = await provision(t, { name: "Original Name" });
      const updated = await updateName(t, user.id, "   New Name  ");
      expect(updated).toMatchObject({
        id: user.id,
        display_name: "New Name",
        preferences: { is_active: true, display_name: "New Name" },
      });
      expect(await profileRow(t, user.id)).toEqual({
        display_name: "New Name",
        preferences: { is_active: true, display_name: "New Name" },
      });
      expect(await summary(t, user.id)).toMatchObject({ display_name: "New Name" });
    });

    it("accepts names of 1 and of 50 characters (counted as characters after trimming, not bytes)", async () => {
      const user = await provision(t);
      for (const name of ["A", "x".repeat(50), ` ${"é".repeat(50)} `, "😀".repeat(50), "Zoë <b>&</b> 李"]) {
        const expected = name.trim();
        expect((await updateName(t, user.id, name)).display_name, name).toBe(expected);
        expect(await profileRow(t, user.id), name).toEqual({
          display_name: expected,
          preferences: { is_active: true, display_name: expected },
        });
      }
    });

    it("refuses a blank name or 51 characters with invalid_display_name, a name with a control character with display_name_hidden_characters, and changes nothing", async () => {
      const user = await provision(t, { name: "Keep Me" });
      const before = await profileRow(t, user.id);
      for (const name of ["", "   ", null, "x".repeat(51), ` ${"é".repeat(51)} `]) {
        expect(ruleViolation(await dbRefusal(updateName(t, user.id, name))), JSON.stringify(name)).toEqual({
          rule: "invalid_display_name",
          message: "Your display name must be 1 to 50 characters",
        });
      }
      // Control characters have their own message since 20261128000000 (hidden-characters.test.ts).
      for (const name of ["Line\nBreak", "Tab\tName", "Esc\u001b[0m"]) {
        expect(ruleViolation(await dbRefusal(updateName(t, user.id, name))), JSON.stringify(name)).toEqual({
          rule: "display_name_hidden_characters",
          message: "Your display name cannot contain invisible or control characters",
        });
      }
      expect(await profileRow(t, user.id)).toEqual(before);
      expect(before).toEqual({ display_name: "Keep Me", preferences: { is_active: true } });
    });

    it("refuses an unknown user with account_not_found", async () => {
      expect(ruleViolation(await dbRefusal(updateName(t, newUserId("ghost"), "Valid Name")))).toEqual({
        rule: "account_not_found",
        message: "Account not found",
      });
    });
  });

  describe("get_recent_activity", () => {
    it("returns the user's 10 newest ledger rows, newest first, with type, signed amount, status and coins; only that user's", async () => {
      const user = await provision(t);
      const other = await provision(t, { coins: 700 });
      // 12 ledger rows: 2 bonuses, a check-in, a task, 7 bonuses, a pending withdrawal.
      await addCoins(t, user.id, 100);
      await addCoins(t, user.id, 200);
      await t.db.rpc("daily_checkin", { p_user_id: user.id });
      await t.db.rpc("start_task", { p_user_id: user.id, p_task_id: "survey-1", p_title: "Survey", p_reward: 50 });
      await t.db.rpc("complete_task", { p_user_id: user.id, p_task_id: "survey-1", p_min_seconds: 0 });
      for (let coins = 300; coins <= 900; coins += 100) await addCoins(t, user.id, coins);
      await addCoins(t, other.id, 50);
      const pending = await withdraw(t, user.id, 5, "upi", { upi: "name@okhdfcbank" });
      expect(await count(t, "select count(*) from transaction_history where user_id = $1", [user.id])).toBe(12);

      const rows = await activity(t, user.id);
      expect(rows).toHaveLength(10);
      expect(rows.map((row) => [row.transaction_type, row.amount, row.status, row.coins])).toEqual([
        ["withdrawal", -5, "pending", null],
        ["bonus", 9, "completed", 900],
        ["bonus", 8, "completed", 800],
        ["bonus", 7, "completed", 700],
        ["bonus", 6, "completed", 600],
        ["bonus", 5, "completed", 500],
        ["bonus", 4, "completed", 400],
        ["bonus", 3, "completed", 300],
        ["task", 0.5, "completed", 50],
        ["checkin", 0.1, "completed", 10],
      ]);
      expect(rows[0]).toEqual({
        id: expect.any(Number),
        created_at: expect.any(String),
        description: "Withdrawal via UPI",
        transaction_type: "withdrawal",
        amount: -5,
        status: "pending",
        coins: null,
        kind: null,
        available_at: expect.any(String),
        locked: false,
        // The withdrawal's step, for its one state (money-timeline.ts).
        review_state: "approved",
        sent_at: null,
        settled_at: null,
      });
      expect(rows[8]!.description).toBe("Task completed: Survey");
      // Exactly the user's 10 newest rows (none of the other user's, not the 2 oldest).
      const newest = await t.sql<{ id: number }>(
        "select id from transaction_history where user_id = $1 order by id desc limit 10",
        [user.id],
      );
      expect(rows.map((row) => row.id)).toEqual(newest.map((row) => Number(row.id)));
      expect((await activity(t, other.id)).map((row) => [row.transaction_type, row.amount])).toEqual([
        ["bonus", 0.5],
        ["bonus", 7],
      ]);
      // A settled withdrawal shows its final status.
      await settle(t, pending.id, "failed");
      expect((await activity(t, user.id, 1))[0]).toMatchObject({ amount: -5, status: "failed" });
      expect(await activity(t, newUserId("nobody"))).toEqual([]);
      await expectLedgerAudit(t);
    });

    it("clamps the limit to 1..50 (0 and negatives give 1, over 50 gives 50, null gives 10)", async () => {
      const user = await provision(t);
      for (let i = 1; i <= 52; i++) await addCoins(t, user.id, i);
      const all = await t.sql<{ id: number }>(
        "select id from transaction_history where user_id = $1 order by id desc",
        [user.id],
      );
      const newestIds = (n: number) => all.slice(0, n).map((row) => Number(row.id));
      const cases: [unknown, number][] = [
        [3, 3],
        [1, 1],
        [0, 1],
        [-7, 1],
        [50, 50],
        [51, 50],
        [1000, 50],
        [null, 10],
        [undefined, 10],
      ];
      for (const [limit, expected] of cases) {
        expect(
          (await activity(t, user.id, limit)).map((row) => row.id),
          String(limit),
        ).toEqual(newestIds(expected));
      }
      await expectLedgerAudit(t);
    });
  });

  describe("notification preferences", () => {
    it("are all five on by default, also for a user with no preferences row", async () => {
      const user = await provision(t);
      expect(await preferences(t, user.id)).toEqual(ALL_ON);
      await t.sql("delete from notification_preferences where user_id = $1", [user.id]);
      expect(await preferences(t, user.id)).toEqual(ALL_ON);
      // Setting one creates the row with the others on.
      expect(await setPreference(t, user.id, "marketing", false)).toEqual({ ...ALL_ON, marketing: false });
      expect(await count(t, "select count(*) from notification_preferences where user_id = $1", [user.id])).toBe(1);
    });

    it("set_notification_preference turns each of the five kinds off and on again, leaving the others alone", async () => {
      const user = await provision(t);
      for (const kind of KINDS) {
        expect(await setPreference(t, user.id, kind, false), kind).toEqual({ ...ALL_ON, [kind]: false });
        expect(await preferences(t, user.id), kind).toEqual({ ...ALL_ON, [kind]: false });
        expect(await setPreference(t, user.id, kind, true), kind).toEqual(ALL_ON);
        expect(await preferences(t, user.id), kind).toEqual(ALL_ON);
      }
      // Switches are independent: all off, one by one.
      for (const kind of KINDS) await setPreference(t, user.id, kind, false);
      expect(await preferences(t, user.id)).toEqual({
        email: false,
        push: false,
        marketing: false,
        withdrawal: false,
        reward: false,
      });
      const [row] = await t.sql(
        `select email_notifications, push_notifications, marketing_notifications, withdrawal_notifications,
                reward_notifications from notification_preferences where user_id = $1`,
        [user.id],
      );
      expect(Object.values(row!)).toEqual([false, false, false, false, false]);
    });

    it("refuses an unknown kind or a null value with invalid_notification_setting and changes nothing", async () => {
      const user = await provision(t);
      await setPreference(t, user.id, "push", false);
      const cases: [unknown, unknown][] = [
        ["sms", false],
        ["Email", false],
        ["email_notifications", false],
        ["", true],
        [null, false],
        ["email", null],
        ["push", null],
      ];
      for (const [kind, enabled] of cases) {
        expect(ruleViolation(await dbRefusal(setPreference(t, user.id, kind, enabled))), String(kind)).toEqual({
          rule: "invalid_notification_setting",
          message: "Unknown notification setting",
        });
      }
      expect(await preferences(t, user.id)).toEqual({ ...ALL_ON, push: false });
    });

    it("set_notification_preference refuses an unknown user with account_not_found and creates no row", async () => {
      const ghost = newUserId("ghost");
      expect(await ruleKey(setPreference(t, ghost, "email", false))).toBe("account_not_found");
      expect(await count(t, "select count(*) from notification_preferences where user_id = $1", [ghost])).toBe(0);
    });
  });

  describe("push tokens", () => {
    it("registers a token of 20 to 4,096 characters without spaces and reports it registered, not due for refresh", async () => {
      const user = await provision(t);
      for (const token of ["t".repeat(20), "t".repeat(4096), pushToken("fcm-APA91b_x.y-z", 163)]) {
        expect(await registerToken(t, user.id, token, at(0)), `${token.length}`).toEqual({
          registered: true,
          registered_at: expect.any(String),
          refresh: false,
          device_id: expect.any(Number),
        });
        expect(sameInstant((await tokenStatus(t, user.id, token, at(0))).registered_at)).toBe(at(0));
      }
      expect(await count(t, "select count(*) from user_fcm_tokens where user_id = $1", [user.id])).toBe(3);
      // Without p_now the token is registered now.
      const { device_id: deviceId, ...fresh } = await registerToken(t, user.id, pushToken("now"));
      expect(fresh).toMatchObject({ registered: true, refresh: false });
      expect(await tokenStatus(t, user.id, pushToken("now"))).toEqual(fresh);
      const [row] = await t.sql<{ id: number }>("select id::int as id from user_fcm_tokens where fcm_token = $1", [
        pushToken("now"),
      ]);
      expect(deviceId).toBe(row!.id);
    });

    it("registering a token again renews its created_at without adding a row", async () => {
      const user = await provision(t);
      const token = pushToken("renew");
      const first = await registerToken(t, user.id, token, at(0));
      expect((await tokenStatus(t, user.id, token, at(6 * DAY))).refresh).toBe(false);
      expect(await registerToken(t, user.id, token, at(6 * DAY))).toEqual({
        registered: true,
        registered_at: expect.any(String),
        refresh: false,
        device_id: first.device_id,
      });
      const rows = await t.sql<{ created_at: string }>(
        "select to_json(created_at)#>>'{}' as created_at from user_fcm_tokens where user_id = $1 and fcm_token = $2",
        [user.id, token],
      );
      expect(rows.map((row) => sameInstant(row.created_at))).toEqual([at(6 * DAY)]);
      // Seven days counted from the renewal, not from the first registration.
      expect((await tokenStatus(t, user.id, token, at(12 * DAY))).refresh).toBe(false);
      expect((await tokenStatus(t, user.id, token, at(13 * DAY + SECOND))).refresh).toBe(true);
    });

    it("push_token_status says refresh: false within 7 days of registration and true after; an unregistered token is registered: false, refresh: true", async () => {
      const user = await provision(t);
      const other = await provision(t);
      const token = pushToken("week");
      await registerToken(t, user.id, token, at(0));
      for (const [offset, refresh] of [
        [0, false],
        [DAY, false],
        [7 * DAY - SECOND, false],
        [7 * DAY + SECOND, true],
        [30 * DAY, true],
      ] as const) {
        const status = await tokenStatus(t, user.id, token, at(offset));
        expect(status, `${offset / DAY} days`).toEqual({
          registered: true,
          registered_at: expect.any(String),
          refresh,
        });
        expect(sameInstant(status.registered_at)).toBe(at(0));
      }
      const unregistered = { registered: false, registered_at: null, refresh: true };
      expect(await tokenStatus(t, user.id, pushToken("never"), at(0))).toEqual(unregistered);
      // Another user's token is not this user's.
      expect(await tokenStatus(t, other.id, token, at(0))).toEqual(unregistered);
    });

    it("keeps at most 10 tokens per user: an 11th drops the one registered (or renewed) longest ago", async () => {
      const user = await provision(t);
      const neighbour = await provision(t);
      await registerToken(t, neighbour.id, pushToken("n"), at(0));
      for (let i = 0; i < 10; i++) await registerToken(t, user.id, pushToken(i), at(i * MINUTE));
      expect(await count(t, "select count(*) from user_fcm_tokens where user_id = $1", [user.id])).toBe(10);
      // Renewing token 0 makes token 1 the oldest.
      await registerToken(t, user.id, pushToken(0), at(20 * MINUTE));
      expect(await registerToken(t, user.id, pushToken(10), at(30 * MINUTE))).toMatchObject({ registered: true });
      expect(await count(t, "select count(*) from user_fcm_tokens where user_id = $1", [user.id])).toBe(10);
      expect((await tokenStatus(t, user.id, pushToken(1), at(30 * MINUTE))).registered).toBe(false);
      for (const i of [0, 2, 3, 4, 5, 6, 7, 8, 9, 10]) {
        expect((await tokenStatus(t, user.id, pushToken(i), at(30 * MINUTE))).registered, `token ${i}`).toBe(true);
      }
      // A 12th drops the next oldest (token 2).
      await registerToken(t, user.id, pushToken(11), at(31 * MINUTE));
      expect((await tokenStatus(t, user.id, pushToken(2), at(31 * MINUTE))).registered).toBe(false);
      expect(await count(t, "select count(*) from user_fcm_tokens where user_id = $1", [user.id])).toBe(10);
      // Another user's tokens are not counted or dropped.
      expect((await tokenStatus(t, neighbour.id, pushToken("n"), at(0))).registered).toBe(true);
    });

    it("delete_push_token deletes only that user's token", async () => {
      const user = await provision(t);
      const other = await provision(t);
      const theirs = pushToken("theirs");
      await registerToken(t, user.id, pushToken("mine"), at(0));
      await registerToken(t, user.id, pushToken("mine-too"), at(0));
      await registerToken(t, other.id, theirs, at(0));
      expect(await deleteToken(t, user.id, pushToken("mine"))).toEqual({ deleted: 1 });
      expect((await tokenStatus(t, user.id, pushToken("mine"), at(0))).registered).toBe(false);
      expect((await tokenStatus(t, user.id, pushToken("mine-too"), at(0))).registered).toBe(true);
      expect(await deleteToken(t, user.id, theirs)).toEqual({ deleted: 0 });
      expect((await tokenStatus(t, other.id, theirs, at(0))).registered).toBe(true);
      expect(await deleteToken(t, user.id, pushToken("mine"))).toEqual({ deleted: 0 });
      expect(await deleteToken(t, user.id, pushToken("unknown"))).toEqual({ deleted: 0 });
      expect(await count(t, "select count(*) from user_fcm_tokens where user_id = $1", [other.id])).toBe(1);
    });

    it("a token belongs to one account: registering a token another account holds moves its row to this account, and no table row can give it to two", async () => {
      const before = await provision(t);
      const after = await provision(t);
      const token = pushToken("moving");
      const first = await registerToken(t, before.id, token, at(0));
      const moved = await registerToken(t, after.id, token, at(MINUTE));
      expect(moved).toMatchObject({ registered: true, refresh: false, device_id: first.device_id });
      expect((await tokenStatus(t, before.id, token, at(MINUTE))).registered).toBe(false);
      expect(await t.sql("select user_id from user_fcm_tokens where fcm_token = $1", [token])).toEqual([
        { user_id: after.id },
      ]);
      await expect(
        t.sql("insert into user_fcm_tokens (user_id, fcm_token) values ($1, $2)", [before.id, token]),
      ).rejects.toMatchObject({ code: "23505" });
    });

    it("forget_push_device deletes the token of that row whoever holds it, or (with p_except_user_id) unless that account holds it", async () => {
      const user = await provision(t);
      const other = await provision(t);
      const forget = (deviceId: number | null, except?: string) =>
        t.db.rpc<{ deleted: number }>("forget_push_device", {
          p_device_id: deviceId,
          ...(except ? { p_except_user_id: except } : {}),
        });
      const { device_id: kept } = await registerToken(t, user.id, pushToken("device-kept"), at(0));
      expect(await forget(kept, user.id)).toEqual({ deleted: 0 });
      expect((await tokenStatus(t, user.id, pushToken("device-kept"), at(0))).registered).toBe(true);
      expect(await forget(kept, other.id)).toEqual({ deleted: 1 });
      expect((await tokenStatus(t, user.id, pushToken("device-kept"), at(0))).registered).toBe(false);
      const { device_id: logout } = await registerToken(t, user.id, pushToken("device-logout"), at(0));
      await registerToken(t, user.id, pushToken("device-other"), at(0));
      expect(await forget(logout)).toEqual({ deleted: 1 });
      expect(await forget(logout)).toEqual({ deleted: 0 });
      expect(await forget(null)).toEqual({ deleted: 0 });
      expect(await count(t, "select count(*) from user_fcm_tokens where user_id = $1", [user.id])).toBe(1);
    });

    it("refuses a token under 20 or over 4,096 characters, blank, null or with whitespace with invalid_push_token; an unknown user with account_not_found", async () => {
      const user = await provision(t);
      const invalid = [
        "t".repeat(19),
        "t".repeat(4097),
        "",
        " ".repeat(30),
        null,
        `with space ${"x".repeat(20)}`,
        ` ${"x".repeat(25)}`,
        `${"x".repeat(25)}\n`,
        `tab\t${"x".repeat(25)}`,
        `ctl\u0001${"x".repeat(25)}`,
      ];
      for (const token of invalid) {
        expect(ruleViolation(await dbRefusal(registerToken(t, user.id, token, at(0)))), JSON.stringify(token)).toEqual({
          rule: "invalid_push_token",
          message: "This device's push token was not accepted",
        });
      }
      expect(await count(t, "select count(*) from user_fcm_tokens where user_id = $1", [user.id])).toBe(0);
      const ghost = newUserId("ghost");
      expect(await ruleKey(registerToken(t, ghost, pushToken("ghost"), at(0)))).toBe("account_not_found");
      expect(await count(t, "select count(*) from user_fcm_tokens where user_id = $1", [ghost])).toBe(0);
    });
  });

  describe("feedback", () => {
    it("refuses a blank name, email or message (after trimming) with feedback_fields_required and stores nothing", async () => {
      const user = await provision(t);
      for (const blank of ["", "   ", null]) {
        for (const [name, email, message] of [
          [blank, "me@example.com", "Hello"],
          ["Me", blank, "Hello"],
          ["Me", "me@example.com", blank],
        ]) {
          expect(
            ruleViolation(await dbRefusal(submitFeedback(t, user.id, name, email, message))),
            JSON.stringify([name, email, message]),
          ).toEqual({ rule: "feedback_fields_required", message: "Please fill out all fields" });
        }
      }
      expect(await feedbackOf(t, user.id)).toEqual([]);
    });

    it("refuses a message of only line breaks and tabs with feedback_fields_required", async () => {
      const user = await provision(t);
      for (const message of ["\n", "\n\n\t", " \r\n "]) {
        expect(
          await ruleKey(submitFeedback(t, user.id, "Me", "me@example.com", message)),
          JSON.stringify(message),
        ).toBe("feedback_fields_required");
      }
      expect(await ruleKey(submitFeedback(t, user.id, "\t", "me@example.com", "Hello"))).toBe(
        "feedback_fields_required",
      );
      expect(await ruleKey(submitFeedback(t, user.id, "Me", "\n", "Hello"))).toBe("feedback_fields_required");
      expect(await feedbackOf(t, user.id)).toEqual([]);
    });

    it("accepts a 2,000-character message and refuses 2,001 with feedback_too_long (name 100, email 254)", async () => {
      const user = await provision(t);
      const longest = "m".repeat(2000);
      expect(await submitFeedback(t, user.id, "Me", "me@example.com", `  ${longest}  `)).toEqual({
        id: expect.any(Number),
      });
      // Characters, not bytes.
      await submitFeedback(t, user.id, "Me", "me@example.com", "é".repeat(2000));
      expect(
        ruleViolation(await dbRefusal(submitFeedback(t, user.id, "Me", "me@example.com", "m".repeat(2001)))),
      ).toEqual({
        rule: "feedback_too_long",
        message: "Your message can be at most 2,000 characters (your name 100, your email 254)",
      });
      await submitFeedback(t, user.id, "n".repeat(100), `${"e".repeat(242)}@example.com`, "Limits");
      expect(await ruleKey(submitFeedback(t, user.id, "n".repeat(101), "me@example.com", "Hi"))).toBe(
        "feedback_too_long",
      );
      expect(await ruleKey(submitFeedback(t, user.id, "Me", `${"e".repeat(243)}@example.com`, "Hi"))).toBe(
        "feedback_too_long",
      );
      expect((await feedbackOf(t, user.id)).map((row) => row.message)).toEqual(["Limits", "é".repeat(2000), longest]);
    });

    it("stores markup and unicode as they are (trimmed at the ends only)", async () => {
      const user = await provision(t);
      const message = `<script>alert("x")</script> & <b>bold</b> 'quotes' \\ %s $1\nZweite Zeile: 日本語 😀 e\u0301`;
      await submitFeedback(t, user.id, " <i>Zoë</i> ", " zoë@exämple.com ", `  ${message}  `);
      expect(await feedbackOf(t, user.id)).toEqual([
        { id: expect.any(Number), created_at: expect.any(String), message, status: "open", messages: [] },
      ]);
      expect(await t.sql("select name, email, message from user_feedback where user_id = $1", [user.id])).toEqual([
        { name: "<i>Zoë</i>", email: "zoë@exämple.com", message },
      ]);
    });

    it("get_user_feedback lists the user's own feedback newest first; another user with the same email sees none of it", async () => {
      const email = `${newUserId("shared")}@example.com`;
      const user = await provision(t, { email });
      const sameEmail = await provision(t, { email });
      const neighbour = await provision(t);
      for (const message of ["first", "second", "third"]) await submitFeedback(t, user.id, "Me", email, message);
      await submitFeedback(t, neighbour.id, "Neighbour", email, "not yours");
      const mine = await feedbackOf(t, user.id);
      expect(mine.map((row) => row.message)).toEqual(["third", "second", "first"]);
      expect(mine.map((row) => row.id)).toEqual([...mine.map((row) => row.id)].sort((a, b) => b - a));
      expect(await feedbackOf(t, sameEmail.id)).toEqual([]);
      expect((await feedbackOf(t, neighbour.id)).map((row) => row.message)).toEqual(["not yours"]);
      expect(await feedbackOf(t, newUserId("nobody"))).toEqual([]);
    });

    it("submit_feedback refuses an unknown user with account_not_found", async () => {
      const ghost = newUserId("ghost");
      expect(await ruleKey(submitFeedback(t, ghost, "Me", "me@example.com", "Hello"))).toBe("account_not_found");
      expect(await count(t, "select count(*) from user_feedback where user_id = $1", [ghost])).toBe(0);
    });
  });

  describe("set_account_active", () => {
    it("deactivates and reactivates, returning was_active and keeping is_active in preferences", async () => {
      const user = await provision(t, { name: "Active Al" });
      expect(await setActive(t, user.id, false)).toEqual({ was_active: true, is_active: false });
      expect((await profileRow(t, user.id))!.preferences).toEqual({ is_active: false });
      expect(await setActive(t, user.id, false)).toEqual({ was_active: false, is_active: false });
      expect(await setActive(t, user.id, true)).toEqual({ was_active: false, is_active: true });
      expect(await setActive(t, user.id, true)).toEqual({ was_active: true, is_active: true });
      // Other preferences survive.
      await updateName(t, user.id, "Renamed");
      await setActive(t, user.id, false);
      expect((await profileRow(t, user.id))!.preferences).toEqual({ is_active: false, display_name: "Renamed" });
    });

    it("refuses an unknown user with account_not_found", async () => {
      expect(await ruleKey(setActive(t, newUserId("ghost"), false))).toBe("account_not_found");
    });

    it("deactivating deletes every push token of the account (and only its), reactivating brings none back", async () => {
      const user = await provision(t);
      const neighbour = await provision(t);
      for (const tag of ["deactivated-1", "deactivated-2"]) await registerToken(t, user.id, pushToken(tag), at(0));
      await registerToken(t, neighbour.id, pushToken("neighbour-stays"), at(0));
      await setActive(t, user.id, true);
      expect(await count(t, "select count(*) from user_fcm_tokens where user_id = $1", [user.id])).toBe(2);
      await setActive(t, user.id, false);
      expect(await count(t, "select count(*) from user_fcm_tokens where user_id = $1", [user.id])).toBe(0);
      expect(await count(t, "select count(*) from user_fcm_tokens where user_id = $1", [neighbour.id])).toBe(1);
      await setActive(t, user.id, true);
      expect(await count(t, "select count(*) from user_fcm_tokens where user_id = $1", [user.id])).toBe(0);
    });
  });

  describe("account deletion", () => {
    it("account_deletion_facts gives the email, the pending withdrawals and the recipients of withdrawals without a hash", async () => {
      const user = await provision(t, { coins: 3000 });
      expect(await deletionFacts(t, user.id)).toEqual({
        email: `${user.id}@example.com`,
        balance: 30,
        carried_debt: 0,
        pending_withdrawals: 0,
        unhashed_recipients: {},
      });
      const hashed = await withdraw(t, user.id, 5, "paypal", { email: "payee@example.com", hash: "hash-paypal" });
      const upi = await withdraw(t, user.id, 2, "upi", { upi: "name@okhdfcbank" });
      const bank = await withdraw(t, user.id, 10, "bank", { bank: { details: "IBAN DE89" }, hash: "   " });
      await settle(t, upi.id, "completed");
      expect(await deletionFacts(t, user.id)).toEqual({
        email: `${user.id}@example.com`,
        // 30.00 less the three withdrawals (5 + 2 + 10), each taken from the balance when asked.
        balance: 13,
        carried_debt: 0,
        pending_withdrawals: 2,
        unhashed_recipients: { [upi.id]: "name@okhdfcbank", [bank.id]: "IBAN DE89" },
      });
      expect((await withdrawalRow(t, hashed.id)).recipient_hash).toBe("hash-paypal");
      expect(await deletionFacts(t, newUserId("ghost"))).toBeNull();
      await expectLedgerAudit(t);
    });

    it("delete_account is refused with withdrawal_pending while a withdrawal is pending, and allowed once it has settled", async () => {
      const user = await provision(t, { coins: 2000 });
      const pending = await withdraw(t, user.id, 5, "paypal", { email: "payee@example.com", hash: "h-pending" });
      expect(ruleViolation(await dbRefusal(deleteAccount(t, user.id, `email-${user.id}`)))).toEqual({
        rule: "withdrawal_pending",
        message: "You have a withdrawal on its way. You can delete your account once it has been paid.",
      });
      // Nothing was deleted or remembered.
      expect(await summary(t, user.id)).toMatchObject({ id: user.id, balance: 15 });
      expect(await withdrawalRow(t, pending.id)).toMatchObject({
        user_id: user.id,
        recipient_email: "payee@example.com",
        status: "pending",
      });
      expect(await count(t, "select count(*) from deleted_accounts where email_hash = $1", [`email-${user.id}`])).toBe(
        0,
      );
      expect(await referralAllowed(t, `email-${user.id}`)).toBe(true);

      await settle(t, pending.id, "completed");
      expect(await deleteAccount(t, user.id, `email-${user.id}`)).toEqual({ deleted: true, withdrawals_kept: 1 });
      expect(await summary(t, user.id)).toBeNull();
      expect(await ruleKey(deleteAccount(t, user.id, `email-${user.id}`))).toBe("account_not_found");
      await expectLedgerAudit(t);
    });

    it("delete_account gives up only the balance the person confirmed (p_forfeit): missing or less, forfeit_unconfirmed with the amount, and nothing is deleted", async () => {
      const user = await provision(t);
      await addCoins(t, user.id, 210);
      for (const forfeit of [null, 0, 2.09]) {
        const refusal = await dbRefusal(deleteAccount(t, user.id, `email-${user.id}`, undefined, forfeit));
        expect(ruleViolation(refusal)).toEqual({
          rule: "forfeit_unconfirmed",
          message:
            "Your account holds $2.10. Tick “I give up $2.10” to delete it with that money, or withdraw it first.",
        });
      }
      expect(await t.sql("select 1 as kept from user_profiles where id = $1", [user.id])).toEqual([{ kept: 1 }]);
      expect(await deleteAccount(t, user.id, `email-${user.id}`, undefined, 2.1)).toEqual({
        deleted: true,
        withdrawals_kept: 0,
      });
      // An account with nothing left needs no confirmation.
      const empty = await provision(t);
      expect(await deleteAccount(t, empty.id, null, undefined, null)).toEqual({ deleted: true, withdrawals_kept: 0 });
    });

    it("delete_account refuses an unknown user with account_not_found and remembers no email", async () => {
      const ghost = newUserId("ghost");
      expect(await ruleKey(deleteAccount(t, ghost, `email-${ghost}`))).toBe("account_not_found");
      expect(await referralAllowed(t, `email-${ghost}`)).toBe(true);
    });

    it("removes the person (profile, balance, check-ins, completions, preferences, tokens, notices, feedback, referrals) and keeps the ledger, withdrawals and postbacks detached with hashed recipients", async () => {
      const referrer = await provision(t, { name: "Rita Referrer" });
      const user = await provision(t, { name: "Dee Leted", code: referrer.referral_code });
      const friend = await provision(t, { name: "Fred Friend", code: user.referral_code });
      // The person's own earnings: a postback, bonus coins, a check-in and a task.
      const transactionId = `txn-${user.id}`;
      await t.db.rpc("record_postback", {
        p_provider: "testwall",
        p_transaction_id: transactionId,
        p_user_id: user.id,
        p_coins: 200,
        p_reversal: false,
        p_description: "Offer completed",
      });
      await addCoins(t, user.id, 2000);
      await t.db.rpc("daily_checkin", { p_user_id: user.id });
      await t.db.rpc("start_task", { p_user_id: user.id, p_task_id: "survey-1", p_title: "Survey", p_reward: 50 });
      await t.db.rpc("complete_task", { p_user_id: user.id, p_task_id: "survey-1", p_min_seconds: 0 });
      await t.db.rpc("start_task", { p_user_id: user.id, p_task_id: "survey-2", p_title: "Later", p_reward: 10 });
      // The friend qualifies: the deleted user is paid as a referrer, and was paid as a friend.
      await addCoins(t, friend.id, 100);
      // As a referrer; what it got as a friend (its welcome bonus) is not a referral reward.
      expect(await summary(t, user.id)).toMatchObject({ referral_earned: 5 });
      // Withdrawals: hashed by create_withdrawal, or by delete_account's map, or neither.
      const paypal = await withdraw(t, user.id, 5, "paypal", { email: "Dee@Example.com", hash: `h-paypal-${user.id}` });
      const upi = await withdraw(t, user.id, 2, "upi", { upi: "dee@okhdfcbank" });
      const bank = await withdraw(t, user.id, 10, "bank", { bank: { details: "IBAN DEE" } });
      const keeps = await withdraw(t, user.id, 1, "upi", { upi: "dee2@okhdfcbank", hash: `h-keeps-${user.id}` });
      const unmapped = await withdraw(t, user.id, 1, "upi", { upi: "dee3@okhdfcbank" });
      await settle(t, paypal.id, "completed");
      await settle(t, upi.id, "failed");
      await settle(t, bank.id, "completed");
      await settle(t, keeps.id, "completed");
      await settle(t, unmapped.id, "completed");
      await t.db.rpc("set_notification_preference", { p_user_id: user.id, p_kind: "marketing", p_enabled: false });
      await registerToken(t, user.id, pushToken("dee"));
      await submitFeedback(t, user.id, "Dee", "dee@example.com", `Bye from ${user.id}`);

      const before = await summary(t, user.id);
      expect(before!.balance).toBeGreaterThan(0);
      const ledgerBefore = await t.sql<{ id: number; amount: number; status: string; transaction_type: string }>(
        "select id, amount::float8 as amount, status, transaction_type from transaction_history where user_id = $1 order by id",
        [user.id],
      );
      expect(ledgerBefore.length).toBeGreaterThanOrEqual(10);
      const owned = (table: string, column = "user_id") =>
        count(t, `select count(*) from ${table} where ${column} = $1`, [user.id]);
      for (const table of [
        "daily_checkins",
        "completed_tasks",
        "task_starts",
        "notification_preferences",
        "user_fcm_tokens",
        "user_notices",
        "user_feedback",
        "monthly_earnings",
      ]) {
        expect(await owned(table), table).toBeGreaterThan(0);
      }
      expect(await owned("referrals", "referrer_user_id")).toBe(1);
      expect(await owned("referrals", "referred_user_id")).toBe(1);

      expect(
        await deleteAccount(t, user.id, `email-${user.id}`, {
          [upi.id]: `h-upi-${user.id}`,
          [bank.id]: `h-bank-${user.id}`,
          [keeps.id]: "ignored: it already has one",
        }),
      ).toEqual({ deleted: true, withdrawals_kept: 5 });

      // The person is gone.
      expect(await summary(t, user.id)).toBeNull();
      expect(await owned("user_profiles", "id")).toBe(0);
      for (const table of [
        "user_balance",
        "daily_checkins",
        "completed_tasks",
        "task_starts",
        "notification_preferences",
        "user_fcm_tokens",
        "user_notices",
        "user_feedback",
        "monthly_earnings",
        "referrals",
      ]) {
        const column = table === "referrals" ? "referrer_user_id" : "user_id";
        expect(await owned(table, column), table).toBe(0);
      }
      expect(await owned("referrals", "referred_user_id")).toBe(0);
      expect(await count(t, "select count(*) from user_feedback where message = $1", [`Bye from ${user.id}`])).toBe(0);
      expect(await t.db.rpc("get_referrals", { p_user_id: referrer.id })).toEqual([]);
      expect(await feedbackOf(t, user.id)).toEqual([]);
      expect(await activity(t, user.id)).toEqual([]);
      expect(await t.db.rpc("get_user_withdrawals", { p_user_id: user.id })).toEqual([]);

      // The money stays, detached and unchanged.
      const ledgerAfter = await t.sql<{ id: number; amount: number; status: string; transaction_type: string }>(
        `select id, amount::float8 as amount, status, transaction_type from transaction_history
          where id = any ($1::bigint[]) and user_id is null order by id`,
        [ledgerBefore.map((row) => row.id)],
      );
      expect(ledgerAfter).toEqual(ledgerBefore);
      expect(
        await t.sql<{ user_id: string | null; coins: number }>(
          "select user_id, coins from provider_postbacks where provider = 'testwall' and transaction_id = $1",
          [transactionId],
        ),
      ).toEqual([{ user_id: null, coins: 200 }]);
      const detached = {
        user_id: null,
        recipient_email: null,
        recipient_upi: null,
        recipient_bank_details: null,
      };
      expect(await withdrawalRow(t, paypal.id)).toEqual({
        ...detached,
        status: "completed",
        amount: 5,
        recipient_hash: `h-paypal-${user.id}`,
      });
      expect(await withdrawalRow(t, upi.id)).toEqual({
        ...detached,
        status: "failed",
        amount: 2,
        recipient_hash: `h-upi-${user.id}`,
      });
      expect(await withdrawalRow(t, bank.id)).toEqual({
        ...detached,
        status: "completed",
        amount: 10,
        recipient_hash: `h-bank-${user.id}`,
      });
      expect(await withdrawalRow(t, keeps.id)).toMatchObject({ ...detached, recipient_hash: `h-keeps-${user.id}` });
      expect(await withdrawalRow(t, unmapped.id)).toMatchObject({ ...detached, recipient_hash: null });

      // The referrer and the friend keep what they were paid.
      expect(await summary(t, referrer.id)).toMatchObject({ referral_earned: 5 });
      expect(await summary(t, friend.id)).toMatchObject({ referral_earned: 0 });
      await expectLedgerAudit(t);
    });

    it("remembers the email hash in deleted_accounts: referral_allowed_for becomes false (true for null or unknown hashes)", async () => {
      const user = await provision(t);
      const emailHash = `email-hash-${user.id}`;
      expect(await referralAllowed(t, emailHash)).toBe(true);
      await deleteAccount(t, user.id, emailHash);
      expect(await t.sql("select email_hash from deleted_accounts where email_hash = $1", [emailHash])).toEqual([
        { email_hash: emailHash },
      ]);
      expect(await referralAllowed(t, emailHash)).toBe(false);
      expect(await referralAllowed(t, null)).toBe(true);
      expect(await referralAllowed(t, `unknown-${user.id}`)).toBe(true);
      // An account without an email leaves no hash behind.
      const noEmail = await provision(t, { email: null });
      const hashes = await count(t, "select count(*) from deleted_accounts");
      expect(await deleteAccount(t, noEmail.id, null)).toEqual({ deleted: true, withdrawals_kept: 0 });
      expect(await count(t, "select count(*) from deleted_accounts")).toBe(hashes);
      await expectLedgerAudit(t);
    });

    it("the ledger stays append-only: a detached row can be neither deleted nor edited, and a live row cannot be detached", async () => {
      const user = await provision(t, { coins: 500 });
      const survivor = await provision(t, { coins: 300 });
      await deleteAccount(t, user.id, null);
      const [row] = await t.sql<{ id: number }>(
        "select id from transaction_history where user_id is null and description = 'Bonus coins' order by id desc limit 1",
      );
      const id = row!.id;
      const attempts = [
        "delete from transaction_history where id = $1",
        "update transaction_history set amount = 1000 where id = $1",
        "update transaction_history set description = 'edited' where id = $1",
        "update transaction_history set coins = 1 where id = $1",
        "update transaction_history set created_at = now() - interval '1 year' where id = $1",
      ];
      for (const sql of attempts) {
        expect(await ruleKey(rawSql(t, sql, [id])), sql).toBe("ledger_append_only");
      }
      // Not even handed to someone else.
      expect(
        await ruleKey(rawSql(t, "update transaction_history set user_id = $2 where id = $1", [id, survivor.id])),
      ).toBe("ledger_append_only");
      // A live account's rows cannot be detached or deleted directly.
      expect(
        await ruleKey(rawSql(t, "update transaction_history set user_id = null where user_id = $1", [survivor.id])),
      ).toBe("ledger_append_only");
      expect(await ruleKey(rawSql(t, "delete from transaction_history where user_id = $1", [survivor.id]))).toBe(
        "ledger_append_only",
      );
      expect(
        await t.sql("select user_id, amount::float8 as amount, description from transaction_history where id = $1", [
          id,
        ]),
      ).toEqual([{ user_id: null, amount: 5, description: "Bonus coins" }]);
      expect(await summary(t, survivor.id)).toMatchObject({ balance: 3 });
      await expectLedgerAudit(t);
    });

    it("the same user id can be provisioned afresh: zero balance, no activity, withdrawals or feedback, default preferences", async () => {
      const user = await provision(t, { coins: 1200, name: "First Life" });
      const old = await withdraw(t, user.id, 5, "paypal", { email: "again@example.com", hash: `h-again-${user.id}` });
      await settle(t, old.id, "completed");
      await setPreference(t, user.id, "email", false);
      await submitFeedback(t, user.id, "Me", "me@example.com", "old life");
      await deleteAccount(t, user.id, `email-${user.id}`);

      const again = await provision(t, { userId: user.id, name: "Second Life", coins: 0 });
      expect(again).toMatchObject({
        id: user.id,
        display_name: "Second Life",
        balance: 0,
        total_earned: 0,
        referral_earned: 0,
        preferences: { is_active: true },
      });
      expect(await activity(t, user.id)).toEqual([]);
      expect(await t.db.rpc("get_user_withdrawals", { p_user_id: user.id })).toEqual([]);
      expect(await feedbackOf(t, user.id)).toEqual([]);
      expect(await preferences(t, user.id)).toEqual(ALL_ON);
      expect(await t.db.rpc("verify_user_balance", { p_user_id: user.id })).toMatchObject({
        balance: 0,
        ledger_balance: 0,
        consistent: true,
      });
      // The new account's money is its own.
      await addCoins(t, user.id, 100);
      expect(await summary(t, user.id)).toMatchObject({ balance: 1, total_earned: 1 });
      expect((await withdrawalRow(t, old.id)).user_id).toBeNull();
      await expectLedgerAudit(t);
    });

    it("operator_withdrawals lists a new account's withdrawal to a deleted account's address (same recipient hash) with 'deleted account' in same_address_accounts", async () => {
      const gone = await provision(t, { coins: 2000 });
      const mapped = await provision(t, { coins: 2000 });
      const address = `${newUserId("payee")}@example.com`;
      const upiAddress = `${newUserId("upi").replace(/[^a-z0-9]/g, "")}@okhdfcbank`;
      const addressHash = `h-${address}`;
      const upiHash = `h-${upiAddress}`;
      // One deleted account hashed its address when withdrawing; the other only at deletion.
      const first = await withdraw(t, gone.id, 5, "paypal", { email: address, hash: addressHash });
      const second = await withdraw(t, mapped.id, 2, "upi", { upi: upiAddress });
      await settle(t, first.id, "completed");
      await settle(t, second.id, "completed");
      await deleteAccount(t, gone.id, null);
      await deleteAccount(t, mapped.id, null, { [second.id]: upiHash });

      const newcomer = await provision(t, { coins: 2000 });
      const live = await provision(t, { coins: 2000 });
      const again = await withdraw(t, newcomer.id, 5, "paypal", { email: address.toUpperCase(), hash: addressHash });
      const againUpi = await withdraw(t, newcomer.id, 2, "upi", { upi: upiAddress, hash: upiHash });
      const elsewhere = await withdraw(t, newcomer.id, 3, "upi", { upi: "elsewhere@okhdfcbank", hash: "h-other" });
      // A live account paid to the same address shows under its id (matched by the address itself).
      const liveOne = await withdraw(t, live.id, 5, "paypal", { email: address });

      const rows = await t.db.rpc<OperatorRow[]>("operator_withdrawals", { p_status: "pending" });
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect([...byId.get(again.id)!.same_address_accounts].sort()).toEqual(["deleted account", live.id].sort());
      expect(byId.get(againUpi.id)!.same_address_accounts).toEqual(["deleted account"]);
      expect(byId.get(elsewhere.id)!.same_address_accounts).toEqual([]);
      expect(byId.get(liveOne.id)!.same_address_accounts).toEqual([newcomer.id]);
      // The deleted accounts' own withdrawals are not in the review list.
      const all = await t.db.rpc<OperatorRow[]>("operator_withdrawals", { p_status: null });
      expect(all.some((row) => row.id === first.id || row.id === second.id)).toBe(false);
      await expectLedgerAudit(t);
    });
  });
});

// PGlite has one connection, so races can only be shown on a real Postgres server.
describe("account deletion races on a Postgres server", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestPostgres(40);
  });
  afterEach(async () => {
    await expectLedgerAudit(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a deletion racing 20 simultaneous withdrawals is either refused with withdrawal_pending or leaves no pending withdrawal behind; never a pending withdrawal of a deleted user", async () => {
    // Withdrawals refused because the account is gone (its email can no longer be verified) or
    // because an earlier one took the last of the allowance.
    const refusedWithdrawal = new Set(["account_not_found", "email_not_verified", "withdrawal_rate_limited"]);
    const outcomes = { deleted: 0, refused: 0 };
    try {
      await t.sql("update app_config set withdrawals_per_hour = 100");
      for (let round = 0; round < 8; round++) {
        const user = await provision(t, { coins: 3000 });
        const hash = `race-${user.id}`;
        // The deletion is sent at a different point among the withdrawals each round.
        const deleteAt = Math.min(round * 3, 20);
        const results = await Promise.allSettled(
          Array.from({ length: 21 }, (_, i) =>
            i === deleteAt
              ? deleteAccount(t, user.id, `email-${user.id}`)
              : withdraw(t, user.id, 1, "upi", { upi: "racer@okhdfcbank", hash }),
          ),
        );
        const deletion = results[deleteAt]!;
        const withdrawals = results.filter((_, i) => i !== deleteAt);
        for (const result of withdrawals) {
          if (result.status === "rejected") {
            const violation = ruleViolation(result.reason);
            expect(violation?.rule, `round ${round}: ${String(result.reason)}`).toSatisfy(
              (rule: string | undefined) => rule !== undefined && refusedWithdrawal.has(rule),
            );
          }
        }
        const accepted = withdrawals.filter((result) => result.status === "fulfilled").length;

        if (deletion.status === "rejected") {
          outcomes.refused++;
          expect(ruleViolation(deletion.reason)?.rule, `round ${round}: ${String(deletion.reason)}`).toBe(
            "withdrawal_pending",
          );
          expect(accepted).toBeGreaterThan(0);
          expect(await summary(t, user.id)).toMatchObject({ id: user.id, balance: 30 - accepted });
          // Once they are paid the account can go.
          const pending = await t.sql<{ id: string }>(
            "select id from withdrawals where user_id = $1 and status = 'pending'",
            [user.id],
          );
          expect(pending).toHaveLength(accepted);
          for (const { id } of pending) await settle(t, id, "completed");
          expect(await deleteAccount(t, user.id, `email-${user.id}`)).toEqual({
            deleted: true,
            withdrawals_kept: accepted,
          });
        } else {
          outcomes.deleted++;
          expect(deletion.value).toEqual({ deleted: true, withdrawals_kept: accepted });
          // A withdrawal accepted before the deletion would have made it refuse.
          expect(accepted).toBe(0);
        }
        expect(await summary(t, user.id)).toBeNull();
        expect(await count(t, "select count(*) from withdrawals where recipient_hash = $1", [hash])).toBe(accepted);
        expect(
          await count(t, "select count(*) from withdrawals where recipient_hash = $1 and status = 'pending'", [hash]),
        ).toBe(0);
        expect(await count(t, "select count(*) from withdrawals where user_id is null and status = 'pending'")).toBe(0);
        await expectLedgerAudit(t);
      }
    } finally {
      await t.sql("update app_config set withdrawals_per_hour = 5");
    }
    expect(outcomes.deleted + outcomes.refused).toBe(8);
  });
});
