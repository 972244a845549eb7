// What Profile's My Account and Settings share (docs/decisions/071-settings-is-a-real-page.md):
// the notification switches, deactivation and deletion, one implementation for both pages.
import { data } from "@remix-run/node";
import { MAX_ID_TOKEN_AGE_SECONDS } from "~/domain/constants";
import { NOTIFICATION_MESSAGES, type NotificationKind } from "~/domain/notifications";
import { accountInDebtWords } from "~/domain/account-deletion";
import { ruleMessage } from "~/domain/rules";
import { parseAmount } from "~/domain/withdrawals";
import { deleteAccountData, deletionBlocks, setAccountActive } from "./account.server";
import { limitPasswordCheck, type AttemptRefusal } from "../auth/attempt-limits.server";
import { getAdminAuth } from "../auth/firebase-admin.server";
import { IdentityError, signInWithPassword } from "../auth/identity.server";
import { announceSignedOut, clearedSessionCookie, revokeSessions, type SessionUser } from "../auth/session.server";
import { memoizeByKey } from "../runtime/cache.server";
import { ruleViolation } from "../db/core.server";
import { getEnv } from "../runtime/env.server";
import { redirectWithFlash } from "../http/flash.server";
import { rejectForm } from "../http/forms.server";
import { tooManyAttemptsMessage } from "../http/rate-limit.server";
import { clearedPushDeviceCookie, setNotificationPreference } from "../notifications/settings.server";
import { askDeletionCode, deletionCodePassed, type AccountPage } from "./account-codes.server";
import { signInCodeOn } from "./email-codes.server";

// How an account proves it is its owner (its password, else Google) decides the deletion form
// shown on every view of My Account. It is asked of Firebase once a minute per person, not on
// every view: it changes only outside the app (a password set through the reset email), and a
// stale answer still offers a way that works (Google stays linked).
const SIGN_IN_METHODS_TTL_MS = 60_000;
const signInMethodsOf = memoizeByKey(SIGN_IN_METHODS_TTL_MS, async (userId) => {
  const account = await getAdminAuth().getUser(userId);
  const providers = account.providerData.map((provider) => provider.providerId);
  return { password: providers.includes("password"), google: providers.includes("google.com") };
});

/** How the account proves it is its owner (see above): its password, else a fresh Google sign-in. */
export function signInMethods(userId: string) {
  return signInMethodsOf.get(userId);
}

/** The public web-SDK settings the two pages hand the browser: push on this device, and Google to confirm a deletion. */
export function browserConfigs() {
  const { firebase } = getEnv();
  return {
    pushConfig: firebase.webPush
      ? { apiKey: firebase.apiKey, projectId: firebase.projectId, ...firebase.webPush }
      : null,
    // Public web-SDK settings, used only to confirm a deletion with Google.
    googleConfig: {
      apiKey: firebase.apiKey,
      authDomain: firebase.authDomain,
      projectId: firebase.projectId,
      emulatorUrl: firebase.emulatorHost ? `http://${firebase.emulatorHost}` : null,
    },
  };
}

type Submission = Parameters<typeof rejectForm>[0];

/**
 * A notification switch (docs/product.md, "Profile: notification settings"). `page` is the page
 * that holds it: without JavaScript the person comes back there, where the switch is.
 */
