import type { TestDatabase } from "./db";

// The SQL calls the rule tests arrange with (the app makes the same calls), in one place: a
// verified member, a credit of bonus coins, an operator, an offer's postback.

let counter = 0;
/** An account id no other test of the run uses: `prefix`, the time and a counter. */
export const newUserId = (prefix = "member") => `${prefix}-${Date.now().toString(36)}-${++counter}`;

/**
 * A new account as a sign-up leaves it (provision_user, email `{id}@example.com` unless told, null
 * for none; verified unless told), with `coins` of bonus money credited (add_user_coins): its id.
 * `referralCode` and `identity` (the identity hash) are passed only when given, so a call without
 * them is the plain sign-up; `userId` names the account instead of `newUserId(prefix)`.
 */
export async function provisionMember(
  t: TestDatabase,
  {
    prefix = "member",
    userId = newUserId(prefix),
    name = "Member",
    email = `${userId}@example.com` as string | null,
    coins = 0,
    verified = true,
    referralCode = null as string | null,
    identity = null as string | null,
  } = {},
): Promise<string> {
  await t.db.rpc("provision_user", {
    p_user_id: userId,
    p_email: email,
    p_display_name: name,
    p_email_verified: verified,
    ...(referralCode !== null ? { p_referral_code: referralCode } : {}),
    ...(identity !== null ? { p_identity_hash: identity } : {}),
  });
  if (coins) await t.db.rpc("add_user_coins", { user_id_param: userId, amount_param: coins });
  return userId;
}

/**
 * A new account holding `role` in the operators table, as `npm run operator -- grant` leaves it
 * (grant_operator_role; the Firebase claim is the HTTP tests' concern): its id.
 */
export async function provisionOperator(t: TestDatabase, role: "owner" | "finance" | "support", prefix: string = role) {
  const userId = await provisionMember(t, { prefix, name: "Operator" });
  await t.db.rpc("grant_operator_role", { p_actor: "test", p_user_id: userId, p_role: role });
  return userId;
}

/**
 * An offer's postback as the app records it once the signature holds (record_postback), naming the
 * offer when `offerId` is given: what it answers.
 */
export function recordPostback(
  t: TestDatabase,
  userId: string,
  transactionId: string,
  coins: number,
  { reversal = false, provider = "acme", offerId }: { reversal?: boolean; provider?: string; offerId?: string } = {},
) {
  return t.db.rpc<{ duplicate: boolean; amount: number }>("record_postback", {
    p_provider: provider,
    p_transaction_id: transactionId,
    p_user_id: userId,
    p_coins: coins,
    p_reversal: reversal,
    p_description: reversal ? "Offer reversed" : "Offer completed",
    ...(offerId ? { p_offer_id: offerId } : {}),
  });
}
