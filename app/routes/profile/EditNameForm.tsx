import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useFormState } from "~/lib/use-form";
import { Field } from "~/components/forms/Field";
import { buttonClass, FormBanner, SubmitButton } from "~/components/shared";

/**
 * The form exists only while editing, so each Edit Profile starts from the stored name with no
 * earlier error: an input takes its default value when it mounts (Cancel and a saved name
 * unmount it).
 */
export function EditNameForm({
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
