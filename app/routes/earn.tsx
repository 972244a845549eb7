import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { pageMeta } from "~/lib/meta";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EarnScreen } from "~/components/EarnScreen";
import { earnHref } from "~/lib/urls";
import { TaskDialog } from "~/components/TaskDialog";
import { useLiveRefresh } from "~/lib/use-live-refresh";
import { earningPotential, filterTasks, parseTaskFilter } from "~/domain/tasks";
import { ruleViolationMessage } from "~/server/db/core.server";
import { getCoinsPerDollar } from "~/server/config.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { readFormData } from "~/server/http/forms.server";
import { getSessionUser } from "~/server/auth/session.server";
import { listTasks, type TaskList } from "~/server/offers.server";
import { completeTask, findTask, listTasksForUser, startTask } from "~/server/tasks.server";

export const meta: MetaFunction = () => pageMeta("Earn Rewards");

function readView(url: URL) {
  return {
    q: (url.searchParams.get("q") ?? "").slice(0, 100),
    type: parseTaskFilter(url.searchParams.get("type")),
    taskId: url.searchParams.get("task"),
    started: url.searchParams.get("started") === "1",
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const view = readView(new URL(request.url));
  const user = await getSessionUser(request);
  let list: TaskList | null = null;
  let coinsPerDollar = 0;
  try {
    [list, coinsPerDollar] = await Promise.all([user ? listTasksForUser(user.uid) : listTasks(), getCoinsPerDollar()]);
  } catch (error) {
    console.error("tasks failed to load:", error);
  }
  const tasks = list ? filterTasks(list.tasks, view.q, view.type) : [];
  const dialogTask = list?.tasks.find((task) => task.id === view.taskId) ?? null;
  return {
    q: view.q,
    type: view.type,
    started: view.started,
    signedIn: user !== null,
    failed: list === null,
    tasks,
    potential: earningPotential(tasks),
    coinsPerDollar,
    dialogTask,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const form = await readFormData(request);
  const view = readView(new URL(request.url));
  const back = earnHref({ q: view.q, type: view.type });
  const taskId = String(form.get("taskId") ?? "");
  const user = await getSessionUser(request);
  if (!user) {
    return redirectWithFlash(earnHref({ ...view, task: taskId }), {
      kind: "error",
      title: "Authentication required",
      description: "Please sign in to complete this task",
    });
  }
  const task = await findTask(taskId);
  if (!task) return redirectWithFlash(back, { kind: "error", title: "This task is no longer available" });

  const intent = form.get("intent");
  if (intent === "start") {
    const started = await startTask(user.uid, task);
    if (started.already_completed) {
      return redirectWithFlash(back, { kind: "info", title: "You have already completed this task" });
    }
    return redirect(earnHref({ q: view.q, type: view.type, task: task.id, started: true }));
  }
  if (intent === "complete") {
    try {
      const result = await completeTask(user.uid, task.id);
      return redirectWithFlash(back, {
        kind: "success",
        title: "Task Completed",
        description: `You earned ${result.reward} coins.`,
      });
    } catch (error) {
      const rule = ruleViolationMessage(error);
      if (!rule) console.error("task completion failed:", error);
      return redirectWithFlash(earnHref({ ...view, task: task.id, started: rule === "Task is not finished yet" }), {
        kind: "error",
        title: "Error",
        description: rule ?? "Failed to complete the task. Please try again.",
      });
    }
  }
  return redirect(back);
}

export default function EarnRoute() {
  const data = useLoaderData<typeof loader>();
  useLiveRefresh(data.signedIn);
  return (
    <>
      <EarnScreen
        q={data.q}
        type={data.type}
        tasks={data.tasks}
        failed={data.failed}
        potential={data.potential}
        coinsPerDollar={data.coinsPerDollar}
      />
      {data.dialogTask ? (
        <TaskDialog
          task={data.dialogTask}
          coinsPerDollar={data.coinsPerDollar}
          closeHref={earnHref({ q: data.q, type: data.type })}
          signedIn={data.signedIn}
          started={data.started && !data.dialogTask.completed}
        />
      ) : null}
    </>
  );
}
