import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { AUTH_FORM_TOKEN_FIELD, AUTH_MESSAGES, authFormErrors, type AuthTab } from "~/domain/auth";
import { MIN_PASSWORD_LENGTH } from "~/domain/constants";
import { normalizeReferralCode } from "~/domain/referral-code";
import type { GoogleSignInConfig } from "~/lib/google-sign-in.client";
import { authHref } from "~/domain/urls";
import { useGoogleSignIn } from "~/lib/use-google-sign-in";
import { useFormState } from "~/lib/use-form";
import { useIsPending } from "~/lib/use-is-pending";
import { Field } from "~/components/forms/Field";
import { EmailCodeStep } from "~/components/forms/LazyEmailCodeStep";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { Banner } from "~/components/ui/Banner";
import { buttonClass } from "~/components/ui/button";
import { GoogleLogo, Icon, Spinner } from "~/components/ui/Icon";
import { LinkTabs } from "~/components/ui/LinkTabs";
import { ScreenHero } from "~/components/ui/ScreenHero";

const TABS: { id: AuthTab; label: string }[] = [
  { id: "signin", label: "Sign In" },
  { id: "signup", label: "Sign Up" },
];

/** The auth screen (docs/product.md, "Auth"). Tabs are links (?tab=), the form posts to the /auth action. */
export function AuthScreen({
  tab,
  redirectTo,
  referralCode,
  email = null,
  lastResult,
  domainAuthorized,
  firebaseConfig,
  formToken,
  firstOffer = null,
}: {
  tab: AuthTab;
  /** Where to go after signing in; it travels in the URL so it works without JavaScript. */
  redirectTo: string;
  /** From a share link (`/auth?ref=CODE`): fills in the Referral code field of Sign Up. */
  referralCode: string | null;
  /** The address a password reset was just asked for (the page after it keeps it in the form). */
  email?: string | null;
  lastResult: SubmissionResult<string[]> | undefined;
  domainAuthorized: boolean;
  firebaseConfig: GoogleSignInConfig;
  /** Proves a post comes from this page (browsers that send no Origin). */
  formToken: string;
  /** On Sign Up without an invitation: what a first offer can pay (docs/decisions/096). */
  firstOffer?: string | null;
}) {
  const [form, fields] = useFormState({
    id: `auth-${tab}`,
    fields: ["email", "password", "referralCode"],
    lastResult,
    defaultValue: { referralCode: referralCode ?? "", email: email ?? "" },
    // Without JavaScript the browser's own checks (required, type=email, minlength) apply.
    nativeChecksWithoutJavaScript: true,
    // The same rules as the server, with the same words, before anything is posted.
    validate: authFormErrors,
  });
  const authPath = (forTab: AuthTab) => authHref(forTab, redirectTo, referralCode);
  const google = useGoogleSignIn(firebaseConfig, authPath(tab), tab, formToken);
  const busy = useIsPending() || google.busy;
  const resetPending = useIsPending({ intent: "reset" });
  const signUp = tab === "signup";
  const showDomainBanner = !domainAuthorized || google.unauthorizedDomain;

  return (
    <div className="flex min-h-[calc(100dvh-3.5rem)] flex-col justify-center">
      <ScreenHero icon="wallet" title="Welcome to Rewards" className="mb-8">
        {signUp ? "Create an account to start earning." : "Sign in to keep earning."}
      </ScreenHero>
      {signUp && firstOffer ? (
        <p
          className="-mt-4 mb-6 flex items-center justify-center gap-2 rounded-xl bg-emerald-50 px-4 py-2.5 text-center text-sm font-semibold text-emerald-800"
          data-testid="first-offer"
        >
          <Icon name="coins" className="size-4 shrink-0" />
          {firstOffer}
        </p>
      ) : null}

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

      {/* A sign-in on a new device is asked for a code by email: its step downloads while this is sent. */}
      <Form
        method="post"
        action={authPath(tab)}
        {...form.props}
        onSubmitCapture={EmailCodeStep.preload}
        className="mt-5"
      >
        <input type="hidden" name={AUTH_FORM_TOKEN_FIELD} value={formToken} />
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
          {signUp ? (
            <Field
              field={fields.referralCode}
              label="Referral code (optional)"
              icon="gift"
              hint="Were you invited? Enter your friend's code."
              inputProps={{
                placeholder: "e.g. K7QM2XP",
                autoComplete: "off",
                autoCapitalize: "characters",
                maxLength: 20,
              }}
            />
          ) : null}
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
                className="min-h-11 rounded-md px-1 text-sm font-semibold text-brand-700 hover:underline"
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
      {/* The note lies over the gap below the button: its going away as the page comes alive moves nothing. */}
      <div className="relative">
        <button
          type="button"
          onClick={() => {
            const code = document.forms.namedItem(form.props.id)?.elements.namedItem("referralCode");
            void google.start(signUp && code instanceof HTMLInputElement ? normalizeReferralCode(code.value) : null);
          }}
          disabled={busy || !google.available}
          className={buttonClass({ tone: "secondary", block: true })}
        >
          {google.busy ? <Spinner className="size-5 text-brand-600" /> : <GoogleLogo />}
          Continue with Google
        </button>
        {google.available ? null : (
          <p className="absolute inset-x-0 top-full mt-2 text-center text-xs text-muted">
            Google sign-in needs JavaScript.
          </p>
        )}
      </div>
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
