import { discardBody, readBodyBytes } from "../../http/body.server";
import { hitRateLimit, type RateLimitRule } from "../../http/rate-limit.server";
import { jsonError, tooManyRequests } from "../../http/responses.server";

/**
 * What a rail's webhook does before it reads anything (RazorpayX, Tremendous): without a key it
 * believes nothing (503); the body's exact bytes are checked against their signature first; only a
 * genuine delivery counts against the rail's allowance (forged ones cannot use it up); then the body
 * must be UTF-8 JSON. The parsed event, or the answer to give instead.
 */
export async function readSignedWebhook(
  request: Request,
  rail: {
    name: string;
    key: string | null | undefined;
    signatureValid: (body: Uint8Array, key: string) => boolean;
    /** The status a bad signature gets (the rail's own documentation says which it expects). */
    refusedStatus: 401 | 403;
    limit: RateLimitRule;
    /** Said in the log line of a refused delivery (the rail's own id of it, when it sends one). */
    logDetail?: string;
  },
): Promise<{ event: unknown } | Response> {
  if (!rail.key) {
    discardBody(request);
    return jsonError(503, `${rail.name} is not configured`);
  }
  const bytes = await readBodyBytes(request);
  if (bytes === null) return jsonError(413, "Payload too large");
  if (!rail.signatureValid(bytes, rail.key)) {
    console.warn(`${rail.name} webhook refused: signature not valid${rail.logDetail ? ` (${rail.logDetail})` : ""}`);
    return jsonError(rail.refusedStatus, "Invalid signature");
  }
  const limit = await hitRateLimit(rail.limit, rail.name.toLowerCase());
  if (!limit.allowed) return tooManyRequests(limit.retryAfterSeconds);
  try {
    return { event: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as unknown };
  } catch {
    return jsonError(400, "Invalid webhook event");
  }
}
