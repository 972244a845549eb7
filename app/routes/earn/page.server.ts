import { earnWalls, featuredFor } from "~/server/walls/earn-walls.server";
import { redirect } from "@remix-run/node";
import type { Flash } from "~/domain/flash";
import { TASK_ALREADY_REWARDED } from "~/domain/identity";
import { coinsToDollars, formatCoins, formatDollars } from "~/domain/money";
import { withState } from "~/domain/money-timeline";
import { creditedBonusState } from "~/server/account/users.server";
import { earnFormSchema } from "./earn-forms";
import { redeemPromoCode } from "~/server/earning/promo-codes.server";
import { TASK_COMPLETION_DELAY_MS } from "~/domain/constants";
import { TASK_ID_PATTERN, earningPotential, filterTasks, parseTaskFilter, taskStart } from "~/domain/tasks";
import { earnHref } from "~/domain/urls";
import { getSessionUser } from "~/server/auth/session.server";
import { getAppConfig } from "~/server/runtime/config.server";
import { optionalSection, readTogether, type RequestScope } from "~/server/db/reads.server";
import { earningPausedCall } from "~/server/account/network-signals.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { bannerErrors, parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import { listTasks } from "~/server/earning/provider-offers.server";
import {
  completeTask,
  findTask,
  listTasksForUser,
  startTask,
  taskCompletionsCall,
  taskStartCall,
} from "~/server/earning/tasks.server";
import { ruleMessage } from "~/domain/rules";

const PENDING_AGAIN = "You finished this offer. Its coins arrive as soon as the offer provider confirms it.";

/**
 * After finishing a provider offer in the app (docs/decisions/040): the provider
 * pays it, by its postback, once it has checked the offer was done.
 */
function pendingConfirmation(title: string, coins: number): Flash {
  return {
    kind: "info",
    title: "Waiting for confirmation",
    description: `Thanks for finishing "${title}"! Your ${formatCoins(coins)} will be added as soon as the offer provider confirms it, usually within a few minutes. We'll let you know when they arrive.`,
  };
}

/**
 * What /earn shows, from its URL: search, filter chip and the open task dialog. (`started=1`, set
 * after Start Task, is only a hint: whether the task was started is the server's to say.)
 */
function readView(url: URL) {
  return {
    q: (url.searchParams.get("q") ?? "").slice(0, 100),
    type: parseTaskFilter(url.searchParams.get("type")),
    taskId: url.searchParams.get("task"),
  };
}

/** docs/product.md, "Earn"; the task list may fail on its own ("Failed to load tasks"). */
export async function loadEarn(request: Request, scope?: RequestScope) {
  const view = readView(new URL(request.url));
  const user = await getSessionUser(request, scope);
  // The dialog's task: the person's start of it, if any, read with the completions in one round trip.
  const dialogId = view.taskId !== null && TASK_ID_PATTERN.test(view.taskId) ? view.taskId : null;
  const reads = user
    ? {
        uid: user.uid,
        calls: readTogether(
          [
            taskCompletionsCall(user.uid),
            dialogId ? taskStartCall(user.uid, dialogId) : null,
            earningPausedCall(user.uid),
          ],
          scope,
        ),
      }
    : null;
  const [list, startRow, paused, config, walls] = await Promise.all([
    optionalSection("earn: tasks", reads ? listTasksForUser(reads.uid, reads.calls[0]) : listTasks()),
    optionalSection("earn: task start", reads ? reads.calls[1] : Promise.resolve(null)),
    optionalSection("earn: earning paused", reads ? reads.calls[2] : Promise.resolve(null)),
    getAppConfig(),
    optionalSection("earn: offer walls", earnWalls()),
  ]);
  // Offers the person was credited for are not featured again (a visitor sees everyone's four).
  const featured =
    walls && user
      ? ((await optionalSection("earn: featured offers", featuredFor(walls, user.uid))) ?? walls.featured)
      : (walls?.featured ?? []);
  // No offers had from the configured provider yet: the list failed (the fallback tasks never stand in).
  const failed = list === null || list.source === "unavailable";
  const tasks = list ? filterTasks(list.tasks, view.q, view.type) : [];
  const dialogTask = list?.tasks.find((task) => task.id === view.taskId) ?? null;
  return {
    q: view.q,
    type: view.type,
    // A started task left and opened again offers Complete Task, and says from when (decision 069).
    started:
      startRow && dialogTask && !dialogTask.completed
        ? taskStart(startRow.started_at, startRow.now, TASK_COMPLETION_DELAY_MS)
        : null,
    signedIn: user !== null,
    // Offers pay only after an operator's review while the account's network is flagged (decision 091).
    earningPaused: paused !== null,
    failed,
    // With a provider the list grows as partners add offers; the app's own eleven tasks are all there is.
    source: list?.source ?? "unavailable",
    tasks,
    potential: earningPotential(tasks),
    coinsPerDollar: config.coins_per_dollar,
    // The app's own tasks pay bonus money: where it waits for offer earnings, the list says so.
    bonusWaits: config.bonus_locked_until_earned === true && list?.source === "fallback",
    dialogTask,
    // The offer walls the operator turned on (docs/offer-walls.md), each opened at /earn/walls/{name};
    // the featured offers that lead the page and each listing wall's first few offers (decision
    // 100). Click and image URLs stay on the server.
    featured,
    walls: walls?.walls ?? [],
    wallOffers: walls?.lists ?? [],
  };
}

