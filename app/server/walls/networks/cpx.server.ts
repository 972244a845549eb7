import {
  creditOrReversal,
  getPostback,
  md5Hex,
  readCoins,
  refused,
  sameHex,
  uniqueParameters,
  type WallNetwork,
} from "../network.server";

/** CPX Research's secure_hash of a postback: md5(trans_id + "-" + the app's secure hash), hex. */
const cpxHash = (transactionId: string, secureHash: string) => md5Hex(`${transactionId}-${secureHash}`);

/**
 * CPX Research (docs/walls/cpx.md says where each fact comes from). Postbacks are GET with the
 * macros the postback URL gives:
 *   ?status={status}&trans_id={trans_id}&user_id={user_id}&amount_local={amount_local}&amount_usd={amount_usd}&offer_id={offer_ID}&type={type}&secure_hash={secure_hash}
 * status 1 is a completed survey, 2 a reversal (canceled) of the same trans_id; amount_local is in
 * the app's currency, amount_usd what CPX pays; secure_hash = md5(trans_id + "-" + the app's secure
 * hash). The hash covers the transaction id alone, neither the person, the amount nor the status:
 * the sender allowlist is required, and a reversal (status 2, unsigned) waits for an operator.
 */
export const cpx: WallNetwork<{ appId: string; secureHash: string }> = {
  name: "cpx",
  label: "CPX Research",
  bestFor: ["survey"],
  settings: [
    { suffix: "APP_ID", meaning: "the app's id (Publisher dashboard → Apps)", required: true },
    {
      suffix: "SECURE_HASH",
      meaning: "the app's secure hash key (App settings → Postback), which signs postbacks",
      required: true,
      secret: true,
    },
  ],
  postbackQuery:
    "status={status}&trans_id={trans_id}&user_id={user_id}&amount_local={amount_local}&amount_usd={amount_usd}&offer_id={offer_ID}&type={type}&secure_hash={secure_hash}",
  // The addresses integrations of CPX allow (not on a page of CPX's own in our sources: docs/walls/cpx.md).
  senderAddresses: ["188.40.3.73", "157.90.97.92", "2a01:4f8:d0a:30ff::2"],
  // secure_hash covers trans_id only: not the person, the amount or the status.
  signature: { parameters: ["secure_hash"], bindsTransaction: false },
  configure: (settings) => ({ appId: settings.APP_ID ?? "", secureHash: settings.SECURE_HASH ?? "" }),
  wallUrl: ({ appId }, wallUserId) =>
    `https://offers.cpx-research.com/index.php?${new URLSearchParams({ app_id: appId, ext_user_id: wallUserId })}`,
  readPostback(request, { secureHash }) {
    if (request.method !== "GET") return refused(400, "CPX Research postbacks are GET requests");
    const params = uniqueParameters(request);
    if (!params) return refused(400, "a parameter appears twice");
    const transactionId = params.get("trans_id") ?? "";
    if (!sameHex(params.get("secure_hash"), cpxHash(transactionId, secureHash))) {
      return refused(403, "secure_hash does not match md5(trans_id-secure hash)");
    }
    const status = params.get("status");
    if (status !== "1" && status !== "2") return refused(400, "status must be 1 or 2");
    return creditOrReversal({
      reversal: status === "2",
      unsignedReversal: "CPX Research's status=2",
      transactionId,
      wallUserId: params.get("user_id"),
      coins: readCoins(params.get("amount_local")),
      payoutUsd: params.get("amount_usd"),
      offerId: params.get("offer_id"),
      offerName: null,
    });
  },
  simulatedPostback({ secureHash }, postback) {
    return getPostback("cpx", [
      ["status", postback.kind === "reversal" ? "2" : "1"],
      ["trans_id", postback.transactionId],
      ["user_id", postback.wallUserId],
      ["amount_local", String(postback.coins)],
      ["amount_usd", "0.00"],
      ["offer_id", postback.offerId],
      ["type", "complete"],
      ["secure_hash", cpxHash(postback.transactionId, secureHash)],
    ]);
  },
  accepted: { status: 200, body: "OK" },
};
