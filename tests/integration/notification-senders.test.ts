import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNoticeDelivery } from "~/server/notifications/delivery.server";
import { createMailer, emailForNotice } from "~/server/notifications/email.server";
import { createFcmClient, pushForNotice, type PushConfig } from "~/server/notifications/fcm.server";
import { openTestPglite, type TestDatabase } from "../support/db";
import { startFcmStandIn, testServiceAccount, TOKEN_PATH, type FcmStandIn } from "../support/fcm";
import { startSmtpStandIn, type SmtpStandIn } from "../support/smtp";
import { eventually } from "../support/wait";
import { provisionMember } from "../support/arrange";

// The push and email senders against local servers that speak FCM HTTP v1 (with Google's token
// endpoint) and SMTP, and the delivery worker in this process on PGlite.

const content = pushForNotice({ id: 7, kind: "welcome_bonus", data: { amount: 1 } }, "https://rewards.example");

describe("the FCM HTTP v1 client", () => {
  const account = testServiceAccount();
  let fcm: FcmStandIn;
  let config: PushConfig;

  beforeAll(async () => {
    fcm = await startFcmStandIn({ publicKey: account.publicKey, clientEmail: account.json.client_email });
    config = {
      clientEmail: account.json.client_email,
      privateKey: account.json.private_key,
      privateKeyId: account.json.private_key_id,
      projectId: "demo-rewards",
      tokenUri: fcm.url + TOKEN_PATH,
      apiUrl: fcm.url,
    };
  });
  afterAll(() => fcm?.close());

  it("trades a signed assertion for an access token once, and uses it until five minutes before it expires", async () => {
    // The client's clock starts 55 minutes back, so that moving it on never signs an assertion in
    // the future (which Google, and the stand-in, refuse).
    let now = Date.now() - 3300_000;
    const client = createFcmClient(config, { now: () => now });
    const issued = fcm.state.tokensIssued;
    expect(await client.send("device-a", content)).toMatchObject({
      outcome: "sent",
      messageName: expect.stringMatching(/^projects\/demo-rewards\/messages\//),
    });
    expect(await client.send("device-b", content)).toMatchObject({ outcome: "sent" });
    expect(fcm.state.tokensIssued).toBe(issued + 1);
    now += (3599 - 5 * 60 - 1) * 1000;
    await client.send("device-a", content);
    expect(fcm.state.tokensIssued).toBe(issued + 1);
    now += 2000;
    await client.send("device-a", content);
    expect(fcm.state.tokensIssued).toBe(issued + 2);
    expect(fcm.pushesTo("device-b")).toEqual([
      expect.objectContaining({
        notification: { title: "Welcome bonus", body: "You earned $1.00 for joining with a referral code." },
        webpush: { fcm_options: { link: "https://rewards.example/" } },
        data: { kind: "welcome_bonus", notice_id: "7", link: "https://rewards.example/" },
      }),
    ]);
    expect(fcm.refusedAssertions).toEqual([]);
  });

  it("sends the pushes that need a token at the same moment with one token request", async () => {
    const client = createFcmClient(config);
    const issued = fcm.state.tokensIssued;
    const results = await Promise.all(["c1", "c2", "c3", "c4"].map((token) => client.send(token, content)));
    expect(results.map((result) => result.outcome)).toEqual(["sent", "sent", "sent", "sent"]);
    expect(fcm.state.tokensIssued).toBe(issued + 1);
  });

  it("asks for a new access token when FCM answers 401, and sends once more", async () => {
    const client = createFcmClient(config);
    await client.send("device-401", content);
    const issued = fcm.state.tokensIssued;
    fcm.expireAccessTokens();
    expect(await client.send("device-401", content)).toMatchObject({ outcome: "sent" });
    expect(fcm.state.tokensIssued).toBe(issued + 1);
    expect(fcm.pushesTo("device-401")).toHaveLength(2);
  });

  it("reports UNREGISTERED and an invalid registration token as tokens to drop, and nothing else", async () => {
    const client = createFcmClient(config);
    fcm.unregister("gone");
    fcm.markInvalid("garbled");
    expect(await client.send("gone", content)).toEqual({
      outcome: "unregistered",
      detail: "FCM 404 UNREGISTERED: Requested entity was not found.",
    });
    expect(await client.send("garbled", content)).toEqual({
      outcome: "unregistered",
      detail: "FCM 400 INVALID_ARGUMENT: The registration token is not a valid FCM registration token",
    });
    // INVALID_ARGUMENT about another part of the message says nothing about the device.
    const badLink = await client.send("device-c", { ...content, link: "http://rewards.example/" });
    expect(badLink).toMatchObject({
      outcome: "failed",
      detail: expect.stringMatching(/^FCM 400 INVALID_ARGUMENT: Invalid link/),
    });
  });

  it("reports 5xx, 429 with its Retry-After, a refused assertion and an unreachable server as failures to try again", async () => {
    const client = createFcmClient(config);
    fcm.failNext(1, { status: 503 }, /messages:send$/);
    expect(await client.send("device-d", content)).toEqual({
      outcome: "failed",
      detail: "FCM 503 UNAVAILABLE: The service is currently unavailable.",
      retryAfterSeconds: null,
    });
    fcm.failNext(1, { status: 429, retryAfterSeconds: 7 }, /messages:send$/);
    expect(await client.send("device-d", content)).toMatchObject({ outcome: "failed", retryAfterSeconds: 7 });

    const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const forged = createFcmClient({
      ...config,
      privateKey: stranger.export({ type: "pkcs8", format: "pem" }) as string,
    });
    expect(await forged.send("device-d", content)).toEqual({
      outcome: "failed",
      detail: "FCM: access token refused (400 invalid_grant: Invalid JWT Signature.)",
      retryAfterSeconds: null,
    });
    const elsewhere = createFcmClient({
      ...config,
      tokenUri: "http://127.0.0.1:9/token",
      apiUrl: "http://127.0.0.1:9",
    });
    expect(await elsewhere.send("device-d", content)).toMatchObject({ outcome: "failed", detail: /^FCM: / });
    expect(fcm.pushesTo("device-d")).toEqual([]);
  });

  it("refuses to start without a readable private key", () => {
    expect(() => createFcmClient({ ...config, privateKey: "not a key" })).toThrow();
  });
});

describe("the SMTP mailer", () => {
  let smtp: SmtpStandIn;
  beforeAll(async () => {
    smtp = await startSmtpStandIn();
  });
  afterAll(() => smtp?.close());

  const email = emailForNotice({ kind: "welcome_bonus", data: { amount: 1 } }, "https://rewards.example");

  it("logs in and sends text and HTML from EMAIL_FROM", async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, from: "Rewards <hello@rewards.example>" });
    expect(await mailer.send("ann@example.com", email)).toMatchObject({ outcome: "sent", messageId: /@/ });
    const [mail] = smtp.mailTo("ann@example.com");
    expect(mail!.envelope).toEqual({ from: "hello@rewards.example", to: ["ann@example.com"] });
    expect(mail!.parsed.subject).toBe("Welcome bonus");
    expect(mail!.parsed.text).toBe(email.text);
    expect(mail!.parsed.html).toBe(email.html);
    await mailer.close();
  });

  it("reports a wrong password and a server that is down as failures to try again, a refused recipient as final", async () => {
    const wrongPassword = createMailer({ smtpUrl: smtp.url.replace("mail-pass", "wrong"), from: "a@rewards.example" });
    expect(await wrongPassword.send("ann@example.com", email)).toMatchObject({
      outcome: "failed",
      retry: true,
      detail: /535/,
    });
    const mailer = createMailer({ smtpUrl: smtp.url, from: "a@rewards.example" });
    smtp.refuseRecipient("nobody@example.com");
    expect(await mailer.send("nobody@example.com", email)).toMatchObject({
      outcome: "failed",
      retry: false,
      detail: /550/,
    });
    await smtp.stop();
    try {
      expect(await mailer.send("ann@example.com", email)).toMatchObject({
        outcome: "failed",
        retry: true,
        detail: /ECONNREFUSED/,
      });
    } finally {
      await smtp.start();
    }
    expect(await mailer.send("ann@example.com", email)).toMatchObject({ outcome: "sent" });
  });
});

