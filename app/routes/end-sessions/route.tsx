import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { Banner } from "~/components/ui/Banner";
import { ScreenHero } from "~/components/ui/ScreenHero";
import { buttonClass } from "~/components/ui/button";
import { pageMeta } from "~/lib/meta";
import { BARE_SCREEN } from "~/lib/shell";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { END_SESSIONS_TEXTS } from "~/domain/email-codes";
import { endSessionsAction, loadEndSessions } from "./page.server";

export const meta: MetaFunction = () => pageMeta("End every session");
export const handle = BARE_SCREEN;

export const loader = ({ request }: LoaderFunctionArgs) => loadEndSessions(request);

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return endSessionsAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function EndSessionsRoute() {
  const loaded = useLoaderData<typeof loader>();
  const { valid, ended } = useActionData<typeof action>() ?? loaded;
  // The link's own address: the button posts the token it carries.
  const { search } = useLocation();
  return (
    <div className="flex min-h-[calc(100dvh-3.5rem)] flex-col justify-center gap-6">
      <ScreenHero icon="lock" badge="danger" title={ended ? END_SESSIONS_TEXTS.ended : "End every session"} />
      {!valid ? (
        <>
          <Banner tone="error">{END_SESSIONS_TEXTS.invalid}</Banner>
          <Link to="/auth" className={buttonClass({ tone: "secondary", block: true })}>
            Sign in
          </Link>
        </>
      ) : ended ? (
        <>
          <p className="text-center text-sm text-muted">{END_SESSIONS_TEXTS.endedDetail}</p>
          <Link to="/auth" className={buttonClass({ block: true })}>
            Choose a new password
          </Link>
        </>
      ) : (
        <>
          <p className="text-center text-sm text-muted">{END_SESSIONS_TEXTS.ask}</p>
          <Form method="post" action={`/end-sessions${search}`}>
            <SubmitButton pendingText="Ending every session…" look={{ tone: "danger", block: true }}>
              End every session
            </SubmitButton>
          </Form>
        </>
      )}
    </div>
  );
}
