import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useNavigation, useSubmit } from "@remix-run/react";
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
import { GoogleLogo, Icon, Spinner } from "./ui/Icon";
import { Banner, buttonClass } from "./ui";
import { useHydrated } from "~/lib/use-hydrated";

const TABS: { id: AuthTab; label: string }[] = [
  { id: "signin", label: "Sign In" },
  { id: "signup", label: "Sign Up" },
];

const INPUT =
  "block h-12 w-full rounded-xl border border-line bg-white pl-11 pr-4 text-base text-ink placeholder:text-gray-400 " +
  "transition focus:border-brand-500 focus:ring-4 focus:ring-brand-100 focus:outline-none " +
  "aria-[invalid=true]:border-red-400 disabled:bg-gray-50 disabled:text-muted";

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
  const navigation = useNavigation();
  const submittedIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const authPath = (forTab: AuthTab) => authHref(forTab, redirectTo);
  const google = useGoogleSignIn(firebaseConfig, authPath(tab));
  const busy = Boolean(submittedIntent) || google.busy;
  const signUp = tab === "signup";
  const formError = google.error ?? form.errors?.[0];
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
        {formError ? (
          <Banner tone="error" id={form.errorId}>
            {formError}
          </Banner>
        ) : null}
      </div>

      <nav aria-label="Sign in or sign up" className="mt-4 grid grid-cols-2 rounded-xl bg-gray-100 p-1">
        {TABS.map((item) => (
          <Link
            key={item.id}
            to={authPath(item.id)}
            replace
            aria-current={item.id === tab ? "page" : undefined}
            className={`flex h-10 items-center justify-center rounded-lg text-sm font-semibold transition ${
              item.id === tab ? "bg-white text-ink shadow-sm" : "text-muted hover:text-ink"
            }`}
          >
            {item.label}
          </Link>
        ))}
      </nav>

      <Form method="post" action={authPath(tab)} {...getFormProps(form)} className="mt-5">
        <fieldset disabled={busy} className="flex flex-col gap-4">
          <Field label="Email" icon="mail" errors={fields.email.errors} errorId={fields.email.errorId}>
            <input
              {...getInputProps(fields.email, { type: "email" })}
              key={fields.email.key}
              placeholder="Enter your email"
              autoComplete="email"
              required
              className={INPUT}
            />
          </Field>
          <Field label="Password" icon="lock" errors={fields.password.errors} errorId={fields.password.errorId}>
            <input
              {...getInputProps(fields.password, { type: "password" })}
              key={fields.password.key}
              placeholder="Enter your password"
              autoComplete={signUp ? "new-password" : "current-password"}
              required
              minLength={MIN_PASSWORD_LENGTH}
              className={INPUT}
            />
          </Field>
          {/* First submit button in the form: Enter submits it. */}
          <button type="submit" name="intent" value={tab} className={buttonClass("primary", "order-last mt-2 w-full")}>
            {submittedIntent === tab ? <Spinner className="size-5" /> : null}
            {submittedIntent === tab
              ? signUp
                ? "Creating account..."
                : "Signing in..."
              : signUp
                ? "Create Account"
                : "Sign In"}
          </button>
          {signUp ? null : (
            <div className="-mt-2 flex justify-end">
              <button
                type="submit"
                name="intent"
                value="reset"
                formNoValidate
                className="rounded-md px-1 py-1 text-sm font-semibold text-brand-700 hover:underline"
              >
                {submittedIntent === "reset" ? "Sending..." : "Forgot your password?"}
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
        className={buttonClass("secondary", "w-full")}
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

function Field({
  label,
  icon,
  errors,
  errorId,
  children,
}: {
  label: string;
  icon: "mail" | "lock";
  errors: string[] | undefined;
  errorId: string;
  children: React.ReactNode;
}) {
  return (
    <label className="block">
      <span className="mb-1.5 block text-sm font-medium text-ink">{label}</span>
      <span className="relative block">
        <Icon
          name={icon}
          className="pointer-events-none absolute left-4 top-1/2 size-5 -translate-y-1/2 text-gray-400"
        />
        {children}
      </span>
      {errors?.length ? (
        <span id={errorId} className="mt-1.5 block text-sm text-red-600">
          {errors[0]}
        </span>
      ) : null}
    </label>
  );
}

// Popup outcomes that are the person's own choice, not errors worth a banner.
const SILENT_POPUP_CODES = new Set(["auth/popup-closed-by-user", "auth/cancelled-popup-request"]);

/** Google sign-in: the Firebase web SDK is downloaded only when the button is pressed. */
function useGoogleSignIn(config: GoogleSignInConfig, action: string) {
  const submit = useSubmit();
  const available = useHydrated();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
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
