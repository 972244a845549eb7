// The /auth form's schema, run by the server. The rules themselves are plain functions in
// auth.ts, which the page also runs before posting (it ships no zod).
// Named imports from zod/mini: the `z` namespace would pull every zod locale (~400 KB) into a bundle.
import {
  discriminatedUnion,
  literal,
  minLength,
  object,
  optional,
  pipe,
  string,
  superRefine,
  transform,
  type output,
} from "zod/mini";
import {
  AUTH_MESSAGES,
  authFormIssues,
  referralCodeIssues,
  type AuthFields,
  type AuthFormIntent,
  type AuthIssue,
} from "./auth";
import { normalizeReferralCode } from "./referral-code";

// Form fields arrive as raw strings (Conform turns "" into undefined).
const rawText = optional(string());

type IssueSink = { addIssue(issue: { code: "custom"; path: string[]; message: string }): void };

function report(issues: AuthIssue[], ctx: IssueSink) {
  for (const { field, message } of issues) ctx.addIssue({ code: "custom", path: field ? [field] : [], message });
}

/** A form for one intent: its raw fields, its rules (auth.ts), then the trimmed values. */
function intentForm<Intent extends AuthFormIntent, Out>(
  intent: Intent,
  output: (value: AuthFields & { intent: Intent }) => Out,
) {
  return pipe(
    object({ intent: literal(intent), email: rawText, password: rawText, referralCode: rawText }).check(
      superRefine((value, ctx) => report(authFormIssues(intent, value), ctx)),
    ),
    transform(output),
  );
}

const signInSchema = intentForm("signin", (value) => ({
  intent: value.intent,
  email: value.email!.trim(),
  password: value.password!,
}));

const signUpSchema = intentForm("signup", (value) => ({
  intent: value.intent,
  email: value.email!.trim(),
  password: value.password!,
  referralCode: normalizeReferralCode(value.referralCode),
}));

const resetSchema = intentForm("reset", (value) => ({ intent: value.intent, email: value.email!.trim() }));

const googleSchema = pipe(
  object({
    intent: literal("google"),
    idToken: string(AUTH_MESSAGES.genericError).check(minLength(20, AUTH_MESSAGES.genericError)),
    referralCode: rawText,
  }).check(superRefine((value, ctx) => report(referralCodeIssues(value), ctx))),
  transform((value) => ({ ...value, referralCode: normalizeReferralCode(value.referralCode) })),
);

/** One schema for the /auth form: the submit button's `intent` picks the rules. */
export const authFormSchema = discriminatedUnion("intent", [signInSchema, signUpSchema, resetSchema, googleSchema]);

export type AuthSubmission = output<typeof authFormSchema>;