/** The task dialog: Start Task (the server notes the time), then Complete Task five seconds later. */
export async function earnAction(request: Request) {
  const view = readView(new URL(request.url));
  const back = earnHref({ q: view.q, type: view.type });
  const user = await getSessionUser(request);
  if (!user) {
    return redirectWithFlash(earnHref({ ...view, task: view.taskId ?? undefined }), {
      kind: "error",
      title: "Authentication required",
      description: "Please sign in to complete this task",
    });
  }
  const submission = await parseForm(request, earnFormSchema);
  // Buttons with a hidden task id: what is wrong shows in the dialog's (or the list's) banner.
  // A promo code's field keeps its own error, under it.
  if (submission.status !== "success") {
    return submission.payload.intent === "redeem-code"
      ? rejectForm(submission)
      : rejectForm(submission, { formErrors: bannerErrors(submission) });
  }
  if (submission.value.intent === "redeem-code") {
    const redeemed = await redeemPromoCode(request, user.uid, submission.value.code);
    if ("refusal" in redeemed) return rejectForm(submission, { fieldErrors: { code: [redeemed.refusal] } });
    const [state, config] = await Promise.all([creditedBonusState(user.uid), getAppConfig()]);
    return redirectWithFlash(back, {
      kind: "success",
      title: "Code redeemed",
      description: withState(
        `${redeemed.code} gave you ${formatCoins(redeemed.coins)} (${formatDollars(coinsToDollars(redeemed.coins, config.coins_per_dollar))})`,
        state,
      ),
    });
  }
  const task = await findTask(submission.value.taskId);
  if (!task) return rejectForm(submission, { formErrors: [ruleMessage("task_unavailable")] });

  if (submission.value.intent === "start") {
    const started = await startTask(user.uid, task);
    if (started.already_completed) {
      return redirectWithFlash(
        back,
        started.status === "pending"
          ? { kind: "info", title: "Waiting for confirmation", description: PENDING_AGAIN }
          : { kind: "info", title: "You have already completed this task" },
      );
    }
    return redirect(earnHref({ q: view.q, type: view.type, task: task.id, started: true }));
  }
  try {
    const result = await completeTask(user.uid, task.id);
    if (result.pending) return redirectWithFlash(back, pendingConfirmation(task.title, task.reward));
    if (result.already_rewarded)
      return redirectWithFlash(back, { kind: "info", title: "Task Completed", description: TASK_ALREADY_REWARDED });
    const [state, config] = await Promise.all([creditedBonusState(user.uid), getAppConfig()]);
    return redirectWithFlash(back, {
      kind: "success",
      title: "Task Completed",
      description: withState(
        `You earned ${result.reward} coins (${formatDollars(coinsToDollars(result.reward, config.coins_per_dollar))})`,
        state,
      ),
    });
  } catch (error) {
    return replyWithDbError(submission, error, {
      fallback: "Failed to complete the task. Please try again.",
      context: "task completion",
    });
  }
}
