import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ProfileHeader, ProfileScreen } from "./ProfileScreen";
import { loadWithDocumentPolicy } from "~/lib/document-policy";
import { lazyComponent } from "~/lib/lazy-component";
import { pageMeta } from "~/lib/meta";
import { headersWithRetryAfter } from "~/lib/retry-after";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { loadProfile, profileAction } from "./page.server";

// Only when the profile could not be loaded.
const ProfileLoadFailure = lazyComponent(() =>
  import("./ProfileLoadFailure").then((module) => module.ProfileLoadFailure),
);

export const meta: MetaFunction = () => pageMeta("Profile");

export const headers = headersWithRetryAfter;

export const loader = ({ request, context }: LoaderFunctionArgs) => loadProfile(request, context);
// Web push and Google sign-in are allowed on /profile's own documents only (domain/document-policy.ts).
export const clientLoader = loadWithDocumentPolicy;

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return profileAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function ProfileRoute() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  if (data.failed) {
    return (
      <div className="space-y-4">
        <ProfileHeader name="User" />
        <ProfileLoadFailure />
      </div>
    );
  }
  // The notification switches read their own replies; every other form shows its reply here.
  const lastResult = reply && "status" in reply ? reply : undefined;
  return <ProfileScreen data={data} lastResult={lastResult} />;
}