describe("the delivery worker in this process, on PGlite", () => {
  let t: TestDatabase;
  let smtp: SmtpStandIn;
  beforeAll(async () => {
    t = await openTestPglite();
    smtp = await startSmtpStandIn();
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.close();
  });

  async function personWithPostback(userId: string) {
    await provisionMember(t, { userId, name: "Pat" });
    await t.sql("insert into user_fcm_tokens (user_id, fcm_token) values ($1, $2)", [userId, `device-${userId}`]);
    await t.db.rpc("record_postback", {
      p_provider: "acme",
      p_transaction_id: `tx-${userId}`,
      p_user_id: userId,
      p_coins: 300,
      p_reversal: false,
      p_description: "Offer completed via acme",
    });
  }

  function startWorker() {
    return startNoticeDelivery({
      db: async () => t.db,
      push: null,
      email: createMailer({ smtpUrl: smtp.url, from: "Rewards <hello@rewards.example>" }),
      publicUrl: null,
      listen: async (wake) => {
        const unlisten = await t.db.listen!("user_notices", wake);
        return () => void unlisten();
      },
      intervalMs: 60_000,
      retrySeconds: 1,
    });
  }

  async function statuses(userId: string) {
    return t.sql<{ push_status: string; email_status: string; push_detail: string | null }>(
      "select push_status, email_status, push_detail from user_notices where user_id = $1",
      [userId],
    );
  }

  it("wakes on a new notice, emails it and records push as not configured", async () => {
    const worker = startWorker();
    try {
      await personWithPostback("worker-1");
      await eventually(() => smtp.mailTo("worker-1@example.com").length === 1, { what: "the email" });
      await eventually(async () => (await statuses("worker-1"))[0]?.email_status === "sent", { what: "the outcome" });
      expect(await statuses("worker-1")).toEqual([
        {
          push_status: "skipped",
          email_status: "sent",
          push_detail: "push is not configured (FIREBASE_SERVICE_ACCOUNT)",
        },
      ]);
    } finally {
      await worker.stop();
    }
  });

  it("records the email of an account whose address is not verified as skipped, and sends nothing to it", async () => {
    const worker = startWorker();
    try {
      await t.db.rpc("provision_user", {
        p_user_id: "worker-unverified",
        p_email: "worker-unverified@example.com",
        p_display_name: "Pat",
      });
      await t.db.rpc("record_postback", {
        p_provider: "acme",
        p_transaction_id: "tx-worker-unverified",
        p_user_id: "worker-unverified",
        p_coins: 300,
        p_reversal: false,
        p_description: "Offer completed via acme",
      });
      await eventually(async () => (await statuses("worker-unverified"))[0]?.email_status === "skipped", {
        what: "the outcome",
      });
      expect(await t.sql("select email_detail from user_notices where user_id = 'worker-unverified'")).toEqual([
        { email_detail: "the email address is not verified" },
      ]);
      expect(smtp.mailTo("worker-unverified@example.com")).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  it("delivers at start what was written while no worker ran, and after stop claims nothing more", async () => {
    await personWithPostback("worker-2");
    const worker = startWorker();
    await eventually(async () => (await statuses("worker-2"))[0]?.email_status === "sent", { what: "the backlog" });
    await worker.idle();
    await worker.stop();
    await personWithPostback("worker-3");
    worker.wake();
    await worker.idle();
    expect(await statuses("worker-3")).toMatchObject([{ push_status: "pending", email_status: "pending" }]);
    expect(smtp.mailTo("worker-3@example.com")).toEqual([]);
  });
});
