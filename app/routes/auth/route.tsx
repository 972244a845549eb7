import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AuthScreen } from "./AuthScreen";
import { SignInCodeStep } from "./SignInCodeStep";
import { loadWithDocumentPolicy } from "~/lib/document-policy";
import { pageMeta } from "~/lib/meta";
import { headersWithRetryAfter } from "~/lib/retry-after";
import { BARE_SCREEN } from "~/lib/shell";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { authAction, loadAuthPage } from "./page.server";

export const meta: MetaFunction = () => pageMeta("Sign in");
export const handle = BARE_SCREEN;

export const headers = headersWithRetryAfter;

export const loader = ({ request }: LoaderFunctionArgs) => loadAuthPage(request);
// Google sign-in is allowed on /auth's own documents only (domain/document-policy.ts).
export const clientLoader = loadWithDocumentPolicy;

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return authAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function AuthRoute() {
  const { tab, redirectTo, referralCode, domainAuthorized, firebaseConfig, formToken, email, codeStep, firstOffer } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (codeStep) {
    return (
      <SignInCodeStep
        sentTo={codeStep.sentTo}
        locked={codeStep.locked}
        redirectTo={redirectTo}
        formToken={formToken}
        lastResult={actionData?.reply}
      />
    );
  }
  return (
    <AuthScreen
      tab={tab}
      redirectTo={redirectTo}
      referralCode={referralCode}
      email={email}
      lastResult={actionData?.reply}
      domainAuthorized={domainAuthorized && !actionData?.unauthorizedDomain}
      firebaseConfig={firebaseConfig}
      formToken={formToken}
      firstOffer={firstOffer}
    />
  );
}
