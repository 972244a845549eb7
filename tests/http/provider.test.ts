import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startAppServer } from "../../scripts/lib/services.mjs";
import { emulatorHost, signUpDirect } from "../support/emulator";
import { HttpClient, html, landing, statusCounts, uniqueEmail } from "../support/http";
import { ruleMessage } from "~/domain/rules";
import { fallbackTasks } from "~/domain/tasks";
import { postChunked } from "../support/chunked";
import { eventually, withinOneMinute } from "../support/wait";
import { signedPostbackQuery, signPostback, startOfferProvider } from "../support/offer-provider";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

const SECRET = "postback-secret-for-tests";

const sign = (params: Record<string, string>, secret = SECRET) => signPostback(params, secret);
const signedQuery = (params: Record<string, string>, secret = SECRET) => signedPostbackQuery(params, secret);

// A second app server, configured with an offer provider played by a local HTTP server.
describe("an offer provider: offers, completion and postbacks over HTTP", () => {
  let provider: Awaited<ReturnType<typeof startOfferProvider>>;
  let app: { url: string; stop(): Promise<void>; stderr(): string };
  let dataDir: string;
  let user: { client: HttpClient; uid: string };

  /**
   * The balance Home shows, in cents (each test compares with its own starting point). This app has
   * the production settings, so a credit waits in its hold: the total line under the Available
   * figure shows it (docs/decisions/066); when there is none, the figure is the whole balance.
   */
  async function balanceCents(client: HttpClient) {
    const { html } = await client.visit("/");
    const shown =
      /data-testid="total-balance"[^>]*>\$([^<]+)</.exec(html) ?? /data-testid="balance"[^>]*>\$([^<]+)</.exec(html);
    return Math.round(Number(shown![1]!.replace(/,/g, "")) * 100);
  }

  beforeAll(async () => {
    provider = await startOfferProvider();
    dataDir = mkdtempSync(path.join(os.tmpdir(), "provider-app-"));
    app = await startAppServer({
      port: await freePort(),
      env: {
        NODE_ENV: "production",
        SESSION_SECRET: "provider-test-secret-of-32-characters",
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
        PGLITE_DATA_DIR: path.join(dataDir, "pglite"),
        OFFER_PROVIDER: "acme",
        OFFER_PROVIDER_API_URL: provider.url,
        OFFER_POSTBACK_SECRET: SECRET,
      },
    });
    const email = uniqueEmail("provider");
    const { localId } = await signUpDirect(email, "provider-pass");
    const client = new HttpClient(app.url);
    client.cookies.set("hasSeenOnboarding", "true");
    await client.post("/auth", { intent: "signin", email, password: "provider-pass" });
    user = { client, uid: localId };
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await provider?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists the provider's offers on /earn and through GET /api/acme/offers", async () => {
    const page = await (await user.client.get("/earn")).text();
    expect(page).toContain("Daily Poll");
    expect(page).toContain("Install Chess Pro");
    expect(page).not.toContain("Shopping Habits Survey");
    const offers = await user.client.get("/api/acme/offers");
    expect(offers.status).toBe(200);
    expect(
      ((await offers.json()) as { offers: { offer_id: unknown }[] }).offers.map((offer) => offer.offer_id),
    ).toEqual(["acme-1", "acme-2", 3, "acme-4"]);
    expect((await new HttpClient(app.url).get("/api/acme/offers")).status).toBe(401);
    expect((await user.client.get("/api/other/offers")).status).toBe(404);
  });

  it("records a provider offer completed in the app as pending (Earn form and POST /api/acme/complete), pays it only through its postback with offer_id, once", async () => {
    const before = await balanceCents(user.client);
    const notStarted = await user.client.post("/api/acme/complete", { taskId: "acme-1" });
    expect(notStarted.status).toBe(400);
    expect(await notStarted.json()).toEqual({ success: false, error: "Task was not started" });
    await user.client.post("/earn?task=acme-1", { intent: "start", taskId: "acme-1" });
    await user.client.post("/earn?task=acme-2", { intent: "start", taskId: "acme-2" });
    await new Promise((resolve) => setTimeout(resolve, 5_200));

    // The Earn form: a friendly "waiting for confirmation", no coins.
    const viaForm = await landing(
      user.client,
      await user.client.post("/earn?task=acme-1&started=1", { intent: "complete", taskId: "acme-1" }),
    );
    expect(viaForm.html).toContain("Waiting for confirmation");
    expect(viaForm.html).toContain(
      html('Thanks for finishing "Daily Poll"! Your 40 coins will be added as soon as the offer provider confirms it'),
    );
    expect(viaForm.html).not.toContain("Task Completed");
    // The API: the user and the reward come from the server; a provider offer pays nothing here.
    const response = await fetch(new URL("/api/acme/complete", app.url), {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `__session=${user.client.cookies.get("__session")}` },
      body: JSON.stringify({ taskId: "acme-2", userId: "someone-else", reward: 1_000_000 }),
    });
    expect(await response.json()).toEqual({ success: true, reward: 0, pending: true });
    const again = await user.client.post("/api/acme/complete", { taskId: "acme-2" });
    expect(await again.json()).toEqual({ success: true, reward: 0, pending: true });
    expect(await balanceCents(user.client)).toBe(before);
    const pendingList = await (await user.client.get("/earn")).text();
    expect(pendingList.match(/>Pending</g)).toHaveLength(2);
    // No row's badge says Done (the "Done" group's heading, which holds the pending rows, is no badge).
    expect(pendingList).not.toContain(">Done</span>");
    const restart = await landing(user.client, await user.client.post("/earn", { intent: "start", taskId: "acme-2" }));
    expect(restart.html).toContain("Waiting for confirmation");

    // The provider confirms acme-2: paid once, with the provider's amount, and marked Done.
    const params = { user_id: user.uid, transaction_id: `tx-acme2-${Date.now()}`, amount: "300", offer_id: "acme-2" };
    const get = () => fetch(new URL(`/api/acme/postback?${signedQuery(params)}`, app.url));
    expect(await (await get()).text()).toBe("OK");
    expect(await (await get()).text()).toBe("OK");
    expect(await balanceCents(user.client)).toBe(before + 300);
    const credited = await user.client.post("/api/acme/complete", { taskId: "acme-2" });
    expect(await credited.json()).toEqual({ success: true, reward: 0, pending: false });
    expect(await balanceCents(user.client)).toBe(before + 300);
    const list = await (await user.client.get("/earn")).text();
    expect(list.match(/>Pending</g)).toHaveLength(1);
    expect(list.match(/>Done<\/span>/g)).toHaveLength(1);
    const unknown = await user.client.post("/api/acme/complete", { taskId: "task-001" });
    expect(unknown.status).toBe(404);
  });

  it("credits a postback for an offer finished on the provider's own site (no completion in the app) and marks it Done", async () => {
    const before = await balanceCents(user.client);
    const params = { user_id: user.uid, transaction_id: `tx-3-${Date.now()}`, amount: "125", offer_id: "3" };
    expect(await (await fetch(new URL(`/api/acme/postback?${signedQuery(params)}`, app.url))).text()).toBe("OK");
    expect(await balanceCents(user.client)).toBe(before + 125);
    const dialog = await (await user.client.get("/earn?task=3")).text();
    expect(dialog).toContain("You have completed this task.");
    expect(dialog).not.toContain(">Start Task<");
    const started = await landing(user.client, await user.client.post("/earn", { intent: "start", taskId: "3" }));
    expect(started.html).toContain("You have already completed this task");
  });

  it("does not list an offer whose payout is beyond the integer range, and refuses to start it without a 500", async () => {
    const page = await (await user.client.get("/earn")).text();
    expect(page).not.toContain("Jackpot Offer");
    const start = await user.client.post("/earn", { intent: "start", taskId: "acme-5" });
    expect(start.status).toBe(400);
    expect(await start.text()).toContain("This task is no longer available");
  });

  it("credits a signed postback once, refuses a bad signature, and reverses within the balance", async () => {
    const before = await balanceCents(user.client);
    const params = { user_id: user.uid, transaction_id: `tx-${Date.now()}`, amount: "250" };
    const get = (query: string) => fetch(new URL(`/api/acme/postback?${query}`, app.url));

    const forged = await get(signedQuery(params, "wrong-secret"));
    expect(forged.status).toBe(403);
    expect(await forged.text()).toBe("Invalid signature");
    const unsigned = await get(new URLSearchParams(params).toString());
    expect(unsigned.status).toBe(403);
    expect(await balanceCents(user.client)).toBe(before);

    const first = await get(signedQuery(params));
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await first.text()).toBe("OK");
    const repeat = await get(signedQuery(params));
    expect(await repeat.text()).toBe("OK");
    expect(await balanceCents(user.client)).toBe(before + 250);

    const reversal = await fetch(new URL("/api/acme/postback", app.url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: signedQuery({ ...params, status: "reversed" }),
    });
    expect(await reversal.text()).toBe("OK");
    expect(await balanceCents(user.client)).toBe(before);
  });

  it("treats a negative amount as a reversal of that transaction", async () => {
    const transaction = `tx-negative-${Date.now()}`;
    const get = (amount: string) =>
      fetch(
        new URL(
          `/api/acme/postback?${signedQuery({ user_id: user.uid, transaction_id: transaction, amount })}`,
          app.url,
        ),
      );
    const before = await balanceCents(user.client);
    expect(await (await get("100")).text()).toBe("OK");
    expect(await balanceCents(user.client)).toBe(before + 100);
    expect(await (await get("-100")).text()).toBe("OK");
    expect(await balanceCents(user.client)).toBe(before);
  });

  it("answers bad postbacks with a plain-text error and changes nothing", async () => {
    const before = await balanceCents(user.client);
    const get = (params: Record<string, string>) =>
      fetch(new URL(`/api/acme/postback?${signedQuery(params)}`, app.url));
    const unknownUser = await get({ user_id: "nobody-here", transaction_id: "tx-x", amount: "10" });
    expect([unknownUser.status, await unknownUser.text()]).toEqual([400, "Unknown user"]);
    const badAmount = await get({ user_id: user.uid, transaction_id: "tx-y", amount: "12.5" });
    expect([badAmount.status, await badAmount.text()]).toEqual([400, "Invalid postback: missing or unreadable amount"]);
    const badStatus = await get({ user_id: user.uid, transaction_id: "tx-z", amount: "10", status: "maybe" });
    expect([badStatus.status, await badStatus.text()]).toEqual([
      400,
      "Invalid postback: status must be completed or reversed",
    ]);
    expect(await balanceCents(user.client)).toBe(before);
  });

  it("refuses a parameter given twice, in the query or across query and body, even when one set of them is signed", async () => {
    const before = await balanceCents(user.client);
    const signed = { user_id: user.uid, transaction_id: `tx-dup-${Date.now()}`, amount: "50" };
    const sig = sign(signed);
    const twiceInQuery = `${new URLSearchParams({ ...signed, sig })}&transaction_id=other-${Date.now()}`;
    const first = await fetch(new URL(`/api/acme/postback?${twiceInQuery}`, app.url));
    expect([first.status, await first.text()]).toEqual([400, "Invalid postback: a parameter appears twice"]);
    const across = await fetch(new URL(`/api/acme/postback?transaction_id=other-${Date.now()}`, app.url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...signed, sig }).toString(),
    });
    expect([across.status, await across.text()]).toEqual([400, "Invalid postback: a parameter appears twice"]);
    expect(await balanceCents(user.client)).toBe(before);
    // The signed set alone is fine.
    expect(await (await fetch(new URL(`/api/acme/postback?${signedQuery(signed)}`, app.url))).text()).toBe("OK");
    expect(await balanceCents(user.client)).toBe(before + 50);
  });

  it("signs percent-encoded pairs: a value holding & and = is signed encoded, and a signature over the raw text is refused", async () => {
    const before = await balanceCents(user.client);
    const params = {
      user_id: user.uid,
      transaction_id: `tx-enc-${Date.now()}`,
      amount: "20",
      sub1: "a&transaction_id=b c=é",
    };
    const raw = Object.keys(params)
      .sort()
      .map((key) => `${key}=${params[key as keyof typeof params]}`)
      .join("&");
    const rawSig = createHmac("sha256", SECRET).update(raw).digest("hex");
    const refused = await fetch(
      new URL(`/api/acme/postback?${new URLSearchParams({ ...params, sig: rawSig })}`, app.url),
    );
    expect([refused.status, await refused.text()]).toEqual([403, "Invalid signature"]);
    const accepted = await fetch(new URL(`/api/acme/postback?${signedQuery(params)}`, app.url));
    expect([accepted.status, await accepted.text()]).toEqual([200, "OK"]);
    expect(await balanceCents(user.client)).toBe(before + 20);
  });

  it("answers 403 (never 500) to a sig that is not 64 hex digits", async () => {
    const params = { user_id: user.uid, transaction_id: `tx-sig-${Date.now()}`, amount: "10" };
    for (const sig of ["é".repeat(64), "z".repeat(64), "abc", sign(params) + "00", "", "ff".repeat(64)]) {
      const response = await fetch(new URL(`/api/acme/postback?${new URLSearchParams({ ...params, sig })}`, app.url));
      expect([sig, response.status, await response.text()]).toEqual([sig, 403, "Invalid signature"]);
    }
    // Upper-case hex is the same signature.
    const upper = await fetch(
      new URL(`/api/acme/postback?${new URLSearchParams({ ...params, sig: sign(params).toUpperCase() })}`, app.url),
    );
    expect(await upper.text()).toBe("OK");
  });

  it("requires a whole, non-zero amount within 10,000,000 coins, and a refused one does not use up the transaction id", async () => {
    const before = await balanceCents(user.client);
    const transaction = `tx-amount-${Date.now()}`;
    const get = (params: Record<string, string>) =>
      fetch(
        new URL(
          `/api/acme/postback?${signedQuery({ user_id: user.uid, transaction_id: transaction, ...params })}`,
          app.url,
        ),
      );
    for (const amount of [
      undefined,
      "",
      "0",
      "-0",
      "1e3",
      "0x10",
      " 5",
      "+5",
      "10000001",
      "-10000001",
      "99999999999999",
    ]) {
      const response = await get(amount === undefined ? {} : { amount });
      const reason =
        amount === "0" || amount === "-0"
          ? "an amount of zero coins"
          : amount === "10000001" || amount === "-10000001"
            ? "amount over the cap of 10,000,000 coins a postback"
            : "missing or unreadable amount";
      expect([amount, response.status, await response.text()]).toEqual([amount, 400, `Invalid postback: ${reason}`]);
    }
    expect(await balanceCents(user.client)).toBe(before);
    expect(await (await get({ amount: "35" })).text()).toBe("OK");
    expect(await balanceCents(user.client)).toBe(before + 35);
  });

  it("logs a refused postback without the sender's text: a newline in its transaction id cannot forge a log line", async () => {
    const forgedLine = "ERROR forged: payout sent to attacker";
    const params = { user_id: user.uid, transaction_id: `tx-log\n${forgedLine}`, amount: "10" };
    const response = await fetch(new URL(`/api/acme/postback?${signedQuery(params, "wrong-secret")}`, app.url));
    expect(response.status).toBe(403);
    await eventually(() => app.stderr().includes("postback from acme refused: bad or missing signature"), {
      what: "the refusal in the server's log",
    });
    expect(
      app
        .stderr()
        .split("\n")
        .some((line) => line.startsWith(forgedLine)),
    ).toBe(false);
  });

  it("refuses a posted body over 64 KB with 413 plain text, chunked or with a Content-Length", async () => {
    const chunked = await postChunked(new URL("/api/acme/postback", app.url), 1024 * 1024);
    expect([chunked.status, chunked.body]).toEqual([413, "Payload too large"]);
    const declared = await fetch(new URL("/api/acme/postback", app.url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `padding=${"x".repeat(70 * 1024)}`,
    });
    expect([declared.status, await declared.text()]).toEqual([413, "Payload too large"]);
  });

  it("answers a 400 MB post to an unknown provider's postback with 404 before the body is sent", async () => {
    const result = await postChunked(new URL("/api/nope/postback", app.url), 400 * 1024 * 1024);
    expect([result.status, result.body]).toEqual([404, "Unknown provider"]);
    // The answer came while most of the body was still unsent: the server did not wait for, or
    // read, the body. Socket buffers hold a few MB, and more leaves before the answer arrives on a
    // busy machine (10.7 MB was seen), so the bound is an eighth of the body, not a few MB.
    expect(result.sentBytes).toBeLessThan(50 * 1024 * 1024);
  });

  it("shows the Home quick tasks from the provider", async () => {
    const { html } = await landing(
      user.client,
      await user.client.post("/?index", { intent: "start-task", taskId: "acme-1" }),
    );
    expect(html).toContain("Daily Poll");
  });

  it("lists no built-in task on Earn or Home, and refuses to start or complete one (form, Home and API) with the rule's words, changing nothing", async () => {
    const builtIn = fallbackTasks();
    const earn = await user.client.visit("/earn");
    const home = await user.client.visit("/");
    for (const task of builtIn) {
      expect(earn.html).not.toContain(html(task.title));
      expect(home.html).not.toContain(html(task.title));
    }
    const before = await balanceCents(user.client);
    const refused = html(ruleMessage("task_unavailable"));
    const [task] = builtIn;
    const start = await user.client.post(`/earn?task=${task!.id}`, { intent: "start", taskId: task!.id });
    expect(start.status).toBe(400);
    expect(await start.text()).toContain(refused);
    const quick = await user.client.post("/?index", { intent: "start-task", taskId: task!.id });
    expect(quick.status).toBe(400);
    expect(await quick.text()).toContain(refused);
    const complete = await user.client.post(`/earn?task=${task!.id}&started=1`, {
      intent: "complete",
      taskId: task!.id,
    });
    expect(complete.status).toBe(400);
    expect(await complete.text()).toContain(refused);
    const api = await user.client.post("/api/acme/complete", { taskId: task!.id });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ success: false, error: ruleMessage("task_unavailable") });
    expect(await balanceCents(user.client)).toBe(before);
    const dialog = await (await user.client.get(`/earn?task=${task!.id}`)).text();
    expect(dialog).not.toContain(html(task!.title));
  });
});

