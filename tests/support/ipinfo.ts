import { startHttpStandIn } from "./stand-in";

/**
 * A local ipinfo (docs/decisions/091): `GET /{ip}` with `Authorization: Bearer <token>` answers the
 * address's details as ipinfo's API does, with its `country` and, on a plan with privacy
 * detection, a `privacy` object (vpn, proxy, tor, relay, hosting, service). Addresses it is not told
 * about are plain residential ones in the US. `slow` holds answers back (the app must not wait), and
 * `calls` counts the lookups (the app caches each address for a day).
 */
export const IPINFO_TOKEN = "standin-ipinfo-token";

type Privacy = { vpn: boolean; proxy: boolean; tor: boolean; relay: boolean; hosting: boolean; service: string };
const PLAIN: Privacy = { vpn: false, proxy: false, tor: false, relay: false, hosting: false, service: "" };

export async function startIpinfoStandIn() {
  const known = new Map<string, { country: string; privacy: Partial<Privacy> }>();
  const calls = new Map<string, number>();
  let slowMs = 0;
  const standIn = await startHttpStandIn((exchange) => {
    if (exchange.request.headers.authorization !== `Bearer ${IPINFO_TOKEN}`) {
      return exchange.json(403, { status: 403, error: { title: "Wrong token", message: "Please check your token" } });
    }
    const ip = decodeURIComponent(exchange.request.path.slice(1));
    calls.set(ip, (calls.get(ip) ?? 0) + 1);
    const entry = known.get(ip) ?? { country: "US", privacy: {} };
    const answer = () =>
      exchange.json(200, {
        ip,
        city: "Somewhere",
        region: "Somewhere",
        country: entry.country,
        loc: "0.0000,0.0000",
        org: "AS64500 Example Network",
        timezone: "UTC",
        privacy: { ...PLAIN, ...entry.privacy },
      });
    if (slowMs > 0) setTimeout(answer, slowMs);
    else answer();
  });
  return {
    url: standIn.url,
    close: standIn.close,
    env: { IPINFO_TOKEN, IPINFO_API_URL: standIn.url },
    /** What the stand-in says of `ip`. */
    set(ip: string, country: string, privacy: Partial<Privacy>) {
      known.set(ip, { country, privacy });
    },
    calls: (ip: string) => calls.get(ip) ?? 0,
    /** Answers only after `ms` (0: at once). */
    slow(ms: number) {
      slowMs = ms;
    },
  };
}

export type IpinfoStandIn = Awaited<ReturnType<typeof startIpinfoStandIn>>;
