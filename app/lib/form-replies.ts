import type { SubmissionResult } from "@conform-to/react";

/**
 * The action's reply if it answers the form whose submit button sent `intent`, for pages with
 * several forms: each form shows only its own errors.
 */
export function replyFor(result: SubmissionResult<string[]> | undefined, intent: string) {
  return result?.initialValue?.intent === intent ? result : undefined;
}
