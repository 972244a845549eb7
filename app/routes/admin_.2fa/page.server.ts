import { data, redirect } from "@remix-run/node";
import QRCode from "qrcode";
import { requireOperator } from "~/server/operator/access.server";
import { checkTotp, enrolmentOf, passedCookie, spendRecoveryCode } from "~/server/operator/two-factor.server";
import { hitRateLimit, RATE_LIMITS, tooManyAttemptsMessage } from "~/server/http/rate-limit.server";
import { parseForm, rejectForm } from "~/server/http/forms.server";
import { safeRedirectPath } from "~/server/http/redirects.server";
import { TWO_FACTOR_TEXTS } from "./texts";
import { twoFactorFormSchema } from "./two-factor-form";

// The console's authenticator page (docs/decisions/093): the first visit after a role is granted
// enrols (a QR code and the typed secret, confirmed by a code, then ten recovery codes shown once);
// each later sign-in types a code, or a recovery code.

function redirectTarget(request: Request): string {
  const target = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  return target.startsWith("/admin") ? target : "/admin";
}

export async function loadTwoFactor(request: Request) {
  const operator = await requireOperator(request, "support", { twoFactor: false });
  const enrolment = await enrolmentOf(operator.uid, operator.email);
  if (enrolment === "enrolled") return { enrolling: null, redirectTo: redirectTarget(request) };
  return {
    enrolling: {
      // Drawn here, as SVG markup (no script, no image request): the page works without JavaScript.
      qrSvg: await QRCode.toString(enrolment.uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" }),
      // In groups of four, as apps that cannot scan show it.
      secret: enrolment.secret.replace(/(.{4})(?=.)/g, "$1 "),
    },
    redirectTo: redirectTarget(request),
  };
}

export async function twoFactorAction(request: Request) {
  const operator = await requireOperator(request, "support", { twoFactor: false });
  const submission = await parseForm(request, twoFactorFormSchema);
  if (submission.status !== "success") return rejectForm(submission);
  const limit = await hitRateLimit(RATE_LIMITS.operatorSecondFactor, operator.uid);
  if (!limit.allowed) {
    return rejectForm(submission, { formErrors: [tooManyAttemptsMessage(limit.retryAfterSeconds)] }, 429);
  }
  const target = redirectTarget(request);
  if (submission.value.intent === "totp-recovery") {
    const left = await spendRecoveryCode(operator.uid, submission.value.recoveryCode ?? "");
    if (left === null) {
      return rejectForm(submission, { fieldErrors: { recoveryCode: [TWO_FACTOR_TEXTS.wrongRecoveryCode] } });
    }
    return redirect(target, { headers: { "Set-Cookie": passedCookie(operator.uid) } });
  }
  const checked = await checkTotp(operator.uid, submission.value.code ?? "");
  if (!checked.ok) return rejectForm(submission, { fieldErrors: { code: [TWO_FACTOR_TEXTS.wrongCode] } });
  // The first code confirms the enrolment: its recovery codes are shown this once.
  if (checked.recoveryCodes) {
    return data(
      { recoveryCodes: checked.recoveryCodes, redirectTo: target },
      { headers: { "Set-Cookie": passedCookie(operator.uid) } },
    );
  }
  return redirect(target, { headers: { "Set-Cookie": passedCookie(operator.uid) } });
}
