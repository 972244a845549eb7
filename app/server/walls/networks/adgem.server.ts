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

const NONPAYABLE_FLAG = "&nonpayable_install_goal=true";

/** AdGem's verifier: the hex HMAC-SHA256 of the postback URL as it called it, keyed with the Postback Key. */
const adgemVerifier = (postbackKey: string, url: string) => hmacHex("sha256", postbackKey, url);

/**
 * AdGem, postbacks v2 (docs.adgem.com: "Postbacks v2", "Postback macros", "Security"). GET; the
 * parameter names are the publisher's choice, and these are the ones docs/walls/adgem.md gives:
 *   ?transaction_id={transaction_id}&player_id={player_id}&amount={amount}&payout={payout}&offer_id={campaign_id}&offer_name={offer_name}
 * ({campaign_id} is the offer on a wall; AdGem's {offer_id} is for "Offer API integrations only").
 * With a Postback Key set in the dashboard, AdGem adds `request_id` and, last, `verifier`: the
 * hex HMAC-SHA256, keyed with the Postback Key, of the whole URL as it called it without
 * `&verifier=…`. An install goal that pays nothing carries `nonpayable_install_goal=true`, which
 * AdGem appends at the end, after the verifier.
 * AdGem's documentation describes no reversal postback: a negative amount is refused rather than
 * guessed at, and reversals reach the operator through AdGem's dashboard.
 */
export const adgem: WallNetwork<{ appId: string; postbackKey: string }> = {
  name: "adgem",
  label: "AdGem",
  bestFor: ["game", "app"],
  settings: [
    { suffix: "APP_ID", meaning: "the app's id (Properties → your app)", required: true },
    {
      suffix: "POSTBACK_KEY",
      meaning: "the Postback Key, which signs postbacks (shown once in the dashboard)",
      required: true,
      secret: true,
    },
  ],
  postbackQuery:
    "transaction_id={transaction_id}&player_id={player_id}&amount={amount}&payout={payout}&offer_id={campaign_id}&offer_name={offer_name}",
  // AdGem gives its postbacks' address on request (support@adgem.com), so none is set by default.
  senderAddresses: [],
  // The verifier covers the whole URL: every parameter, the transaction and the amount among them.
  signature: { parameters: ["verifier"], bindsTransaction: true },
  configure: (settings) => ({ appId: settings.APP_ID ?? "", postbackKey: settings.POSTBACK_KEY ?? "" }),
  wallUrl: ({ appId }, wallUserId) =>
    `https://api.adgem.com/v1/wall?${new URLSearchParams({ appid: appId, playerid: wallUserId })}`,
  readPostback(request, { postbackKey }) {
    if (request.method !== "GET") return refused(400, "AdGem postbacks are GET requests");
    const marker = request.url.lastIndexOf("&verifier=");
    if (marker === -1) return refused(403, "no verifier in the URL");
    const rest = request.url.slice(marker + "&verifier=".length);
    const end = rest.indexOf("&");
    const verifier = end === -1 ? rest : rest.slice(0, end);
    // After the verifier only what AdGem appends itself ("AdGem automatically appends
    // &nonpayable_install_goal=true to the end of the string"): it can only make a postback pay nothing.
    const appended = end === -1 ? "" : rest.slice(end);
    if (appended !== "" && appended !== NONPAYABLE_FLAG) return refused(403, "parameters after the verifier");
    // Signed either before the flag was appended, or (AdGem: "remove the verifier parameter from the
    // postback URL, hash the remaining URL") with it.
    const signed = [request.url.slice(0, marker), `${request.url.slice(0, marker)}${appended}`];
    if (!signed.some((url) => sameHex(verifier, adgemVerifier(postbackKey, url)))) {
      return refused(403, "the verifier does not match the URL");
    }
    const params = uniqueParameters(request);
    if (!params) return refused(400, "a parameter appears twice");
    if (params.get("nonpayable_install_goal") === "true") {
      return {
        kind: "ignored",
        reason: "an install goal that pays nothing",
        transactionId: params.get("transaction_id") ?? null,
        wallUserId: params.get("player_id") ?? null,
      };
    }
    const coins = readCoins(params.get("amount"));
    if (coins?.negative) return refused(400, "AdGem documents no reversal postback: a negative amount");
    return creditOrReversal({
      reversal: false,
      transactionId: params.get("transaction_id"),
      wallUserId: params.get("player_id"),
      coins,
      payoutUsd: params.get("payout"),
      offerId: params.get("offer_id"),
      offerName: params.get("offer_name"),
    });
  },
  simulatedPostback({ postbackKey }, postback) {
    // No reversal form to imitate (see above).
    if (postback.kind === "reversal") return null;
    const unsigned = getPostback("adgem", [
      ["transaction_id", postback.transactionId],
      ["player_id", postback.wallUserId],
      ["amount", String(postback.coins)],
      ["offer_id", postback.offerId],
      ["offer_name", postback.offerName],
      ["request_id", `req-${postback.transactionId}`],
    ]);
    const verifier = adgemVerifier(postbackKey, `${postback.appUrl}${unsigned.pathAndQuery}`);
    return { ...unsigned, pathAndQuery: `${unsigned.pathAndQuery}&verifier=${verifier}` };
  },
  accepted: { status: 200, body: "OK" },
};
