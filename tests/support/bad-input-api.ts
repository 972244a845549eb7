import { ruleMessage } from "~/domain/rules";
import { MAX_BODY_BYTES } from "~/server/http/body.server";
import { CROSS_SITE_MESSAGE } from "~/server/http/same-origin.server";
import {
  entries,
  MARKUP,
  TEXTS,
  type Body,
  type Value,
  type Answer,
  type Case,
  FOREIGN,
  type FieldSpec,
  NUL,
  NUMBER_AND_TEXT,
  OVERSIZED,
  SECRET,
  badFields,
  badIntents,
  form,
  getCases,
  otherMethods,
  route,
  say,
  unreadableBodies,
} from "./bad-input";
import { TASK_GONE } from "./bad-input-pages";
import { signPostback } from "./offer-provider";

// The bad-input cases of the APIs and resource routes (tests/http/bad-input-api.test.ts).

// POST /api/{provider}/complete (JSON or a form; the user comes from the session).
const GONE = say(TASK_GONE, 404);
const complete = route("api.$provider.complete.ts", "POST", "/api/acme/complete", "member");
const jsonBodies: [string, Body][] = [
  ["an empty form", { raw: "", type: "application/x-www-form-urlencoded" }],
  ["JSON that does not parse", { raw: "{taskId: acme-1", type: "application/json" }],
  ["a JSON array", { json: ["acme-1"] }],
  ["a JSON string", { json: "acme-1" }],
  ["JSON null", { json: null }],
  ["a JSON number", { json: 5 }],
  ["1e309 in JSON", { raw: '{"taskId":1e309}', type: "application/json" }],
];
const completeCases = [
  ...unreadableBodies([["taskId", "acme-1"]])
    .filter(([what]) => what !== "the form's fields as JSON")
    .map(([what, body, answer]) => complete(what, body, answer)),
  ...badFields([["taskId", "acme-1"]], { taskId: { wrong: GONE } }, GONE).map(([what, body, answer]) =>
    complete(what, body, answer),
  ),
  ...[
    ...jsonBodies,
    ...([5, true, null, { id: "acme-1" }, ["acme-1"]].map((taskId) => [
      `${JSON.stringify(taskId)} as taskId in JSON`,
      { json: { taskId } },
    ]) as [string, Body][]),
  ].map(([what, body]) => complete(what, body, GONE)),
  complete("Conform's intent field", form({ taskId: "acme-1" }, ["__intent__", "garbage"]), GONE),
  complete("Conform's state field", form({ taskId: "acme-1" }, ["__state__", "garbage"]), GONE),
  complete("a task that was never started", { json: { taskId: "acme-2" } }, say(ruleMessage("task_not_started"))),
  ...["<b>", "٥", "-1", "9".repeat(400), "ACME"].map((provider) =>
    complete(
      `the provider ${provider.slice(0, 12)}`,
      { json: { taskId: "acme-1" } },
      say("Unknown offer provider", 404),
      { path: `/api/${encodeURIComponent(provider)}/complete` },
    ),
  ),
  complete("signed out", { json: { taskId: "acme-1" } }, say("Authentication required", 401), { who: "visitor" }),
  complete("a forged session cookie", { json: { taskId: "acme-1" } }, say("Authentication required", 401), {
    who: "forged",
  }),
  complete("posted from another site", { json: { taskId: "acme-1" } }, say(CROSS_SITE_MESSAGE, 403), {
    headers: FOREIGN,
  }),
  ...otherMethods("api.$provider.complete.ts", "/api/acme/complete", "POST"),
];

