import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { rememberDocumentPage } from "./lib/document-policy";

// The page this document, and so its Content-Security-Policy, was served for.
rememberDocumentPage(window.location.pathname);

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});

// The service worker (routes/service-worker[.]js.ts) shows the offline page when the network is gone;
// registered once the page has loaded (which may be before this module runs), so it never competes
// with the page's own downloads.
if ("serviceWorker" in navigator) {
  const register = () => void navigator.serviceWorker.register("/service-worker.js").catch(() => {});
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
