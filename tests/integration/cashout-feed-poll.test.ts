import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { FeedItem } from "~/domain/cashout-feed";

// The one poll a server runs while pages listen to the cash-out feed (docs/decisions/098) reads the
// database itself at each tick. When it took the copy pages had read, a page's read just before a
// tick left that copy fresh at the tick, and a new cash-out reached open pages one interval late.
// The app's own database (in memory) with a one-minute interval; the clock is driven by hand.
Object.assign(process.env, {
  PGLITE_DATA_DIR: "memory://",
  NODE_ENV: "test",
  FIREBASE_PROJECT_ID: "demo-rewards",
  // Read by the environment check only: nothing here signs in.
  FIREBASE_AUTH_EMULATOR_HOST: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? "127.0.0.1:9099",
  CASHOUT_FEED_REFRESH_SECONDS: "60",
});
const { closeDatabase, getDatabase } = await import("~/server/db/database.server");
const { getCashoutFeed, setInCashoutFeed, subscribeToCashoutFeed } =
  await import("~/server/earning/cashout-feed.server");

const db = await getDatabase();
beforeAll(async () => {
  await db.rpc("apply_demo_settings");
}, 60_000);
afterAll(async () => {
  vi.useRealTimers();
  await closeDatabase();
});

/** Lets callbacks already due run (the poll's comparison after its read). */
async function settle() {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

async function member(userId: string, coins: number) {
  await db.rpc("provision_user", {
    p_user_id: userId,
    p_email: `${userId}@example.com`,
    p_display_name: "Member",
    p_email_verified: true,
    p_identity_hash: `identity-${userId}`,
  });
  if (coins) await db.rpc("add_user_coins", { user_id_param: userId, amount_param: coins });
}

it("sends open pages a cash-out paid between two ticks at the next tick, though a page read the feed just before it", async () => {
  await member("feedpoll-viewer", 0);
  await member("feedpoll-owner", 20_000);
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
  const sent: FeedItem[][] = [];
  const unsubscribe = subscribeToCashoutFeed((items) => sent.push(items));
  try {
    await getCashoutFeed(); // the first read: what later lists are compared with
    await settle();

    // Half a minute on, a page reads the feed anew (this server saved a Settings choice).
    vi.advanceTimersByTime(30_000);
    await setInCashoutFeed("feedpoll-viewer", true);
    await getCashoutFeed();

    const { id } = await db.rpc<{ id: string }>("create_withdrawal", {
      p_user_id: "feedpoll-owner",
      amount_param: 12,
      payment_method_param: "paypal",
      recipient_email_param: "feedpoll-owner@example.com",
    });
    await db.rpc("settle_withdrawal", {
      p_withdrawal_id: id,
      p_status: "completed",
      p_reference: "REF1",
      p_reason: null,
    });
    expect(sent).toEqual([]);

    vi.advanceTimersByTime(30_000); // the tick at one minute
    await getCashoutFeed();
    await settle();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.map((item) => item.id)).toContain(`w${id}`);
  } finally {
    unsubscribe();
  }
});
