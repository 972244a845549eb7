import { readTimeZone } from "~/domain/time-zone";
import type { NoticeKind, UserNotice } from "~/domain/notices";
import type { Database } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { subscribeToChannel } from "../db/live.server";
import { getEnv } from "../runtime/env.server";
import { createMailer, emailForNotice, type EmailContent, type EmailResult } from "./email.server";
import { createFcmClient, pushForNotice, type PushContent, type PushResult } from "./fcm.server";

/**
 * Delivers the user_notices outbox by push and email, in every app process where either is
 * configured. A worker wakes on pg_notify('user_notices') and on an interval (notices written
 * while it was down, by another instance, or due for a retry), claims a few due notices at a time
 * under a lease (20261124010000_notification_delivery.sql), sends what the person's switches
 * allow, and records each channel's outcome; failures are tried again with growing waits. The
 * notice was committed with its money, so nothing here can hold up or undo a credit.
 */

/** A notice claimed for delivery, as claim_due_notices() returns it. */
export interface ClaimedNotice {
  id: number;
  claim_id: string;
  user_id: string;
  kind: NoticeKind;
  data: UserNotice["data"];
  created_at: string;
  /** `time_zone`: the zone the person's browser reported at sign-in (null: UTC). */
  recipient: { email: string | null; time_zone: string | null };
  preferences: {
    email: boolean;
    push: boolean;
    /** `support`: a reply to the person's own message, which only the channel's switch governs. */
    category: "withdrawal" | "reward" | "support" | null;
    category_enabled: boolean;
  };
  /** `attempt` counts this try; `tokens` are the devices this notice has not reached yet. */
  push: { due: boolean; attempt: number; delivered_before: number; tokens: string[] };
  email: { due: boolean; attempt: number };
}

/** One channel's outcome, as record_notice_delivery() takes it. */
export interface ChannelOutcome {
  outcome: "sent" | "skipped" | "failed";
  detail?: string;
  /** With "failed": when to try again; null gives up at once. */
  retry_in_seconds?: number | null;
  delivered_tokens?: string[];
}

/** Whether a notice's email may go out now (reserve_notice_email), and to which address. */
type EmailReservation = { send: true; address: string } | { send: false; detail: string };

interface RecordedDelivery {
  recorded: boolean;
  push_status?: string;
  email_status?: string;
  next_attempt_at?: string | null;
}

export interface PushSender {
  send(token: string, content: PushContent): Promise<PushResult>;
}

export interface EmailSender {
  send(to: string, content: EmailContent): Promise<EmailResult>;
  close?(): void;
}

export interface NoticeDeliveryOptions {
  db: () => Promise<Database>;
  /** Null where push is not configured (its channel is recorded as skipped). */
  push: PushSender | null;
  email: EmailSender | null;
  publicUrl: string | null;
  /** Calls `wake` whenever a notice is written; resolves to a way to stop listening. */
  listen: (wake: () => void) => Promise<() => void>;
  /** How often to look for due notices without being woken. */
  intervalMs: number;
  /** The wait before the first retry; it doubles with each failed try, up to an hour. */
  retrySeconds: number;
  batchSize?: number;
  /** How long a claim holds its notices; past it, a worker that died has its notices claimed again. */
  leaseSeconds?: number;
}

const MAX_RETRY_SECONDS = 3600;
const DEFAULT_BATCH_SIZE = 10;
// Longer than the slowest delivery: pushes to ten devices and an email, each with its own time limit.
const DEFAULT_LEASE_SECONDS = 300;
// How long stopping waits for the sends under way before it lets go (their claims lapse and come back).
const STOP_WAIT_MS = 10_000;

/** Seconds until try `attempt + 1`: the base doubled per failed try, at least what the service asked for. */
export function retryDelaySeconds(attempt: number, baseSeconds: number, retryAfterSeconds: number | null = null) {
  const backoff = baseSeconds * 2 ** Math.max(0, attempt - 1);
  return Math.min(Math.max(backoff, retryAfterSeconds ?? 0), MAX_RETRY_SECONDS);
}

function explain(error: unknown): string {
  if (error instanceof Response) return `database unavailable (HTTP ${error.status})`;
  return error instanceof Error ? error.message : String(error);
}

