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
  sameHex,
  sha256Hex,
  uniqueParameters,
  validId,
  type WallNetwork,
} from "../network.server";

/** A plain decimal number as Lootably writes revenue and currencyReward ("0.01", "100.00", "-1.5"). */
const DECIMAL = /^-?[0-9]{1,9}(\.[0-9]{1,12})?$/;

/** Lootably's hash: sha256(userID + ip + revenue + currencyReward + secret) of the strings as sent, hex. */
function lootablyHash(params: ReadonlyMap<string, string>, postbackSecret: string): string {
  const signed = ["userID", "ip", "revenue", "currencyReward"].map((name) => params.get(name) ?? "").join("");
  return sha256Hex(signed + postbackSecret);
}

/** Lootably's Offers API (documentation.lootably.com, "Offers API"): the Catalogue API when the body has no userData. */
export const LOOTABLY_OFFERS_API_URL = "https://api.lootably.com/api/v2/offers/get";

/** Where a Catalogue API link wants the user's id. */
const USER_ID_MACRO = "{userID}";

// The answer as Lootably's package lootably-api-types describes it. Unknown fields are ignored.
const lootablyAnswer = z.discriminatedUnion("success", [
  z.object({ success: z.literal(true), data: z.object({ offers: z.array(z.unknown()) }) }),
  z.object({ success: z.literal(false), message: z.string().nullish() }),
]);
const lootablyOffer = z.object({
  offerID: z.union([z.string(), z.number()]),
  name: z.string(),
  description: z.string().nullish(),
  // A number, or "variable" (an amount known only at completion: not listed).
  currencyReward: z.union([z.number(), z.string()]),
  revenue: z.union([z.number(), z.string()]).nullish(),
  link: z.url({ protocol: /^https?$/ }),
  // Lootably's own types (lootably-offers-api-types): the offer's image URL.
  image: z.unknown().optional(),
  // Its categories (app, game, survey, signup, quiz, freetrial, shopping, …) and, for an offer of
  // several steps, its goals, as lootably-api-types describe them.
  categories: z.unknown().optional(),
  goals: z.array(z.unknown()).nullish(),
});

/**
 * Lootably (documentation.lootably.com, "Postbacks"; its package lootably-postback-hash). Postbacks
 * are GET, with the macros docs/walls/lootably.md gives:
 *   ?userID={userID}&transactionID={transactionID}&ip={ip}&revenue={revenue}&currencyReward={currencyReward}&offerID={offerID}&offerName={offerName}&status={status}&hash={hash}
 * hash = sha256(userID + ip + revenue + currencyReward + the placement's postback secret), plain
 * SHA-256 of the strings as received, hex. It covers neither the transaction nor the status: the
 * sender allowlist is required, a hash seen on another transaction is held, and a chargeback is
 * taken at once only with a negative reward (signed); status 0 alone is held for an operator.
 */
