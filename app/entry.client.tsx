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
