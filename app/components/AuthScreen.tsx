import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useSubmit } from "@remix-run/react";
import { useState } from "react";
import {
  AUTH_MESSAGES,
  authErrorMessage,
  authFormSchema,
  isUnauthorizedDomainError,
  type AuthTab,
} from "~/domain/auth";
import { MIN_PASSWORD_LENGTH } from "~/domain/constants";
import type { GoogleSignInConfig } from "~/lib/google-sign-in.client";
import { authHref } from "~/lib/urls";
import { useHydrated } from "~/lib/use-hydrated";
import { useIsPending } from "~/lib/use-is-pending";
import { Field } from "./forms/Field";
import { FormBanner } from "./forms/FormBanner";
import { SubmitButton } from "./forms/SubmitButton";
import { Banner } from "./ui/Banner";
import { buttonClass } from "./ui/button";
import { GoogleLogo, Icon, Spinner } from "./ui/Icon";
import { LinkTabs } from "./ui/LinkTabs";

const TABS: { id: AuthTab; label: string }[] = [
  { id: "signin", label: "Sign In" },
  { id: "signup", label: "Sign Up" },
];

/** Spec §2 auth screen. Tabs are links (?tab=), the form posts to the /auth action. */
export function AuthScreen({
  tab,
  redirectTo,
  lastResult,
  domainAuthorized,
  firebaseConfig,
}: {
  tab: AuthTab;
  /** Where to go after signing in; it travels in the URL so it works without JavaScript. */
  redirectTo: string;
  lastResult: SubmissionResult<string[]> | undefined;
  domainAuthorized: boolean;
  firebaseConfig: GoogleSignInConfig;
}) {
  const [form, fields] = useForm({
    id: `auth-${tab}`,
    lastResult,
    // Without JavaScript the browser's own checks (required, type=email, minlength) apply.
    defaultNoValidate: false,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: authFormSchema }),
  });
  const authPath = (forTab: AuthTab) => authHref(forTab, redirectTo);
  const google = useGoogleSignIn(firebaseConfig, authPath(tab), tab);
  const busy = useIsPending() || google.busy;
  const resetPending = useIsPending({ intent: "reset" });
  const signUp = tab === "signup";
  const showDomainBanner = !domainAuthorized || google.unauthorizedDomain;

  return (
    <div className="flex min-h-[calc(100dvh-3.5rem)] flex-col justify-center">
      <div className="mb-8 text-center">
        <span className="mx-auto inline-flex size-16 items-center justify-center rounded-2xl bg-gradient-to-br from-brand-500 to-brand-700 text-white shadow-lg shadow-brand-600/30">
          <Icon name="wallet" className="size-8" />
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight">Welcome to Rewards</h1>
        <p className="mt-1 text-sm text-muted">
          {signUp ? "Create an account to start earning." : "Sign in to keep earning."}
        </p>
      </div>

      <div className="space-y-3">
        {showDomainBanner ? (
          <Banner tone="warning" title="Domain not authorised">
            {AUTH_MESSAGES.unauthorizedDomain}
          </Banner>
        ) : null}
        <FormBanner id={form.errorId} errors={google.error ? [google.error] : form.errors} />
      </div>

      <div className="mt-4">
        <LinkTabs
          label="Sign in or sign up"
          items={TABS.map((item) => ({ ...item, to: authPath(item.id) }))}
          current={tab}
        />
      </div>

      <Form method="post" action={authPath(tab)} {...getFormProps(form)} className="mt-5">
        <fieldset disabled={busy} className="flex flex-col gap-4">
          <Field
            field={fields.email}
            label="Email"
            type="email"
            icon="mail"
            inputProps={{ placeholder: "Enter your email", autoComplete: "email", required: true }}
          />
          <Field
            field={fields.password}
            label="Password"
            type="password"
            icon="lock"
            inputProps={{
              placeholder: "Enter your password",
              autoComplete: signUp ? "new-password" : "current-password",
              required: true,
              minLength: MIN_PASSWORD_LENGTH,
            }}
          />
          {/* First submit button in the form: Enter submits it. */}
          <div className="order-last mt-2">
            <SubmitButton
              intent={tab}
              pendingText={signUp ? "Creating account..." : "Signing in..."}
              look={{ block: true }}
            >
              {signUp ? "Create Account" : "Sign In"}
            </SubmitButton>
          </div>
          {signUp ? null : (
            <div className="-mt-2 flex justify-end">
              <button
                type="submit"
                name="intent"
                value="reset"
                formNoValidate
                className="rounded-md px-1 py-1 text-sm font-semibold text-brand-700 hover:underline"
              >
                {resetPending ? "Sending..." : "Forgot your password?"}
              </button>
            </div>
          )}
        </fieldset>
      </Form>

      <div className="my-6 flex items-center gap-3 text-xs font-medium uppercase tracking-wider text-muted">
        <span className="h-px flex-1 bg-line" />
        or
        <span className="h-px flex-1 bg-line" />
      </div>
      <button
        type="button"
        onClick={google.start}
        disabled={busy || !google.available}
        className={buttonClass({ tone: "secondary", block: true })}
      >
        {google.busy ? <Spinner className="size-5 text-brand-600" /> : <GoogleLogo />}
        Continue with Google
      </button>
      {google.available ? null : (
        <p className="mt-2 text-center text-xs text-muted">Google sign-in needs JavaScript.</p>
      )}
      <p className="mt-8 text-center text-xs text-muted">
        By continuing you agree to our{" "}
        <Link to="/legal" className="font-semibold text-brand-700 hover:underline">
          Terms and Privacy Policy
        </Link>
        .
      </p>
    </div>
  );
}

// Popup outcomes that are the person's own choice, not errors worth a banner.
const SILENT_POPUP_CODES = new Set(["auth/popup-closed-by-user", "auth/cancelled-popup-request"]);

/** Google sign-in: the Firebase web SDK is downloaded only when the button is pressed. */
function useGoogleSignIn(config: GoogleSignInConfig, action: string, tab: AuthTab) {
  const submit = useSubmit();
  const available = useHydrated();
  const [busy, setBusy] = useState(false);
  // Spec §2: switching tab clears the error (React's way to reset state when a prop changes).
  const [failure, setFailure] = useState<{ tab: AuthTab; message: string } | null>(null);
  if (failure && failure.tab !== tab) setFailure(null);
  const setError = (message: string | null) => setFailure(message ? { tab, message } : null);
  const error = failure?.tab === tab ? failure.message : null;
  const [unauthorizedDomain, setUnauthorizedDomain] = useState(false);

  async function start() {
    setBusy(true);
    setError(null);
    try {
      const { signInWithGoogle } = await import("~/lib/google-sign-in.client");
      const idToken = await signInWithGoogle(config);
      submit({ intent: "google", idToken }, { method: "post", action });
    } catch (caught) {
      const { code, message } = caught as { code?: string; message?: string };
      if (isUnauthorizedDomainError(code)) {
        setUnauthorizedDomain(true);
        console.warn("This domain is not authorised for Firebase Authentication.");
      } else if (!SILENT_POPUP_CODES.has(code ?? "")) {
        setError(
          code === "auth/popup-blocked"
            ? "The Google sign-in window was blocked. Please allow pop-ups and try again."
            : authErrorMessage(code, message),
        );
      }
    } finally {
      setBusy(false);
    }
  }

  return { available, busy, error, unauthorizedDomain, start };
}
