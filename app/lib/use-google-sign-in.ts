import { useSubmit } from "@remix-run/react";
import { useState } from "react";
import { AUTH_FORM_TOKEN_FIELD, authErrorMessage, isUnauthorizedDomainError, type AuthTab } from "~/domain/auth";
import { INVALID_REFERRAL_CODE_MESSAGE, isReferralCode } from "~/domain/referral-code";
import type { GoogleSignInConfig } from "./google-sign-in.client";
import { useHydrated } from "./use-hydrated";

// Popup outcomes that are the person's own choice, not errors worth a banner.
const SILENT_POPUP_CODES = new Set(["auth/popup-closed-by-user", "auth/cancelled-popup-request"]);

/**
 * Whether a referral code can be used, asked before Google's popup makes an account. When the
 * check itself fails, the sign-up goes ahead: the server checks again.
 */
async function referralCodeRefused(code: string): Promise<boolean> {
  if (!isReferralCode(code)) return true;
  try {
    const response = await fetch(`/api/referral-codes/${encodeURIComponent(code)}`);
    return response.ok && !((await response.json()) as { exists: boolean }).exists;
  } catch {
    return false;
  }
}

/** Google sign-in: the Firebase web SDK is downloaded only when the button is pressed. */
export function useGoogleSignIn(config: GoogleSignInConfig, action: string, tab: AuthTab, formToken: string) {
  const submit = useSubmit();
  const available = useHydrated();
  const [busy, setBusy] = useState(false);
  // docs/product.md, "Auth": switching tab clears the error (React's way to reset state when a prop changes).
  const [failure, setFailure] = useState<{ tab: AuthTab; message: string } | null>(null);
  if (failure && failure.tab !== tab) setFailure(null);
  const setError = (message: string | null) => setFailure(message ? { tab, message } : null);
  const error = failure?.tab === tab ? failure.message : null;
  const [unauthorizedDomain, setUnauthorizedDomain] = useState(false);

  async function start(referralCode: string | null) {
    setBusy(true);
    setError(null);
    try {
      if (referralCode && (await referralCodeRefused(referralCode))) {
        setError(INVALID_REFERRAL_CODE_MESSAGE);
        return;
      }
      const { signInWithGoogle } = await import("./google-sign-in.client");
      const idToken = await signInWithGoogle(config);
      submit(
        { intent: "google", idToken, referralCode: referralCode ?? "", [AUTH_FORM_TOKEN_FIELD]: formToken },
        { method: "post", action },
      );
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
