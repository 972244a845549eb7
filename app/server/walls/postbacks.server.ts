import { ruleViolation } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { getEnv } from "../env.server";
import { readBodyText } from "../http/body.server";
import { addressKey, clientAddress } from "../http/client-address.server";
import { leasedRateLimit } from "../http/rate-limit.server";
import { plainText } from "../http/responses.server";
import { logValue } from "../log.server";
import type { PostbackReading, PostbackRequest } from "./network.server";
import type { ConfiguredWall } from "./registry.server";

/** The postback as the network signed it: the app's public address, the path and the query as received. */
async function postbackRequest(request: Request): Promise<PostbackRequest | null> {
  const received = new URL(request.url);
  const origin = getEnv().publicUrl ?? received.origin;
  const body = request.method === "POST" ? await readBodyText(request) : "";
  if (body === null) return null;
  return {
    method: request.method,
    url: `${origin}${received.pathname}${received.search}`,
    query: [...received.searchParams],
    body: request.method === "POST" ? [...new URLSearchParams(body)] : [],
    headers: request.headers,
  };
}

/**
 * Whether the sender may post for this wall: when TRUST_PROXY tells the client's address, it must
 * be one the network publishes (or the operator lists); unknown, the postback is taken on its
 * signature alone, and the log says so.
 */
function senderAllowed(request: Request, wall: ConfiguredWall): boolean {
  if (wall.allowedAddresses.length === 0) return true;
  const sender = clientAddress(request);
  if (sender === null) {
    console.warn(`postback from ${wall.network.name}: sender address unknown (TRUST_PROXY unset), not checked`);
    return true;
  }
  return wall.allowedAddresses.some((address) => addressKey(address) === sender);
}

function describe(wall: ConfiguredWall, reading: Extract<PostbackReading, { kind: "credit" | "reversal" }>) {
  const offer = reading.offerName ? `: ${reading.offerName}` : "";
  return reading.kind === "credit"
    ? `Offer completed via ${wall.network.label}${offer}`
    : `Offer reversed by ${wall.network.label}${offer}`;
}

type Verdict = "credited" | "reversed" | "duplicate" | "ignored" | "refused";

/** What the log keeps of one postback (the wall's secrets removed from what was sent). */
interface LogEntry {
  verdict: Verdict;
  reason: string | null;
  transactionId: string | null;
  coins: number | null;
}

/** The parameters as sent, with any value that is one of the wall's secrets (AdGate's token) removed. */
function withoutSecrets(pairs: readonly (readonly [string, string])[], secrets: readonly string[]): string {
  return new URLSearchParams(
    pairs.map(([key, value]) => [key, secrets.includes(value) ? "[removed]" : value] as [string, string]),
  ).toString();
}

/** The request as the log keeps it: the sender, the method, and what was sent with the wall's secrets removed. */
function loggedRequest(request: Request, wall: ConfiguredWall, received: PostbackRequest | null) {
  return {
    p_client_address: clientAddress(request),
    p_method: request.method,
    p_query: withoutSecrets([...new URL(request.url).searchParams], wall.secrets),
    p_body: received ? withoutSecrets(received.body, wall.secrets) : "",
  };
}

/** One entry in postback_log for what was not recorded. A failure to write it is logged and does not change the answer. */
async function logPostback(request: Request, wall: ConfiguredWall, received: PostbackRequest | null, entry: LogEntry) {
  try {
    await (
      await getDatabase()
    ).rpc("log_postback", {
      p_network: wall.network.name,
      ...loggedRequest(request, wall, received),
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
export async function wallPostbackResponse(request: Request, wall: ConfiguredWall): Promise<Response> {
  const { network } = wall;
  const answer = async (received: PostbackRequest | null, entry: LogEntry, response: Response) => {
    if (entry.verdict === "refused" && !refusalRecorded(network.name)) return response;
    if (entry.verdict === "refused") console.warn(`postback from ${network.name} refused: ${entry.reason}`);
    await logPostback(request, wall, received, entry);
    return response;
  };
  const accepted = () => plainText(network.accepted.status, network.accepted.body);

  if (request.method !== "GET" && request.method !== "POST") {
    return answer(null, refusal(`method ${request.method}`), plainText(405, "Method not allowed"));
  }
  if (!senderAllowed(request, wall)) {
    return answer(
      null,
      // The address is one addressKey read (an IP): nothing in it to escape.
      refusal(`sender ${clientAddress(request)} not allowed`),
      plainText(403, "Sender not allowed"),
    );
  }
  const received = await postbackRequest(request);
  if (received === null) return answer(null, refusal("body over 64 KB"), plainText(413, "Payload too large"));
  const reading = network.readPostback(received, wall.config);
  if (reading.kind === "refused") {
    return answer(
      received,
      refusal(reading.reason),
      // What cannot be read is said (fixed words, nothing the sender wrote), so whoever sets up the
      // network's postback URL sees why; a signature that does not match is only that.
      plainText(reading.status, reading.status === 403 ? "Invalid signature" : `Invalid postback: ${reading.reason}`),
    );
  }
  // Counted once verified: forged requests cost no database call and cannot use up the allowance.
  // Leased: a database call per hundredth of the allowance, not per postback (rate-limit.server.ts).
  const limit = await leasedRateLimit(
    { name: `postback-${network.name}`, limit: wall.postbacksPerMinute, windowSeconds: 60 },
    network.name,
  );
  if (!limit.allowed) {
    const response = plainText(429, "Too many requests");
    response.headers.set("Retry-After", String(Math.max(1, Math.ceil(limit.retryAfterSeconds))));
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
      ...loggedRequest(request, wall, received),
    });
  } catch (error) {
    const rule = ruleViolation(error)?.rule;
    if (!rule) throw error;
    return answer(
      received,
      { ...refusal(`refused by the ledger: ${rule}`), transactionId: reading.transactionId, coins: reading.coins },
      plainText(400, "Invalid postback"),
    );
  }
  if (taken.verdict === "refused") {
    console.warn(`postback from ${network.name} refused: no one has id ${logValue(reading.wallUserId)}`);
    return plainText(400, "Unknown user");
  }
  return accepted();
}
