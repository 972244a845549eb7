import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import type { FeedView } from "~/components/CashoutFeed";
import { useLiveRefresh } from "~/lib/use-live-refresh";
import { WithdrawScreen } from "./WithdrawScreen";
import { lazyComponent } from "~/lib/lazy-component";
import { pageMeta } from "~/lib/meta";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { loadWithdraw, withdrawAction } from "./page.server";

// Opened with History (?history=1): its code comes when it is first opened.
const WithdrawalHistorySheet = lazyComponent(() =>
  import("./WithdrawalHistorySheet").then((module) => module.WithdrawalHistorySheet),
);

export const meta: MetaFunction = () => pageMeta("Withdraw Money");

export const loader = ({ request, context }: LoaderFunctionArgs) => loadWithdraw(request, context);

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return withdrawAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function WithdrawRoute() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  // The action answers a form's reply, or the code step a cash-out needs first (docs/decisions/092).
  const codeStep = answer && "codeStep" in answer ? answer.codeStep : null;
  const lastResult = answer && !("codeStep" in answer) ? answer : undefined;
  // Recent cash-outs as the events channel last sent them (docs/decisions/098); a task completed
  // elsewhere reloads the balance, as on Home.
  const [liveFeed, setLiveFeed] = useState<FeedView | null>(null);
  useLiveRefresh(true, (items) => setLiveFeed({ items, now: Date.now() }));
  return (
    <>
      <WithdrawScreen data={data} feed={liveFeed ?? data.feed} lastResult={lastResult} codeStep={codeStep} />
      {data.historyOpen ? (
        <WithdrawalHistorySheet
          rows={data.history}
          closeHref={data.bankOffered ? "/withdraw?method=bank" : "/withdraw"}
        />
      ) : null}
    </>
  );
}
