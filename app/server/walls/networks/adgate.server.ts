import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { offerKindOf } from "~/domain/offer-kinds";
import {
  creditOrReversal,
  getPostback,
  listableCoins,
  listOffers,
  catalogueCategories,
  catalogueImageUrl,
  optionalText,
  parseAnswer,
  readCoins,
  parseUsd,
  refused,
  uniqueParameters,
  validId,
  type WallNetwork,
} from "../network.server";

/** AdGate's Offers API v3 (docs.prodegeads.com, "Offers API"): the catalogue, meant to be fetched from a backend every ten minutes or so. */
export const ADGATE_OFFERS_API_URL = "https://api.adgatemedia.com/v3/offers";

const amount = z.union([z.number(), z.string()]);

// The documentation in our sources lists the request, not the answer: these fields are those
// integrations of v3 read (docs/offer-walls.md, "Offers in Earn"). Unknown fields are ignored.
const adgateAnswer = z.object({ status: z.literal("success"), data: z.array(z.unknown()) });
const adgateOffer = z.object({
  id: z.union([z.number().int(), z.string()]),
  name: z.string(),
  /** The title AdGate shows people (its User Based API calls it so). */
  anchor: z.string().nullish(),
  description: z.string().nullish(),
  click_url: z.url({ protocol: /^https?$/ }),
  points: amount.nullish(),
  payout: amount.nullish(),
  events: z.array(z.object({ points: amount.nullish(), payout: amount.nullish() })).nullish(),
  // The offer's icon, as integrations of v3 read it (AdGate's v1 documents the same as icon_url).
  creatives: z.object({ icon: z.unknown().optional() }).nullish(),
  // Its categories ("Surveys", "Android", "CPI"), as integrations of v3 read them (v1 documents them).
  categories: z.unknown().optional(),
});

/** The offer's points, else the sum of its events' (the most it can pay); likewise its payout. */
function total(offer: z.output<typeof adgateOffer>, field: "points" | "payout"): string | number | null {
  if (offer[field] !== null && offer[field] !== undefined) return offer[field];
  const values = (offer.events ?? []).map((event) => Number(event[field]));
  return values.length > 0 && values.every(Number.isFinite) ? values.reduce((sum, value) => sum + value, 0) : null;
}

