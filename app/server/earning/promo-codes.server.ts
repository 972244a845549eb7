// Promo codes (docs/decisions/095): a person redeems one; the rules are redeem_promo_code's (SQL).
// Here only the limit per client address, as sign-ups from one address are limited.
import { tooManyAttemptsMessage } from "~/domain/rate-limit";
import { isRuleKey, ruleMessage } from "~/domain/rules";
import { getDatabase } from "../db/database.server";
import { clientAddress } from "../http/client-address.server";
import { hitRateLimit, RATE_LIMITS } from "../http/rate-limit.server";

type Redeemed =
  | { paid: true; coins: number; code: string; balance: number }
  | { paid: false; refused: string; retry_after_seconds?: number };

/** The coins paid for `code`, or the words of why it was refused (nothing paid). */
export async function redeemPromoCode(
  request: Request,
  userId: string,
  code: string,
): Promise<{ coins: number; code: string } | { refusal: string }> {
  const address = clientAddress(request);
  if (address) {
    const hit = await hitRateLimit(RATE_LIMITS.promoCodeFromAddress, address);
    if (!hit.allowed) return { refusal: tooManyAttemptsMessage(hit.retryAfterSeconds) };
  }
  const result = await (await getDatabase()).rpc<Redeemed>("redeem_promo_code", { p_user_id: userId, p_code: code });
  if (result.paid) return { coins: result.coins, code: result.code };
  if (!isRuleKey(result.refused)) {
    console.error(`promo code: unknown refusal ${JSON.stringify(result.refused)}`);
    return { refusal: "Please try again later." };
  }
  return { refusal: ruleMessage(result.refused, String(result.retry_after_seconds ?? "")) };
}
