import type { DeletionFacts } from "~/domain/account-deletion";
import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { NotificationPreferences } from "~/domain/notifications";
import { LEGAL_HEADINGS } from "~/content/legal-headings";
import type { GoogleSignInConfig } from "~/lib/google-sign-in.client";
import { formErrors } from "~/lib/form-replies";
import type { PushConfig } from "~/lib/push.client";
import { EmailCodeStep } from "~/components/forms/LazyEmailCodeStep";
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
  /** A code by email confirms the deletion (docs/decisions/092): where it went, and the amount given up. */
  deletionCode: { sentTo: string; giveUp: string } | null;
  /** Whether a sign-in on a new device asks a code by email; null: unreadable. */
  signInCode: boolean | null;
  /** Turning the sign-in code off waits for the code sent to the email: where it went. */
  signInCodeOff: { sentTo: string } | null;
  /** Whether the person's cash-outs show in Recent cash-outs; null: unreadable. */
  inCashoutFeed: boolean | null;
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
      {data.signInCode === null ? null : (
        <SignInCodeSwitch on={data.signInCode} offStep={data.signInCodeOff} lastResult={lastResult} />
      )}
      {data.inCashoutFeed === null ? null : <CashoutFeedChoice inFeed={data.inCashoutFeed} lastResult={lastResult} />}
      <SignOutEverywhere lastResult={lastResult} />
      <AccountManagement
        confirmingDeactivation={data.confirmingDeactivation}
        signInMethods={data.signInMethods}
        googleConfig={data.googleConfig}
        lastResult={lastResult}
        page="/settings"
        deletion={data.deletion}
        deletionCode={data.deletionCode}
      />
      <LegalLinks />
    </div>
  );
}

/**
 * "Codes at sign-in" (docs/decisions/092): on, signing in on a device the account has not used asks
 * for a code sent to the email. Turning it on is immediate; turning it off takes a code.
 */
function SignInCodeSwitch({
  on,
  offStep,
  lastResult,
}: {
  on: boolean;
  offStep: { sentTo: string } | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  return (
    <Card id="signin-code">
      <h2 className="text-base font-bold">Codes at sign-in</h2>
      <p className="mt-1 text-sm text-muted">
        {on
          ? "On: signing in on a phone or computer your account has not used asks for a code we email you. Someone who learns your password cannot get in without your email."
          : "Off: your password alone signs you in anywhere. Turn codes on to keep out someone who learns your password."}
      </p>
      {on && offStep ? (
        <div className="mt-4">
          <EmailCodeStep
            id="signin-code-off"
            why="To turn codes at sign-in off, type the code we emailed you."
            sentTo={offStep.sentTo}
            lastResult={lastResult?.initialValue?.intent === "signin-code-off-code" ? lastResult : undefined}
            verifyIntent="signin-code-off-code"
            resendIntent="signin-code-off"
            cancel={{ to: "/settings", label: "Keep codes on" }}
          />
        </div>
      ) : (
        // Turning codes off asks for one: its step downloads while the request is sent.
        <Form method="post" onSubmitCapture={on ? EmailCodeStep.preload : undefined} className="mt-3">
          <FormBanner errors={formErrors(lastResult, on ? "signin-code-off" : "signin-code-on")} />
          <SubmitButton
            intent={on ? "signin-code-off" : "signin-code-on"}
            pendingText={on ? "Sending a code…" : "Turning on…"}
            look={{ tone: on ? "secondary" : "primary", size: "md", block: true }}
          >
            {on ? "Turn off codes at sign-in" : "Turn on codes at sign-in"}
          </SubmitButton>
        </Form>
      )}
    </Card>
  );
}

/** Recent cash-outs (docs/decisions/098): whether the person's own show in the list, and the button to change it. */
function CashoutFeedChoice({ inFeed, lastResult }: { inFeed: boolean; lastResult?: SubmissionResult<string[]> }) {
  const intent = inFeed ? "cashout-feed-off" : "cashout-feed-on";
  return (
    <Card id="cashout-feed">
      <h2 className="text-base font-bold">Recent cash-outs</h2>
      <p className="mt-1 text-sm text-muted">
        {inFeed
          ? "Your paid cash-outs and offer earnings of $5.00 or more show for a day in Recent cash-outs on Home and Withdraw, under a masked name made from your account (never your name or email)."
          : "Your cash-outs and offer earnings do not show in Recent cash-outs on Home and Withdraw."}
      </p>
      <Form method="post" action="/settings" className="mt-3">
        <FormBanner errors={formErrors(lastResult, intent)} />
        <SubmitButton
          intent={intent}
          pendingText="Saving…"
          look={{ tone: inFeed ? "secondary" : "primary", size: "md", block: true }}
        >
          {inFeed ? "Leave Recent cash-outs" : "Show mine in Recent cash-outs"}
        </SubmitButton>
      </Form>
    </Card>
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