export async function saveNotification(
  user: SessionUser,
  value: { kind: NotificationKind; enabled: "on" | "off"; respond?: "data" },
  submission: Submission,
  page: string,
) {
  try {
    const preferences = await setNotificationPreference(user.uid, value.kind, value.enabled === "on");
    if (value.respond === "data") return { intent: "notification" as const, preferences };
    return redirectWithFlash(`${page}#notification-settings`, {
      kind: "success",
      title: NOTIFICATION_MESSAGES.updated,
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("notification settings:", error);
    return rejectForm(submission, { formErrors: [NOTIFICATION_MESSAGES.updateFailed] }, 500);
  }
}

/** Deactivation and deletion end with this browser signed out; the database deleted its push token. */
export async function signedOutTo(flash: Parameters<typeof redirectWithFlash>[1], setCookie: string | null = null) {
  return redirectWithFlash("/auth", flash, [
    ["Set-Cookie", await clearedSessionCookie()],
    ["Set-Cookie", await clearedPushDeviceCookie()],
    ...(setCookie ? [["Set-Cookie", setCookie] as [string, string]] : []),
  ]);
}

/**
 * docs/product.md, "Profile: account management": inactive, signed out everywhere (its sessions revoked) and its push tokens deleted (in
 * set_account_active); signing in again reactivates.
 */
export async function deactivate(user: SessionUser, request: Request, page: string) {
  try {
    // The database announces the deactivation on commit; the app again once Firebase has revoked.
    await setAccountActive(user.uid, false);
    await revokeSessions(user.uid, request);
    await announceSignedOut(user.uid);
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("deactivation failed:", error);
    return redirectWithFlash(page, { kind: "error", title: "Failed to deactivate account" });
  }
  return signedOutTo({ kind: "success", title: "Your account has been deactivated" });
}

const DELETE_FAILED = "Failed to delete account. Please check your password and try again.";

/**
 * Permanent deletion (docs/product.md, "Profile: account management") after the person proves it is them: the password, or for an account
 * without one (Google only) a fresh Google sign-in. Then the data (SQL, keeping the money) and the
 * identity account go, in that order: a failure in between leaves an account that can sign in
 * and start afresh, never data without an owner.
 *
 * A withdrawal on its way and a balance below zero (deleting would write the debt off) are looked for
 * before the password: the answer is then the same whatever was typed, so the form tells nothing
 * about the password. The password check itself is limited
 * as a sign-in's is (limitPasswordCheck): a session, stolen or not, is no unlimited password oracle.
 */
export async function deleteAccount(
  user: SessionUser,
  proofs: { password?: string; idToken?: string; giveUp?: string },
  submission: Submission,
  request: Request,
  page: AccountPage,
) {
  const refuse = refusal(submission);
  const forfeit = await deletable(user, proofs.giveUp, refuse);
  if (typeof forfeit !== "number") return forfeit;
  const proof = await provesIdentity(user, proofs.password ?? "", proofs.idToken ?? "", request);
  if (proof !== true) {
    if (proof === false) return refuse();
    const wait = proof.refused.retryAfterSeconds;
    return refuse(tooManyAttemptsMessage(wait, proof.refused.unit), 429, { "Retry-After": String(wait) });
  }
  // With the sign-in code on, a code sent to the email confirms it too (docs/decisions/092).
  if (await signInCodeOn(user.uid)) return askDeletionCode(request, user, forfeit, submission, page);
  return removeAccount(user, forfeit, refuse);
}

/** The deletion's second step: the code from the email (its password was right when the code was sent). */
export async function deleteAccountWithCode(
  user: SessionUser,
  value: { emailCode?: string; giveUp?: string },
  submission: Submission,
  request: Request,
) {
  const refuse = refusal(submission);
  const forfeit = await deletable(user, value.giveUp, refuse);
  if (typeof forfeit !== "number") return forfeit;
  const code = await deletionCodePassed(request, value.emailCode, submission);
  if (!code.passed) return code.reply;
  return removeAccount(user, forfeit, refuse, code.setCookie);
}

const refusal =
  (submission: Submission) =>
  (message = DELETE_FAILED, status = 400, headers?: HeadersInit) =>
    data(submission.reply({ formErrors: [message], hideFields: ["password"] }), { status, headers });

/**
 * The amount the deletion gives up, or the refusal: a withdrawal on its way, a debt, or money left
 * the person did not agree to give up (for at least what it holds now; the database checks it
 * again under its locks).
 */
async function deletable(user: SessionUser, giveUp: string | undefined, refuse: ReturnType<typeof refusal>) {
  if (!user.email) return refuse();
  const blocks = await deletionBlocks(user.uid);
  if (blocks.pendingWithdrawal) return refuse(ruleMessage("withdrawal_pending"));
  if (blocks.debt > 0) return refuse(accountInDebtWords(blocks.debt));
  const forfeit = Number(parseAmount(giveUp) ?? 0);
  if (blocks.forfeit > forfeit) return refuse(ruleMessage("forfeit_unconfirmed", String(blocks.forfeit)));
  return forfeit;
}

/** The data (SQL, keeping the money), then the identity account, then this browser signed out. */
async function removeAccount(
  user: SessionUser,
  forfeit: number,
  refuse: ReturnType<typeof refusal>,
  setCookie: string | null = null,
) {
  try {
    await deleteAccountData(user.uid, forfeit);
  } catch (error) {
    const violation = ruleViolation(error);
    if (violation?.rule === "withdrawal_pending") return refuse(violation.message);
    if (violation?.rule === "account_in_debt") return refuse(violation.message);
    if (violation?.rule === "forfeit_unconfirmed") return refuse(violation.message);
    if (error instanceof Response) throw error;
    console.error("account deletion failed:", error);
    return refuse();
  }
  await getAdminAuth()
    .deleteUser(user.uid)
    .catch((error: unknown) => console.error("account deletion: the identity account stays:", error));
  // As for deactivation: announced on commit, and again now that the identity account is gone.
  await announceSignedOut(user.uid);
  return signedOutTo({ kind: "success", title: "Your account has been deleted" }, setCookie);
}

async function provesIdentity(
  user: SessionUser,
  password: string,
  idToken: string,
  request: Request,
): Promise<boolean | { refused: AttemptRefusal }> {
  if (password) {
    // The sign-in's limits, by the account's address; the device cookie is /auth's only.
    const limit = await limitPasswordCheck(request, user.email!, { device: false });
    if (limit.refused) return { refused: limit.refused };
    try {
      const right = (await signInWithPassword(user.email!, password)).localId === user.uid;
      if (right) await limit.succeeded();
      return right;
    } catch (error) {
      if (error instanceof IdentityError) return false;
      throw error;
    }
  }
  if (!idToken) return false;
  // A token cannot be guessed: no limit needed.
  const claims = await getAdminAuth()
    .verifyIdToken(idToken, true)
    .catch(() => null);
  return claims !== null && claims.uid === user.uid && Date.now() / 1000 - claims.auth_time <= MAX_ID_TOKEN_AGE_SECONDS;
}