export const lootably: WallNetwork<{
  placementId: string;
  postbackSecret: string;
  apiKey: string | null;
  offersApiUrl: string;
}> = {
  name: "lootably",
  label: "Lootably",
  bestFor: ["game", "app"],
  settings: [
    { suffix: "PLACEMENT_ID", meaning: "the placement's id", required: true },
    {
      suffix: "POSTBACK_SECRET",
      meaning: "the placement's postback secret (Edit), which signs postbacks",
      required: true,
      secret: true,
    },
    {
      suffix: "API_KEY",
      meaning: "the placement's API key (its API tab), which lists Lootably's offers in Earn",
      required: false,
      secret: true,
    },
    {
      suffix: "OFFERS_API_URL",
      meaning: `the Offers API (default ${LOOTABLY_OFFERS_API_URL})`,
      required: false,
      url: true,
    },
  ],
  postbackQuery:
    "userID={userID}&transactionID={transactionID}&ip={ip}&revenue={revenue}&currencyReward={currencyReward}&offerID={offerID}&offerName={offerName}&status={status}&hash={hash}",
  // Lootably publishes no postback addresses.
  senderAddresses: [],
  // hash covers the person, their address, revenue and reward, concatenated: not the transaction or status.
  signature: { parameters: ["hash"], bindsTransaction: false },
  configure: (settings) => ({
    placementId: settings.PLACEMENT_ID ?? "",
    postbackSecret: settings.POSTBACK_SECRET ?? "",
    apiKey: settings.API_KEY ?? null,
    offersApiUrl: settings.OFFERS_API_URL ?? LOOTABLY_OFFERS_API_URL,
  }),
  wallUrl: ({ placementId }, wallUserId) =>
    `https://wall.lootably.com/?${new URLSearchParams({ placementID: placementId, sid: wallUserId })}`,
  readPostback(request, { postbackSecret }) {
    const params = uniqueParameters(request);
    if (!params) return refused(400, "a parameter appears twice");
    // The hash concatenates these without separators: revenue and currencyReward are checked for
    // their shape first, so neither a sign nor a separator can move between them; a digit moved
    // keeps the hash, and the hash-reuse check (take_postback) holds that postback.
    if (!DECIMAL.test(params.get("revenue") ?? "") || !DECIMAL.test(params.get("currencyReward") ?? "")) {
      return refused(400, "revenue and currencyReward must be decimal numbers");
    }
    if (!sameHex(params.get("hash"), lootablyHash(params, postbackSecret))) {
      return refused(403, "hash does not match sha256(userID + ip + revenue + currencyReward + secret)");
    }
    const coins = readCoins(params.get("currencyReward"));
    const status = params.get("status");
    if (status !== undefined && status !== "0" && status !== "1") return refused(400, "status must be 1 or 0");
    return creditOrReversal({
      // A negative reward is signed; status=0 alone is not (held for an operator).
      reversal: status === "0" || coins?.negative === true,
      unsignedReversal: coins?.negative === true ? null : "Lootably's status=0",
      transactionId: params.get("transactionID"),
      wallUserId: params.get("userID"),
      coins,
      payoutUsd: params.get("revenue"),
      offerId: params.get("offerID"),
      offerName: params.get("offerName"),
    });
  },
  simulatedPostback({ postbackSecret }, postback) {
    const params: [string, string][] = [
      ["userID", postback.wallUserId],
      ["transactionID", postback.transactionId],
      // The person's address when they took the offer: a simulated postback has none.
      ["ip", "0.0.0.0"],
      ["revenue", postback.kind === "reversal" ? "-0.00" : "0.00"],
      // A chargeback in its signed form: a negative reward (status 0 alone would wait for an operator).
      ["currencyReward", postback.kind === "reversal" ? `-${postback.coins}` : String(postback.coins)],
      ["offerID", postback.offerId],
      ["offerName", postback.offerName],
      // A chargeback repeats the transaction with status 0.
      ["status", postback.kind === "reversal" ? "0" : "1"],
    ];
    return getPostback("lootably", [...params, ["hash", lootablyHash(new Map(params), postbackSecret)]]);
  },
  accepted: { status: 200, body: "1" },
  offers: {
    request({ placementId, apiKey, offersApiUrl }) {
      if (!apiKey) return null;
      // The Catalogue API: no userData, so the answer is every offer of the placement, cacheable.
      return {
        url: offersApiUrl,
        init: {
          method: "POST",
          headers: { accept: "application/json", "content-type": "application/json" },
          body: JSON.stringify({ placementID: placementId, apiKey }),
        },
      };
    },
    read(payload) {
      const answer = parseAnswer(lootablyAnswer, payload);
      if (!answer.success) throw new Error(`Lootably refused the request: ${answer.message ?? "no message"}`);
      return listOffers(answer.data.offers, lootablyOffer, (offer) => {
        const coins = listableCoins(offer.currencyReward);
        const id = String(offer.offerID);
        const name = optionalText(offer.name);
        // A link without the macro could not say who clicked, so its postback could pay no one.
        if (coins === null || !validId(id) || !name || !offer.link.includes(USER_ID_MACRO)) return null;
        return {
          network: "lootably",
          id,
          name,
          description: optionalText(offer.description, 500) ?? "",
          coins,
          payoutUsd: typeof offer.revenue === "number" ? Math.abs(offer.revenue) : parseUsd(offer.revenue),
          clickUrlTemplate: offer.link,
          imageUrl: catalogueImageUrl(offer.image),
          kind: offerKindOf(catalogueCategories(offer.categories)),
          steps: offer.goals && offer.goals.length > 1 ? offer.goals.length : null,
        };
      });
    },
    // The Catalogue API's links carry {userID} for the app to fill in, as integrations of it read
    // Lootably's answer; its own pages in our sources do not show a link: unconfirmed.
    clickUrl: (clickUrlTemplate, wallUserId) =>
      clickUrlTemplate.replaceAll(USER_ID_MACRO, encodeURIComponent(wallUserId)),
  },
};
