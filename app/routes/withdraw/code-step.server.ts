import type { Submission, SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import { EMAIL_CODE_FIELD, EMAIL_CODE_TEXTS } from "~/domain/email-codes";
import { formatDollars } from "~/domain/money";
import { METHOD_LABELS } from "~/domain/withdrawals";
import {
  checkEmailCode,
  clearedChallengeCookie,
  codeRefusal,
  maskedEmail,
  openCode,
  sendEmailCode,
  withdrawalCodeNeeded,
} from "~/server/account/email-codes.server";
import { recipientHashOf, type WithdrawalRequest } from "~/server/withdrawals/requests.server";
import type { WithdrawalCodeStep } from "./WithdrawalCodeStep";

// A withdrawal's code by email (docs/decisions/092): to an address no code of the account
// confirmed, from a device none confirmed, or long after the last code, a withdrawal first asks for
// a code sent to the account's email. A stolen password alone cannot cash out.

type WithdrawalValues = WithdrawalRequest & {
  intent: "withdraw" | "withdraw-code" | "withdraw-resend";
  [EMAIL_CODE_FIELD]?: string;
};

/** The values the code step posts back with the code (hidden), as the person typed them. */
function keptValues(value: WithdrawalValues): Record<string, string> {
  const { intent: _intent, [EMAIL_CODE_FIELD]: _code, ...values } = value;
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => !!entry[1]));
}

function codeStep(
  value: WithdrawalValues,
  why: string,
  sentTo: string,
  reply: SubmissionResult<string[]> | null,
  init: { status?: number; headers?: HeadersInit } = {},
) {
  return data<{ codeStep: WithdrawalCodeStep }>(
    {
      codeStep: {
        why,
        sentTo,
        summary: `${formatDollars(value.amount)} by ${METHOD_LABELS[value.method]}`,
        values: keptValues(value),
        reply,
      },
    },
    init,
  );
}

/**
 * What a withdrawal request needs before it is made: `go` (no code is needed, or the right one
 * was typed, with the cookie that forgets it), or the code step's answer to send back.
 */
export async function withdrawalCodeGate(
  request: Request,
  userId: string,
  submission: Submission<unknown, string[], unknown>,
  value: WithdrawalValues,
  accountEmail: string | null,
  country: string | null,
): Promise<
  | { go: true; setCookie: string | null }
  | { go: false; answer: ReturnType<typeof codeStep> | ReturnType<typeof data<SubmissionResult<string[]>>> }
> {
  const recipientHash = recipientHashOf(value, accountEmail);
  if (value.intent === "withdraw-code") {
    // The code confirms the address it was sent for: another one typed since needs its own.
    const checked = await checkEmailCode(request, "withdrawal", value[EMAIL_CODE_FIELD] ?? "", recipientHash);
    if (checked.outcome === "passed") return { go: true, setCookie: clearedChallengeCookie("withdrawal") };
    const reply = submission.reply(codeRefusal(checked));
    const open = await openCode(request, "withdrawal");
    return {
      go: false,
      answer: codeStep(value, EMAIL_CODE_TEXTS.withdrawalWhy.again, maskedEmail(open?.email ?? null), reply, {
        status: 400,
      }),
    };
  }
  const needed = await withdrawalCodeNeeded(request, userId, recipientHash);
  if (!needed) return { go: true, setCookie: null };
  const sent = await sendEmailCode(request, {
    userId,
    purpose: "withdrawal",
    what: `confirm a cash-out of ${formatDollars(value.amount)} by ${METHOD_LABELS[value.method]}`,
    recipientHash,
    country,
  });
  if (!sent.ok) {
    const reply = submission.reply({ formErrors: [sent.message] });
    // Asked from the code step: its page stays, with the words; from the form: the form's banner.
    return {
      go: false,
      answer:
        value.intent === "withdraw-resend"
          ? codeStep(value, EMAIL_CODE_TEXTS.withdrawalWhy.again, "your email address", reply, { status: sent.status })
          : data<SubmissionResult<string[]>>(reply, { status: sent.status }),
    };
  }
  return {
    go: false,
    answer: codeStep(value, EMAIL_CODE_TEXTS.withdrawalWhy[needed], sent.sentTo, null, {
      headers: { "Set-Cookie": sent.setCookie },
    }),
  };
}
