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

/** BitLabs' hash of a callback: the hex HMAC-SHA1 of the URL it calls, keyed with the app secret. */
const bitlabsHash = (appSecret: string, url: string) => hmacHex("sha1", appSecret, url);

/**
 * BitLabs (developer.bitlabs.ai: "Callbacks", "Securing callbacks through hashing", "Offer
 * callbacks"). Callbacks are GET; the URL's parameter names are the operator's choice in the
 * dashboard, and these are the ones docs/walls/bitlabs.md gives:
 *   ?uid=[%UID%]&tx=[%TX%]&val=[%VAL%]&raw=[%RAW%]&ref=[%REF%]&type=[%TYPE%]&offer_id=[%OFFER_ID%]&offer_name=[%OFFER_NAME%]
 * BitLabs appends `&hash=`: the hex HMAC-SHA1, keyed with the app secret, of the whole URL as it
 * called it (scheme, host, path and query), without that `&hash=…`.
 * A reconciliation (a reversal) has its own transaction id and names the completion it reverses
 * in `ref`; its value is negative, or, with stateful callbacks, its type is RECONCILIATION.
 * Callbacks from the dashboard's tester carry debug=true: answered, never paid.
 */
export const bitlabs: WallNetwork<{ appToken: string; appSecret: string }> = {
  name: "bitlabs",
  label: "BitLabs",
  settings: [
    { suffix: "APP_TOKEN", meaning: "the app's API token (Apps → your app → Integration)", required: true },
    { suffix: "APP_SECRET", meaning: "the app's secret key, which signs callbacks", required: true, secret: true },
  ],
  postbackQuery:
    "uid=[%UID%]&tx=[%TX%]&val=[%VAL%]&raw=[%RAW%]&ref=[%REF%]&type=[%TYPE%]&offer_id=[%OFFER_ID%]&offer_name=[%OFFER_NAME%]",
  // BitLabs publishes no sender addresses.
  senderAddresses: [],
  // The hash covers the whole URL: every parameter, the transaction and the value among them.
  signature: { parameters: ["hash"], bindsTransaction: true },
  configure: (settings) => ({ appToken: settings.APP_TOKEN ?? "", appSecret: settings.APP_SECRET ?? "" }),
  wallUrl: ({ appToken }, wallUserId) =>
    `https://web.bitlabs.ai/?${new URLSearchParams({ uid: wallUserId, token: appToken })}`,
  readPostback(request, { appSecret }) {
    if (request.method !== "GET") return refused(400, "BitLabs callbacks are GET requests");
    const marker = request.url.lastIndexOf("&hash=");
    const hash = marker === -1 ? null : request.url.slice(marker + "&hash=".length);
    // The hash is the last parameter: anything after it was not signed.
    if (hash === null || hash.includes("&")) return refused(403, "no hash at the end of the URL");
    if (!sameHex(hash, bitlabsHash(appSecret, request.url.slice(0, marker)))) {
      return refused(403, "the hash does not match the URL");
    }
    const params = uniqueParameters(request);
    if (!params) return refused(400, "a parameter appears twice");
    if (params.get("debug") === "true") {
      return { kind: "ignored", reason: "a test callback", transactionId: params.get("tx") ?? null, wallUserId: null };
    }
    const coins = readCoins(params.get("val"));
    const reversal = params.get("type")?.toUpperCase() === "RECONCILIATION" || coins?.negative === true;
    return creditOrReversal({
      reversal,
      // A reconciliation names the completion it takes back.
      transactionId: reversal ? params.get("ref") : params.get("tx"),
      wallUserId: params.get("uid"),
      coins,
      payoutUsd: params.get("raw"),
      offerId: params.get("offer_id"),
      offerName: params.get("offer_name"),
    });
  },
  simulatedPostback({ appSecret }, postback) {
    const reversal = postback.kind === "reversal";
    const unsigned = getPostback("bitlabs", [
      ["uid", postback.wallUserId],
      // A reconciliation has a transaction id of its own and names the completion in ref.
      ["tx", reversal ? `r${postback.transactionId}` : postback.transactionId],
      ["val", reversal ? `-${postback.coins}` : String(postback.coins)],
      ["ref", reversal ? postback.transactionId : ""],
      ["type", reversal ? "RECONCILIATION" : "COMPLETE"],
      ["offer_id", postback.offerId],
      ["offer_name", postback.offerName],
    ]);
    const hash = bitlabsHash(appSecret, `${postback.appUrl}${unsigned.pathAndQuery}`);
    return { ...unsigned, pathAndQuery: `${unsigned.pathAndQuery}&hash=${hash}` };
  },
  accepted: { status: 200, body: "OK" },
};