describe("postbacks are rate-limited per provider", () => {
  // Below the default (6,000), so the test sends few.
  const POSTBACKS_PER_MINUTE = 150;
  let app: PostgresApp;
  beforeAll(async () => {
    app = await startPostgresApp({
      OFFER_PROVIDER: "acme",
      OFFER_PROVIDER_API_URL: "http://127.0.0.1:9/offers",
      OFFER_POSTBACK_SECRET: SECRET,
      OFFER_POSTBACKS_PER_MINUTE: String(POSTBACKS_PER_MINUTE),
    });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  it("answers 429 plain text with Retry-After past OFFER_POSTBACKS_PER_MINUTE signed postbacks a minute; forged ones use up nothing", async () => {
    const forged = () => fetch(new URL("/api/acme/postback?user_id=u&transaction_id=t&amount=1&sig=00", app.url));
    const signed = () =>
      fetch(
        new URL(
          `/api/acme/postback?${signedQuery({ user_id: "nobody-here", transaction_id: "t", amount: "1" })}`,
          app.url,
        ),
      );
    // The window is fixed, on whole minutes: flood within one, or the limit starts over midway.
    const seen = await withinOneMinute(
      async () => {
        const forgedFlood = await statusCounts(forged, POSTBACKS_PER_MINUTE);
        const signedFlood = await statusCounts(signed, POSTBACKS_PER_MINUTE);
        const limited = await signed();
        return {
          forgedFlood,
          signedFlood,
          limited: {
            status: limited.status,
            type: limited.headers.get("content-type"),
            retryAfter: Number(limited.headers.get("retry-after")),
            text: await limited.text(),
          },
          forgedAfter: (await forged()).status,
        };
      },
      { needMs: 20_000 },
    );
    expect(seen.forgedFlood).toEqual({ 403: POSTBACKS_PER_MINUTE });
    expect(seen.signedFlood).toEqual({ 400: POSTBACKS_PER_MINUTE });
    expect(seen.limited.status).toBe(429);
    expect(seen.limited.type).toMatch(/^text\/plain/);
    expect(seen.limited.text).toBe("Too many requests");
    expect(seen.limited.retryAfter).toBeGreaterThanOrEqual(1);
    expect(seen.limited.retryAfter).toBeLessThanOrEqual(60);
    expect(seen.forgedAfter).toBe(403);
  }, 240_000);
});

// The same provider's postbacks on an app server with its own Postgres database, so a test can mark
// an email verified and read the ledger (docs/decisions/065).
describe("a reversal after a cash-out, over HTTP on Postgres", () => {
  let provider: Awaited<ReturnType<typeof startOfferProvider>>;
  let app: PostgresApp;

  beforeAll(async () => {
    provider = await startOfferProvider();
    app = await startPostgresApp({
      OFFER_PROVIDER: "acme",
      OFFER_PROVIDER_API_URL: provider.url,
      OFFER_POSTBACK_SECRET: SECRET,
    });
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await provider?.close();
  });

  const postback = async (params: Record<string, string>) =>
    (await fetch(new URL(`/api/acme/postback?${signedQuery(params)}`, app.url))).text();

  async function balance(id: string) {
    const [row] = await app.sql<{ balance: string }>("select balance from user_balance where user_id = $1", [id]);
    return Number(row!.balance);
  }

  it("takes back a withdrawn 1,000-coin credit in full: Withdraw shows -$10.00, refuses a withdrawal saying why (form post and JavaScript), and the next credit pays the debt first", async () => {
    const { client, email } = await app.signUp();
    const [profile] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    const id = profile!.id;
    await app.sql("select record_email_verified($1)", [id]);
    const transaction = `tx-cashout-${Date.now()}`;
    expect(await postback({ user_id: id, transaction_id: transaction, amount: "1000" })).toBe("OK");
    // With a positive balance the form can be sent.
    expect((await client.visit("/withdraw")).html).not.toMatch(/<fieldset[^>]*disabled=""/);
    // The whole balance leaves (a sign-up bonus, if any, with the credit).
    const all = (await balance(id)).toFixed(2);
    const cashOut = await client.post("/withdraw", { intent: "withdraw", amount: all, method: "upi", upiId: "me@upi" });
    expect(cashOut.status).toBe(302);
    expect(await balance(id)).toBe(0);

    expect(await postback({ user_id: id, transaction_id: transaction, amount: "-1000" })).toBe("OK");
    expect(await balance(id)).toBe(-10);
    const page = await client.visit("/withdraw");
    expect(page.html).toMatch(/data-testid="balance">-\$10\.00</);

    const words = ruleMessage("negative_balance");
    expect(words).toBe(
      "Your balance is negative because an offer network reversed a reward. New earnings pay it back first; you can withdraw again once it is above zero.",
    );
    // The page says why before anyone tries, and its form cannot be sent (its fields are disabled).
    expect(page.html.slice(page.html.indexOf('role="status"'))).toContain(html(words));
    expect(page.html).toMatch(/<fieldset[^>]*disabled=""/);
    const fields = { intent: "withdraw", amount: "1", method: "upi", upiId: "me@upi" };
    // Without JavaScript: the page again, the reason in the form's banner.
    const refused = await client.post("/withdraw", fields);
    expect(refused.status).toBe(400);
    const body = await refused.text();
    expect(body).toContain(html(words));
    expect(body.slice(body.indexOf('role="alert"'))).toContain(html(words));
    expect(body).toMatch(/data-testid="balance">-\$10\.00</);
    // With JavaScript: Remix (single fetch) posts to /withdraw.data; the same form's banner shows its answer.
    const fetched = await client.post("/withdraw.data", fields);
    expect(fetched.status).toBe(400);
    expect(await fetched.text()).toContain(words);
    const [count] = await app.sql<{ n: number }>("select count(*)::int as n from withdrawals where user_id = $1", [id]);
    expect(count!.n).toBe(1);

    // The next earning pays the debt first: -$10.00 + $2.50.
    expect(await postback({ user_id: id, transaction_id: `${transaction}-next`, amount: "250" })).toBe("OK");
    expect(await balance(id)).toBe(-7.5);
    expect((await client.visit("/withdraw")).html).toMatch(/data-testid="balance">-\$7\.50</);
    expect((await app.sql("select verify_all_balances() as audit"))[0]).toEqual({ audit: [] });
  });

  it("writes every provider postback to the postback log with its verdict and the account it named, a repeat as duplicate and a forged one as refused without a person", async () => {
    const { email } = await app.signUp();
    const [profile] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    const id = profile!.id;
    const transaction = `tx-log-${Date.now()}`;
    const credit = { user_id: id, transaction_id: transaction, amount: "40" };
    expect(await postback(credit)).toBe("OK");
    expect(await postback(credit)).toBe("OK");
    expect(await postback({ ...credit, amount: "-40" })).toBe("OK");
    const forged = await fetch(
      new URL(`/api/acme/postback?${signedQuery({ ...credit, amount: "4000" }, "a-wrong-secret-000")}`, app.url),
    );
    expect(forged.status).toBe(403);
    const entries = await app.sql<{ verdict: string; user_id: string | null; coins: number | null; query: string }>(
      `select verdict, user_id, coins, query from postback_log
        where network = 'acme' and query like '%' || $1 || '%' order by id`,
      [transaction],
    );
    expect(entries.map(({ verdict, user_id, coins }) => [verdict, user_id, coins])).toEqual([
      ["credited", id, 40],
      ["duplicate", id, 40],
      ["reversed", id, 40],
      ["refused", null, null],
    ]);
    // The provider's secret never reaches the log; its signature is not a secret and stays.
    expect(entries.every(({ query }) => !query.includes(SECRET))).toBe(true);
  });
});