// POST /api/push-tokens (JSON or a form): register, check or forget this device's token.
const INVALID_PUSH_REQUEST = say("Invalid push token request");
const TOKEN_REFUSED = say(ruleMessage("invalid_push_token"));
const TOKEN = "fcm-token_0123456789:APA91bHxYz";
const push = route("api.push-tokens.ts", "POST", "/api/push-tokens", "member");
const REGISTER: [string, string][] = [
  ["intent", "register"],
  ["token", TOKEN],
];
const pushCases = [
  ...unreadableBodies(REGISTER)
    .filter(([what]) => what !== "the form's fields as JSON")
    .map(([what, body, answer]) => push(what, body, answer)),
  ...badIntents(REGISTER).map(([what, body]) => push(what, body, INVALID_PUSH_REQUEST)),
  // A token is 20 to 4,096 characters of FCM's alphabet: 400 digits would be one.
  ...badFields(
    REGISTER,
    {
      token: {
        wrong: TOKEN_REFUSED,
        blank: INVALID_PUSH_REQUEST,
        whitespace: TOKEN_REFUSED,
        values: [
          ...NUMBER_AND_TEXT.filter(([label]) => label !== "400 digits"),
          ["with markup, 20 characters or more", `${MARKUP}-padding`],
          ["of 4,097 characters", "t".repeat(4097)],
        ],
      },
    },
    INVALID_PUSH_REQUEST,
  ).map(([what, body, answer]) => push(`register: ${what}`, body, answer)),
  ...(
    [
      ["a JSON number as token", { intent: "register", token: 12345 }, TOKEN_REFUSED],
      ["JSON null as token", { intent: "register", token: null }, INVALID_PUSH_REQUEST],
      ["a JSON array as token", { intent: "register", token: [TOKEN] }, INVALID_PUSH_REQUEST],
      ["a JSON object as intent", { intent: { register: true }, token: TOKEN }, INVALID_PUSH_REQUEST],
      ["status of a token with a NUL character", { intent: "status", token: `${TOKEN}\u0000` }, INVALID_PUSH_REQUEST],
      ["delete of a token with a NUL character", { intent: "delete", token: `${TOKEN}\u0000` }, INVALID_PUSH_REQUEST],
      ["status without a token", { intent: "status" }, INVALID_PUSH_REQUEST],
      ["delete without a token", { intent: "delete" }, INVALID_PUSH_REQUEST],
    ] as [string, unknown, Answer][]
  ).map(([what, json, answer]) => push(what, { json }, answer)),
  push("signed out", { json: { intent: "register", token: TOKEN } }, say("Authentication required", 401), {
    who: "visitor",
  }),
  push("a forged session cookie", { json: { intent: "register", token: TOKEN } }, say("Authentication required", 401), {
    who: "forged",
  }),
  push("posted from another site", { json: { intent: "register", token: TOKEN } }, say(CROSS_SITE_MESSAGE, 403), {
    headers: FOREIGN,
  }),
  ...otherMethods("api.push-tokens.ts", "/api/push-tokens", "POST"),
];

// GET or POST /api/{provider}/postback, signed by the provider; plain-text answers. The base names
// nobody, so a postback whose other values are fine is an unknown user: nothing is ever credited.
const text = say;
/** A postback refused for what it holds says why, in the network adapter's words. */
const invalidPostback = (reason: string) => text(`Invalid postback: ${reason}`);
const UNREADABLE_AMOUNT = invalidPostback("missing or unreadable amount");
const TWICE = invalidPostback("a parameter appears twice");
const POSTBACK: [string, string][] = [
  ["user_id", "nobody-bad-input"],
  ["transaction_id", "tx-bad-input"],
  ["amount", "100"],
];
const signed = (pairs: [string, string][]): [string, string][] => [
  ...pairs,
  ["sig", signPostback(Object.fromEntries(pairs), SECRET)],
];
let postbacks = 0;
/** GET and POST in turn. */
function postback(what: string, pairs: [string, string][], answer: Answer): Case {
  const send = route("api.$provider.postback.ts", "POST", "/api/acme/postback", "provider");
  return postbacks++ % 2 === 0
    ? send(`GET, ${what}`, undefined, answer, {
        method: "GET",
        path: `/api/acme/postback?${new URLSearchParams(pairs)}`,
      })
    : send(`POST, ${what}`, { form: pairs }, answer);
}
// Ids of up to 200 characters; any well-formed one is an unknown user.
const ids = (name: string): FieldSpec["values"] =>
  NUMBER_AND_TEXT.map(([label, value]) => [
    label,
    value,
    value.length > 200 ? invalidPostback(`missing or unreadable ${name}`) : text("Unknown user"),
  ]);
