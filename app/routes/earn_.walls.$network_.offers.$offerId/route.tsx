import type { LoaderFunctionArgs } from "@remix-run/node";
import { openWallOffer } from "./page.server";

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  openWallOffer(request, params.network, params.offerId);

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

// Never drawn (the loader redirects or throws); being a page rather than a resource route puts its
// 404 in the app shell.
export default function WallOfferRoute() {
  return null;
}
