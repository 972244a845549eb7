import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useSubmit } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import type { GoogleSignInConfig } from "~/lib/google-sign-in.client";
import { formErrors } from "~/lib/form-replies";
import { showToast } from "~/lib/toasts";
import { useChangeCount } from "~/lib/use-change-count";
import { useHydrated } from "~/lib/use-hydrated";
import { EmailCodeStep } from "~/components/forms/LazyEmailCodeStep";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/Card";
import {
  accountInDebtWords,
  forfeitWords,
  giveUpLabel,
  WITHDRAWAL_ON_ITS_WAY,
  type DeletionFacts,
} from "~/domain/account-deletion";

/** docs/product.md, "Profile: account management": deactivate (after a confirmation), or delete for good. */
export function AccountManagement({
  confirmingDeactivation,
  signInMethods,
  googleConfig,
  lastResult,
  page = "/profile",
  deletion,
  deletionCode = null,
}: {
  confirmingDeactivation: boolean;
  /** What keeps deletion back (a cash-out on its way, a debt) and the balance it gives up (issue 36). */
  deletion: DeletionFacts;
  /** How the account proves it is its owner: its password, else a fresh Google sign-in. */
  signInMethods: { password: boolean; google: boolean } | null;
  googleConfig: GoogleSignInConfig;
  lastResult?: SubmissionResult<string[]>;
  /** The page that shows it (Profile or Settings): its forms post to it (the route's own), Cancel goes back to it. */
  page?: "/profile" | "/settings";
  /** The password was right and a code by email confirms the deletion (docs/decisions/092): its step. */
  deletionCode?: { sentTo: string; giveUp: string } | null;
}) {
  // A new reply (a refused password, say) empties the password field: keyed on the reply, not on
  // the location, which changes only once the page's data is read again, after the refusal shows
  // and perhaps after the person has started typing the password again.
  const replies = useChangeCount(lastResult);
  return (
    <Card id="account-management">
      <h2 className="text-base font-bold">Account Management</h2>
      <section className="mt-4" aria-labelledby="deactivate-heading">
        <h3 id="deactivate-heading" className="text-sm font-semibold">
          Deactivate account
        </h3>
        <p className="mt-1 text-sm text-muted">
          You will be signed out everywhere. Signing in again reactivates your account.
        </p>
        <div className="mt-3 empty:hidden">
          <FormBanner errors={formErrors(lastResult, "deactivate")} />
        </div>
        {confirmingDeactivation ? (
          <Form method="post" className="mt-3 rounded-xl border border-amber-200 bg-amber-50 p-4">
            <p className="text-sm font-semibold text-amber-900">Deactivate your account now?</p>
            <input type="hidden" name="confirm" value="yes" />
            <div className="mt-3 grid grid-cols-2 gap-3">
              <Link to={page} preventScrollReset className={buttonClass({ tone: "secondary", size: "md" })}>
                Cancel
              </Link>
              <SubmitButton intent="deactivate" pendingText="Deactivating..." look={{ tone: "danger", size: "md" }}>
                Deactivate
              </SubmitButton>
            </div>
          </Form>
        ) : (
          <div className="mt-3">
            <Link
              to={page === "/profile" ? "?tab=account&confirm=deactivate" : "?confirm=deactivate"}
              preventScrollReset
              className={buttonClass({ tone: "secondary", size: "md", block: true })}
            >
              Deactivate account
            </Link>
          </div>
        )}
      </section>
      <section className="mt-6 border-t border-line pt-5" aria-labelledby="delete-heading">
        <h3 id="delete-heading" className="text-sm font-semibold text-red-700">
          Delete account
        </h3>
        <p className="mt-1 text-sm text-muted">
          Your profile and activity are removed and cannot be recovered. Records of money paid are kept without your
          name, as the Privacy Policy explains.
        </p>
        <div className="mt-3">
          <FormBanner errors={formErrors(lastResult, "delete-account")} />
        </div>
        {/* What blocks deletion, or what it gives up, is said before any password is asked. */}
        {deletion.pendingWithdrawal ? (
          <DeletionNotice testId="delete-blocked-by-withdrawal">{WITHDRAWAL_ON_ITS_WAY}</DeletionNotice>
        ) : deletion.debt > 0 ? (
          <DeletionNotice testId="delete-blocked-by-debt">{accountInDebtWords(deletion.debt)}</DeletionNotice>
        ) : (
          <>
            {deletion.forfeit > 0 ? (
              <DeletionNotice testId="delete-forfeit">
                {forfeitWords(deletion.forfeit)}{" "}
                <Link to="/withdraw" className="font-semibold underline underline-offset-2">
                  Go to Withdraw
                </Link>
              </DeletionNotice>
            ) : null}
            {deletionCode ? (
              <EmailCodeStep
                id="delete-code"
                why="Your password was right. To delete your account for good, type the code we emailed you."
                sentTo={deletionCode.sentTo}
                lastResult={lastResult?.initialValue?.intent === "delete-account-code" ? lastResult : undefined}
                verifyIntent="delete-account-code"
                resendIntent="delete-account-resend"
                hidden={deletionCode.giveUp ? <input type="hidden" name="giveUp" value={deletionCode.giveUp} /> : null}
                cancel={{ to: page === "/profile" ? "/profile?tab=account" : page, label: "Keep my account" }}
              />
            ) : signInMethods?.password !== false ? (
              // A refused password is not kept in the field (as without JavaScript).
              <DeleteWithPassword key={replies} forfeit={deletion.forfeit} />
            ) : (
              <DeleteWithGoogle googleConfig={googleConfig} forfeit={deletion.forfeit} />
            )}
          </>
        )}
      </section>
    </Card>
  );
}

