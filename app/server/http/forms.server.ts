import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import type { $ZodType } from "zod/v4/core";
import type { RuleKey } from "~/domain/rules";
import { ruleViolation } from "../db/core.server";
import { BODY_TOO_LARGE_MESSAGE, readBodyBytes } from "./body.server";
import { jsonError } from "./responses.server";

export const UNREADABLE_FORM_MESSAGE = "The form could not be read. Please try again.";

// Pages show a thrown `data()` in their error screen; resource routes answer JSON (`jsonError`),
// since Remix turns a thrown `data()` there into an anonymous 500 body.
type Refusal = (status: 400 | 413, message: string) => unknown;
const pageRefusal: Refusal = (status, message) => data({ message }, { status });
const apiRefusal: Refusal = (status, message) => jsonError(status, message);

async function readCappedBody(request: Request, refuse: Refusal): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = await readBodyBytes(request);
  if (bytes === null) throw refuse(413, BODY_TOO_LARGE_MESSAGE);
  return bytes;
}

async function readForm(request: Request, refuse: Refusal): Promise<FormData> {
  const bytes = await readCappedBody(request, refuse);
  try {
    const contentType = request.headers.get("content-type") ?? "";
    return await new Response(bytes, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw refuse(400, UNREADABLE_FORM_MESSAGE);
  }
}

/** The posted form (at most MAX_BODY_BYTES), or a 400 / 413 page (never a 500). */
export function readFormData(request: Request): Promise<FormData> {
  return readForm(request, pageRefusal);
}

/** The 400 page for a form the page cannot have sent (thrown). */
export function unreadableForm() {
  return pageRefusal(400, UNREADABLE_FORM_MESSAGE);
}

// Conform reads these names as its own controls (and throws on a malformed one); no form here sends them.
const CONFORM_FIELDS = new Set(["__intent__", "__state__"]);

/**
 * The submission of `fields` against `schema`, or null for a form none of the app's pages sends:
 * a name given twice (but one of `lists`, checkboxes sharing a name), a file, a NUL character (no
 * text column can hold one), Conform's own fields, or an `intent` the schema does not know (every
 * form names its intent with its button).
 */
export function parseSubmission<Schema extends $ZodType>(
  fields: FormData | URLSearchParams,
  schema: Schema,
  lists: ReadonlySet<string> = new Set(),
) {
  const names = new Set<string>();
  for (const [name, value] of fields) {
    if (
      (names.has(name) && !lists.has(name)) ||
      CONFORM_FIELDS.has(name) ||
      typeof value !== "string" ||
      value.includes("\u0000")
    )
      return null;
    names.add(name);
  }
  const submission = parseWithZod(fields, { schema });
  return submission.status !== "success" && submission.error?.intent ? null : submission;
}

/**
 * The fields of a request to an API route, sent as a form or as a flat JSON object; a 400 / 413
 * JSON answer when it cannot be read.
 */
async function readFormOrJson(request: Request): Promise<FormData | URLSearchParams> {
  if (!request.headers.get("content-type")?.includes("application/json")) return readForm(request, apiRefusal);
  const text = new TextDecoder().decode(await readCappedBody(request, apiRefusal));
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: an empty set of fields, which the route's schema refuses.
  }
  const fields = new URLSearchParams();
  if (body && typeof body === "object" && !Array.isArray(body)) {
    for (const [name, value] of Object.entries(body)) {
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
        fields.set(name, String(value));
    }
  }
  return fields;
}

/**
 * Reads the posted form and checks it against the form's schema (the one the browser uses too);
 * a form the page cannot have sent (parseSubmission) gets the 400 page.
 */
export async function parseForm<Schema extends $ZodType>(request: Request, schema: Schema) {
  return parsedOrThrown(await readFormData(request), schema);
}

/** A form already read (readFormData) checked against its schema, as parseForm does. */
export function parsedOrThrown<Schema extends $ZodType>(
  fields: FormData,
  schema: Schema,
  lists: ReadonlySet<string> = new Set(),
) {
  const submission = parseSubmission(fields, schema, lists);
  if (!submission) throw unreadableForm();
  return submission;
}

/** An API route's fields (a form or flat JSON) checked against its schema; null as parseSubmission says. */
export async function parseApiFields<Schema extends $ZodType>(request: Request, schema: Schema) {
  return parseSubmission(await readFormOrJson(request), schema);
}

type AnySubmission = Submission<unknown, string[], unknown>;

/**
 * The form-level messages of a refused submission together with those of its fields that have no
 * input on the page (hidden inputs, the button's value; every field but `shown`), which the
 * form's banner is the only place to show.
 */
export function bannerErrors(submission: AnySubmission, shown: readonly string[] = []): string[] {
  if (submission.status === "success") return [];
  const messages = Object.entries(submission.error ?? {})
    .filter(([name]) => name === "" || !shown.includes(name))
    .flatMap(([, errors]) => errors ?? []);
  return [...new Set(messages)];
}

/** A refused submission: 400 with what the form should show (Conform renders it, with or without JavaScript). */
export function rejectForm(
  submission: AnySubmission,
  errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] } = {},
  status = 400,
) {
  // A password, or a secret (`hideFields`), is never sent back into the page.
  const hideFields = ["password", "totpCode", ...(errors.hideFields ?? [])];
  return data<SubmissionResult<string[]>>(submission.reply({ ...errors, hideFields }), { status });
}

/**
 * A database refusal as a form reply: a broken rule's message on the field `fields` names for it,
 * else on the form's banner. An unreachable service stays the 503 page; anything else is logged
 * and the person sees `fallback`.
 */
export function replyWithDbError(
  submission: AnySubmission,
  error: unknown,
  {
    fields = {},
    fallback,
    context,
    hideFields,
  }: { fields?: Partial<Record<RuleKey, string>>; fallback: string; context: string; hideFields?: string[] },
) {
  if (error instanceof Response) throw error;
  const violation = ruleViolation(error);
  if (!violation) {
    console.error(`${context}:`, error);
    return rejectForm(submission, { formErrors: [fallback], hideFields }, 500);
  }
  const field = fields[violation.rule];
  return rejectForm(
    submission,
    field
      ? { fieldErrors: { [field]: [violation.message] }, hideFields }
      : { formErrors: [violation.message], hideFields },
  );
}
