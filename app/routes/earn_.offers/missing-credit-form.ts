// My offers' missing-credit report, checked by the server (the page posts plain HTML, with or
// without JavaScript). Messages the database also enforces come from its rules (rules.ts).
import { discriminatedUnion, literal, object, optional, pipe, string, transform } from "zod/mini";
import { ruleMessage } from "~/domain/rules";
import { answerTicketForm } from "~/domain/support-forms";

const FILL_ALL = ruleMessage("missing_credit_fields_required");

const text = pipe(
  optional(string(FILL_ALL)),
  transform((value) => (value ?? "").trim()),
);

export const missingCreditFormSchema = discriminatedUnion("intent", [
  object({
    intent: literal("report-missing-credit"),
    network: text,
    offerName: text,
    completedOn: text,
    details: text,
  }),
  // An answer to one of the person's reports, under its conversation (docs/decisions/082).
  answerTicketForm,
]);

export const MISSING_CREDIT_FIELDS = ["offerName", "completedOn", "details"] as const;

export const MISSING_CREDIT_MESSAGES = {
  fillAll: FILL_ALL,
  // Beside each field left blank, what it asks for: one "Please fill out all fields" per field
  // said the same thing three times (issue 36).
  blank: {
    offerName: "Write the offer's name, as the wall showed it",
    completedOn: "Pick the day you completed it",
    details: "Say what you did in the offer",
  },
  unknownNetwork: "Please choose one of the networks listed on this page.",
  failed: "Your report could not be sent. Please try again.",
  sent: "Report sent",
} as const;
