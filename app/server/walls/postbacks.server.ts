import { ruleViolation } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { getEnv } from "../runtime/env.server";
import { readBodyText } from "../http/body.server";
import { OWN_TEST_POSTBACK_HEADER, ownTestPostbackTag, signatureDigest } from "../account/account-hash.server";
import { SOCKET_ADDRESS_HEADER, senderAddress } from "../http/client-address.server";
import type { ReceivedAs } from "../http/incoming.server";
import { addressKey } from "../http/ip-address.server";
import { leasedRateLimit } from "../http/rate-limit.server";
import { textAnswer, type TextAnswer } from "../http/responses.server";
import { logValue } from "../runtime/log.server";
import { sameHex, type PostbackReading, type PostbackRequest } from "./network.server";
import type { ConfiguredWall } from "./registry.server";

/**
 * A postback as it arrived: a Fetch Request (Remix's route) or what the early route reads of one
 * (incoming.server.ts, EarlyRequest).
 */
export interface IncomingPostback {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
}

/** The postback as the network signed it: the app's public address, then the request target exactly as received. */
async function postbackRequest(request: IncomingPostback, target: string): Promise<ReceivedPostback | null> {
  const origin = getEnv().publicUrl ?? new URL(request.url).origin;
  const body = request.method === "POST" ? await readBodyText(request) : "";
  if (body === null) return null;
  const rawQuery = queryOf(target);
  return {
    method: request.method,
    url: `${origin}${target}`,
    query: [...new URLSearchParams(rawQuery)],
    body: request.method === "POST" ? [...new URLSearchParams(body)] : [],
    headers: request.headers,
    rawQuery,
    rawBody: body,
  };
}

/** A postback as read, with its query and body as received (the log keeps them so, less secrets and signatures). */
type ReceivedPostback = PostbackRequest & { rawQuery: string; rawBody: string };

/** The query string of a request target, without its `?`. */
const queryOf = (target: string) => (target.includes("?") ? target.slice(target.indexOf("?") + 1) : "");

/** A form-encoded name or value decoded, or null when its escapes are broken. */
function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return null;
  }
}

/**
 * A query or form body as received, each parameter kept as it was written except those that carry
 * the network's signature or hold one of the wall's secrets (AdGate's token): their value becomes
 * `[removed]`, so nothing the log keeps would sign or authorise another postback.
 */
function withoutSecrets(raw: string, wall: ConfiguredWall): string {
  if (raw === "") return "";
  return raw
    .split("&")
    .map((part) => {
      const equals = part.indexOf("=");
      const rawName = equals === -1 ? part : part.slice(0, equals);
      const name = decoded(rawName);
      const value = equals === -1 ? "" : decoded(part.slice(equals + 1));
      const hidden =
        name === null ||
        value === null ||
        wall.network.signature.parameters.includes(name) ||
        wall.secrets.some((secret) => value.includes(secret));
      return hidden ? `${rawName}=[removed]` : part;
    })
    .join("&");
}

/** The keyed digest of the postback's signature (every parameter and header that carries it), or null when it has none. */
function postbackSignatureDigest(wall: ConfiguredWall, received: PostbackRequest | null): string | null {
  if (!received) return null;
  const { parameters, header } = wall.network.signature;
  const values = [...received.query, ...received.body]
    .filter(([name]) => parameters.includes(name))
    .map(([, value]) => value);
  const fromHeader = header ? received.headers.get(header) : null;
  if (fromHeader) values.push(fromHeader);
  return values.length > 0 ? signatureDigest(wall.network.name, values.join("&")) : null;
}

/** The console's own test postback, tagged by the app for this method and target (account/account-hash.server.ts). */
function isOwnTestPostback(request: IncomingPostback, target: string): boolean {
  const tag = request.headers.get(OWN_TEST_POSTBACK_HEADER);
  return tag !== null && sameHex(tag, ownTestPostbackTag(request.method, target));
}

/** Who sent the postback: the socket's address, or what TRUST_PROXY's proxies report (null: unknown). */
function postbackSender(request: IncomingPostback, received: ReceivedAs | null): string | null {
  const socket = received?.socketAddress ?? (request.headers.get(SOCKET_ADDRESS_HEADER) || null);
  return senderAddress(request, socket);
}

