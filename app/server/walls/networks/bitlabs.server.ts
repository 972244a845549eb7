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

const OFFER_STATES = new Set(["NONE", "COMPLETED", "PENDING", "RECONCILED"]);

/**
 * The completion a reconciliation takes back: the one its ref names; with stateful callbacks
 * (RECONCILED) the same tx, as BitLabs keeps one transaction id across an offer's states; else a
 * stateless offer reconciliation's "or…" id names the completion "o…" ("the transaction IDs for
 * reconciled callbacks will have an `or` prefix instead of just `o`").
 */
function reconciledTransaction(params: ReadonlyMap<string, string>, state: string): string | undefined {
  const ref = params.get("ref");
  if (ref) return ref;
  const tx = params.get("tx");
  if (state === "RECONCILED") return tx;
  return tx?.startsWith("or") ? `o${tx.slice(2)}` : tx;
}

/** BitLabs' hash of a callback: the hex HMAC-SHA1 of the URL it calls, keyed with the app secret. */
const bitlabsHash = (appSecret: string, url: string) => hmacHex("sha1", appSecret, url);

/**
 * BitLabs (developer.bitlabs.ai: "Callbacks", "Securing callbacks through hashing", "Offer
 * callbacks"). Callbacks are GET; the URL's parameter names are the operator's choice in the
 * dashboard, and these are the ones docs/walls/bitlabs.md gives:
 *   ?uid=[%UID%]&tx=[%TX%]&val=[%VAL%]&raw=[%RAW%]&ref=[%REF%]&type=[%TYPE%]&offer_state=[%OFFER_STATE%]&offer_id=[%OFFER_ID%]&offer_name=[%OFFER_NAME%]
 * BitLabs appends `&hash=`: the hex HMAC-SHA1, keyed with the app secret, of the whole URL as it
 * called it (scheme, host, path and query, exactly as sent: "Do not encode/decode the URL before
 * generating the hash"), without that `&hash=…`; the app checks it on the request target as
 * received (incoming.server.ts), never on a re-escaped URL.
 * A reconciliation (a reversal) has its own transaction id and names the completion it reverses
 * in `ref`; its value is negative, or, with stateful callbacks, its type is RECONCILIATION.
 * Callbacks from the dashboard's tester carry debug=true: answered, never paid.
 */
export const bitlabs: WallNetwork<{ appToken: string; appSecret: string }> = {
  name: "bitlabs",
  label: "BitLabs",
  bestFor: ["survey"],
  settings: [
    { suffix: "APP_TOKEN", meaning: "the app's API token (Apps → your app → Integration)", required: true },
    { suffix: "APP_SECRET", meaning: "the app's secret key, which signs callbacks", required: true, secret: true },
  ],
  postbackQuery:
    "uid=[%UID%]&tx=[%TX%]&val=[%VAL%]&raw=[%RAW%]&ref=[%REF%]&type=[%TYPE%]&offer_state=[%OFFER_STATE%]&offer_id=[%OFFER_ID%]&offer_name=[%OFFER_NAME%]",
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
    // Stateful offer callbacks (OFFER_STATE): PENDING is paid only once BitLabs follows with
    // COMPLETED ("You should not pay this balance to the user before receiving a COMPLETED
    // callback!"); RECONCILED takes back the same tx. NONE (or no OFFER_STATE): the stateless form.
    const state = (params.get("offer_state") ?? "NONE").toUpperCase();
    if (!OFFER_STATES.has(state)) return refused(400, "offer_state must be NONE, COMPLETED, PENDING or RECONCILED");
    if (state === "PENDING") {
      return {
        kind: "ignored",
        reason: "a PENDING offer: paid when BitLabs sends COMPLETED",
        transactionId: params.get("tx") ?? null,
        wallUserId: params.get("uid") ?? null,
      };
    }
    const reversal =
      state === "RECONCILED" || params.get("type")?.toUpperCase() === "RECONCILIATION" || coins?.negative === true;
    return creditOrReversal({
      reversal,
      transactionId: reversal ? reconciledTransaction(params, state) : params.get("tx"),
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