const UNREADABLE_USER_ID = invalidPostback("missing or unreadable user id");
const UNREADABLE_TRANSACTION_ID = invalidPostback("missing or unreadable transaction id");
const NOT_A_TASK_ID = invalidPostback("an offer_id that is no task id");
const BAD_STATUS = invalidPostback("status must be completed or reversed");
const postbackCases = [
  ...badFields(
    POSTBACK,
    {
      user_id: { wrong: UNREADABLE_USER_ID, nul: UNREADABLE_USER_ID, values: ids("user id") },
      transaction_id: {
        wrong: UNREADABLE_TRANSACTION_ID,
        nul: UNREADABLE_TRANSACTION_ID,
        values: ids("transaction id"),
      },
      // -1 is a reversal, below.
      amount: {
        wrong: UNREADABLE_AMOUNT,
        nul: UNREADABLE_AMOUNT,
        values: NUMBER_AND_TEXT.filter(([label]) => label !== "-1").map(([label, value]) => [
          label,
          value,
          value === "0" ? invalidPostback("an amount of zero coins") : UNREADABLE_AMOUNT,
        ]),
      },
      offer_id: {
        wrong: NOT_A_TASK_ID,
        nul: NOT_A_TASK_ID,
        blank: null,
        values: NUMBER_AND_TEXT.filter(([, value]) => !/^[\w.:-]{1,100}$/.test(value)),
      },
      status: {
        wrong: BAD_STATUS,
        nul: BAD_STATUS,
        blank: null,
        values: [...NUMBER_AND_TEXT, ["COMPLETED", "COMPLETED"]],
      },
    },
    TWICE,
  ).map(([what, body, answer]) => {
    const pairs = "form" in body ? body.form : [];
    // A repeated name is refused before the signature is looked at; everything else is signed.
    return postback(what, new Set(pairs.map(([name]) => name)).size < pairs.length ? pairs : signed(pairs), answer);
  }),
  ...(
    [
      ["no signature", POSTBACK],
      ["an empty signature", [...POSTBACK, ["sig", ""]]],
      ["a signature that is not hex", [...POSTBACK, ["sig", "z".repeat(64)]]],
      ["a short signature", [...POSTBACK, ["sig", "ab"]]],
      ["a wrong signature", [...POSTBACK, ["sig", "0".repeat(64)]]],
      ["a signature with markup", [...POSTBACK, ["sig", MARKUP]]],
      ["the signature of other values", [...POSTBACK.slice(0, 2), ["amount", "1000000"], signed(POSTBACK)[3]!]],
    ] as [string, [string, string][]][]
  ).map(([what, pairs]) => postback(what, pairs, text("Invalid signature", 403))),
  postback(
    "an amount of -1 (a reversal) for nobody",
    signed([...POSTBACK.slice(0, 2), ["amount", "-1"]]),
    text("Unknown user"),
  ),
  postback(
    "an amount over 10,000,000",
    signed([...POSTBACK.slice(0, 2), ["amount", "10000001"]]),
    invalidPostback("amount over the cap of 10,000,000 coins a postback"),
  ),
  ...(
    [
      ["a name in the query string and again in the body", { form: signed(POSTBACK) }, TWICE, "?user_id=x"],
      ["a JSON body", { json: Object.fromEntries(signed(POSTBACK)) }, text("Invalid signature", 403), ""],
      ["an empty body", { raw: "", type: "application/x-www-form-urlencoded" }, text("Invalid signature", 403), ""],
      [
        "a body over 64 KB",
        { form: [...signed(POSTBACK), ["padding", "x".repeat(MAX_BODY_BYTES)]] },
        text("Payload too large", 413),
        "",
      ],
    ] as [string, Body, Answer, string][]
  ).map(([what, body, answer, query]) =>
    route("api.$provider.postback.ts", "POST", `/api/acme/postback${query}`, "provider")(`POST, ${what}`, body, answer),
  ),
  ...["<b>", "٥", "-1", "ACME"].map((provider) =>
    route(
      "api.$provider.postback.ts",
      "GET",
      `/api/${encodeURIComponent(provider)}/postback?${new URLSearchParams(signed(POSTBACK))}`,
      "provider",
    )(`GET, the provider ${provider}`, undefined, text("Unknown provider", 404)),
  ),
];

