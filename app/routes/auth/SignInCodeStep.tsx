import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form } from "@remix-run/react";
import { AUTH_FORM_TOKEN_FIELD } from "~/domain/auth";
import { EMAIL_CODE_TEXTS } from "~/domain/email-codes";
import { authHref } from "~/domain/urls";
import { useFormState } from "~/lib/use-form";
import { EmailCodeStep } from "~/components/forms/LazyEmailCodeStep";
import { Field, TextareaField } from "~/components/forms/Field";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { ScreenHero } from "~/components/ui/ScreenHero";

/**
 * The sign-in's code step (docs/decisions/092): the code sent to the account's email, a new one,
 * another account, and, for someone who cannot reach their email, a message to support.
 */
export function SignInCodeStep({
  sentTo,
  locked,
  redirectTo,
  formToken,
  lastResult,
}: {
  sentTo: string;
  locked: boolean;
  redirectTo: string;
  formToken: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const action = `/auth?${new URLSearchParams({ step: "code", ...(redirectTo !== "/" ? { redirectTo } : {}) })}`;
  const token = <input type="hidden" name={AUTH_FORM_TOKEN_FIELD} value={formToken} />;
  // The help form's reply carries its own fields; the code form's, the code.
  const helpReply = lastResult?.initialValue?.intent === "signin-code-help" ? lastResult : undefined;
  const codeReply = helpReply ? undefined : lastResult;
  return (
    <div className="flex min-h-[calc(100dvh-3.5rem)] flex-col justify-center gap-6">
      <ScreenHero icon="wallet" title="One more step" />
      <EmailCodeStep
        id="signin-code"
        why={locked ? EMAIL_CODE_TEXTS.lockedWhy : EMAIL_CODE_TEXTS.signInWhy}
        sentTo={sentTo}
        lastResult={codeReply}
        verifyIntent="signin-code"
        resendIntent="signin-code-resend"
        action={action}
        hidden={token}
        cancel={{ to: authHref("signin", redirectTo), label: "Sign in with another account" }}
        after={<CodeHelp action={action} token={token} lastResult={helpReply} />}
      />
    </div>
  );
}

/** "Can't get the code?": a message to support, answered at another address. Opens without JavaScript. */
function CodeHelp({
  action,
  token,
  lastResult,
}: {
  action: string;
  token: ReactNode;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useFormState({ id: "signin-code-help", fields: ["contact", "message"], lastResult });
  return (
    <details open={lastResult ? true : undefined} className="mt-2 rounded-xl border border-line bg-canvas px-4 py-1">
      <summary className="flex min-h-11 cursor-pointer items-center text-sm font-semibold text-ink">
        {EMAIL_CODE_TEXTS.lostEmail}
      </summary>
      <p className="mt-1 text-sm text-muted">{EMAIL_CODE_TEXTS.lostEmailHelp}</p>
      <Form method="post" action={action} {...form.props} className="mb-4 mt-4 space-y-4">
        {token}
        <FormBanner id={form.errorId} errors={form.errors} />
        <Field
          field={fields.contact}
          label="An address we can reach you at"
          type="email"
          icon="mail"
          inputProps={{ autoComplete: "email", placeholder: "you@example.net" }}
        />
        <TextareaField field={fields.message} label="What happened" textareaProps={{ rows: 3, maxLength: 2000 }} />
        <SubmitButton intent="signin-code-help" pendingText="Sending…" look={{ tone: "secondary", block: true }}>
          Write to support
        </SubmitButton>
      </Form>
    </details>
  );
}
