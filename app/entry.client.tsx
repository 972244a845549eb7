import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { rememberDocumentPage } from "./lib/document-policy";
import { rememberBrowserTimeZone } from "./lib/time-zone";

// The page this document, and so its Content-Security-Policy, was served for.
rememberDocumentPage(window.location.pathname);
// The server writes the next page's dates in the browser's time zone (lib/time-zone.ts). Asking
// for it makes the page's first Intl object, which loads the locale data: in a task of its own, not
// in the one that evaluates the app's modules (docs/decisions/103).
setTimeout(rememberBrowserTimeZone, 0);

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}

// The server's page is painted before hydration starts. When the scripts arrive quickly the
// browser would otherwise run them first, and the page would show only once React had gone
// through it (Lighthouse measured /profile's first paint at 2.1 s instead of 1.0 s). A timer
// queued from requestAnimationFrame runs once that frame is painted. A tab in the background
// paints no frames, so there hydration starts at once.
if (document.visibilityState === "hidden") hydrate();
else requestAnimationFrame(() => setTimeout(hydrate, 0));

// The service worker (routes/service-worker[.]js.ts) shows the offline page when the network is gone;
// registered once the page has loaded (which may be before this module runs), so it never competes
// with the page's own downloads.
if ("serviceWorker" in navigator) {
  const register = () => void navigator.serviceWorker.register("/service-worker.js").catch(() => {});
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
