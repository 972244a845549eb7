import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formErrors } from "~/lib/form-replies";
import { FormBanner } from "./forms/FormBanner";
import { SubmitButton } from "./forms/SubmitButton";
import { Banner } from "./ui/Banner";
import { Card } from "./ui/Card";
import { Icon } from "./ui/Icon";

/**
 * "Send verification email" (intent send-verification, posted to the page's own action) with why
 * it matters, and a "Check again" link that reloads `checkAgainTo` once the link was opened;
 * `notice`, what that check found when it was not verified yet.
 */
export function VerifyEmailCard({
  title,
  children,
  email,
  checkAgainTo,
  notice,
  lastResult,
}: {
  title: string;
  /** Why the address must be verified here. */
  children: ReactNode;
  email: string | null;
  checkAgainTo: string;
  /** "Not verified yet — open the link we sent to …" after a check (Home's /?verified=1). */
  notice?: string | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  return (
    <Card>
      <div className="flex items-start gap-3">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-amber-50 text-amber-600">
          <Icon name="mail" className="size-5" />
        </span>
        <div className="min-w-0">
          <h2 className="text-base font-bold">{title}</h2>
          <p className="mt-1 text-sm text-muted">
            {children} We&apos;ll email a link to{" "}
            <strong className="break-all text-ink">{email ?? "your address"}</strong>.
          </p>
        </div>
      </div>
      {notice ? (
        <div className="mt-4">
          <Banner tone="warning">{notice}</Banner>
        </div>
      ) : null}
      <Form method="post" className="mt-4 space-y-3">
        <FormBanner errors={formErrors(lastResult)} />
        <SubmitButton intent="send-verification" pendingText="Sending..." look={{ block: true }}>
          Send verification email
        </SubmitButton>
      </Form>
      <p className="mt-3 text-center text-sm text-muted">
        Already opened the link?{" "}
        <Link
          to={checkAgainTo}
          reloadDocument
          className="inline-flex min-h-11 items-center font-semibold text-brand-700 hover:underline"
        >
          Check again
        </Link>
      </p>
    </Card>
  );
}
