import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageMeta } from "~/lib/meta";
import { requireUser } from "~/server/auth/session.server";
import { optionalSection } from "~/server/db/reads.server";
import { requestTimeZone } from "~/server/http/cookies.server";
import { readNotices } from "~/server/notifications/notices.server";
import { NoticesScreen } from "./NoticesScreen";

// Notices you can read again (issue 36, docs/decisions/084): every notice the person received,
// newest first; listing them reads them (read_notices), so the bell's count goes.
export const meta: MetaFunction = () => pageMeta("Notices");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return { notices: await optionalSection("notices", readNotices(user.uid, requestTimeZone(request))) };
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function NoticesRoute() {
  const { notices } = useLoaderData<typeof loader>();
  return <NoticesScreen notices={notices} />;
}
