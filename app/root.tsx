import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { data } from "@remix-run/node";
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
import type { ReactNode } from "react";
import { AppShell } from "~/components/AppShell";
import { Toasts } from "~/components/Toasts";
import { Spinner } from "~/components/ui/Icon";
import { NavigationProgress } from "~/components/NavigationProgress";
import { ErrorScreen } from "~/components/RouteError";
import { requireDatabaseReady } from "~/server/db/database.server";
import { takeFlash } from "~/server/http/flash.server";
import { takeNoticeMessages } from "~/server/notices.server";
import { getSessionUser } from "~/server/auth/session.server";
import { needsDocumentLoad } from "~/lib/document-policy";
import { pageMeta } from "~/lib/meta";
import { useNonce } from "~/lib/nonce";
import type { ShellHandle } from "~/lib/shell";
import stylesHref from "~/styles/app.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesHref },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // Installable: the web app manifest (public/manifest.webmanifest) and the home-screen icon on iOS.
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

export const meta: MetaFunction = () => pageMeta();

export async function loader({ request }: LoaderFunctionArgs) {
  await requireDatabaseReady();
  // The shell only needs to know whether to show the profile button; a page that needs the
  // user checks again and answers 503 itself if the sign-in service cannot be reached.
  const user = await getSessionUser(request).catch(() => null);
  const [{ flash, setCookie }, notices] = await Promise.all([
    takeFlash(request),
    user ? takeNoticeMessages(user.uid) : [],
  ]);
  const messages = flash ? [flash, ...notices] : notices;
  return data({ signedIn: user !== null, messages }, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

// A live refresh (useRevalidator after another tab completed a task) must not take the flash
// message that belongs to the tab that acted; the root reloads after submissions and navigations.
// A navigation that ends in a document load (lib/document-policy.ts) leaves both to that document.
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) =>
  needsDocumentLoad(nextUrl) || (!formMethod && currentUrl.href === nextUrl.href) ? false : defaultShouldRevalidate;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <Meta />
        <Links />
      </head>
      <body className="font-sans antialiased">
        <div
          aria-hidden="true"
          className="start-spinner fixed inset-0 z-50 flex items-center justify-center bg-canvas text-brand-600"
        >
          <Spinner className="size-10" />
        </div>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function useBareScreen(): boolean {
  return useMatches().some((match) => (match.handle as ShellHandle | undefined)?.bareScreen(match.data) === true);
}

export default function App() {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const bare = useBareScreen();
  return (
    <>
      <NavigationProgress />
      <Toasts messages={rootData?.messages ?? []} />
      <AppShell showNav={!bare} signedIn={rootData?.signedIn ?? false}>
        <Outlet />
      </AppShell>
    </>
  );
}

/** Only when the root itself fails; a page's own failure is caught by its route's boundary, inside the shell. */
export function ErrorBoundary() {
  return (
    <AppShell showNav={false} signedIn={false}>
      <ErrorScreen error={useRouteError()} />
    </AppShell>
  );
}
