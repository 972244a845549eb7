import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import type { FeedView } from "~/components/CashoutFeed";
import { HomeScreen } from "./HomeScreen";
import { ONBOARDING_SLIDES } from "~/content/onboarding";
import type { ShellHandle } from "~/lib/shell";
import { lazyComponent } from "~/lib/lazy-component";
import { useLiveRefresh } from "~/lib/use-live-refresh";
import { homeAction, loadHome } from "./page.server";
import { hasSeenOnboarding } from "~/server/http/cookies.server";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { loadOnboarding, onboardingAction } from "./onboarding.server";

// Shown once, to a first visit: Home does not carry its code.
const Onboarding = lazyComponent(() => import("./Onboarding").then((module) => module.Onboarding));

// docs/product.md, "Routes": onboarding until it has been seen, then Home.
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!hasSeenOnboarding(request)) return { view: "onboarding" as const, onboarding: loadOnboarding(request) };
  return { view: "home" as const, home: await loadHome(request, context) };
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return hasSeenOnboarding(request) ? homeAction(request) : onboardingAction(request);
}

export const handle: ShellHandle = {
  bareScreen: (data) => (data as Awaited<ReturnType<typeof loader>> | undefined)?.view === "onboarding",
};

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function IndexRoute() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  // The feed of recent cash-outs as the events channel last sent it (docs/decisions/098).
  const [liveFeed, setLiveFeed] = useState<FeedView | null>(null);
  useLiveRefresh(data.view === "home", (items) => setLiveFeed({ items, now: Date.now() }));
  if (data.view === "onboarding") return <Onboarding slides={ONBOARDING_SLIDES} index={data.onboarding.slide} />;
  return <HomeScreen data={data.home} feed={liveFeed ?? data.home.feed} lastResult={lastResult} />;
}