/**
 * Whether the sender may post for this wall: with an allowlist (the network's published addresses,
 * or the operator's), it must be on it, and a sender that cannot be established is refused (fail
 * closed). Only a wall whose allowlist is "any" takes postbacks from anywhere.
 */
function senderRefusal(wall: ConfiguredWall, sender: string | null): { reason: string; answer: string } | null {
  if (wall.allowedAddresses.length === 0) return null;
  if (sender === null) {
    return { reason: "sender unknown (no address the configured proxies vouch for)", answer: "Sender unknown" };
  }
  if (wall.allowedAddresses.some((address) => addressKey(address) === sender)) return null;
  // The address is one addressKey read (an IP): nothing in it to escape.
  return { reason: `sender ${sender} not allowed`, answer: "Sender not allowed" };
}

function describe(wall: ConfiguredWall, reading: Extract<PostbackReading, { kind: "credit" | "reversal" }>) {
  const offer = reading.offerName ? `: ${reading.offerName}` : "";
  return reading.kind === "credit"
    ? `Offer completed via ${wall.network.label}${offer}`
    : `Offer reversed by ${wall.network.label}${offer}`;
}

type Verdict = "credited" | "reversed" | "duplicate" | "ignored" | "refused" | "held";

/** What the log keeps of one postback (the wall's secrets removed from what was sent). */
interface LogEntry {
  verdict: Verdict;
  reason: string | null;
  transactionId: string | null;
  coins: number | null;
}

/** The request as the log keeps it: the sender, the method, and what was sent with the wall's secrets and signatures removed. */
function loggedRequest(
  request: IncomingPostback,
  wall: ConfiguredWall,
  sender: string | null,
  received: ReceivedPostback | null,
) {
  return {
    p_client_address: sender,
    p_method: request.method,
    p_query: received
      ? withoutSecrets(received.rawQuery, wall)
      : withoutSecrets(queryOf(new URL(request.url).search), wall),
    p_body: received ? withoutSecrets(received.rawBody, wall) : "",
    p_signature_digest: postbackSignatureDigest(wall, received),
  };
}

/** One entry in postback_log for what was not recorded. A failure to write it is logged and does not change the answer. */
async function logPostback(
  request: IncomingPostback,
  wall: ConfiguredWall,
  sender: string | null,
  received: ReceivedPostback | null,
  entry: LogEntry,
) {
  try {
    await (
      await getDatabase()
    ).rpc("log_postback", {
      p_network: wall.network.name,
      ...loggedRequest(request, wall, sender, received),
      p_verdict: entry.verdict,
      p_reason: entry.reason,
      p_user_id: null,
      p_transaction_id: entry.transactionId,
      p_coins: entry.coins,
    });
  } catch (error) {
    console.error(`postback from ${wall.network.name}: could not be logged:`, (error as Error).message);
  }
}

// Refusals are written by whoever sends them. Past this many a minute for one network (on one
// server), a flood of forged postbacks costs no database write and no log line each; one line says
// the rest of the minute's are not recorded. Networks' own retries never come near it.
export const REFUSALS_LOGGED_PER_MINUTE = 600;
const refusalMinutes = new Map<string, { minute: number; logged: number }>();

/** Whether this refusal is recorded: the first REFUSALS_LOGGED_PER_MINUTE of each clock minute, per network. */
function refusalRecorded(network: string): boolean {
  const minute = Math.floor(Date.now() / 60_000);
  const counted = refusalMinutes.get(network);
  const current = counted?.minute === minute ? counted : { minute, logged: 0 };
  refusalMinutes.set(network, current);
  current.logged += 1;
  if (current.logged === REFUSALS_LOGGED_PER_MINUTE + 1) {
    console.warn(
      `postback from ${network}: over ${REFUSALS_LOGGED_PER_MINUTE} refused this minute; the rest of this minute's are not logged`,
    );
  }
  return current.logged <= REFUSALS_LOGGED_PER_MINUTE;
}

const refusal = (reason: string): LogEntry => ({
  verdict: "refused",
  reason,
  transactionId: null,
  coins: null,
});

/**
 * GET or POST /api/{network}/postback for a configured offer wall: the sender's address checked,
 * the postback read and verified as the network signs it, counted against the network's allowance
 * (WALL_{NAME}_POSTBACKS_PER_MINUTE), then recorded once per network and transaction. Whatever was
 * taken, a repeat included, gets the answer the network expects, so it stops retrying. Every
 * request, refused ones included, is written to postback_log.
 */
