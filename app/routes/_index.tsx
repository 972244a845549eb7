import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { HomeScreen } from "~/components/HomeScreen";
import { Onboarding } from "~/components/Onboarding";
import { ONBOARDING_SLIDES, parseSlideIndex } from "~/domain/onboarding";
import { hasSeenOnboarding, seenOnboardingCookie } from "~/server/onboarding.server";
import { assertSameOrigin, readFormData } from "~/server/security.server";
import { requireUser } from "~/server/session.server";
import { getUserSummary, provisionUser } from "~/server/users.server";

export async function loader({ request }: LoaderFunctionArgs) {
  if (!hasSeenOnboarding(request)) {
    const slide = parseSlideIndex(new URL(request.url).searchParams.get("slide"));
    return { view: "onboarding" as const, bareScreen: true, slide };
  }
  const user = await requireUser(request);
  const summary = (await getUserSummary(user.uid)) ?? (await provisionUser({ uid: user.uid, email: user.email, displayName: user.name }));
  return { view: "home" as const, displayName: summary.display_name || "User", balance: summary.balance };
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const form = await readFormData(request);
  if (form.get("intent") !== "complete-onboarding") return redirect("/");
  return redirect("/auth", { headers: { "Set-Cookie": seenOnboardingCookie() } });
}

export default function IndexRoute() {
  const data = useLoaderData<typeof loader>();
  if (data.view === "onboarding") return <Onboarding slides={ONBOARDING_SLIDES} index={data.slide} />;
  return <HomeScreen displayName={data.displayName} balance={data.balance} />;
}