// POST /api/paypal/webhook: nothing is believed before PayPal confirms the signature. A signed
// event about nothing of ours is answered 200 (so PayPal stops) and ignored.
const webhook = route("api.paypal.webhook.ts", "POST", "/api/paypal/webhook", "provider");
export const SIGNED_EVENT = "a signed event";
const event = (resource: unknown, eventType: unknown = "PAYMENT.PAYOUTS-ITEM.SUCCEEDED") => ({
  id: "WH-BAD-INPUT",
  event_type: eventType,
  resource_type: "payouts_item",
  resource,
});
const UNKNOWN_WITHDRAWAL = { payout_item: { sender_item_id: "00000000-0000-4000-8000-000000000000" } };
const webhookCases = [
  ...(
    [
      ["no body", undefined],
      ["an empty body", { raw: "", type: "application/json" }],
      ["JSON that does not parse", { raw: "{event_type:", type: "application/json" }],
      ["a form", form({ event_type: "PAYMENT.PAYOUTS-ITEM.SUCCEEDED" })],
      ["a JSON array", { json: [event({})] }],
      ["a JSON string", { json: "PAYMENT.PAYOUTS-ITEM.SUCCEEDED" }],
      ["JSON null", { json: null }],
      ["a JSON number", { json: 1e308 }],
      ["no event_type", { json: { resource: {} } }],
      ["no resource", { json: { event_type: "PAYMENT.PAYOUTS-ITEM.SUCCEEDED" } }],
      ["a number as event_type", { json: event({}, 5) }],
      ["null as event_type", { json: event({}, null) }],
      ["a string as resource", { json: event("payout") }],
      ["an array as resource", { json: event([]) }],
      ["XML", { raw: "<event/>", type: "application/xml" }],
    ] as [string, Body | undefined][]
  ).map(([what, body]) => webhook(what, body, say("Invalid webhook event"))),
  webhook(
    "a body over 64 KB",
    { json: { ...event({}), padding: "x".repeat(MAX_BODY_BYTES) } },
    say("Payload too large", 413),
  ),
  webhook(
    "an event without PayPal's signature headers",
    { json: event(UNKNOWN_WITHDRAWAL) },
    say("Invalid signature", 403),
  ),
  webhook(
    "an event with forged signature headers",
    { json: event(UNKNOWN_WITHDRAWAL) },
    say("Invalid signature", 403),
    {
      headers: {
        "paypal-auth-algo": "SHA256withRSA",
        "paypal-cert-url": "https://evil.example/cert",
        "paypal-transmission-id": "1",
        "paypal-transmission-sig": "Zm9yZ2Vk",
        "paypal-transmission-time": new Date().toISOString(),
      },
    },
  ),
  ...otherMethods("api.paypal.webhook.ts", "/api/paypal/webhook", "POST", "provider"),
  ...(
    [
      ...NUMBER_AND_TEXT,
      ["empty", ""],
      ["of 10,000 characters", OVERSIZED],
      ["with a NUL character", NUL],
      ["a UUID with markup", `${MARKUP}-0000-0000-0000-000000000000`],
    ] as Value[]
  ).map(([label, value]) =>
    webhook(
      `${SIGNED_EVENT} whose sender_item_id is ${label}`,
      { json: event({ payout_item: { sender_item_id: value } }) },
      { status: 200, json: { received: true, ignored: "not a withdrawal" } },
    ),
  ),
  webhook(
    `${SIGNED_EVENT} about a withdrawal that does not exist`,
    { json: event(UNKNOWN_WITHDRAWAL) },
    { status: 200, json: { received: true, ignored: "unknown withdrawal" } },
  ),
  ...[...entries(TEXTS), ["an unknown type", "PAYMENT.PAYOUTS-ITEM.EXPLODED"] as Value].map(([label, value]) =>
    webhook(
      `${SIGNED_EVENT} whose event_type is ${label}`,
      { json: event(UNKNOWN_WITHDRAWAL, value) },
      { status: 200, json: { received: true, ignored: "event type" } },
    ),
  ),
];

