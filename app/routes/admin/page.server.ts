import { requireOperator } from "~/server/operator/access.server";
import { twoFactorRequired } from "~/server/operator/two-factor.server";

/**
 * The console's frame (docs/operator-console.md): who is signed in and their role. Every operator
 * role enters; each page's own loader checks again, with the role that page needs, since a page's
 * data can be asked for without its parent's.
 */
export async function loadConsole(request: Request) {
  const operator = await requireOperator(request, "support");
  return {
    operator: { name: operator.name, email: operator.email, role: operator.role },
    // The step-up asks for an authenticator code too (docs/decisions/093).
    twoFactor: twoFactorRequired(),
  };
}
