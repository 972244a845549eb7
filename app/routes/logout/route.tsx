import type { ActionFunctionArgs } from "@remix-run/node";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { logOut, logoutRedirect } from "./page.server";

export const loader = logoutRedirect;

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return logOut(request);
}

// A page module (its loader always redirects), so that a refused post, such as one from another
// site, is answered with the app's error page rather than Remix's anonymous resource-route error.
export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function Logout() {
  return null;
}
