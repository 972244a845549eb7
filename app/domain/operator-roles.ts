// The operator console's roles (docs/operator-console.md, "Roles"). The role is a Firebase custom
// claim on the session and a row of `operators`; SQL ranks them too (require_operator_role).

/** From the least to the most allowed: each role may do what the ones before it may. */
export const OPERATOR_ROLES = ["support", "finance", "owner"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export function isOperatorRole(value: unknown): value is OperatorRole {
  return typeof value === "string" && (OPERATOR_ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do what `minimum` may. */
export function roleAtLeast(role: OperatorRole, minimum: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(minimum);
}

export const OPERATOR_ROLE_LABELS: Record<OperatorRole, string> = {
  support: "Support",
  finance: "Finance",
  owner: "Owner",
};

/** Money actions (approve, pay, reject, adjust) need a sign-in this recent (issue 20). */
export const RECENT_SIGN_IN_SECONDS = 15 * 60;

/**
 * Whether a sign-in at `authTimeSeconds` (the session's `auth_time`, seconds since the epoch) was
 * within the last RECENT_SIGN_IN_SECONDS at `nowMs`. A time in the future (clocks that differ by
 * more than a moment) does not count as recent.
 */
export function signedInRecently(authTimeSeconds: number, nowMs: number = Date.now()): boolean {
  const ageSeconds = nowMs / 1000 - authTimeSeconds;
  return Number.isFinite(ageSeconds) && ageSeconds >= -60 && ageSeconds <= RECENT_SIGN_IN_SECONDS;
}

/** The console's authenticator page (docs/decisions/093): enrolment, then a code at each sign-in. */
export const TWO_FACTOR_PATH = "/admin/2fa";
