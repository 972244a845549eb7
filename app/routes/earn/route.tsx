import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EarnScreen } from "./EarnScreen";
import { lazyComponent } from "~/lib/lazy-component";
import { pageMeta } from "~/lib/meta";
import { earnHref } from "~/domain/urls";
import { useLiveRefresh } from "~/lib/use-live-refresh";
import { earnAction, loadEarn } from "./page.server";
import { assertSameOrigin } from "~/server/http/same-origin.server";

// Opened from a task (?task=): its code comes when it is first opened.
const TaskDialog = lazyComponent(() => import("./TaskDialog").then((module) => module.TaskDialog));

export const meta: MetaFunction = () => pageMeta("Earn Rewards");

export const loader = ({ request, context }: LoaderFunctionArgs) => loadEarn(request, context);

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return earnAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function EarnRoute() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  useLiveRefresh(data.signedIn);
  return (
    <>
      <EarnScreen
        q={data.q}
        type={data.type}
        tasks={data.tasks}
        failed={data.failed}
        bonusWaits={data.bonusWaits}
        earningPaused={data.earningPaused}
        source={data.source}
        potential={data.potential}
        coinsPerDollar={data.coinsPerDollar}
        featured={data.featured}
        walls={data.walls}
        wallOffers={data.wallOffers}
        // A reply about a task that is not on screen (gone from the list) shows above the list.
        lastResult={data.dialogTask ? undefined : lastResult}
      />
      {data.dialogTask ? (
        <TaskDialog
          task={data.dialogTask}
          coinsPerDollar={data.coinsPerDollar}
          closeHref={earnHref({ q: data.q, type: data.type })}
          signedIn={data.signedIn}
          started={data.started}
          lastResult={lastResult}
        />
      ) : null}
    </>
  );
}
