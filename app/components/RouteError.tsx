import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { OFFLINE_MESSAGES } from "~/domain/offline";
import { NotFound } from "./NotFound";
import { buttonClass } from "./ui/button";
import { Icon } from "./ui/Icon";

const GENERIC_MESSAGE = "Something went wrong on our side. Please try again in a moment.";
// Remix's own answer to a form posted to a page that has no action (its text names the route).
const NOT_A_FORM_MESSAGE = "This page does not accept forms.";

/** What a failed page shows: a readable message and a way back, never a stack trace. */
export function ErrorScreen({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  // A page followed in the app while the network is gone: its data could not be fetched. (Only in
  // the browser: a page the server renders never failed for that.)
  const offline = !isRouteErrorResponse(error) && typeof navigator !== "undefined" && !navigator.onLine;
  const message = offline
    ? OFFLINE_MESSAGES.description
    : !isRouteErrorResponse(error)
      ? GENERIC_MESSAGE
      : typeof error.data?.message === "string"
        ? error.data.message
        : error.status === 405
          ? NOT_A_FORM_MESSAGE
          : GENERIC_MESSAGE;
  return (
    <div className="flex min-h-[60dvh] flex-col items-center justify-center text-center">
      <span className="inline-flex size-16 items-center justify-center rounded-2xl bg-red-50 text-red-600">
        <Icon name="alert" className="size-8" />
      </span>
      <h1 className="mt-5 text-xl font-bold">{offline ? OFFLINE_MESSAGES.title : "Something went wrong"}</h1>
      <p className="mt-2 max-w-xs text-sm text-muted">{message}</p>
      <div className="mt-8 flex w-full max-w-xs flex-col gap-3">
        {/* A full reload, so the page's data is fetched again. */}
        <a href="" className={buttonClass({ block: true })}>
          <Icon name="refresh" className="size-5" />
          Try Again
        </a>
        <Link to="/" className={buttonClass({ tone: "secondary", block: true })}>
          Return to Home
        </Link>
      </div>
    </div>
  );
}

/**
 * A route's error boundary: it renders inside the app shell, so the bottom bar and the profile
 * button stay and the person can go elsewhere.
 */
export function RouteErrorBoundary() {
  return <ErrorScreen error={useRouteError()} />;
}
