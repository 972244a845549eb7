// The console's promo codes (docs/decisions/095): the list, and making and ending a code. Roles and
// rules are checked again in SQL (operator_create_promo_code, operator_disable_promo_code), each
// action audited there.
import type { PromoCodeRow } from "~/domain/promo-codes";
import { getDatabase } from "../db/database.server";
import type { Operator } from "./access.server";

export async function readPromoCodes(operator: Operator): Promise<PromoCodeRow[]> {
  return (await getDatabase()).rpc<PromoCodeRow[]>("operator_promo_codes", { p_operator_id: operator.uid });
}

export async function createPromoCode(
  operator: Operator,
  terms: {
    code: string;
    coins: number;
    maxUses: number;
    startsAt: string;
    endsAt: string;
    newAccountsOnly: boolean;
    countries: string[];
    reason: string;
  },
): Promise<{ id: number; code: string }> {
  return (await getDatabase()).rpc("operator_create_promo_code", {
    p_operator_id: operator.uid,
    p_actor: operator.name,
    p_code: terms.code,
    p_coins: terms.coins,
    p_max_uses: terms.maxUses,
    p_starts_at: terms.startsAt,
    p_ends_at: terms.endsAt,
    p_new_accounts_only: terms.newAccountsOnly,
    p_countries: terms.countries,
    p_reason: terms.reason,
  });
}

export async function disablePromoCode(operator: Operator, id: number, reason: string): Promise<{ changed: boolean }> {
  return (await getDatabase()).rpc("operator_disable_promo_code", {
    p_operator_id: operator.uid,
    p_actor: operator.name,
    p_code_id: id,
    p_reason: reason,
  });
}
