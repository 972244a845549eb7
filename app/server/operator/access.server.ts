import { redirect } from "@remix-run/node";
import { TWO_FACTOR_PATH } from "~/domain/operator-roles";
import { roleAtLeast, type OperatorRole } from "~/domain/operator-roles";
import { getSessionUser } from "../auth/session.server";
import { getDatabase } from "../db/database.server";
import { hasPassedTwoFactor, twoFactorRequired } from "./two-factor.server";

/**
 * Who may enter the operator console (docs/operator-console.md, "Who may enter"): a signed-in
 * account whose session carries a `role` claim that its `operators` row agrees with. Everyone else
 * gets the app's 404 page for every /admin URL, so nothing tells them the console exists.
 */

/** The signed-in operator, as a console page knows them. */
export interface Operator {
  uid: string;
  /** What the console calls them: the session's name, else its email. */
  name: string;
  email: string | null;
  role: OperatorRole;
  /** When they last signed in (the session's `auth_time`, seconds): money actions need a recent one. */
  authTime: number;
}

/** The answer every /admin URL gives to anyone who may not see it: the app's ordinary 404. */
function notFound(): Response {
  return new Response("Not Found", { status: 404 });
}

/**
 * The operator, when the session's role claim and the database row agree and the role ranks at
 * least `minimumRole`; otherwise throws the 404 page. A claim without the row (revoked, or a row
 * that never was) lets nobody in; nor does a row without the claim (granted, not yet signed in again).
 */
export async function requireOperator(
  request: Request,
  minimumRole: OperatorRole,
  /** The authenticator's own page lets in an operator who has not passed it yet. */
  { twoFactor = true }: { twoFactor?: boolean } = {},
): Promise<Operator> {
  const user = await getSessionUser(request);
  if (!user?.role) throw notFound();
  const db = await getDatabase();
  const recorded = await db.rpc<string | null>("operator_role", { p_user_id: user.uid });
  if (recorded !== user.role || !roleAtLeast(user.role, minimumRole)) throw notFound();
  // An operator, then: the second factor first (docs/decisions/093), coming back here after it.
  if (twoFactor && twoFactorRequired() && !hasPassedTwoFactor(request, user.uid)) {
    const { pathname, search } = new URL(request.url);
    throw redirect(`${TWO_FACTOR_PATH}?${new URLSearchParams({ redirectTo: pathname + search })}`);
  }
  return {
    uid: user.uid,
    name: user.name ?? user.email ?? user.uid,
    email: user.email,
    role: user.role,
    authTime: user.authTime,
  };
}
