import { redirect } from "@remix-run/node";
import { QUICK_TASK_COUNT } from "~/domain/constants";
import { referralBonusOf } from "~/domain/profile";
import { requireUser } from "./auth/session.server";
import { checkIn, getCheckinStatus } from "./checkin.server";
import { ruleViolationMessage } from "./db/core.server";
import { redirectWithFlash } from "./http/flash.server";
import { readFormData } from "./http/forms.server";
import { getLeaderboard } from "./leaderboard.server";
import { findTask, listTasksForUser } from "./tasks.server";
import { getUserSummary, provisionUser } from "./users.server";

const LEADERBOARD_TEASER_SIZE = 3;

/** Spec §2 Home: greeting, balance, tiles, check-in, quick tasks and the leaderboard teaser. */
export async function loadHome(request: Request) {
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
    displayName: summary.display_name || "User",
    balance: summary.balance,
    totalEarned: summary.total_earned,
    referralBonus: referralBonusOf(summary.preferences),
    checkedInToday: checkin.checked_in_today,
    daysThisWeek: checkin.recent_dates.length,
    quickTasks: tasks.tasks.filter((task) => !task.completed).slice(0, QUICK_TASK_COUNT),
    leaders,
  };
}

/** Home's forms: the daily check-in and a quick task's Start. */
export async function homeAction(request: Request) {
  const form = await readFormData(request);
  const intent = form.get("intent");
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
          : {
              kind: "error",
              title: "Failed to check in. Please try again.",
              description: rule ?? "Please try again later.",
            },
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
