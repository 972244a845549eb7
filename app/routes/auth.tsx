import type { SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AuthScreen } from "~/components/AuthScreen";
import { AUTH_MESSAGES, authFormSchema, parseAuthTab } from "~/domain/auth";
import { AuthRejection, authenticator, requestPasswordReset } from "~/server/auth/authenticator.server";
import { getEnv } from "~/server/env.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { isDomainAuthorized } from "~/server/auth/identity.server";
import { assertSameOrigin, requestHost } from "~/server/http/same-origin.server";
import { parseForm } from "~/server/http/forms.server";
import { safeRedirectPath } from "~/server/http/redirects.server";
import { getSessionUser, StaleSignInError, startSession } from "~/server/auth/session.server";
import { provisionUser } from "~/server/users.server";
import { pageMeta } from "~/lib/meta";
import { BARE_SCREEN } from "~/lib/shell";

export const meta: MetaFunction = () => pageMeta("Sign in");
export const handle = BARE_SCREEN;

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getSessionUser(request)) throw redirect("/");
  const { firebase } = getEnv();
  const params = new URL(request.url).searchParams;
  return {
    tab: parseAuthTab(params.get("tab")),
    redirectTo: safeRedirectPath(params.get("redirectTo")),
    domainAuthorized: await isDomainAuthorized(requestHost(request).replace(/:\d+$/, "")),
    // Public web-SDK settings, used only when the person asks for Google sign-in.
    firebaseConfig: {
      apiKey: firebase.apiKey,
      authDomain: firebase.authDomain,
      projectId: firebase.projectId,
      emulatorUrl: firebase.emulatorHost ? `http://${firebase.emulatorHost}` : null,
    },
  };
}

type AuthReply = { reply: SubmissionResult<string[]>; unauthorizedDomain: boolean };

function refuse(reply: SubmissionResult<string[]>, unauthorizedDomain = false) {
  return data<AuthReply>({ reply, unauthorizedDomain }, { status: 400 });
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  // The strategy reads the body itself, so this parse works on a copy.
  const submission = await parseForm(request.clone(), authFormSchema);
  const hideFields = ["password"];
  if (submission.status !== "success") return refuse(submission.reply({ hideFields }));
  if (submission.value.intent === "reset") {
    const result = await requestPasswordReset(submission.value.email);
    if (!result.ok)
      return refuse(
        submission.reply({ formErrors: [AUTH_MESSAGES.resetFailed], hideFields }),
        result.unauthorizedDomain,
      );
    return redirectWithFlash("/auth", { kind: "success", title: AUTH_MESSAGES.resetSent });
  }
  try {
    const identity = await authenticator.authenticate("firebase-form", request);
    await provisionUser({ uid: identity.uid, email: identity.email, displayName: identity.displayName });
    const title = identity.isNewUser ? AUTH_MESSAGES.signedUp : AUTH_MESSAGES.signedIn;
    const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
    return await startSession(identity.idToken, { redirectTo, flash: { kind: "success", title } });
  } catch (error) {
    if (error instanceof AuthRejection) return refuse(error.reply, error.unauthorizedDomain);
    if (error instanceof StaleSignInError)
      return refuse(submission.reply({ formErrors: [AUTH_MESSAGES.genericError], hideFields }));
    throw error;
  }
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/RouteError";

export default function AuthRoute() {
  const { tab, redirectTo, domainAuthorized, firebaseConfig } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <AuthScreen
      tab={tab}
      redirectTo={redirectTo}
      lastResult={actionData?.reply}
      domainAuthorized={domainAuthorized && !actionData?.unauthorizedDomain}
      firebaseConfig={firebaseConfig}
    />
  );
}
