import {
  creditOrReversal,
  md5Hex,
  readCoins,
  refused,
  sameHex,
  uniqueParameters,
  type WallNetwork,
} from "../network.server";

/** Revlum's signature: md5(subId + transId + reward + secret), hex. */
function revlumSignature(params: ReadonlyMap<string, string>, secret: string): string {
  return md5Hex(["subId", "transId", "reward"].map((name) => params.get(name) ?? "").join("") + secret);
}

// What Revlum's concatenation can hold, checked before hashing so that characters cannot move
// between fields: subId pays only as one of the app's wall ids, all of one length; transId letters, digits and - _ . :
// (Revlum's example is "REV-351"), reward an absolute decimal ("25.0"; Revlum: "always absolute
// values"). A digit moved from the end of transId to the start of reward keeps the signature: the
// signature-reuse check (take_postback) holds that one, since the same value already paid transId.
const TRANSACTION = /^[A-Za-z0-9_.:-]{1,100}$/;
const ABSOLUTE_REWARD = /^[0-9]{1,9}(\.[0-9]{1,6})?$/;

/**
 * Revlum (developer.revlum.com: "GET Postback", "POST Postback", "Postback Security"). Postbacks
 * come as GET with macros or as a POST form; the parameters are subId (the person), transId,
 * reward (in the app's currency, always absolute), payout (dollars), offerId, offerName, status (1 a
 * conversion, 2 a chargeback of the same transId), debug (1 for a test) and signature = md5(subId +
 * transId + reward + the app's secret key), without separators. status is not signed: a chargeback
 * is held for an operator (docs/walls/revlum.md). Revlum's reference answers "ok".
 */
export const revlum: WallNetwork<{ appId: string; secret: string }> = {
  name: "revlum",
  label: "Revlum",
  bestFor: ["app", "survey"],
  settings: [
    { suffix: "APP_ID", meaning: "the app's id", required: true },
    { suffix: "SECRET", meaning: "the app's secret key, which signs postbacks", required: true, secret: true },
  ],
  postbackQuery:
    "subId={subId}&transId={transId}&reward={reward}&payout={payout}&offerId={offerId}&offerName={offerName}&status={status}&debug={debug}&signature={signature}",
  // Revlum's reference postback handler allows this one address.
  senderAddresses: ["209.159.156.198"],
  // signature concatenates subId, transId and reward without separators, and leaves status out.
  signature: { parameters: ["signature"], bindsTransaction: false },
  configure: (settings) => ({ appId: settings.APP_ID ?? "", secret: settings.SECRET ?? "" }),
  wallUrl: ({ appId }, wallUserId) =>
    `https://revlum.com/offerwall/${encodeURIComponent(appId)}?${new URLSearchParams({ user_id: wallUserId })}`,
  readPostback(request, { secret }) {
    const params = uniqueParameters(request);
    if (!params) return refused(400, "a parameter appears twice");
    if (!TRANSACTION.test(params.get("transId") ?? "")) return refused(400, "transId is not in Revlum's form");
    if (!ABSOLUTE_REWARD.test(params.get("reward") ?? "")) {
      return refused(400, "reward is not an absolute decimal number as Revlum sends it");
    }
    if (!sameHex(params.get("signature"), revlumSignature(params, secret))) {
      return refused(403, "signature does not match md5(subId + transId + reward + secret)");
    }
    if (params.get("debug") === "1") {
      return {
        kind: "ignored",
        reason: "a test postback",
        transactionId: params.get("transId") ?? null,
        wallUserId: params.get("subId") ?? null,
      };
    }
    const status = params.get("status");
    if (status !== "1" && status !== "2") return refused(400, "status must be 1 or 2");
    return creditOrReversal({
      reversal: status === "2",
      unsignedReversal: "Revlum's status=2",
      transactionId: params.get("transId"),
      wallUserId: params.get("subId"),
      coins: readCoins(params.get("reward")),
      payoutUsd: params.get("payout"),
      offerId: params.get("offerId"),
      offerName: params.get("offerName"),
    });
  },
  simulatedPostback({ secret }, postback) {
    const params: [string, string][] = [
      ["subId", postback.wallUserId],
      ["transId", postback.transactionId],
      // Always positive: status says whether it is a chargeback.
      ["reward", String(postback.coins)],
      ["offerId", postback.offerId],
      ["offerName", postback.offerName],
      ["status", postback.kind === "reversal" ? "2" : "1"],
    ];
    // Revlum posts a form as well as calling a URL with macros: the form, so both ways are exercised.
    return {
      method: "POST",
      pathAndQuery: "/api/revlum/postback",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([...params, ["signature", revlumSignature(new Map(params), secret)]]).toString(),
    };
  },
  accepted: { status: 200, body: "ok" },
};
