import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { EMAIL_CODE_FIELD, EMAIL_CODE_LENGTH, EMAIL_CODE_TEXTS } from "~/domain/email-codes";
import { useFormState } from "~/lib/use-form";
import { Field } from "./Field";
// From the shared module, as every lazily loaded component (components/shared.ts says why).
import { FormBanner, Icon, SubmitButton } from "../shared";

/**
 * The step that asks for the code sent by email (docs/decisions/092), wherever one is asked: what
 * it is for, where it went, the code, "Send a new code", and a way back. A plain form: without
 * JavaScript it posts the same fields, `hidden` included (a withdrawal's typed values, kept).
 */
export function EmailCodeStep({
  id,
  why,
  sentTo,
  lastResult,
  verifyIntent,
  resendIntent,
  action,
  hidden,
  cancel,
  after,
}: {
  id: string;
  /** Why a code is asked here, in a sentence. */
  why: string;
  /** Where the code went ("j•••@example.com"). */
  sentTo: string;
  lastResult: SubmissionResult<string[]> | undefined;
  verifyIntent: string;
  resendIntent: string;
  action?: string;
  /** Hidden inputs posted with the code (the values the code confirms). */
  hidden?: ReactNode;
  cancel: { to: string; label: string };
  /** Under the form: another way (support, when the email cannot be reached). */
  after?: ReactNode;
}) {
  const [form, fields] = useFormState({ id, fields: [EMAIL_CODE_FIELD], lastResult });
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-2xl border border-line bg-white p-5 shadow-sm sm:p-6">
      <div className="flex items-start gap-3">
        <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
          <Icon name="mail" className="size-6" />
        </span>
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="text-lg font-bold tracking-tight">
            {EMAIL_CODE_TEXTS.title}
          </h2>
          <p className="mt-1 text-sm text-muted">{why}</p>
          <p className="mt-2 text-sm font-medium text-ink">{EMAIL_CODE_TEXTS.sent(sentTo)}</p>
        </div>
      </div>
      <Form method="post" action={action} {...form.props} className="mt-5 space-y-4">
        {hidden}
        <FormBanner id={form.errorId} errors={form.errors} />
        <Field
          field={fields[EMAIL_CODE_FIELD]}
          label={EMAIL_CODE_TEXTS.label}
          icon="lock"
          inputProps={{
            inputMode: "numeric",
            autoComplete: "one-time-code",
            placeholder: "123456",
            // Digits, with a space or dash between groups if pasted so.
            maxLength: EMAIL_CODE_LENGTH + 2,
            autoFocus: true,
          }}
        />
        <div className="flex flex-col gap-3 sm:flex-row-reverse">
          <SubmitButton intent={verifyIntent} pendingText={EMAIL_CODE_TEXTS.verifying} look={{ block: true }}>
            {EMAIL_CODE_TEXTS.verify}
          </SubmitButton>
          <SubmitButton
            intent={resendIntent}
            pendingText={EMAIL_CODE_TEXTS.resending}
            formNoValidate
            look={{ tone: "secondary", block: true }}
          >
            {EMAIL_CODE_TEXTS.resend}
          </SubmitButton>
        </div>
      </Form>
      <p className="mt-4 text-center">
        <Link
          to={cancel.to}
          className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline"
        >
          {cancel.label}
        </Link>
      </p>
      {after}
    </section>
  );
}
