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

/** Torox's sig: md5(oid + "-" + user_id + "-" + secret), hex. */
const toroxSig = (offerId: string, userId: string, secret: string) => md5Hex(`${offerId}-${userId}-${secret}`);

/**
 * Torox, formerly OfferToro (offertoro.com/docs, "Postback"; Torox kept the format). Postbacks
 * are GET with id (the conversion), oid (the offer), amount (in the app's currency), user_id,
 * payout (dollars), o_name and sig = md5(oid + "-" + user_id + "-" + the app placement's secret
 * key). The signature covers neither the amount nor the conversion id (docs/walls/torox.md): the
 * sender allowlist is required, a sig already seen on another conversion is held for an operator,
 * and a reversal (the conversion's id again, with a negative amount, unsigned) waits for an
 * operator too. Torox wants the body "1".
 */
export const torox: WallNetwork<{ secret: string; publisherId: string; appId: string }> = {
  name: "torox",
  label: "Torox",
  bestFor: ["game", "survey"],
  settings: [
    { suffix: "PUBLISHER_ID", meaning: "the publisher id (Account)", required: true },
    { suffix: "APP_ID", meaning: "the app placement's id", required: true },
    {
      suffix: "SECRET",
      meaning: "the app placement's secret key, which signs postbacks",
      required: true,
      secret: true,
    },
  ],
  postbackQuery: null,
  // Not on Torox's own pages: the address integrations of OfferToro allow (docs/walls/torox.md).
  senderAddresses: ["54.175.173.245"],
  // sig covers the offer and the person only: neither the conversion id nor the amount.
  signature: { parameters: ["sig"], bindsTransaction: false },
  configure: (settings) => ({
    secret: settings.SECRET ?? "",
    publisherId: settings.PUBLISHER_ID ?? "",
    appId: settings.APP_ID ?? "",
  }),
  wallUrl: ({ publisherId, appId }, wallUserId) =>
    `https://torox.io/ifr/show/${encodeURIComponent(publisherId)}/${encodeURIComponent(wallUserId)}/${encodeURIComponent(appId)}`,
  readPostback(request, { secret }) {
    const params = uniqueParameters(request);
    if (!params) return refused(400, "a parameter appears twice");
    const offerId = params.get("oid") ?? "";
    const userId = params.get("user_id") ?? "";
    if (!sameHex(params.get("sig"), toroxSig(offerId, userId, secret))) {
      return refused(403, "sig does not match md5(oid-user_id-secret)");
    }
    const coins = readCoins(params.get("amount"));
    return creditOrReversal({
      reversal: coins?.negative === true,
      unsignedReversal: "Torox's negative amount",
      transactionId: params.get("id"),
      wallUserId: userId,
      coins,
      payoutUsd: params.get("payout"),
      offerId,
      offerName: params.get("o_name"),
    });
  },
  simulatedPostback({ secret }, postback) {
    return getPostback("torox", [
      ["id", postback.transactionId],
      ["oid", postback.offerId],
      ["amount", postback.kind === "reversal" ? `-${postback.coins}` : String(postback.coins)],
      ["user_id", postback.wallUserId],
      ["o_name", postback.offerName],
      ["sig", toroxSig(postback.offerId, postback.wallUserId, secret)],
    ]);
  },
  accepted: { status: 200, body: "1" },
};