function sameSecret(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * AdGate Media, now Prodege (docs.prodegeads.com: "Postback information"). Postbacks are GET and
 * unsigned: AdGate's advice is a postback URL only AdGate knows, and its one sender address.
 * So the URL carries a token of the operator's (WALL_ADGATE_POSTBACK_TOKEN), and the macros
 * (docs/walls/adgate.md):
 *   ?token=…&conversion_id={conversion_id}&user_id={s1}&points={points}&payout={payout}&state={state}&offer_title={vc_title}
 * state is approved, pending (paid later: nothing yet) or rejected (a reversal). AdGate sends
 * reversals only to a URL with {state}, so a postback without it is refused. It resends until it
 * gets a 200, up to 5 times, 5 minutes apart.
 */
export const adgate: WallNetwork<{
  postbackToken: string;
  wallCode: string;
  affiliateId: string | null;
  apiKey: string | null;
  offersApiUrl: string;
}> = {
  name: "adgate",
  label: "AdGate Media",
  bestFor: ["app", "signup"],
  settings: [
    { suffix: "WALL_CODE", meaning: "the wall code (the vc-walls page)", required: true },
    {
      suffix: "POSTBACK_TOKEN",
      meaning: "a random token of at least 16 characters, put in the postback URL given to AdGate",
      required: true,
      secret: true,
      minLength: 16,
    },
    {
      suffix: "AFFILIATE_ID",
      meaning: "the affiliate id (the Offers API page), which lists AdGate's offers in Earn",
      required: false,
      with: "API_KEY",
    },
    {
      suffix: "API_KEY",
      meaning: "the Offers API key (the Offers API page), which lists AdGate's offers in Earn",
      required: false,
      secret: true,
      with: "AFFILIATE_ID",
    },
    {
      suffix: "OFFERS_API_URL",
      meaning: `the Offers API (default ${ADGATE_OFFERS_API_URL})`,
      required: false,
      url: true,
    },
  ],
  postbackQuery:
    "token={your postback token}&conversion_id={conversion_id}&user_id={s1}&points={points}&payout={payout}&state={state}&offer_title={vc_title}",
  // docs.adgatemedia.com, "Postback information".
  senderAddresses: ["52.42.57.125"],
  // Unsigned: the token is the same on every postback, so only the sender allowlist vouches for one.
  signature: { parameters: [], bindsTransaction: false },
  configure: (settings) => ({
    postbackToken: settings.POSTBACK_TOKEN ?? "",
    wallCode: settings.WALL_CODE ?? "",
    affiliateId: settings.AFFILIATE_ID ?? null,
    apiKey: settings.API_KEY ?? null,
    offersApiUrl: settings.OFFERS_API_URL ?? ADGATE_OFFERS_API_URL,
  }),
  wallUrl: ({ wallCode }, wallUserId) =>
    `https://wall.adgaterewards.com/${encodeURIComponent(wallCode)}/${encodeURIComponent(wallUserId)}`,
  readPostback(request, { postbackToken }) {
    const params = uniqueParameters(request);
    if (!params) return refused(400, "a parameter appears twice");
    if (!sameSecret(params.get("token"), postbackToken)) return refused(403, "the postback token does not match");
    const state = params.get("state");
    if (state === "pending") {
      return {
        kind: "ignored",
        reason: "pending: AdGate sends it again once approved",
        transactionId: params.get("conversion_id") ?? null,
        wallUserId: params.get("user_id") ?? null,
      };
    }
    if (state !== "approved" && state !== "rejected")
      return refused(400, "state must be approved, pending or rejected");
    return creditOrReversal({
      reversal: state === "rejected",
      transactionId: params.get("conversion_id"),
      wallUserId: params.get("user_id"),
      coins: readCoins(params.get("points")),
      payoutUsd: params.get("payout"),
      offerName: params.get("offer_title"),
    });
  },
  simulatedPostback({ postbackToken }, postback) {
    return getPostback("adgate", [
      ["token", postbackToken],
      ["conversion_id", postback.transactionId],
      ["user_id", postback.wallUserId],
      ["points", String(postback.coins)],
      ["state", postback.kind === "reversal" ? "rejected" : "approved"],
      ["offer_title", postback.offerName],
    ]);
  },
  accepted: { status: 200, body: "OK" },
  offers: {
    request({ affiliateId, apiKey, wallCode, offersApiUrl }) {
      if (!affiliateId || !apiKey) return null;
      const url = new URL(offersApiUrl);
      for (const [name, value] of Object.entries({ aff: affiliateId, api_key: apiKey, wall_code: wallCode })) {
        url.searchParams.set(name, value);
      }
      return { url: url.toString(), init: { headers: { accept: "application/json" } } };
    },
    read(payload) {
      const answer = parseAnswer(adgateAnswer, payload);
      return listOffers(answer.data, adgateOffer, (offer) => {
        const coins = listableCoins(total(offer, "points"));
        const id = String(offer.id);
        const name = optionalText(offer.anchor) ?? optionalText(offer.name);
        if (coins === null || !validId(id) || !name) return null;
        const payout = total(offer, "payout");
        return {
          network: "adgate",
          id,
          name,
          description: optionalText(offer.description, 500) ?? "",
          coins,
          payoutUsd: payout === null ? null : parseUsd(String(payout)),
          clickUrlTemplate: offer.click_url,
          imageUrl: catalogueImageUrl(offer.creatives?.icon),
          kind: offerKindOf(catalogueCategories(offer.categories)),
          // Events are what pays, each in turn: more than one is an offer of steps.
          steps: offer.events && offer.events.length > 1 ? offer.events.length : null,
        };
      });
    },
    // The person goes in s1, the sub-id AdGate's postback returns as {s1} (our user_id). That a v3
    // click_url takes it as an s1 query parameter is what integrations do (some find "s1=" at its
    // end and fill it in); AdGate's pages in our sources do not say: unconfirmed.
    clickUrl(clickUrlTemplate, wallUserId) {
      const url = new URL(clickUrlTemplate);
      url.searchParams.set("s1", wallUserId);
      return url.toString();
    },
  },
};
