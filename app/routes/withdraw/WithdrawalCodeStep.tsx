import type { SubmissionResult } from "@conform-to/react";
import { EmailCodeStep } from "~/components/forms/LazyEmailCodeStep";

/** The code step of a withdrawal (docs/decisions/092): what it confirms, and the values it posts back. */
export interface WithdrawalCodeStep {
  why: string;
  sentTo: string;
  /** "$5.00 by PayPal". */
  summary: string;
  /** The form's values as typed, posted again (hidden) with the code. */
  values: Record<string, string>;
  reply: SubmissionResult<string[]> | null;
}

/** In the form's place: the cash-out it confirms, the code, a new code, or back to change it. */
export function WithdrawalCodeStep({ step }: { step: WithdrawalCodeStep }) {
  return (
    <EmailCodeStep
      id="withdraw-code"
      why={`${step.why} Cash-out: ${step.summary}.`}
      sentTo={step.sentTo}
      lastResult={step.reply ?? undefined}
      verifyIntent="withdraw-code"
      resendIntent="withdraw-resend"
      hidden={Object.entries(step.values).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      cancel={{ to: "/withdraw", label: "Change the cash-out" }}
    />
  );
}
