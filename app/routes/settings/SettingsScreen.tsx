import type { DeletionFacts } from "~/domain/account-deletion";
import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { NotificationPreferences } from "~/domain/notifications";
import { LEGAL_HEADINGS } from "~/content/legal-headings";
import type { GoogleSignInConfig } from "~/lib/google-sign-in.client";
import { formErrors } from "~/lib/form-replies";
import type { PushConfig } from "~/lib/push.client";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { Card } from "~/components/ui/Card";
import { Icon } from "~/components/ui/Icon";
import { PageHeader } from "~/components/ui/PageHeader";
import { AccountManagement } from "~/components/account/AccountManagement";
import { NotificationSettings } from "~/components/account/NotificationSettings";

export interface SettingsData {
  confirmingDeactivation: boolean;
  preferences: NotificationPreferences | null;
  signInMethods: { password: boolean; google: boolean } | null;
  /** The balance below zero, owed: deletion waits until it is paid back. */
  deletion: DeletionFacts;
  pushConfig: PushConfig | null;
  googleConfig: GoogleSignInConfig;
}

/**
 * docs/decisions/071-settings-is-a-real-page.md: the notification switches and Account Management
 * (Profile's own components, posting here), signing out of every device, and the legal pages.
 */
export function SettingsScreen({ data, lastResult }: { data: SettingsData; lastResult?: SubmissionResult<string[]> }) {
  return (
    <div className="space-y-4">
      <PageHeader title="Settings" backTo="/profile" />
      <NotificationSettings
        preferences={data.preferences}
        pushConfig={data.pushConfig}
        lastResult={lastResult}
        page="/settings"
      />
      <SignOutEverywhere lastResult={lastResult} />
      <AccountManagement
        confirmingDeactivation={data.confirmingDeactivation}
        signInMethods={data.signInMethods}
        googleConfig={data.googleConfig}
        lastResult={lastResult}
        page="/settings"
        deletion={data.deletion}
      />
      <LegalLinks />
    </div>
  );
}

function SignOutEverywhere({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  return (
    <Card id="sign-out-everywhere">
      <h2 className="text-base font-bold">Sign out of every device</h2>
      <p className="mt-1 text-sm text-muted">
        Ends every session of your account: on this device and on any other phone or computer where you are signed in.
        You will need to sign in again.
      </p>
      <div className="mt-3 empty:hidden">
        <FormBanner errors={formErrors(lastResult, "sign-out-everywhere")} />
      </div>
      <Form method="post" action="/settings" className="mt-3">
        <SubmitButton
          intent="sign-out-everywhere"
          pendingText="Signing out..."
          look={{ tone: "secondary", size: "md", block: true }}
        >
          <Icon name="logout" className="size-5" />
          {/* Short enough for one line at 320 px; the heading says it in full. */}
          Sign out everywhere
        </SubmitButton>
      </Form>
    </Card>
  );
}

function LegalLinks() {
  return (
    <Card>
      <h2 className="text-base font-bold">Legal</h2>
      <ul className="mt-2 divide-y divide-line">
        {Object.values(LEGAL_HEADINGS).map((document) => (
          <li key={document.id}>
            <Link
              to={`/legal?tab=${document.id}`}
              className="flex min-h-11 items-center justify-between gap-3 py-2 text-sm font-semibold text-ink hover:text-brand-700"
            >
              {document.title}
              <Icon name="forward" className="size-4 text-muted" />
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}
