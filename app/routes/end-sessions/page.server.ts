import { data } from "@remix-run/node";
import { codeOfEndSessionsToken, endSessionsAccount } from "~/server/account/email-codes.server";
import { endEverySessionOf } from "~/server/auth/session.server";

// "Not you? End every session of your account" (docs/decisions/092): the link in every code's
// email. Opening it changes nothing; its button ends every session of the account and every code
// waiting for it, without signing in (whoever holds the email is its owner).

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
