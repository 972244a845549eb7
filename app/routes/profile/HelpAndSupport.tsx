import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { FaqEntry } from "~/content/faq";
import { useFormKey, useFormState } from "~/lib/use-form";
import { Field, TextareaField } from "~/components/forms/Field";
import { AnswerRefusedElsewhere, SupportConversation } from "~/components/SupportConversation";
import { appealConversationTitle, feedbackConversationTitle, type FeedbackEntry } from "~/domain/support";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { buttonClass } from "~/components/shared";
import { Card } from "~/components/ui/Card";
import { Icon } from "~/components/ui/Icon";
import { useTimeZone } from "~/lib/time-zone";

/**
 * docs/product.md, "Profile: help and support": FAQ (works without JavaScript), each earlier message
 * as a conversation the person answers until it is resolved, the feedback form, legal.
 */
export function HelpAndSupport({
  feedback,
  faq,
  name,
  email,
  lastResult,
}: {
  feedback: FeedbackEntry[] | null;
  faq: FaqEntry[];
  name: string;
  email: string | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  const zone = useTimeZone();
  const feedbackKey = useFormKey(lastResult);
  return (
    <div className="space-y-4">
      <Card>
        <h2 className="text-base font-bold">Frequently Asked Questions</h2>
        <div className="mt-2 divide-y divide-line">
          {faq.map((item) => (
            <details key={item.question} className="group py-1">
              <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-3 text-sm font-semibold text-ink">
                {item.question}
                <Icon name="forward" className="size-4 shrink-0 text-muted transition group-open:rotate-90" />
              </summary>
              <p className="mb-2 text-sm leading-relaxed text-muted">{item.answer}</p>
              {item.inApp ? (
                <p className="mb-2 text-sm leading-relaxed text-ink" data-testid="faq-in-app">
                  {item.inApp}
                  {item.link ? (
                    <>
                      {" "}
                      <Link to={item.link.to} className="font-semibold text-brand-700 underline">
                        {item.link.label}
                      </Link>
                    </>
                  ) : null}
                </p>
              ) : null}
            </details>
          ))}
        </div>
      </Card>

      <Card>
        <h2 className="text-base font-bold">Your Feedback</h2>
        <div className="mt-3 empty:hidden">
          <AnswerRefusedElsewhere lastResult={lastResult} kind="feedback" ids={feedback?.map((row) => row.id) ?? []} />
        </div>
        {feedback === null ? (
          <p role="alert" className="mt-3 text-sm text-red-700">
            Your earlier feedback could not be loaded. Please try again later.
          </p>
        ) : feedback.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted">You haven&apos;t sent any feedback yet.</p>
        ) : (
          <div className="mt-1 divide-y divide-line">
            {feedback.map((row) => (
              <SupportConversation
                key={row.id}
                kind="feedback"
                id={row.id}
                status={row.status}
                title={
                  row.appeal
                    ? appealConversationTitle(row.appeal, row.created_at, zone)
                    : feedbackConversationTitle(row.created_at, zone)
                }
                detail={row.appeal ? <AppealReasons reasons={row.appeal.reasons} /> : undefined}
                opening={{ created_at: row.created_at, body: row.message }}
                messages={row.messages}
                lastResult={lastResult}
              />
            ))}
          </div>
        )}
      </Card>

      {/* A new page (after a message went through) is a fresh form; a refused one keeps its values (useFormKey). */}
      <FeedbackForm key={feedbackKey} name={name} email={email} lastResult={lastResult} />

      <Link to="/legal" className={buttonClass({ tone: "secondary", block: true })}>
        <Icon name="info" className="size-5" />
        Legal &amp; Privacy Policies
      </Link>
    </div>
  );
}

function FeedbackForm({
  name,
  email,
  lastResult,
}: {
  name: string;
  email: string | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useFormState({
    id: "feedback",
    fields: ["name", "email", "message"],
    lastResult: lastResult?.initialValue?.intent === "feedback" ? lastResult : undefined,
    defaultValue: { name, email: email ?? "" },
  });
  return (
    <Card>
      <h2 className="text-base font-bold">Send Feedback</h2>
      <Form method="post" {...form.props} preventScrollReset className="mt-4 space-y-4">
        <FormBanner id={form.errorId} title="Failed to submit feedback. Please try again." errors={form.errors} />
        <Field field={fields.name} label="Name" inputProps={{ required: true, autoComplete: "name", maxLength: 100 }} />
        <Field
          field={fields.email}
          label="Email"
          type="email"
          inputProps={{ required: true, autoComplete: "email", maxLength: 254 }}
        />
        <TextareaField
          field={fields.message}
          label="Message"
          hint="Up to 2,000 characters."
          textareaProps={{ required: true, maxLength: 2000, placeholder: "How can we help?" }}
        />
        <SubmitButton intent="feedback" pendingText="Sending..." look={{ block: true }}>
          Submit Feedback
        </SubmitButton>
      </Form>
    </Card>
  );
}

/** What the team chose to share about why a cash-out was refused (docs/decisions/090). */
function AppealReasons({ reasons }: { reasons: readonly string[] }) {
  if (reasons.length === 0) return null;
  return (
    <div className="mt-1 text-sm text-muted" data-testid="appeal-reasons">
      <p>What we can share about why:</p>
      <ul className="list-disc pl-5">
        {reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
    </div>
  );
}
