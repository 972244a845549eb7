import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import type { $ZodType } from "zod/v4/core";
import type { RuleKey } from "~/domain/rules";
import { ruleViolation } from "../db/core.server";

export const UNREADABLE_FORM_MESSAGE = "The form could not be read. Please try again.";

/** The posted form, or a 400 answer (never a 500) when the body is not a readable form. */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ message: UNREADABLE_FORM_MESSAGE }, { status: 400 });
  }
}

/** The fields of a request sent as a form or as a flat JSON object (the API routes take both). */
export async function readFormOrJson(request: Request): Promise<FormData | URLSearchParams> {
  if (!request.headers.get("content-type")?.includes("application/json")) return readFormData(request);
  const body: unknown = await request.json().catch(() => null);
  const fields = new URLSearchParams();
  if (body && typeof body === "object" && !Array.isArray(body)) {
    for (const [name, value] of Object.entries(body)) {
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
        fields.set(name, String(value));
    }
  }
  return fields;
}

/** Reads the posted form and checks it against the form's schema (the one the browser uses too). */
export async function parseForm<Schema extends $ZodType>(request: Request, schema: Schema) {
  return parseWithZod(await readFormData(request), { schema });
}

type AnySubmission = Submission<unknown, string[], unknown>;

/** A refused submission: 400 with what the form should show (Conform renders it, with or without JavaScript). */
export function rejectForm(
  submission: AnySubmission,
  errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> } = {},
  status = 400,
) {
  return data<SubmissionResult<string[]>>(submission.reply({ ...errors, hideFields: ["password"] }), { status });
}

/**
 * A database refusal as a form reply: a broken rule's message on the field `fields` names for it,
 * else on the form's banner. An unreachable service stays the 503 page; anything else is logged
 * and the person sees `fallback`.
 */
export function replyWithDbError(
  submission: AnySubmission,
  error: unknown,
  { fields = {}, fallback, context }: { fields?: Partial<Record<RuleKey, string>>; fallback: string; context: string },
) {
  if (error instanceof Response) throw error;
  const violation = ruleViolation(error);
  if (!violation) {
    console.error(`${context}:`, error);
    return rejectForm(submission, { formErrors: [fallback] }, 500);
  }
  const field = fields[violation.rule];
  return rejectForm(
    submission,
    field ? { fieldErrors: { [field]: [violation.message] } } : { formErrors: [violation.message] },
  );
}
