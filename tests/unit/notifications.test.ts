import { generateKeyPairSync, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { noticeLinkPath, noticeMessage, type NoticeKind } from "~/domain/notices";
import { retryDelaySeconds } from "~/server/notifications/delivery.server";
import { emailForNotice } from "~/server/notifications/email.server";
import { FCM_SCOPE, fcmMessage, pushForNotice, serviceAccountAssertion } from "~/server/notifications/fcm.server";

const decode = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;

describe("the service account's JWT assertion", () => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const account = {
    clientEmail: "push@demo-rewards.iam.gserviceaccount.com",
    privateKeyId: "key-1",
    tokenUri: "https://oauth2.googleapis.com/token",
  };

  it("is header.claims.signature in base64url, RS256 with the key id, signed by the private key", () => {
    const assertion = serviceAccountAssertion(account, privateKey, 1_800_000_000);
    const parts = assertion.split(".");
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decode(parts[0]!)).toEqual({ alg: "RS256", typ: "JWT", kid: "key-1" });
    const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
    expect(verify("sha256", signed, publicKey, Buffer.from(parts[2]!, "base64url"))).toBe(true);
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey;
    expect(verify("sha256", signed, other, Buffer.from(parts[2]!, "base64url"))).toBe(false);
  });

  it("claims the service account as issuer, the FCM scope, the token endpoint as audience and one hour from now", () => {
    const claims = decode(serviceAccountAssertion(account, privateKey, 1_800_000_000).split(".")[1]!);
    expect(claims).toEqual({
      iss: "push@demo-rewards.iam.gserviceaccount.com",
      scope: "https://www.googleapis.com/auth/firebase.messaging",
      aud: "https://oauth2.googleapis.com/token",
      iat: 1_800_000_000,
      exp: 1_800_003_600,
    });
    expect(FCM_SCOPE).toBe(claims.scope);
  });

  it("leaves kid out when the service account has no private_key_id", () => {
    const assertion = serviceAccountAssertion({ ...account, privateKeyId: null }, privateKey, 1_800_000_000);
    expect(decode(assertion.split(".")[0]!)).toEqual({ alg: "RS256", typ: "JWT" });
  });
});

