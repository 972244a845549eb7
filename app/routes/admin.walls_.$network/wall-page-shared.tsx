// What the wall page's parts share: the reply type, the table cell classes and the password step.
import { CONSOLE_LINK } from "~/components/operator/console-link";
import type { SubmissionResult } from "@conform-to/react";
import { PasswordAgain } from "~/components/operator/PasswordAgain";

export type Reply = SubmissionResult<string[]> | undefined;

export const CELL = "px-4 py-3";
export const WRAP = `${CELL} [overflow-wrap:anywhere]`;
export const NUMBER = `${CELL} whitespace-nowrap tabular-nums`;
/** A link standing alone in a cell or under a heading: 44 px tall, as every tap target. */
export const LINK = CONSOLE_LINK;

/** The reply to the form whose button sent `intent`, and no other's. */
export const replyTo = (reply: Reply, intent: string) => (reply?.initialValue?.intent === intent ? reply : undefined);

/** Where the wall's "turned on" or "off" comes from, in words. */
export const ENABLED_BY = {
  console: "in the console",
  environment: "by the environment",
  default: "by default",
} as const;

/** "the app's API token" → "The app's API token". */
export const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

const PASSWORD_BECAUSE = "changing a wall and sending a test postback need your password again.";

/** The password field of an owner's form, while the sign-in is over 15 minutes old. */
export function Password({
  formId,
  needed,
  errors,
}: {
  formId: string;
  needed: boolean;
  errors: string[] | undefined;
}) {
  return needed ? <PasswordAgain id={`${formId}-password`} errors={errors} because={PASSWORD_BECAUSE} /> : null;
}
