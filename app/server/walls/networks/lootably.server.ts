import {
  creditOrReversal,
  getPostback,
  parseCoins,
  refused,
  sameHex,
  sha256Hex,
  uniqueParameters,
  type WallNetwork,
} from "../network.server";

/** Lootably's hash: sha256(userID + ip + revenue + currencyReward + secret) of the strings as sent, hex. */
function lootablyHash(params: ReadonlyMap<string, string>, postbackSecret: string): string {
  const signed = ["userID", "ip", "revenue", "currencyReward"].map((name) => params.get(name) ?? "").join("");
  return sha256Hex(signed + postbackSecret);
}

/**
 * Lootably (documentation.lootably.com, "Postbacks"; its package lootably-postback-hash). Postbacks
 * are GET, with the macros docs/offer-walls.md gives:
 *   ?userID={userID}&transactionID={transactionID}&ip={ip}&revenue={revenue}&currencyReward={currencyReward}&offerID={offerID}&offerName={offerName}&status={status}&hash={hash}
 * hash = sha256(userID + ip + revenue + currencyReward + the placement's postback secret), plain
 * SHA-256 of the strings as received, hex. A chargeback repeats the transaction with status 0 (or
 * a negative reward).
 */
export const lootably: WallNetwork<{ placementId: string; postbackSecret: string }> = {
  name: "lootably",
  label: "Lootably",
  settings: [
    { suffix: "PLACEMENT_ID", meaning: "the placement's id", required: true },
    {
      suffix: "POSTBACK_SECRET",
      meaning: "the placement's postback secret (Edit), which signs postbacks",
      required: true,
      secret: true,
    },
  ],
  // Lootably publishes no postback addresses.
  senderAddresses: [],
  configure: (settings) => ({
    placementId: settings.PLACEMENT_ID ?? "",
    postbackSecret: settings.POSTBACK_SECRET ?? "",
  }),
  wallUrl: ({ placementId }, wallUserId) =>
    `https://wall.lootably.com/?${new URLSearchParams({ placementID: placementId, sid: wallUserId })}`,
  readPostback(request, { postbackSecret }) {
    const params = uniqueParameters(request);
    if (!params) return refused(400, "a parameter appears twice");
    if (!sameHex(params.get("hash"), lootablyHash(params, postbackSecret))) {
      return refused(403, "hash does not match sha256(userID + ip + revenue + currencyReward + secret)");
    }
    const coins = parseCoins(params.get("currencyReward"));
    const status = params.get("status");
    if (status !== undefined && status !== "0" && status !== "1") return refused(400, "status must be 1 or 0");
    return creditOrReversal({
      reversal: status === "0" || coins?.negative === true,
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
      ["revenue", "0.00"],
      ["currencyReward", String(postback.coins)],
      ["offerID", postback.offerId],
      ["offerName", postback.offerName],
      // A chargeback repeats the transaction with status 0.
      ["status", postback.kind === "reversal" ? "0" : "1"],
    ];
    return getPostback("lootably", [...params, ["hash", lootablyHash(new Map(params), postbackSecret)]]);
  },
  accepted: { status: 200, body: "1" },
};