export function startNoticeDelivery(options: NoticeDeliveryOptions) {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  let stopped = false;
  let again = false;
  let running: Promise<void> | null = null;
  let unlisten: (() => void) | null = null;
  // Retries this worker recorded, in whole seconds: it wakes for the earliest.
  const retriesAt = new Set<number>();
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  const interval = setInterval(wake, options.intervalMs);
  interval.unref();
  options
    .listen(wake)
    .then((stop) => (stopped ? stop() : (unlisten = stop)))
    .catch((error: unknown) => console.error("notifications: cannot listen for new notices:", explain(error)));
  wake();

  function wake() {
    if (stopped) return;
    again = true;
    running ??= drain().finally(() => {
      running = null;
      if (again) wake();
    });
  }

  function wakeForRetry(at: number) {
    retriesAt.add(Math.ceil(at / 1000));
    scheduleRetryWake();
  }

  function scheduleRetryWake() {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    if (stopped || retriesAt.size === 0) return;
    const next = Math.min(...retriesAt);
    retryTimer = setTimeout(
      () => {
        const now = Date.now() / 1000;
        for (const at of retriesAt) if (at <= now) retriesAt.delete(at);
        scheduleRetryWake();
        wake();
      },
      Math.max(0, next * 1000 - Date.now()),
    );
    retryTimer.unref();
  }

  /** Claims and delivers batches until nothing is due. */
  async function drain() {
    try {
      while (again && !stopped) {
        again = false;
        for (;;) {
          const db = await options.db();
          const batch = await db.rpc<ClaimedNotice[]>("claim_due_notices", {
            p_limit: batchSize,
            p_lease_seconds: leaseSeconds,
          });
          if (batch.length === 0) break;
          await Promise.all(batch.map(deliver));
          if (stopped) return;
        }
      }
    } catch (error) {
      // The next interval tries again; claimed notices come back when their lease ends.
      again = false;
      console.error("notifications: cannot claim notices:", explain(error));
    }
  }

  async function deliver(notice: ClaimedNotice) {
    const [push, email] = await Promise.all([
      notice.push.due ? guarded(notice, "push", deliverPush) : null,
      notice.email.due ? guarded(notice, "email", deliverEmail) : null,
    ]);
    let recorded: RecordedDelivery;
    try {
      const db = await options.db();
      recorded = await db.rpc<RecordedDelivery>("record_notice_delivery", {
        p_notice_id: notice.id,
        p_claim_id: notice.claim_id,
        p_push: push,
        p_email: email,
      });
    } catch (error) {
      console.error(
        `notifications: notice ${notice.id}: the outcome could not be recorded (${explain(error)}); it is sent again when its claim runs out`,
      );
      return;
    }
    if (!recorded.recorded) return;
    if (recorded.next_attempt_at) wakeForRetry(Date.parse(recorded.next_attempt_at));
    for (const [channel, outcome, status] of [
      ["push", push, recorded.push_status],
      ["email", email, recorded.email_status],
    ] as const) {
      if (outcome?.outcome !== "failed") continue;
      const next =
        status === "pending"
          ? `tried again in ${outcome.retry_in_seconds} s`
          : `given up after ${notice[channel].attempt} ${notice[channel].attempt === 1 ? "try" : "tries"}`;
      console.warn(
        `notifications: ${channel} of notice ${notice.id} (${notice.kind}) failed: ${outcome.detail}; ${next}`,
      );
    }
  }

  /** A channel's outcome even when something unexpected throws (tried again later, like any failure). */
  async function guarded(
    notice: ClaimedNotice,
    channel: "push" | "email",
    work: (notice: ClaimedNotice) => Promise<ChannelOutcome>,
  ): Promise<ChannelOutcome> {
    try {
      return await work(notice);
    } catch (error) {
      return {
        outcome: "failed",
        detail: explain(error),
        retry_in_seconds: retryDelaySeconds(notice[channel].attempt, options.retrySeconds),
      };
    }
  }

  /** Why a channel is not used for this notice, or null when it is. */
  function switchedOff(notice: ClaimedNotice, channel: "push" | "email"): string | null {
    if (!notice.preferences[channel]) return `${channel} notifications are off`;
    if (!notice.preferences.category) return "no notification setting covers this kind of notice";
    if (notice.preferences.category === "support") return null;
    if (!notice.preferences.category_enabled) return `${notice.preferences.category} notifications are off`;
    return null;
  }

  async function deliverPush(notice: ClaimedNotice): Promise<ChannelOutcome> {
    if (!options.push) return { outcome: "skipped", detail: "push is not configured (FIREBASE_SERVICE_ACCOUNT)" };
    const off = switchedOff(notice, "push");
    if (off) return { outcome: "skipped", detail: off };
    const content = pushForNotice(notice, options.publicUrl, readTimeZone(notice.recipient.time_zone));
    const push = options.push;
    const results = await Promise.all(
      notice.push.tokens.map(async (token) => ({ token, result: await push.send(token, content) })),
    );
    const delivered = results.filter(({ result }) => result.outcome === "sent").map(({ token }) => token);
    for (const { token, result } of results) {
      if (result.outcome === "unregistered") await dropToken(notice, token, result.detail);
    }
    const failures = results.flatMap(({ result }) => (result.outcome === "failed" ? [result] : []));
    if (failures.length > 0) {
      const retryAfter = Math.max(0, ...failures.map((failure) => failure.retryAfterSeconds ?? 0));
      return {
        outcome: "failed",
        detail: `${failures[0]!.detail} (${failures.length} of ${results.length} devices)`,
        retry_in_seconds: retryDelaySeconds(notice.push.attempt, options.retrySeconds, retryAfter),
        delivered_tokens: delivered,
      };
    }
    if (delivered.length + notice.push.delivered_before > 0) return { outcome: "sent", delivered_tokens: delivered };
    return { outcome: "skipped", detail: "no device to send to" };
  }

  async function dropToken(notice: ClaimedNotice, token: string, detail: string) {
    try {
      await (await options.db()).rpc("drop_fcm_token", { p_token: token });
      console.info(`notifications: dropped a push token of ${notice.user_id} that reaches no device (${detail})`);
    } catch (error) {
      console.error(`notifications: could not drop a push token of ${notice.user_id}:`, explain(error));
    }
  }

  async function deliverEmail(notice: ClaimedNotice): Promise<ChannelOutcome> {
    if (!options.email) return { outcome: "skipped", detail: "email is not configured (SMTP_URL)" };
    const off = switchedOff(notice, "email");
    if (off) return { outcome: "skipped", detail: off };
    if (!notice.recipient.email) return { outcome: "skipped", detail: "the account has no email address" };
    // The database decides: a verified address that has not had its day's notice emails
    // (app_config.notice_emails_per_address_per_day). Reserved before sending, so racing workers
    // cannot both send the last one; a try that does not send gives its reservation back.
    const reservation = await (
      await options.db()
    ).rpc<EmailReservation>("reserve_notice_email", { p_notice_id: notice.id, p_claim_id: notice.claim_id });
    if (!reservation.send) return { outcome: "skipped", detail: reservation.detail };
    const result = await options.email.send(
      reservation.address,
      emailForNotice(notice, options.publicUrl, readTimeZone(notice.recipient.time_zone)),
    );
    if (result.outcome === "sent") return { outcome: "sent" };
    return {
      outcome: "failed",
      detail: result.detail,
      retry_in_seconds: result.retry ? retryDelaySeconds(notice.email.attempt, options.retrySeconds) : null,
    };
  }

  return {
    /** Looks for due notices now (new notices and the interval do this by themselves). */
    wake,
    /** Resolves once nothing is being delivered (tests). */
    async idle() {
      while (running) await running;
    },
    /** Stops claiming, lets the sends under way finish (for a while) and records them. */
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(interval);
      if (retryTimer) clearTimeout(retryTimer);
      unlisten?.();
      if (running) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([running, new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
        clearTimeout(timer);
      }
      options.email?.close?.();
    },
  };
}

