import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { WithdrawalHistorySheet } from "~/components/WithdrawalHistorySheet";
import { WithdrawScreen } from "~/components/WithdrawScreen";
import { pageMeta } from "~/lib/meta";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { loadWithdraw, withdrawAction } from "~/server/withdraw.server";

export const meta: MetaFunction = () => pageMeta("Withdraw Money");

export const loader = ({ request }: LoaderFunctionArgs) => loadWithdraw(request);

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return withdrawAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/RouteError";

export default function WithdrawRoute() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <>
      <WithdrawScreen data={data} lastResult={lastResult} />
      {data.historyOpen ? (
        <WithdrawalHistorySheet
          rows={data.history}
          closeHref={data.bankOffered ? "/withdraw?method=bank" : "/withdraw"}
        />
      ) : null}
    </>
  );
}
