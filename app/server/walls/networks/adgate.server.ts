import { timingSafeEqual } from "node:crypto";
import {
  creditOrReversal,
  getPostback,
  parseCoins,
  refused,
  uniqueParameters,
  type WallNetwork,
} from "../network.server";

function sameSecret(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * AdGate Media, now Prodege (docs.prodegeads.com: "Postback information"). Postbacks are GET and
 * unsigned: AdGate's advice is a postback URL only AdGate knows, and its one sender address.
 * So the URL carries a token of the operator's (WALL_ADGATE_POSTBACK_TOKEN), and the macros
 * (docs/offer-walls.md):
 *   ?token=…&conversion_id={conversion_id}&user_id={s1}&points={points}&payout={payout}&state={state}&offer_title={vc_title}
 * state is approved, pending (paid later: nothing yet) or rejected (a reversal). AdGate sends
 * reversals only to a URL with {state}, so a postback without it is refused. It resends until it
 * gets a 200, up to 5 times, 5 minutes apart.
 */
export const adgate: WallNetwork<{ postbackToken: string; wallCode: string }> = {
  name: "adgate",
  label: "AdGate Media",
  settings: [
    { suffix: "WALL_CODE", meaning: "the wall code (the vc-walls page)", required: true },
    {
      suffix: "POSTBACK_TOKEN",
      meaning: "a random token of at least 16 characters, put in the postback URL given to AdGate",
      required: true,
      secret: true,
      minLength: 16,
    },
  ],
  // docs.adgatemedia.com, "Postback information".
  senderAddresses: ["52.42.57.125"],
  configure: (settings) => ({ postbackToken: settings.POSTBACK_TOKEN ?? "", wallCode: settings.WALL_CODE ?? "" }),
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
      coins: parseCoins(params.get("points")),
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
};
