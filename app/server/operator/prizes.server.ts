// The console's monthly prizes (docs/decisions/097): the settled months and the decision on a held
// prize. Roles and rules are checked again in SQL (operator_prize_awards, operator_decide_prize),
// each decision audited there.
import type { PrizeMonthRow } from "~/domain/prizes";
import { getDatabase } from "../db/database.server";
import type { Operator } from "./access.server";

export async function readPrizeMonths(operator: Operator): Promise<PrizeMonthRow[]> {
  return (await getDatabase()).rpc<PrizeMonthRow[]>("operator_prize_awards", { p_operator_id: operator.uid });
}

export async function decidePrize(
  operator: Operator,
  decision: { month: string; place: number; approve: boolean; reason: string },
): Promise<{ status: string; refused: string | null }> {
  return (await getDatabase()).rpc("operator_decide_prize", {
    p_operator_id: operator.uid,
    p_actor: operator.name,
    p_month: decision.month,
    p_place: decision.place,
    p_approve: decision.approve,
    p_reason: decision.reason,
  });
}
