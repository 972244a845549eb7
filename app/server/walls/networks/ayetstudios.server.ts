import {
  creditOrReversal,
  getPostback,
  hmacHex,
  readCoins,
  refused,
  sameHex,
  uniqueParameters,
  type WallNetwork,
} from "../network.server";

/** PHP's urlencode (RFC 1738 form encoding): letters, digits and -_. kept, space as +, the rest %XX. */
function phpUrlencode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*~]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

/**
 * What ayeT signs: every parameter, sorted by name in byte order, form-encoded as PHP's
 * http_build_query writes it (their reference code: ksort, then http_build_query).
 */
export function ayetSignedString(params: ReadonlyMap<string, string>): string {
  return [...params]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${phpUrlencode(key)}=${phpUrlencode(value)}`)
    .join("&");
}

/** The X-Ayetstudios-Security-Hash of a callback: the hex HMAC-SHA256 of its signed string, keyed with the API key. */
const ayetHash = (apiKey: string, params: ReadonlyMap<string, string>) =>
  hmacHex("sha256", apiKey, ayetSignedString(params));

/**
 * ayeT-Studios (docs.ayetstudios.com: "Offerwall callbacks", "HMAC security hash", "IP whitelist").
 * Callbacks are GET to the placement's callback URL, with these macros (docs/walls/ayetstudios.md):
 *   ?transaction_id={transaction_id}&external_identifier={external_identifier}&currency_amount={currency_amount}&payout_usd={payout_usd}&is_chargeback={is_chargeback}&offer_id={offer_id}&offer_name={offer_name}
 * Every callback carries the header X-Ayetstudios-Security-Hash: the hex HMAC-SHA256, keyed with
 * the publisher API key, of the query's parameters sorted by name. A reversal ("Enable Reversal
 * Callbacks") has is_chargeback=1, a negative amount and the original transaction id prefixed
 * "r-". ayeT resends until it gets a 200, 12 times within an hour.
 */
export const ayetstudios: WallNetwork<{ apiKey: string; adSlotId: string }> = {
  name: "ayetstudios",
  label: "ayeT-Studios",
  bestFor: ["app", "survey"],
  settings: [
    {
      suffix: "API_KEY",
      meaning: "the publisher API key (Settings), which signs callbacks",
      required: true,
      secret: true,
    },
    { suffix: "ADSLOT_ID", meaning: "the id of the web offerwall's AdSlot", required: true },
  ],
  postbackQuery:
    "transaction_id={transaction_id}&external_identifier={external_identifier}&currency_amount={currency_amount}&payout_usd={payout_usd}&is_chargeback={is_chargeback}&offer_id={offer_id}&offer_name={offer_name}",
  // docs.ayetstudios.com, "IP whitelist" (list of 2025-01-30).
  senderAddresses: [
    "51.79.101.241",
    "158.69.185.134",
    "158.69.185.154",
    "35.165.166.40",
    "35.166.159.131",
    "52.40.3.140",
  ],
  // The header covers every parameter, sorted: the transaction and the amount among them.
  signature: { parameters: [], header: "x-ayetstudios-security-hash", bindsTransaction: true },
  configure: (settings) => ({ apiKey: settings.API_KEY ?? "", adSlotId: settings.ADSLOT_ID ?? "" }),
  wallUrl: ({ adSlotId }, wallUserId) =>
    `https://www.ayetstudios.com/offers/web_offerwall/${encodeURIComponent(adSlotId)}?${new URLSearchParams({
      external_identifier: wallUserId,
    })}`,
  readPostback(request, { apiKey }) {
    if (request.body.length > 0) return refused(400, "ayeT-Studios callbacks carry no body");
    const params = uniqueParameters(request);
    if (!params) return refused(400, "a parameter appears twice");
    if (!sameHex(request.headers.get("x-ayetstudios-security-hash"), ayetHash(apiKey, params))) {
      return refused(403, "the X-Ayetstudios-Security-Hash header does not match");
    }
    const reversal = params.get("is_chargeback") === "1";
    const transactionId = params.get("transaction_id");
    if (reversal && !transactionId?.startsWith("r-"))
      return refused(400, "a chargeback's transaction id starts with r-");
    return creditOrReversal({
      reversal,
      transactionId: reversal ? transactionId?.slice(2) : transactionId,
      wallUserId: params.get("external_identifier"),
      coins: readCoins(params.get("currency_amount")),
      payoutUsd: params.get("payout_usd"),
      offerId: params.get("offer_id"),
      offerName: params.get("offer_name"),
    });
  },
  simulatedPostback({ apiKey }, postback) {
    const chargeback = postback.kind === "reversal";
    const params: [string, string][] = [
      ["transaction_id", chargeback ? `r-${postback.transactionId}` : postback.transactionId],
      ["external_identifier", postback.wallUserId],
      ["currency_amount", chargeback ? `-${postback.coins}` : String(postback.coins)],
      ["is_chargeback", chargeback ? "1" : "0"],
      ["offer_id", postback.offerId],
      ["offer_name", postback.offerName],
    ];
    return getPostback("ayetstudios", params, { "X-Ayetstudios-Security-Hash": ayetHash(apiKey, new Map(params)) });
  },
  accepted: { status: 200, body: "OK" },
};
