import { discardBody } from "../http/body.server";
import type { EarlyRoute, ReceivedAs } from "../http/incoming.server";
import { textAnswer, type TextAnswer } from "../http/responses.server";
import { configuredProvider } from "../earning/provider-offers.server";
import { custom } from "./networks/custom.server";
import { configuredWall } from "./configured.server";
import { wallPostbackAnswer, type IncomingPostback } from "./postbacks.server";
import type { ConfiguredWall } from "./registry.server";

/**
 * The offer provider of OFFER_PROVIDER as a wall that speaks the app's own protocol (the custom
 * network, docs/offer-provider.md), so its postbacks take the one path every wall's take: the
 * same checks, allowance (OFFER_POSTBACKS_PER_MINUTE), log and recording. Unlike a wall's, they
 * name people by account id, and offer_id names the task of its offers list that a credit pays.
 */
function offerProviderWall(name: string, secret: string, postbacksPerMinute: number): ConfiguredWall {
  return {
    network: { ...custom, name, label: name },
    config: custom.configure({ SECRET: secret }),
    // Its signature covers every parameter (the app's own protocol): any sender may post.
    allowedAddresses: [],
    anySender: true,
    holdDays: null,
    postbacksPerMinute,
    isOfferProvider: true,
    supportUrl: null,
    secrets: [secret],
  };
}

/** An answer given before the body is read: the body is dropped unread (within bounds). */
function earlyAnswer(request: IncomingPostback, status: number, body: string) {
  discardBody(request);
  return textAnswer(status, body);
}

/**
 * GET or POST /api/{provider}/postback: an offer wall the operator turned on (in the console, or
 * WALL_{NAME}_ENABLED) or the offer provider. What can be checked without the body is checked first (the name and its
 * secret), so a refused request costs no reading.
 */
export async function postbackAnswer(
  request: IncomingPostback,
  providerName: string | undefined,
  received: ReceivedAs | null = null,
): Promise<TextAnswer> {
  const wall = await configuredWall(providerName);
  if (wall) return wallPostbackAnswer(request, wall, received);
  const provider = configuredProvider(providerName);
  if (!provider) return earlyAnswer(request, 404, "Unknown provider");
  if (!provider.postbackSecret) return earlyAnswer(request, 503, "Postbacks are not configured");
  return wallPostbackAnswer(
    request,
    offerProviderWall(provider.name, provider.postbackSecret, provider.postbacksPerMinute),
    received,
  );
}

// Every name a provider or wall can have (runtime/env.server.ts: lowercase letters, digits, "-").
const POSTBACK_PATH = /^\/api\/([a-z0-9-]{2,40})\/postback$/;

/**
 * /api/{provider}/postback answered before Express and Remix (incoming.server.ts): networks send
 * postbacks by the thousand, and their work (static-file lookup, access log, Remix's routing) was
 * as much CPU as the postback's own. Any other spelling (a trailing slash, capitals) still reaches
 * the route module, which answers the same.
 */
export const postbackRoute: EarlyRoute = (path) => {
  const name = POSTBACK_PATH.exec(path)?.[1];
  return name === undefined ? null : (request, received) => postbackAnswer(request, name, received);
};
