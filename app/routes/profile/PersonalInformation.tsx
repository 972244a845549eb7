import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { initials } from "~/domain/display-name";
import { lazyComponent } from "~/lib/lazy-component";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/Card";

// Shown with Edit Profile (?edit=1): its code comes when it is first opened.
const EditNameForm = lazyComponent(() => import("./EditNameForm").then((module) => module.EditNameForm));

/** docs/product.md, "Profile: personal information": Edit Profile (`?edit=1`) for the display name; the email is read-only. */
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
        <h2 className="min-w-0 text-base font-bold min-[375px]:whitespace-nowrap">Personal Information</h2>
        {editing ? null : (
          <Link
            to="?tab=account&edit=1"
            preventScrollReset
            className={`shrink-0 ${buttonClass({ tone: "secondary", size: "sm" })}`}
          >
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
