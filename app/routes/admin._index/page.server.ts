import { requireOperator } from "~/server/admin/access.server";

/** The console's home: who is signed in, with which role. Every role sees it. */
export async function loadConsoleHome(request: Request) {
  const operator = await requireOperator(request, "support");
  return { operator: { name: operator.name, email: operator.email, role: operator.role } };
}
