// The console's withdrawal forms, checked by the server (the pages post plain HTML, with or
// without JavaScript). One schema for the list's bulk approval and the withdrawal page's actions.
import { discriminatedUnion, literal, object } from "zod/mini";
import { stepUp, trimmedText as text } from "./form-fields";

/** The list's checkboxes are named `select-<withdrawal id>`: one name each, so no name repeats. */
export const SELECT_PREFIX = "select-";

export const bulkApproveSchema = object({ intent: literal("approve-selected"), ...stepUp });

export const WITHDRAWAL_MESSAGES = {
  noneSelected: "Select the withdrawals to approve.",
  tooMany: "Approve at most 50 withdrawals at a time.",
  reasonRequired: "Write the reason: the person is told it.",
  reasonTooLong: "The reason can be at most 500 characters.",
  referenceRequired: "Enter the payment's reference (the UTR or the bank's transaction id).",
  referenceTooLong: "The reference can be at most 200 characters.",
  failed: "That could not be done. Please try again.",
} as const;

export const withdrawalActionSchema = discriminatedUnion("intent", [
  object({ intent: literal("approve"), ...stepUp }),
  object({ intent: literal("pay"), ...stepUp }),
  object({ intent: literal("reject"), reason: text, ...stepUp }),
  object({ intent: literal("mark-paid"), reference: text, ...stepUp }),
  object({ intent: literal("mark-failed"), reason: text, ...stepUp }),
]);
