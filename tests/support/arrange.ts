import type { TestDatabase } from "./db";

// The SQL calls the rule tests arrange with (the app makes the same calls), in one place: a
// verified member, a credit of bonus coins, an operator, an offer's postback.

let counter = 0;
/** An account id no other test of the run uses: `prefix`, the time and a counter. */
export const newUserId = (prefix = "member") => `${prefix}-${Date.now().toString(36)}-${++counter}`;

/**
 * A new account as a sign-up leaves it (provision_user, email `{id}@example.com`, verified unless
 * told), with `coins` of bonus money credited (add_user_coins): its id.
 */
export async function provisionMember(
  t: TestDatabase,
  { prefix = "member", name = "Member", coins = 0, verified = true } = {},
): Promise<string> {
  const userId = newUserId(prefix);
  await t.db.rpc("provision_user", {
    p_user_id: userId,
    p_email: `${userId}@example.com`,
    p_display_name: name,
    p_email_verified: verified,
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

/** An offer's postback as the app records it once the signature holds (record_postback). */
export function recordPostback(
  t: TestDatabase,
  userId: string,
  transactionId: string,
  coins: number,
  { reversal = false, provider = "acme" } = {},
) {
  return t.db.rpc("record_postback", {
    p_provider: provider,
    p_transaction_id: transactionId,
    p_user_id: userId,
    p_coins: coins,
    p_reversal: reversal,
    p_description: reversal ? "Offer reversed" : "Offer completed",
  });
}
