import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { HomeScreen } from "~/components/HomeScreen";
import { Onboarding } from "~/components/Onboarding";
import { useLiveRefresh } from "~/components/use-live-refresh";
import { QUICK_TASK_COUNT } from "~/domain/constants";
import { ONBOARDING_SLIDES, parseSlideIndex } from "~/domain/onboarding";
import { referralBonusOf } from "~/domain/profile";
import { ruleViolationMessage } from "~/server/db.server";
import { checkIn, getCheckinStatus, getLeaderboard } from "~/server/earning.server";
import { redirectWithFlash } from "~/server/flash.server";
import { hasSeenOnboarding, seenOnboardingCookie } from "~/server/onboarding.server";
import { assertSameOrigin, readFormData } from "~/server/security.server";
import { requireUser } from "~/server/session.server";
import { findTask, listTasksForUser } from "~/server/tasks.server";
import { getUserSummary, provisionUser } from "~/server/users.server";

const LEADERBOARD_TEASER_SIZE = 3;

export async function loader({ request }: LoaderFunctionArgs) {
  if (!hasSeenOnboarding(request)) {
    const slide = parseSlideIndex(new URL(request.url).searchParams.get("slide"));
    return { view: "onboarding" as const, bareScreen: true, slide };
  }
  const user = await requireUser(request);
  const [summary, checkin, tasks, leaders] = await Promise.all([
    getUserSummary(user.uid).then(
      (found) => found ?? provisionUser({ uid: user.uid, email: user.email, displayName: user.name }),
    ),
    getCheckinStatus(user.uid),
    listTasksForUser(user.uid),
    getLeaderboard(user.uid, LEADERBOARD_TEASER_SIZE),
  ]);
  return {
    view: "home" as const,
    home: {
      displayName: summary.display_name || "User",
      balance: summary.balance,
      totalEarned: summary.total_earned,
      referralBonus: referralBonusOf(summary.preferences),
      checkedInToday: checkin.checked_in_today,
      daysThisWeek: checkin.recent_dates.length,
      quickTasks: tasks.tasks.filter((task) => !task.completed).slice(0, QUICK_TASK_COUNT),
      leaders,
    },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const form = await readFormData(request);
  const intent = form.get("intent");
  if (intent === "complete-onboarding") {
    return redirect("/auth", { headers: { "Set-Cookie": seenOnboardingCookie() } });
  }
  const user = await requireUser(request);
  if (intent === "checkin") {
    try {
      const result = await checkIn(user.uid);
      return redirectWithFlash("/", {
        kind: "success",
        title: "Checked in!",
        description: `You earned ${result.coins} coins.`,
      });
    } catch (error) {
      const rule = ruleViolationMessage(error);
      if (!rule) console.error("check-in failed:", error);
      return redirectWithFlash(
        "/",
        rule === "Already checked in today!"
          ? { kind: "info", title: rule }
          : { kind: "error", title: "Failed to check in. Please try again.", description: rule ?? "Please try again later." },
      );
    }
  }
  if (intent === "start-task") {
    const task = await findTask(String(form.get("taskId") ?? ""));
    if (!task) return redirectWithFlash("/", { kind: "error", title: "This task is no longer available" });
    return redirectWithFlash(`/earn?task=${encodeURIComponent(task.id)}`, {
      kind: "info",
      title: `Starting "${task.title}"`,
      description: "Finish the task to collect your coins.",
    });
  }
  return redirect("/");
}

export default function IndexRoute() {
  const data = useLoaderData<typeof loader>();
  useLiveRefresh(data.view === "home");
  if (data.view === "onboarding") return <Onboarding slides={ONBOARDING_SLIDES} index={data.slide} />;
  return <HomeScreen data={data.home} />;
}
