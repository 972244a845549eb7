import { isOperatorRole, OPERATOR_ROLES, type OperatorRole } from "~/domain/operator-roles";
import { getAdminAuth } from "../auth/firebase-admin.server";
import type { Database } from "../db/core.server";

/**
 * Granting and revoking operator roles (`npm run operator`, docs/operator-console.md): the
 * `operators` row and its audit entry in one SQL call, then the Firebase custom claim `role`, then
 * the person's sessions revoked, so that the next sign-in carries the new claim. The row is
 * changed before the claim: a claim alone lets nobody in, so a failure half way never opens the
 * console (and a revoke closes it at once).
 */

/** An operator's mistake (an unknown role): the one line they read. */
export class RoleError extends Error {
  name = "RoleError";
}

/** A role as the operator types it, checked. */
export function operatorRole(value: string): OperatorRole {
  const role = value.toLowerCase();
  if (!isOperatorRole(role)) throw new RoleError(`unknown role "${value}" (one of ${OPERATOR_ROLES.join(", ")})`);
  return role;
}

export interface RoleChange {
  user_id: string;
  email: string;
  role: OperatorRole | null;
  previous_role: OperatorRole | null;
  changed: boolean;
}

export async function grantOperatorRole(
  db: Database,
  change: { userId: string; email: string; role: OperatorRole; actor: string },
): Promise<RoleChange> {
  // Firebase asked first: a profile whose Firebase account is gone gets no row it could never use.
  await getAdminAuth().getUser(change.userId);
  const result = await db.rpc<{ previous_role: OperatorRole | null; changed: boolean }>("grant_operator_role", {
    p_actor: change.actor,
    p_user_id: change.userId,
    p_role: change.role,
    p_actor_user_id: null,
  });
  // Also when the row was already there: a claim lost (or never set) is put right.
  await setRoleClaim(db, change.userId, change.role);
  return { user_id: change.userId, email: change.email, role: change.role, ...result };
}

export async function revokeOperatorRole(
  db: Database,
  change: { userId: string; email: string; actor: string },
): Promise<RoleChange> {
  const result = await db.rpc<{ previous_role: OperatorRole | null; changed: boolean }>("revoke_operator_role", {
    p_actor: change.actor,
    p_user_id: change.userId,
    p_actor_user_id: null,
  });
  await setRoleClaim(db, change.userId, null);
  return { user_id: change.userId, email: change.email, role: null, ...result };
}

/** Sets (or with null removes) the `role` claim, keeping any other claim, and ends every session. */
async function setRoleClaim(db: Database, uid: string, role: OperatorRole | null) {
  const auth = getAdminAuth();
  const { customClaims = {} } = await auth.getUser(uid);
  const { role: _previous, ...others } = customClaims;
  await auth.setCustomUserClaims(uid, role === null ? others : { ...others, role });
  // Firebase keeps a revocation's time to the second and still accepts a session signed in within
  // that second (session.server.ts, revokeSessions): revoked again once that second is over.
  await auth.revokeRefreshTokens(uid);
  await new Promise((resolve) => setTimeout(resolve, 1_050 - (Date.now() % 1_000)));
  await auth.revokeRefreshTokens(uid);
  // The servers forget the session checks they keep for a moment (SESSION_VERIFY_CACHE_MS).
  await db.rpc("announce_sessions_ended", { p_user_id: uid });
}

/**
 * `npm run operator -- reset-2fa <email>` (docs/decisions/093): the operator's authenticator and
 * recovery codes go (audited with the actor's name), and every session ends: their next visit to
 * /admin enrols a new authenticator.
 */
export async function resetOperatorTwoFactor(
  db: Database,
  change: { userId: string; email: string; actor: string },
): Promise<{ user_id: string; email: string; had_authenticator: boolean }> {
  const result = await db.rpc<{ had_authenticator: boolean }>("reset_operator_totp", {
    p_actor: change.actor,
    p_user_id: change.userId,
  });
  const auth = getAdminAuth();
  await auth.revokeRefreshTokens(change.userId);
  return { user_id: change.userId, email: change.email, had_authenticator: result.had_authenticator };
}