describe("the push and email of a notice", () => {
  const withdrawal = { id: 42, kind: "withdrawal_completed" as const, data: { amount: "5.00", payment_method: "upi" } };

  it("builds the messages:send body FCM HTTP v1 expects, with string data and an absolute link", () => {
    const content = pushForNotice(withdrawal, "https://rewards.example");
    expect(fcmMessage("device-token", content)).toEqual({
      message: {
        token: "device-token",
        notification: { title: "Withdrawal completed", body: "Your $5.00 UPI withdrawal has been paid." },
        webpush: { fcm_options: { link: "https://rewards.example/withdraw?history=1" } },
        data: {
          kind: "withdrawal_completed",
          notice_id: "42",
          link: "https://rewards.example/withdraw?history=1",
        },
      },
    });
  });

  it("has no webpush link without PUBLIC_URL, or with one that is not https (FCM refuses it)", () => {
    for (const publicUrl of [null, "http://localhost:3000"]) {
      const message = fcmMessage("device-token", pushForNotice(withdrawal, publicUrl)).message;
      expect(message).not.toHaveProperty("webpush");
      expect(message.data).toEqual({ kind: "withdrawal_completed", notice_id: "42" });
    }
  });

  it.each<[NoticeKind, Record<string, unknown>, string, string, string]>([
    [
      "task_reward",
      { coins: 150, amount: 1.5, title: "Rate Five Apps" },
      "Task Completed",
      'You earned 150 coins ($1.50) for "Rate Five Apps".',
      "/earn",
    ],
    [
      "postback_reward",
      { coins: 1200, amount: 12 },
      "Offer completed",
      "You earned 1,200 coins ($12.00) for completing an offer.",
      "/",
    ],
    [
      "postback_reward",
      { coins: 300, amount: 3, title: "Install Chess Pro" },
      "Offer completed",
      'You earned 300 coins ($3.00) for "Install Chess Pro".',
      "/",
    ],
    [
      "postback_reward",
      { coins: 350, amount: 3.5, title: "Install Chess Pro", available_at: "2099-12-05T10:00:00+00:00" },
      "Offer completed",
      'You earned 350 coins ($3.50) for "Install Chess Pro" — pending, clears Dec 5.',
      "/",
    ],
    [
      "postback_reward",
      { coins: 350, amount: 3.5, available_at: "2026-11-20T10:00:00.123456+00:00" },
      "Offer completed",
      "You earned 350 coins ($3.50) for completing an offer — available to withdraw.",
      "/",
    ],
    [
      "task_reward",
      { coins: 150, amount: 1.5, title: "Rate Five Apps", locked: true },
      "Task Completed",
      'You earned 150 coins ($1.50) for "Rate Five Apps" — locked until your offer earnings clear.',
      "/earn",
    ],
    [
      "referral_credited",
      { amount: 5 },
      "Referral bonus earned",
      "A friend you referred qualified: $5.00 referral bonus.",
      "/referral",
    ],
    [
      "referral_credited",
      { amount: 5, locked: true },
      "Referral bonus earned",
      "A friend you referred qualified: $5.00 referral bonus — locked until your offer earnings clear.",
      "/referral",
    ],
    [
      "referral_credited",
      { amount: 5, locked: false },
      "Referral bonus earned",
      "A friend you referred qualified: $5.00 referral bonus — available to withdraw.",
      "/referral",
    ],
    ["welcome_bonus", { amount: 1 }, "Welcome bonus", "You earned $1.00 for joining with a referral code.", "/"],
    [
      "welcome_bonus",
      { amount: 1, locked: true },
      "Welcome bonus",
      "You earned $1.00 for joining with a referral code — locked until your offer earnings clear.",
      "/",
    ],
    [
      "missing_credit_credited",
      { amount: 2, coins: 200, title: "Survey 88", locked: false },
      "Missing credit added",
      'Support credited 200 coins ($2.00) for "Survey 88" — available to withdraw.',
      "/earn/offers",
    ],
    [
      "withdrawal_failed",
      { amount: 7.5, payment_method: "paypal" },
      "Withdrawal not paid",
      "Your $7.50 PayPal withdrawal could not be paid — $7.50 refunded to your balance.",
      "/withdraw?history=1",
    ],
    [
      "withdrawal_failed",
      { amount: 2, payment_method: "upi", refused: true, reason: "Offer earnings under investigation" },
      "Withdrawal refused",
      "Your $2.00 UPI withdrawal was refused after review — $2.00 refunded to your balance. Offer earnings under investigation.",
      "/withdraw?history=1",
    ],
    [
      "support_reply",
      { ticket_kind: "feedback", ticket_id: 7, body: "We found your survey and credited it." },
      "Support replied to you",
      "We found your survey and credited it.",
      "/profile?tab=help",
    ],
    [
      "support_reply",
      { ticket_kind: "missing_credit", ticket_id: 8, body: "BitLabs confirmed it." },
      "Support replied to you",
      "BitLabs confirmed it.",
      "/earn/offers",
    ],
    [
      "ticket_answered",
      { ticket_kind: "feedback", ticket_id: 12 },
      "A person answered a support ticket",
      "Their answer is waiting in the support inbox. Open the ticket in the console to read it and reply.",
      "/admin/support/feedback/12",
    ],
    [
      "ticket_answered",
      { ticket_kind: "missing_credit", ticket_id: 7 },
      "A person answered a support ticket",
      "Their answer is waiting in the support inbox. Open the ticket in the console to read it and reply.",
      "/admin/support/missing-credit/7",
    ],
    [
      "earnings_cleared",
      { amount: "3.50", bonus_unlocked: "0.00", carried_debt: "0.00" },
      "Earnings cleared",
      "Your offer earnings of $3.50 cleared — available to withdraw.",
      "/withdraw",
    ],
    [
      "earnings_cleared",
      { amount: 2, bonus_unlocked: 1.5, carried_debt: 0 },
      "Earnings cleared",
      "Your offer earnings of $2.00 cleared — available to withdraw. They unlocked $1.50 of bonus too.",
      "/withdraw",
    ],
    [
      "earnings_cleared",
      { amount: 2, bonus_unlocked: 0, carried_debt: 20 },
      "Earnings cleared",
      "Your offer earnings of $2.00 cleared — they pay the $20.00 owed from an earlier account first.",
      "/withdraw",
    ],
  ])("words %s and links it to its page", (kind, data, title, body, path) => {
    expect(noticeMessage({ kind, data })).toMatchObject({ title, description: body });
    expect(noticeLinkPath({ kind, data })).toBe(path);
    expect(pushForNotice({ id: 1, kind, data }, "https://rewards.example")).toMatchObject({
      title,
      body,
      link: `https://rewards.example${path}`,
    });
  });

  it("never words a friend's name, even from a notice stored with one before names were left out", () => {
    const phishing = "Rewards Security Team — confirm your UPI PIN at https://evil.example";
    const stored = { kind: "referral_credited", data: { amount: 5, friend: phishing } } as Parameters<
      typeof noticeMessage
    >[0];
    const words = noticeMessage(stored);
    const push = pushForNotice({ id: 1, ...stored }, "https://rewards.example");
    const email = emailForNotice(stored, "https://rewards.example");
    for (const text of [words.title, words.description, push.title, push.body, email.subject, email.text, email.html]) {
      expect(text).not.toContain("Rewards Security Team");
    }
    expect(words.description).toBe("A friend you referred qualified: $5.00 referral bonus.");
  });

  it("never words what the person wrote in a ticket_answered notice to the operators, even from one stored with it", () => {
    const theirs = "Call me at +1 555 0100 or pay to evil@example.com";
    const stored = {
      kind: "ticket_answered",
      data: { ticket_kind: "feedback", ticket_id: 3, body: theirs },
    } as Parameters<typeof noticeMessage>[0];
    const words = noticeMessage(stored);
    const push = pushForNotice({ id: 1, ...stored }, "https://rewards.example");
    const email = emailForNotice(stored, "https://rewards.example");
    for (const text of [words.title, words.description, push.title, push.body, email.subject, email.text, email.html]) {
      expect(text).not.toContain("555");
      expect(text).not.toContain("evil@example.com");
    }
    expect(email.text).toContain("Open Rewards: https://rewards.example/admin/support/feedback/3");
  });

  it("emails plain text and HTML with the words, a greeting, the link and how to turn emails off, escaping the words", () => {
    // An offer's title comes from the offer provider.
    const email = emailForNotice(
      { kind: "task_reward", data: { coins: 150, amount: 1.5, title: `<img src=x onerror="alert(1)">` } },
      "https://rewards.example",
    );
    expect(email.subject).toBe("Task Completed");
    expect(email.text).toBe(
      [
        "Hi there,",
        "",
        `You earned 150 coins ($1.50) for "<img src=x onerror="alert(1)">".`,
        "",
        "Open Rewards: https://rewards.example/earn",
        "",
        "--",
        "You get this email because email notifications are on for your Rewards account.",
        "You can turn them off under Notification Settings on your Profile page: https://rewards.example/profile",
        "",
      ].join("\n"),
    );
    expect(email.html).toContain("<p>Hi there,</p>");
    expect(email.html).toContain("&quot;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&quot;");
    expect(email.html).not.toContain("<img");
    expect(email.html).toContain('<a href="https://rewards.example/earn">Open Rewards</a>');
  });

  it("greets every recipient as there (a display name is anyone's to set), and has no links without PUBLIC_URL", () => {
    const email = emailForNotice({ kind: "welcome_bonus", data: { amount: 1 } }, null);
    expect(email.text.startsWith("Hi there,\n")).toBe(true);
    expect(email.text).not.toContain("http");
    expect(email.html).not.toContain("<a ");
  });
});

describe("retry waits", () => {
  it("start at the base, double with each failed try, and stop growing at an hour", () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelaySeconds(attempt, 60))).toEqual([60, 120, 240, 480, 960]);
    expect(retryDelaySeconds(7, 60)).toBe(3600);
    expect(retryDelaySeconds(30, 60)).toBe(3600);
  });

  it("are at least what the service asked for in Retry-After, but never more than an hour", () => {
    expect(retryDelaySeconds(1, 60, 300)).toBe(300);
    expect(retryDelaySeconds(3, 60, 30)).toBe(240);
    expect(retryDelaySeconds(1, 60, 86_400)).toBe(3600);
  });
});
