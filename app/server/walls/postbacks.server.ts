import { ruleViolation } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { getEnv } from "../env.server";
import { readBodyText } from "../http/body.server";
import { addressKey, clientAddress } from "../http/client-address.server";
import { hitRateLimit } from "../http/rate-limit.server";
import { plainText } from "../http/responses.server";
import { logValue } from "../log.server";
import type { PostbackReading, PostbackRequest } from "./network.server";
import type { ConfiguredWall } from "./registry.server";

/** The configured wall named `name` (the {provider} of /api/{provider}/postback), or null. */
export function configuredWall(name: string | undefined): ConfiguredWall | null {
  return getEnv().walls.find((wall) => wall.network.name === name) ?? null;
}

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

/**
 * GET or POST /api/{network}/postback for a configured offer wall: the sender's address checked,
 * the postback read and verified as the network signs it, counted against the network's allowance
 * (WALL_{NAME}_POSTBACKS_PER_MINUTE), then recorded once per network and transaction. Whatever was
 * taken, a repeat included, gets the answer the network expects, so it stops retrying.
 */
export async function wallPostbackResponse(request: Request, wall: ConfiguredWall): Promise<Response> {
  const { network } = wall;
  if (request.method !== "GET" && request.method !== "POST") return plainText(405, "Method not allowed");
  if (!senderAllowed(request, wall)) {
    console.warn(`postback from ${network.name} refused: sender ${logValue(clientAddress(request))} not allowed`);
    return plainText(403, "Sender not allowed");
  }
  const received = await postbackRequest(request);
  if (received === null) return plainText(413, "Payload too large");
  const reading = network.readPostback(received, wall.config);
  if (reading.kind === "refused") {
    console.warn(`postback from ${network.name} refused: ${reading.reason}`);
    return plainText(reading.status, reading.status === 403 ? "Invalid signature" : "Invalid postback");
  }
  // Counted once verified: forged requests cost no database call and cannot use up the allowance.
  const limit = await hitRateLimit(
    { name: `postback-${network.name}`, limit: wall.postbacksPerMinute, windowSeconds: 60 },
    network.name,
  );
  if (!limit.allowed) {
    const response = plainText(429, "Too many requests");
    response.headers.set("Retry-After", String(Math.max(1, Math.ceil(limit.retryAfterSeconds))));
    return response;
  }
  if (reading.kind === "ignored") return plainText(network.accepted.status, network.accepted.body);
  try {
    await (
      await getDatabase()
    ).rpc("record_wall_postback", {
      p_network: network.name,
      p_transaction_id: reading.transactionId,
      p_wall_id: reading.wallUserId,
      p_coins: reading.coins,
      p_reversal: reading.kind === "reversal",
      p_description: describe(wall, reading),
      p_hold_days: wall.holdDays,
    });
  } catch (error) {
    if (ruleViolation(error)?.rule === "account_not_found") {
      console.warn(`postback from ${network.name} refused: no one has wall id ${logValue(reading.wallUserId)}`);
      return plainText(400, "Unknown user");
    }
    throw error;
  }
  return plainText(network.accepted.status, network.accepted.body);
}
