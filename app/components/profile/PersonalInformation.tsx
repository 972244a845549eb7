import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { initials } from "~/domain/referrals";
import { useFormState } from "~/lib/use-form";
import { Field } from "../forms/Field";
import { FormBanner } from "../forms/FormBanner";
import { SubmitButton } from "../forms/SubmitButton";
import { buttonClass } from "../ui/button";
import { Card } from "../ui/Card";

/** Spec §2 Personal Information: Edit Profile (`?edit=1`) for the display name; the email is read-only. */
export function PersonalInformation({
  displayName,
  email,
  editing,
  lastResult,
}: {
  displayName: string;
  email: string | null;
  editing: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  return (
    <Card>
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-base font-bold">Personal Information</h2>
        {editing ? null : (
          <Link to="?tab=account&edit=1" preventScrollReset className={buttonClass({ tone: "secondary", size: "sm" })}>
            Edit Profile
          </Link>
        )}
      </div>
      {editing ? (
        <EditNameForm displayName={displayName} email={email} lastResult={lastResult} />
      ) : (
        <div className="mt-4 flex items-center gap-3">
          <span
            aria-hidden="true"
            className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-100 text-base font-bold text-brand-700"
          >
            {initials(displayName)}
          </span>
          <dl className="min-w-0 text-sm">
            <dt className="sr-only">Display Name</dt>
            <dd className="truncate font-semibold text-ink">{displayName}</dd>
            <dt className="sr-only">Email</dt>
            <dd className="truncate text-muted">{email ?? "No email address"}</dd>
          </dl>
        </div>
      )}
    </Card>
  );
}

/**
 * The form exists only while editing, so each Edit Profile starts from the stored name with no
 * earlier error: an input takes its default value when it mounts (Cancel and a saved name
 * unmount it).
 */
function EditNameForm({
  displayName,
  email,
  lastResult,
}: {
  displayName: string;
  email: string | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useFormState({
    id: "personal-information",
    fields: ["displayName"],
    lastResult: lastResult?.initialValue?.intent === "update-name" ? lastResult : undefined,
    defaultValue: { displayName },
  });
  return (
    <Form method="post" {...form.props} preventScrollReset className="mt-4 space-y-4">
      <FormBanner id={form.errorId} title="Failed to update profile" errors={form.errors} />
      <Field field={fields.displayName} label="Display Name" inputProps={{ autoComplete: "nickname", maxLength: 50 }} />
      <div>
        <label htmlFor="profile-email" className="mb-1.5 block text-sm font-medium text-ink">
          Email
        </label>
        <input
          id="profile-email"
          value={email ?? ""}
          readOnly
          disabled
          aria-describedby="profile-email-hint"
          className="block h-12 w-full rounded-xl border border-line bg-gray-50 px-4 text-base text-muted"
        />
        <p id="profile-email-hint" className="mt-1.5 text-xs text-muted">
          Email cannot be changed
        </p>
      </div>
      <div className="grid grid-cols-2 gap-3">
        <Link to="/profile" preventScrollReset className={buttonClass({ tone: "secondary" })}>
          Cancel
        </Link>
        <SubmitButton intent="update-name" pendingText="Saving...">
          Save Changes
        </SubmitButton>
      </div>
    </Form>
  );
}