export async function wallPostbackAnswer(
  request: IncomingPostback,
  wall: ConfiguredWall,
  receivedAs: ReceivedAs | null,
): Promise<TextAnswer> {
  const { network } = wall;
  const sender = postbackSender(request, receivedAs);
  const answer = async (received: ReceivedPostback | null, entry: LogEntry, response: TextAnswer) => {
    if (entry.verdict === "refused" && !refusalRecorded(network.name)) return response;
    if (entry.verdict === "refused") console.warn(`postback from ${network.name} refused: ${entry.reason}`);
    await logPostback(request, wall, sender, received, entry);
    return response;
  };
  const accepted = () => textAnswer(network.accepted.status, network.accepted.body);

  if (request.method !== "GET" && request.method !== "POST") {
    return answer(null, refusal(`method ${request.method}`), textAnswer(405, "Method not allowed"));
  }
  // The target as the network sent it (the early route has it byte for byte; Remix's is re-escaped).
  const target = receivedAs?.target ?? `${new URL(request.url).pathname}${new URL(request.url).search}`;
  const senderRefused = isOwnTestPostback(request, target) ? null : senderRefusal(wall, sender);
  if (senderRefused) return answer(null, refusal(senderRefused.reason), textAnswer(403, senderRefused.answer));
  const received = await postbackRequest(request, target);
  if (received === null) return answer(null, refusal("body over 64 KB"), textAnswer(413, "Payload too large"));
  const reading = network.readPostback(received, wall.config);
  if (reading.kind === "refused") {
    return answer(
      received,
      refusal(reading.reason),
      // What cannot be read is said (fixed words, nothing the sender wrote), so whoever sets up the
      // network's postback URL sees why; a signature that does not match is only that.
      textAnswer(reading.status, reading.status === 403 ? "Invalid signature" : `Invalid postback: ${reading.reason}`),
    );
  }
  // Counted once verified: forged requests cost no database call and cannot use up the allowance.
  // Leased: a database call per hundredth of the allowance, not per postback (rate-limit.server.ts).
  const limit = await leasedRateLimit(
    { name: `postback-${network.name}`, limit: wall.postbacksPerMinute, windowSeconds: 60 },
    network.name,
  );
  if (!limit.allowed) {
    const response = textAnswer(429, "Too many requests", {
      "Retry-After": String(Math.max(1, Math.ceil(limit.retryAfterSeconds))),
    });
    return answer(received, refusal("over the network's postbacks per minute"), response);
  }
  if (reading.kind === "ignored") {
    return answer(
      received,
      {
        verdict: "ignored",
        reason: reading.reason,
        transactionId: reading.transactionId,
        coins: null,
      },
      accepted(),
    );
  }
  // Recorded and logged in one call (take_postback): the log cannot say "credited" for a credit
  // rolled back, and a postback costs one round trip after its allowance.
  let taken: { verdict: Verdict };
  try {
    const logged = loggedRequest(request, wall, sender, received);
    taken = await (
      await getDatabase()
    ).rpc<{ verdict: Verdict }>("take_postback", {
      p_network: network.name,
      p_transaction_id: reading.transactionId,
      p_person: reading.wallUserId,
      p_person_is_account: wall.isOfferProvider,
      p_coins: reading.coins,
      p_reversal: reading.kind === "reversal",
      p_description: describe(wall, reading),
      p_hold_days: wall.holdDays,
      // A wall's offer ids are its own; only the offer provider's name tasks of Earn.
      p_offer_id: wall.isOfferProvider ? reading.offerId : null,
      p_offer_name: reading.offerName,
      ...logged,
      // A signature that does not bind the transaction pays one transaction only: seen on another, held.
      p_check_signature_reuse: !network.signature.bindsTransaction && logged.p_signature_digest !== null,
      p_review_reason: reading.review ?? null,
    });
  } catch (error) {
    const rule = ruleViolation(error)?.rule;
    if (!rule) throw error;
    return answer(
      received,
      { ...refusal(`refused by the ledger: ${rule}`), transactionId: reading.transactionId, coins: reading.coins },
      textAnswer(400, "Invalid postback"),
    );
  }
  if (taken.verdict === "refused") {
    console.warn(`postback from ${network.name} refused: no one has id ${logValue(reading.wallUserId)}`);
    return textAnswer(400, "Unknown user");
  }
  return accepted();
}
