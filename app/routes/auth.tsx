import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AuthScreen } from "~/components/AuthScreen";
import { AUTH_MESSAGES, parseAuthTab } from "~/domain/auth";
import { AuthRejection, authenticator, requestPasswordReset } from "~/server/auth/authenticator.server";
import { getEnv } from "~/server/env.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { isDomainAuthorized } from "~/server/auth/identity.server";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { readFormData } from "~/server/http/forms.server";
import { safeRedirectPath } from "~/server/http/redirects.server";
import { getSessionUser, StaleSignInError, startSession } from "~/server/auth/session.server";
import { provisionUser } from "~/server/users.server";
import { pageMeta } from "~/lib/meta";
import { BARE_SCREEN } from "~/lib/shell";

export const meta: MetaFunction = () => pageMeta("Sign in");
export const handle = BARE_SCREEN;

function requestHostname(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  return (forwarded ?? new URL(request.url).host).replace(/:\d+$/, "");
}

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getSessionUser(request)) throw redirect("/");
  const { firebase } = getEnv();
  const params = new URL(request.url).searchParams;
  return {
    tab: parseAuthTab(params.get("tab")),
    redirectTo: safeRedirectPath(params.get("redirectTo")),
    domainAuthorized: await isDomainAuthorized(requestHostname(request)),
    // Public web-SDK settings, used only when the person asks for Google sign-in.
    firebaseConfig: {
      apiKey: firebase.apiKey,
      authDomain: firebase.authDomain,
      projectId: firebase.projectId,
      emulatorUrl: firebase.emulatorHost ? `http://${firebase.emulatorHost}` : null,
    },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const formData = await readFormData(request.clone());
  if (formData.get("intent") === "reset") {
    const result = await requestPasswordReset(formData);
    if (!result.ok) {
      return data({ reply: result.reply, unauthorizedDomain: result.unauthorizedDomain }, { status: 400 });
    }
    return redirectWithFlash("/auth", { kind: "success", title: AUTH_MESSAGES.resetSent });
  }
  try {
    const identity = await authenticator.authenticate("firebase-form", request);
    await provisionUser({ uid: identity.uid, email: identity.email, displayName: identity.displayName });
    const title = identity.isNewUser ? AUTH_MESSAGES.signedUp : AUTH_MESSAGES.signedIn;
    const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
    return await startSession(identity.idToken, { redirectTo, flash: { kind: "success", title } });
  } catch (error) {
    if (error instanceof AuthRejection) {
      return data({ reply: error.reply, unauthorizedDomain: error.unauthorizedDomain }, { status: 400 });
    }
    if (error instanceof StaleSignInError) {
      return data(
        { reply: { status: "error" as const, error: { "": [AUTH_MESSAGES.genericError] } }, unauthorizedDomain: false },
        { status: 400 },
      );
    }
    throw error;
  }
}

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