// POST /api/razorpayx/webhook: nothing is read before X-Razorpay-Signature (the hex HMAC-SHA256 of
// the body's bytes with the webhook secret) is checked. The cases named RAZORPAYX_SIGNED_EVENT are
// signed by the run over exactly the bytes sent; a signed event about nothing of ours is answered
// 200 (so RazorpayX stops) and ignored.
const razorpayx = route("api.razorpayx.webhook.ts", "POST", "/api/razorpayx/webhook", "provider");
export const RAZORPAYX_SIGNED_EVENT = "a RazorpayX-signed event";
const payoutEvent = (entity: unknown, name: unknown = "payout.processed") => ({
  entity: "event",
  account_id: "acc_bad_input",
  event: name,
  contains: ["payout"],
  payload: { payout: { entity } },
  created_at: 1_796_000_000,
});
const payoutEntity = (referenceId: unknown, status: unknown = "processed") => ({
  id: "pout_badinput",
  entity: "payout",
  status,
  utr: null,
  reference_id: referenceId,
});
const UNKNOWN_PAYOUT = payoutEntity("00000000-0000-4000-8000-000000000000");
const bodies: [string, Body | undefined][] = [
  ["no body", undefined],
  ["an empty body", { raw: "", type: "application/json" }],
  ["JSON that does not parse", { raw: "{event:", type: "application/json" }],
  ["a form", form({ event: "payout.processed" })],
  ["a JSON array", { json: [payoutEvent(UNKNOWN_PAYOUT)] }],
  ["JSON null", { json: null }],
  ["a JSON string", { json: "payout.processed" }],
  ["XML", { raw: "<event/>", type: "application/xml" }],
];
const razorpayxCases = [
  // Unsigned, anything: refused before it is read.
  ...bodies.map(([what, body]) => razorpayx(`unsigned, ${what}`, body, say("Invalid signature", 403))),
  razorpayx(
    "an event with a signature of another secret",
    { json: payoutEvent(UNKNOWN_PAYOUT) },
    say("Invalid signature", 403),
    {
      headers: { "x-razorpay-signature": "0".repeat(64) },
    },
  ),
  ...["", "not-hex", "a".repeat(63), "a".repeat(65), `sha256=${"a".repeat(64)}`].map((signature) =>
    razorpayx(
      `an event whose signature is ${JSON.stringify(signature)}`,
      { json: payoutEvent(UNKNOWN_PAYOUT) },
      say("Invalid signature", 403),
      {
        headers: { "x-razorpay-signature": signature },
      },
    ),
  ),
  razorpayx(
    "a body over 64 KB",
    { json: { ...payoutEvent(UNKNOWN_PAYOUT), padding: "x".repeat(MAX_BODY_BYTES) } },
    say("Payload too large", 413),
  ),
  ...otherMethods("api.razorpayx.webhook.ts", "/api/razorpayx/webhook", "POST", "provider"),
  // Signed, and still no payout event of ours.
  ...(
    [
      ["JSON that does not parse", { raw: "{event:", type: "application/json" }],
      ["a JSON array", { json: [] }],
      ["JSON null", { json: null }],
      ["no event", { json: { payload: {} } }],
      ["a number as event", { json: payoutEvent(UNKNOWN_PAYOUT, 5) }],
      ["no payout entity", { json: payoutEvent(null) }],
      ["a payout without an id", { json: payoutEvent({ status: "processed", reference_id: "x" }) }],
      ["XML", { raw: "<event/>", type: "application/xml" }],
    ] as [string, Body][]
  ).map(([what, body]) => razorpayx(`${RAZORPAYX_SIGNED_EVENT}, ${what}`, body, say("Invalid webhook event"))),
  ...[...entries(TEXTS), ["about payments", "payment.captured"] as Value].map(([label, value]) =>
    razorpayx(
      `${RAZORPAYX_SIGNED_EVENT} whose event is ${label}`,
      { json: payoutEvent(UNKNOWN_PAYOUT, value) },
      typeof value === "string" && value.startsWith("payout.")
        ? { status: 200, json: { received: true, ignored: "unknown withdrawal" } }
        : { status: 200, json: { received: true, ignored: "event type" } },
    ),
  ),
  ...(
    [
      ...NUMBER_AND_TEXT,
      ["a UUID with markup", `${MARKUP}-0000-0000-0000-000000000000`],
      ["with a NUL character", NUL],
    ] as Value[]
  ).map(([label, value]) =>
    razorpayx(
      `${RAZORPAYX_SIGNED_EVENT} whose reference_id is ${label}`,
      { json: payoutEvent(payoutEntity(value)) },
      { status: 200, json: { received: true, ignored: "not a withdrawal" } },
    ),
  ),
  razorpayx(
    `${RAZORPAYX_SIGNED_EVENT} about a withdrawal that does not exist`,
    { json: payoutEvent(UNKNOWN_PAYOUT) },
    { status: 200, json: { received: true, ignored: "unknown withdrawal" } },
  ),
  ...["exploded", "PROCESSED", ""].map((status) =>
    razorpayx(
      `${RAZORPAYX_SIGNED_EVENT} whose status is ${JSON.stringify(status)}`,
      { json: payoutEvent(payoutEntity("00000000-0000-4000-8000-000000000000", status)) },
      status === ""
        ? say("Invalid webhook event")
        : { status: 200, json: { received: true, ignored: "unknown status" } },
    ),
  ),
];

