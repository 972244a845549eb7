import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { offerWallOf, pageFeatures } from "~/domain/document-policy";

// A document keeps the Content-Security-Policy it was served with through client-side
// navigations, and that policy allows only what its own page needs. So a page that needs more
// (Google sign-in on /auth, web push on /profile, an offer wall's frame) is entered with a document load when the
// document in the browser was served for another page.

let servedFor: string | undefined;

/** Remembers the page this document was served for (entry.client.tsx, before hydration). */
export function rememberDocumentPage(pathname: string) {
  servedFor ??= pathname;
}

/** Whether moving to `url` needs a document load: its page needs what this document's policy does not allow. */
export function needsDocumentLoad(url: URL): boolean {
  const wall = offerWallOf(url.pathname);
  if (wall !== null && (servedFor === undefined || offerWallOf(servedFor) !== wall)) return true;
  const served = servedFor === undefined ? [] : pageFeatures(servedFor);
  return pageFeatures(url.pathname).some((feature) => !served.includes(feature));
}

/** The `clientLoader` of a page that needs more than other pages: a document load when this document cannot serve it. */
export async function loadWithDocumentPolicy({ request, serverLoader }: ClientLoaderFunctionArgs) {
  if (!needsDocumentLoad(new URL(request.url))) return serverLoader();
  window.location.assign(request.url);
  // The page is being replaced: this navigation never finishes.
  return new Promise<never>(() => {});
}
