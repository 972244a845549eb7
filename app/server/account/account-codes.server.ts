import { data, redirect } from "@remix-run/node";
import { parseAmount } from "~/domain/withdrawals";
import { getDatabase } from "../db/database.server";
import { ruleViolation } from "../db/core.server";
import { redirectWithFlash } from "../http/flash.server";
import { rejectForm } from "../http/forms.server";
import type { SessionUser } from "../auth/session.server";
import {
  checkEmailCode,
  clearedChallengeCookie,
  codeRefusal,
  maskedEmail,
  openCode,
  sendEmailCode,
} from "./email-codes.server";

// The codes by email Settings and Profile ask (docs/decisions/092): before deleting the account
// (when its sign-in code is on) and before turning the sign-in code off. The code's step is URL
// state (`?confirm=delete-code`, `?confirm=signin-code-off`), so it works without JavaScript; the
// browser's challenge cookie holds the rest.

type Submission = Parameters<typeof rejectForm>[0];
export type AccountPage = "/profile" | "/settings";

/** Where a page shows its code step. */
function stepPath(page: AccountPage, confirm: "delete-code" | "signin-code-off", giveUp?: string) {
  const search = new URLSearchParams(page === "/profile" ? { tab: "account" } : {});
  search.set("confirm", confirm);
  if (giveUp) search.set("giveUp", giveUp);
  return `${page}?${search}`;
}

/** The code step a page shows (`?confirm=`), when this browser waits for that code: where it went. */
export async function accountCodeStep(request: Request, userId: string) {
  const confirm = new URL(request.url).searchParams.get("confirm");
  const purpose =
    confirm === "delete-code" ? "delete_account" : confirm === "signin-code-off" ? "signin_code_off" : null;
  if (!purpose) return null;
  const open = await openCode(request, purpose);
  if (!open || open.userId !== userId) return null;
  return { purpose, sentTo: maskedEmail(open.email) } as const;
}

/** Sends the deletion's code (the password was right) and moves to its step, the amount given up kept. */
export async function askDeletionCode(
  request: Request,
  user: SessionUser,
  forfeit: number,
  submission: Submission,
  page: AccountPage,
) {
  const sent = await sendEmailCode(request, {
    userId: user.uid,
    purpose: "delete_account",
    what: "delete your account",
  });
  if (!sent.ok) return rejectForm(submission, { formErrors: [sent.message] }, sent.status);
  return redirect(stepPath(page, "delete-code", forfeit > 0 ? forfeit.toFixed(2) : undefined), {
    headers: { "Set-Cookie": sent.setCookie },
  });
}

/** A new deletion code, only for a browser that already waits for one (its password was right). */
export async function resendDeletionCode(
  request: Request,
  user: SessionUser,
  giveUp: string | undefined,
  submission: Submission,
  page: AccountPage,
) {
  const open = await openCode(request, "delete_account");
  if (!open || open.userId !== user.uid) return redirect(page === "/profile" ? "/profile?tab=account" : page);
  return askDeletionCode(request, user, Number(parseAmount(giveUp) ?? 0), submission, page);
}

/** Whether the typed deletion code passed; else the reply that says why. */
export async function deletionCodePassed(request: Request, typed: string | undefined, submission: Submission) {
  const checked = await checkEmailCode(request, "delete_account", typed ?? "");
  if (checked.outcome === "passed")
    return { passed: true as const, setCookie: clearedChallengeCookie("delete_account") };
  return {
    passed: false as const,
    reply: data(submission.reply(codeRefusal(checked)), { status: 400 }),
  };
}

const SIGN_IN_CODE_FAILED = "Your sign-in code setting could not be changed. Please try again.";

/** Turns the sign-in code on (at once), or sends the code that turning it off needs. */
export async function setSignInCode(
  request: Request,
  user: SessionUser,
  on: boolean,
  submission: Submission,
  flash: { title: string; description: string },
) {
  if (on) {
    const db = await getDatabase();
    await db.rpc("set_signin_code", { p_user_id: user.uid, p_on: true });
    return redirectWithFlash("/settings#signin-code", { kind: "success", ...flash });
  }
  const sent = await sendEmailCode(request, {
    userId: user.uid,
    purpose: "signin_code_off",
    what: "turn off sign-in codes",
  });
  if (!sent.ok) return rejectForm(submission, { formErrors: [sent.message] }, sent.status);
  return redirect(stepPath("/settings", "signin-code-off"), { headers: { "Set-Cookie": sent.setCookie } });
}

/** The code typed to turn the sign-in code off: passed, it is off (set_signin_code checks the code again). */
export async function confirmSignInCodeOff(
  request: Request,
  user: SessionUser,
  typed: string | undefined,
  submission: Submission,
  flash: { title: string; description: string },
) {
  const checked = await checkEmailCode(request, "signin_code_off", typed ?? "");
  if (checked.outcome !== "passed") {
    return rejectForm(submission, codeRefusal(checked));
  }
  try {
    const db = await getDatabase();
    await db.rpc("set_signin_code", { p_user_id: user.uid, p_on: false });
  } catch (error) {
    if (!ruleViolation(error)) throw error;
    return rejectForm(submission, { formErrors: [SIGN_IN_CODE_FAILED] });
  }
  return redirectWithFlash("/settings#signin-code", { kind: "success", ...flash }, [
    ["Set-Cookie", clearedChallengeCookie("signin_code_off")],
  ]);
}
