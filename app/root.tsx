import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { AppShell } from "~/components/AppShell";
import { InlineStylesheet } from "~/components/InlineStylesheet";
import { NavigationProgress } from "~/components/NavigationProgress";
import { ErrorScreen } from "~/components/shared";
import { needsDocumentLoad } from "~/lib/document-policy";
import { replayEarlyInput } from "~/lib/early-input";
import { pageMeta } from "~/lib/meta";
import { useNonce } from "~/lib/nonce";
import type { ShellHandle } from "~/lib/shell";
import { loadRoot } from "~/server/runtime/root.server";
import stylesHref from "~/styles/app.css";

// The stylesheet is inline in the head (InlineStylesheet), not linked.
export const links: LinksFunction = () => [
  // A PNG, not an SVG: an SVG icon is a document of its own, built on the page's main thread after
  // the first paint (docs/decisions/107).
  { rel: "icon", href: "/icons/favicon-48.png", type: "image/png", sizes: "48x48" },
  // Installable: the web app manifest (public/manifest.webmanifest) and the home-screen icon on iOS.
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

export const meta: MetaFunction = () => pageMeta();

// Route modules import one server module of their own (the browser build keeps an empty stand-in for each).
export const loader = ({ request, context }: LoaderFunctionArgs) => loadRoot(request, context);

// A live refresh (useRevalidator after another tab completed a task) must not take the flash
// message that belongs to the tab that acted; the root reloads after submissions and navigations.
// A navigation that ends in a document load (lib/document-policy.ts) leaves both to that document.
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) =>
  needsDocumentLoad(nextUrl) || (!formMethod && currentUrl.href === nextUrl.href)
    ? false
    : // Leaving the notices page, where they were read: the bell counts again.
      (currentUrl.pathname === "/notices" && nextUrl.pathname !== "/notices") || defaultShouldRevalidate;

// The first paint waits until the page's content has been read (`<link rel=expect blocking=render>`,
// Chromium 124+; other browsers ignore it). With the stylesheet inline nothing else holds it, and
// a browser could paint the start of the streamed document, then move it as the rest arrives (the
// sign-in screen is centred), a layout shift. (No overlay hides a page the server has rendered:
// docs/decisions/073-nothing-covers-the-page.md.)
const CONTENT_END = "content-end";
const renderBlocking = { blocking: "render" } as Record<string, string>;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <Meta />
        <InlineStylesheet href={stylesHref} nonce={nonce} />
        <link rel="expect" href={`#${CONTENT_END}`} {...renderBlocking} />
        <Links />
      </head>
      <body className="font-sans antialiased">
        {children}
        <div id={CONTENT_END} hidden />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function useShellHandles() {
  const matches = useMatches();
  const says = (question: "bareScreen" | "wideScreen") =>
    matches.some((match) => (match.handle as ShellHandle | undefined)?.[question]?.(match.data) === true);
  return { bare: says("bareScreen"), wide: says("wideScreen") };
}

export default function App() {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const { bare, wide } = useShellHandles();
  // The root's effect runs last, once the whole page is hydrated: what was typed or chosen before is applied.
  useEffect(replayEarlyInput, []);
  return (
    <>
      <NavigationProgress />
      <AppShell
        showNav={!bare}
        wide={wide}
        signedIn={rootData?.signedIn ?? false}
        unreadNotices={rootData?.unreadNotices ?? 0}
        messages={rootData?.messages ?? []}
      >
        <Outlet />
      </AppShell>
    </>
  );
}

/** Only when the root itself fails; a page's own failure is caught by its route's boundary, inside the shell. */
export function ErrorBoundary() {
  return (
    <AppShell showNav={false} signedIn={false} messages={[]}>
      <ErrorScreen error={useRouteError()} />
    </AppShell>
  );
}
