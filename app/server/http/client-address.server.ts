import { getEnv } from "../runtime/env.server";
import { addressKey } from "./ip-address.server";

/**
 * The socket's own address, as the request interceptor (incoming.server.ts) writes it on every
 * request before Express and Remix see it; whatever a client sent under this name is replaced.
 */
export const SOCKET_ADDRESS_HEADER = "x-rewards-socket-address";

/** TRUST_PROXY as read: a hop count, or our proxies' addresses. */
function configuredTrust(): [number, readonly string[]] {
  const env = getEnv();
  return [env.trustedProxyHops, env.trustedProxies];
}

/** The entries of X-Forwarded-For, left to right, trimmed. */
function forwardedFor(request: Pick<Request, "headers">): string[] {
  return (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * With our proxies named by address (TRUST_PROXY=10.0.0.2,10.0.0.3), as Express's `trust proxy`
 * with a list: the socket's address, unless it is one of ours; then each X-Forwarded-For entry
 * from the right, skipping ours: the first that is not ours is the client. An entry that is not an
 * address ends the walk with none (a proxy of ours wrote something we cannot read).
 */
function rightmostUntrusted(socket: string | null, entries: readonly string[], proxies: readonly string[]) {
  const peer = socket === null ? null : addressKey(socket);
  if (peer === null || !proxies.includes(peer)) return peer;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = addressKey(entries[index]!);
    if (entry === null || !proxies.includes(entry)) return entry;
  }
  return null;
}

/**
 * The address of the browser, as the app's own reverse proxies vouch for it, or null when nothing
 * can be believed: it is only believed when TRUST_PROXY says how many proxies of ours stand in front
 * of the app, or which addresses they have.
 *
 * Each proxy appends the address it received the connection from to the right end of
 * X-Forwarded-For and keeps whatever came before. So the rightmost entry is written by the proxy
 * next to us, the one before it by the proxy before that, and so on: with `hops` proxies of ours,
 * the `hops`-th entry from the right is the address our outermost proxy saw, the browser's (or its
 * NAT's). Everything further left arrived from the client itself and is anyone's to forge, which
 * is why the first entry, the one usually shown as "the client", is never used. Fewer entries than
 * hops, or a value that is not an address, means the request did not come through our proxies as
 * configured: no address.
 */
export function clientAddress(
  request: Pick<Request, "headers">,
  hopsGiven?: number,
  proxiesGiven?: readonly string[],
): string | null {
  const [hops, proxies] = hopsGiven === undefined ? configuredTrust() : [hopsGiven, proxiesGiven ?? []];
  if (proxies.length > 0) {
    return rightmostUntrusted(request.headers.get(SOCKET_ADDRESS_HEADER), forwardedFor(request), proxies);
  }
  if (hops < 1) return null;
  const entries = forwardedFor(request);
  const vouched = entries[entries.length - hops];
  return vouched === undefined ? null : addressKey(vouched);
}

/**
 * Who sent a postback (an offer wall's server), or null when it cannot be established: without
 * TRUST_PROXY the socket's address; with it, the address our proxies report (clientAddress). A
 * missing or unreadable X-Forwarded-For behind a proxy is null, never "anyone" (fail closed).
 */
export function senderAddress(
  request: Pick<Request, "headers">,
  socket: string | null,
  hopsGiven?: number,
  proxiesGiven?: readonly string[],
): string | null {
  const [hops, proxies] = hopsGiven === undefined ? configuredTrust() : [hopsGiven, proxiesGiven ?? []];
  if (proxies.length > 0) return rightmostUntrusted(socket, forwardedFor(request), proxies);
  if (hops < 1) return socket === null ? null : addressKey(socket);
  return clientAddress(request, hops);
}
