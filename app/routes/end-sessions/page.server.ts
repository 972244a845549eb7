import { data } from "@remix-run/node";
import { codeOfEndSessionsToken, endSessionsAccount } from "~/server/account/email-codes.server";
import { endEverySessionOf } from "~/server/auth/session.server";

// "Not you? End every session of your account" (docs/decisions/092): the link in every code's
// email. Opening it changes nothing; its button ends every session of the account and every code
// waiting for it, without signing in (whoever holds the email is its owner).

export const END_SESSIONS_TEXTS = {
  ask: "Someone asked for a code for your account. If it was not you, end every session now: whoever is signed in is signed out, and the code they are waiting for stops working.",
  ended: "Every session of your account has ended",
  endedDetail:
    "Everyone signed in to your account, you too, is signed out, and the code that was asked for no longer works. Someone knows your password: choose a new one now.",
  invalid: "This link is not valid, or is older than 7 days. Sign in and use Settings to sign out of every device.",
} as const;

function linkOf(request: Request): string | null {
  return new URL(request.url).searchParams.get("link");
}

export function loadEndSessions(request: Request) {
  return { valid: codeOfEndSessionsToken(linkOf(request)) !== null, ended: false };
}

export async function endSessionsAction(request: Request) {
  const uid = await endSessionsAccount(linkOf(request));
  if (!uid) return data({ valid: false, ended: false }, { status: 400 });
  await endEverySessionOf(uid);
  return { valid: true, ended: true };
}