// POST /api/tremendous/webhook: nothing is read before Tremendous-Webhook-Signature ("sha256=" and
// the hex HMAC-SHA256 of the body's bytes with the webhook's private key) is checked. The cases
// named TREMENDOUS_SIGNED_EVENT are signed by the run over exactly the bytes sent; a signed event
// about nothing of ours is answered 200 (Tremendous sends every event to its one webhook).
const tremendous = route("api.tremendous.webhook.ts", "POST", "/api/tremendous/webhook", "provider");
export const TREMENDOUS_SIGNED_EVENT = "a Tremendous-signed event";
const rewardEvent = (resource: unknown, name: unknown = "REWARDS.DELIVERY.SUCCEEDED", meta: unknown = {}) => ({
  event: name,
  uuid: "5ccc7bb1-7659-4e23-a407-77d8cd9c62f5",
  created_utc: "2026-11-30T12:00:00.000Z",
  payload: { resource, meta },
});
const UNKNOWN_REWARD = { id: "NOSUCHREWARD", type: "rewards" };
const tremendousCases = [
  // Unsigned, anything: refused before it is read.
  ...bodies.map(([what, body]) => tremendous(`unsigned, ${what}`, body, say("Invalid signature", 401))),
  ...[
    "",
    "sha256=",
    `sha256=${"0".repeat(64)}`,
    `sha1=${"a".repeat(40)}`,
    "a".repeat(64),
    `sha256=${"a".repeat(63)}`,
    `SHA512=${"a".repeat(128)}`,
  ].map((signature) =>
    tremendous(
      `an event whose signature is ${JSON.stringify(signature)}`,
      { json: rewardEvent(UNKNOWN_REWARD) },
      say("Invalid signature", 401),
      { headers: { "tremendous-webhook-signature": signature } },
    ),
  ),
  tremendous(
    "a body over 64 KB",
    { json: { ...rewardEvent(UNKNOWN_REWARD), padding: "x".repeat(MAX_BODY_BYTES) } },
    say("Payload too large", 413),
  ),
  ...otherMethods("api.tremendous.webhook.ts", "/api/tremendous/webhook", "POST", "provider"),
  // Signed, and still no event of ours.
  ...(
    [
      ["JSON that does not parse", { raw: "{event:", type: "application/json" }],
      ["a JSON array", { json: [] }],
      ["JSON null", { json: null }],
      ["no event", { json: { payload: { resource: UNKNOWN_REWARD } } }],
      ["a number as event", { json: rewardEvent(UNKNOWN_REWARD, 5) }],
      ["no resource", { json: rewardEvent(null) }],
      ["a resource of another type", { json: rewardEvent({ id: "X", type: "campaigns" }) }],
      ["a resource id with markup", { json: rewardEvent({ id: MARKUP, type: "rewards" }) }],
      ["a resource id of 10,000 characters", { json: rewardEvent({ id: OVERSIZED, type: "rewards" }) }],
      ["XML", { raw: "<event/>", type: "application/xml" }],
    ] as [string, Body][]
  ).map(([what, body]) => tremendous(`${TREMENDOUS_SIGNED_EVENT}, ${what}`, body, say("Invalid webhook event"))),
  ...[...entries(TEXTS), ["about campaigns", "CAMPAIGNS.UPDATED"] as Value].map(([label, value]) =>
    tremendous(
      `${TREMENDOUS_SIGNED_EVENT} whose event is ${label}`,
      { json: rewardEvent(UNKNOWN_REWARD, value) },
      { status: 200, json: { received: true, ignored: "event type" } },
    ),
  ),
  ...["REWARDS.DELIVERY.SUCCEEDED", "REWARDS.DELIVERY.FAILED", "REWARDS.CANCELED"].map((name) =>
    tremendous(
      `${TREMENDOUS_SIGNED_EVENT} ${name} about a reward that is no withdrawal's`,
      { json: rewardEvent(UNKNOWN_REWARD, name, { failure_reason: MARKUP }) },
      { status: 200, json: { received: true, ignored: "not a withdrawal" } },
    ),
  ),
  tremendous(
    `${TREMENDOUS_SIGNED_EVENT} ORDERS.CANCELED about an order that is no withdrawal's`,
    { json: rewardEvent({ id: "NOSUCHORDER", type: "orders" }, "ORDERS.CANCELED") },
    { status: 200, json: { received: true, ignored: "not a withdrawal" } },
  ),
];