function DeletionNotice({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <p className="mt-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900" data-testid={testId}>
      {children}
    </p>
  );
}

/**
 * "I give up $2.10": deleting an account with money left needs the person to say so (the server
 * and the database refuse it otherwise). Required, so the browser asks for it before the post.
 */
function GiveUpConfirmation({ forfeit }: { forfeit: number }) {
  if (!(forfeit > 0)) return null;
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-semibold text-ink">
      <input
        type="checkbox"
        name="giveUp"
        value={forfeit.toFixed(2)}
        required
        className="size-5 shrink-0 rounded border-line text-red-600 focus:ring-red-200"
      />
      {giveUpLabel(forfeit)}
    </label>
  );
}

/** The password, checked with the identity service; the button waits for it (with JavaScript). */
function DeleteWithPassword({ forfeit }: { forfeit: number }) {
  const hydrated = useHydrated();
  const [password, setPassword] = useState("");
  return (
    // A right password is followed by the code step: its code downloads while the password is checked.
    <Form method="post" onSubmitCapture={EmailCodeStep.preload} className="mt-3 space-y-3">
      <GiveUpConfirmation forfeit={forfeit} />
      <div>
        <label htmlFor="delete-password" className="mb-1.5 block text-sm font-medium text-ink">
          Password
        </label>
        <input
          id="delete-password"
          name="password"
          type="password"
          autoComplete="current-password"
          placeholder="Enter your password"
          value={hydrated ? password : undefined}
          onChange={(event) => setPassword(event.currentTarget.value)}
          className="block h-12 w-full rounded-xl border border-line bg-white px-4 text-base text-ink placeholder:text-gray-400 focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-100"
        />
      </div>
      <SubmitButton
        intent="delete-account"
        pendingText="Deleting..."
        disabled={hydrated && password.length === 0}
        look={{ tone: "danger", size: "md", block: true }}
      >
        Delete account permanently
      </SubmitButton>
    </Form>
  );
}

/** An account without a password confirms with a fresh Google sign-in, which needs JavaScript. */
function DeleteWithGoogle({ googleConfig, forfeit }: { googleConfig: GoogleSignInConfig; forfeit: number }) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const [busy, setBusy] = useState(false);
  const [givenUp, setGivenUp] = useState(false);
  async function confirm() {
    setBusy(true);
    EmailCodeStep.preload();
    try {
      const { signInWithGoogle } = await import("~/lib/google-sign-in.client");
      const idToken = await signInWithGoogle(googleConfig);
      submit(
        { intent: "delete-account", idToken, ...(forfeit > 0 ? { giveUp: forfeit.toFixed(2) } : {}) },
        { method: "post" },
      );
    } catch {
      showToast({ kind: "error", title: "Failed to delete account. Please check your password and try again." });
    } finally {
      setBusy(false);
    }
  }
  if (!hydrated) {
    return <p className="mt-3 text-sm text-muted">Your account signs in with Google: deleting it needs JavaScript.</p>;
  }
  return (
    <div className="mt-3 space-y-3">
      {forfeit > 0 ? (
        <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-semibold text-ink">
          <input
            type="checkbox"
            checked={givenUp}
            onChange={(event) => setGivenUp(event.currentTarget.checked)}
            className="size-5 shrink-0 rounded border-line text-red-600 focus:ring-red-200"
          />
          {giveUpLabel(forfeit)}
        </label>
      ) : null}
      <button
        type="button"
        disabled={busy || (forfeit > 0 && !givenUp)}
        onClick={() => void confirm()}
        className={buttonClass({ tone: "danger", block: true })}
      >
        Confirm with Google and delete
      </button>
    </div>
  );
}
