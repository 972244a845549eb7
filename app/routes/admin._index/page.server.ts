import { requireOperator } from "~/server/operator/access.server";
import { readDashboard } from "~/server/operator/dashboard.server";

/**
 * The console's home (docs/operator-console.md, "Dashboard"): the business's figures, read in one
 * call from the counters the database keeps, and who is signed in. Every role sees it.
 */
export async function loadConsoleHome(request: Request) {
  const operator = await requireOperator(request, "support");
  const dashboard = await readDashboard(operator.uid);
  return { operator: { name: operator.name, email: operator.email, role: operator.role }, dashboard };
}