// Resource routes that read only their URL: bad query strings and headers, every other method.
const HEALTHY: Answer = { status: 200, json: { status: "ok", database: "ok" } };
const OFFLINE_PAGE: Answer = { status: 200, contentType: "text/html", contains: "<h1>You're offline</h1>" };
const SCRIPT: Answer = { status: 200, contentType: "text/javascript", contains: 'addEventListener("push"' };
const STREAM: Answer = { status: 200, contentType: "text/event-stream" };
const SIGN_IN_FOR_UPDATES = say("Sign in to receive updates", 401);
const OFFERS: Answer = { status: 200, contentType: "application/json", contains: '"offers":[' };
const NO_SUCH_CODE: Answer = { status: 200, json: { exists: false } };
const codes: Value[] = [
  ...NUMBER_AND_TEXT,
  // The longest path segment the server routes (a longer path is answered 414, below).
  ["of 2,000 characters", "X".repeat(2_000)],
  ["with a NUL character", NUL],
  ["in lower case", "abcdefg"],
  ["well-formed, unknown", "ABCDEFG"],
  ["with spaces around", " ABCDEFG "],
];
// An offer image by an id no catalogue lists (docs/decisions/099): whatever the id, a plain 404.
const NO_SUCH_IMAGE: Answer = { status: 404, contentType: "text/plain", contains: "Not found" };
const resourceCases = [
  ...[
    ...NUMBER_AND_TEXT,
    ["well-formed, unknown", "A".repeat(22)] as Value,
    ["one character short", "A".repeat(21)] as Value,
    ["one character over", "A".repeat(23)] as Value,
    ["of the right length with a dot", `${"A".repeat(21)}.`] as Value,
    ["a path upwards", "../../etc/passwd"] as Value,
  ]
    .filter(([, id]) => id.trim() !== "")
    .map(([label, id]) =>
      route(
        "offer-images.$id.ts",
        "GET",
        `/offer-images/${encodeURIComponent(id)}`,
        "visitor",
      )(`GET the image ${label}`, undefined, NO_SUCH_IMAGE),
    ),
  ...otherMethods("offer-images.$id.ts", "/offer-images/AAAAAAAAAAAAAAAAAAAAAA", "GET", "visitor"),
  ...getCases("healthz.ts", "/healthz", "visitor", HEALTHY),
  ...otherMethods("healthz.ts", "/healthz", "GET", "visitor"),
  ...getCases("offline.ts", "/offline", "visitor", OFFLINE_PAGE),
  ...otherMethods("offline.ts", "/offline", "GET", "visitor"),
  ...getCases("service-worker[.]js.ts", "/service-worker.js", "visitor", SCRIPT),
  ...otherMethods("service-worker[.]js.ts", "/service-worker.js", "GET", "visitor"),
  ...getCases("api.events.ts", "/api/events", "visitor", SIGN_IN_FOR_UPDATES, "since"),
  ...getCases("api.events.ts", "/api/events", "forged", SIGN_IN_FOR_UPDATES, "since").slice(0, 3),
  ...getCases("api.events.ts", "/api/events", "member", STREAM, "since").filter((_, i) => i < 5 || i % 10 === 0),
  ...otherMethods("api.events.ts", "/api/events", "GET"),
  ...codes.map(([label, code]) =>
    route(
      "api.referral-codes.$code.ts",
      "GET",
      `/api/referral-codes/${encodeURIComponent(code)}`,
      "visitor",
    )(`GET the code ${label}`, undefined, NO_SUCH_CODE),
  ),
  // A path too long to route is answered 414 before the app (app/server/http/incoming.server.ts).
  route(
    "api.referral-codes.$code.ts",
    "GET",
    `/api/referral-codes/${"x".repeat(10_000)}`,
    "visitor",
  )("GET a code too long for a path (10,000 characters)", undefined, {
    status: 414,
    contentType: "text/plain",
    contains: "This address is too long.",
  }),
  // A path that is not UTF-8 never reaches the app: the HTTP server refuses it.
  route(
    "api.referral-codes.$code.ts",
    "GET",
    "/api/referral-codes/%E0%A4%A",
    "visitor",
  )("GET a code whose percent-encoding is broken", undefined, {
    status: 400,
    contentType: "text/html",
    contains: "Bad Request",
  }),
  ...getCases("api.referral-codes.$code.ts", "/api/referral-codes/ABCDEFG", "visitor", NO_SUCH_CODE, "code").slice(
    0,
    20,
  ),
  ...otherMethods("api.referral-codes.$code.ts", "/api/referral-codes/ABCDEFG", "GET", "visitor"),
  ...getCases("api.$provider.offers.ts", "/api/acme/offers", "member", OFFERS),
  ...getCases("api.$provider.offers.ts", "/api/acme/offers", "visitor", say("Authentication required", 401)).slice(
    0,
    6,
  ),
  ...getCases("api.$provider.offers.ts", "/api/acme/offers", "forged", say("Authentication required", 401)).slice(0, 3),
  ...[...NUMBER_AND_TEXT, ["ACME", "ACME"] as Value].map(([label, provider]) =>
    route(
      "api.$provider.offers.ts",
      "GET",
      `/api/${encodeURIComponent(provider)}/offers`,
      "member",
    )(`GET the provider ${label}`, undefined, say("Unknown offer provider", 404)),
  ),
  ...otherMethods("api.$provider.offers.ts", "/api/acme/offers", "GET"),
];

export const API_CASES: Case[] = [
  ...completeCases,
  ...pushCases,
  ...postbackCases,
  ...webhookCases,
  ...razorpayxCases,
  ...tremendousCases,
  ...resourceCases,
];
