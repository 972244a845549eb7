import type { SubmissionResult } from "@conform-to/react";

/**
 * The form-level errors of an action's reply (Conform's `""` key), for forms that are only buttons
 * and need no Conform in the browser. With `intent`, only a reply to the form whose submit button
 * sent that intent counts: on a page with several forms, each shows only its own errors.
 */
export function formErrors(result: SubmissionResult<string[]> | undefined, intent?: string): string[] | undefined {
  if (!result || (intent !== undefined && result.initialValue?.intent !== intent)) return undefined;
  return result.error?.[""] ?? undefined;
}