export type NoticeDelivery = ReturnType<typeof startNoticeDelivery>;

// One worker per process, kept across `remix dev` rebuilds; null when nothing is configured.
const store = globalThis as typeof globalThis & { __noticeDelivery?: NoticeDelivery | null };

/** Starts this process's worker if push or email is configured (entry.server.tsx calls it once). */
export function startConfiguredNoticeDelivery(): void {
  if (store.__noticeDelivery !== undefined) return;
  const { notifications, publicUrl } = getEnv();
  let push: PushSender | null = null;
  if (notifications.push) {
    try {
      push = createFcmClient(notifications.push);
    } catch (error) {
      console.error(`notifications: no push: the service account's private_key cannot be read (${explain(error)})`);
    }
  } else {
    console.warn("notifications: no push: FIREBASE_SERVICE_ACCOUNT is not set");
  }
  if (!notifications.email) console.warn("notifications: no email: SMTP_URL is not set");
  if (!push && !notifications.email) {
    store.__noticeDelivery = null;
    return;
  }
  const delivery = startNoticeDelivery({
    db: getDatabase,
    push,
    email: notifications.email ? createMailer(notifications.email) : null,
    publicUrl,
    listen: async (wake) => (await subscribeToChannel("user_notices", wake)).unsubscribe,
    intervalMs: notifications.intervalMs,
    retrySeconds: notifications.retrySeconds,
  });
  store.__noticeDelivery = delivery;
  process.once("SIGTERM", () => void delivery.stop());
}
