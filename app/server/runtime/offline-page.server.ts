import { createHash } from "node:crypto";
import { OFFLINE_MESSAGES } from "~/domain/offline";
import { getEnv } from "./env.server";
import { staticDocumentSecurityHeaders } from "../http/security-headers.server";

// The page the service worker (routes/service-worker[.]js.ts) shows when a page cannot be fetched.
// It is kept in the browser's cache and shown without the network, so it stands alone: no script,
// no stylesheet to fetch (its style is inline, allowed by its hash), the app icon drawn inline.
// Its "Try again" link is the address itself (href=""), so it loads the page that was asked for.

const STYLE = `
*,::before,::after{box-sizing:border-box}
html{background:#f7f7fb;color:#101828;-webkit-text-size-adjust:100%}
body{margin:0;min-height:100dvh;display:flex;align-items:center;justify-content:center;font-family:"Inter",ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased}
main{width:100%;max-width:28rem;padding:2rem 1.25rem;text-align:center}
svg{width:4rem;height:4rem}
h1{margin:1.5rem 0 .5rem;font-size:1.5rem;line-height:2rem;font-weight:700}
p{margin:0 auto;max-width:20rem;color:#667085;font-size:1rem;line-height:1.5rem}
a{display:flex;align-items:center;justify-content:center;height:3rem;margin-top:2rem;border-radius:.75rem;background:#6938ef;color:#fff;font-weight:600;text-decoration:none}
a:hover{background:#5925dc}
a:focus-visible{outline:2px solid #7a5af8;outline-offset:2px}
`.trim();

const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" fill="#6938ef"/><circle cx="16" cy="16" r="8" fill="none" stroke="#fff" stroke-width="2.5"/><path d="M16 11v10M18.5 12.8h-3.8a1.6 1.6 0 0 0 0 3.2h2.6a1.6 1.6 0 0 1 0 3.2H13.5" fill="none" stroke="#fff" stroke-width="1.6" stroke-linecap="round"/></svg>';

const HTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#6938ef">
<title>Offline · Rewards</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${ICON}
<h1>${OFFLINE_MESSAGES.title}</h1>
<p>${OFFLINE_MESSAGES.description}</p>
<a href="">Try again</a>
</main>
</body>
</html>
`;

const STYLE_HASH = `'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`;

/** Changes whenever the page does; the service worker names its cache with it, so a new page replaces the old one. */
export const OFFLINE_PAGE_VERSION = createHash("sha256").update(HTML).digest("hex").slice(0, 12);

export function offlinePage(): Response {
  return new Response(HTML, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-cache",
      ...staticDocumentSecurityHeaders(STYLE_HASH, getEnv()),
    },
  });
}
