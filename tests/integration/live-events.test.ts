import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpDirect } from "../support/emulator";

// The server reads its environment once: set it before any app module is imported.
Object.assign(process.env, {
  PGLITE_DATA_DIR: "memory://",
  NODE_ENV: "test",
  FIREBASE_PROJECT_ID: "demo-rewards",
});
const { loader } = await import("~/routes/api.events");
const { startSession } = await import("~/server/auth/session.server");
const { getDatabase } = await import("~/server/db/database.server");
const { announceSessionsEnded, liveSubscriberCount } = await import("~/server/db/live.server");
const { MAX_STREAMS_PER_USER } = await import("~/server/earning/live-events.server");

const EVENTS_URL = "http://localhost/api/events";
const decoder = new TextDecoder();

let cookie = "";
let uid = "";

function callLoader(request: Request) {
  return loader({ request, params: {}, context: {} });
}

/** Lets pending callbacks and stream bookkeeping run, without waiting a fixed time. */
async function settle() {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

function activeTimers() {
  return process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
}

/** A new account signed in: its uid and its session cookie (`__session=...`). */
async function newSession(prefix: string) {
  const account = await signUpDirect(`${prefix}-${Date.now().toString(36)}@example.com`, "live-events-password");
  const session = await startSession(account.idToken, { redirectTo: "/", flash: { kind: "success", title: "x" } });
  const sessionCookie = session.headers
    .getSetCookie()
    .find((header) => header.startsWith("__session="))!
    .split(";")[0]!;
  return { uid: account.localId, cookie: sessionCookie };
}

/** One open page: the loader's response and the first chunk read from it. */
async function openStream(sessionCookie = cookie) {
  const abort = new AbortController();
  const request = new Request(EVENTS_URL, { headers: { cookie: sessionCookie }, signal: abort.signal });
  const response = await callLoader(request);
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const first = await reader.read();
  return { abort, request, reader, first: decoder.decode(first.value) };
}

/** The next read of a stream if it comes at once, else "open". The pending read stays queued. */
async function nextOrOpen(reader: ReadableStreamDefaultReader<Uint8Array>) {
  return Promise.race([reader.read(), settle().then(() => "open" as const)]);
}

beforeAll(async () => {
  ({ uid, cookie } = await newSession("live"));
  // Opens the database and its LISTEN once, so that the counts below measure the streams only.
  const warmUp = await openStream();
  warmUp.abort.abort();
  await settle();
});

afterAll(async () => {
  await (await getDatabase()).close();
});

describe("GET /api/events", () => {
  it("answers 401 'Sign in to receive updates' when signed out", async () => {
    const response = await callLoader(new Request(EVENTS_URL));
    expect(response.status).toBe(401);
    expect(await response.text()).toBe("Sign in to receive updates");
  });

  it("leaves no timers, subscribers or abort listeners behind after 1,000 connect/disconnect cycles, including clients that leave before the loader's awaits resolve", async () => {
    const timersBefore = activeTimers();
    expect(liveSubscriberCount()).toBe(0);
    let listenersLeftAfterCancel = 0;
    let earlyLeaversStillStreaming = 0;
    for (let cycle = 0; cycle < 1_000; cycle++) {
      if (cycle % 3 === 2) {
        // The client leaves while the session is still being verified (the leak of the old route).
        const abort = new AbortController();
        const pending = callLoader(new Request(EVENTS_URL, { headers: { cookie }, signal: abort.signal }));
        abort.abort();
        const next = await nextOrOpen((await pending).body!.getReader());
        if (next === "open" || !next.done) earlyLeaversStillStreaming++;
        continue;
      }
      const stream = await openStream();
      expect(stream.first).toBe("retry: 5000\n\n");
      if (cycle % 3 === 0) {
        stream.abort.abort();
        expect(await stream.reader.read()).toEqual({ done: true, value: undefined });
      } else {
        // The body is cancelled without an abort: the stream's abort listener must go too.
        await stream.reader.cancel();
        listenersLeftAfterCancel += getEventListeners(stream.request.signal, "abort").length;
      }
    }
    await settle();
    expect.soft(liveSubscriberCount()).toBe(0);
    // Not toBe: timers of the test runner (its 100 ms reporting throttle) may fire during the loop.
    // A leak would add one heartbeat per cycle, so none may be added.
    expect.soft(activeTimers()).toBeLessThanOrEqual(timersBefore);
    expect.soft(listenersLeftAfterCancel).toBe(0);
    expect.soft(earlyLeaversStillStreaming).toBe(0);
  });

  it(`keeps at most ${MAX_STREAMS_PER_USER} streams per user: one more tells the oldest it was replaced, ends it and leaves the others open`, async () => {
    const subscribersBefore = liveSubscriberCount();
    const streams = [];
    for (let i = 0; i <= MAX_STREAMS_PER_USER; i++) streams.push(await openStream());
    const [oldest, ...newer] = streams;
    const last = await nextOrOpen(oldest!.reader);
    expect(last !== "open" && decoder.decode(last.value)).toBe("event: replaced\ndata: {}\n\n");
    expect(await nextOrOpen(oldest!.reader)).toEqual({ done: true, value: undefined });
    expect(liveSubscriberCount() - subscribersBefore).toBe(MAX_STREAMS_PER_USER);
    const newerReads = newer.map((stream) => stream.reader.read());
    let newerEnded = 0;
    for (const read of newerReads) void read.then(() => newerEnded++);
    await settle();
    expect(newerEnded).toBe(0);

    for (const stream of streams) stream.abort.abort();
    expect(await Promise.all(newerReads)).toEqual(newer.map(() => ({ done: true, value: undefined })));
    expect(liveSubscriberCount()).toBe(subscribersBefore);
  });

  it("delivers 'event: task-completed' to an open stream when one of the user's tasks is completed", async () => {
    const subscribersBefore = liveSubscriberCount();
    const stream = await openStream();
    const db = await getDatabase();
    await db.rpc("provision_user", { p_user_id: uid, p_email: null, p_display_name: "Live" });
    await db.rpc("start_task", { p_user_id: uid, p_task_id: "live-task", p_title: "Live task", p_reward: 10 });
    await db.rpc("complete_task", { p_user_id: uid, p_task_id: "live-task", p_min_seconds: 0 });
    const next = await stream.reader.read();
    expect(decoder.decode(next.value)).toBe("event: task-completed\ndata: {}\n\n");
    stream.abort.abort();
    await settle();
    expect(liveSubscriberCount()).toBe(subscribersBefore);
  });

  it("ends the person's open streams with 'event: signed-out' on deactivation and deletion (on commit) and on a log out announced elsewhere, and no one else's, not even on a reactivation", async () => {
    const db = await getDatabase();
    const person = await newSession("ending");
    const bystander = await newSession("bystander");
    for (const { uid: id } of [person, bystander]) {
      await db.rpc("provision_user", { p_user_id: id, p_email: null, p_display_name: "Live" });
    }
    await db.rpc("set_account_active", { p_user_id: bystander.uid, p_active: false });
    const watching = await openStream(bystander.cookie);
    let bystanderEnded = false;
    const watched = watching.reader.read().then((result) => ((bystanderEnded = true), result));
    // Reactivating (and any other change of the preferences) ends nothing.
    await db.rpc("set_account_active", { p_user_id: bystander.uid, p_active: true });
    await db.rpc("update_display_name", { p_user_id: bystander.uid, p_display_name: "Still here" });

    for (const end of [
      () => db.rpc("set_account_active", { p_user_id: person.uid, p_active: false }),
      () => announceSessionsEnded(person.uid),
      () => db.rpc("delete_account", { p_user_id: person.uid, p_email_hash: null }),
    ]) {
      const stream = await openStream(person.cookie);
      await end();
      const last = await stream.reader.read();
      expect(decoder.decode(last.value)).toBe("event: signed-out\ndata: {}\n\n");
      expect(await stream.reader.read()).toEqual({ done: true, value: undefined });
    }
    // Notices arrive in commit order: one for the bystander would have come before the person's.
    await settle();
    expect(bystanderEnded).toBe(false);
    watching.abort.abort();
    expect(await watched).toEqual({ done: true, value: undefined });
  });
});
