import { Form, Link } from "@remix-run/react";
import { formatCoins } from "~/domain/money";
import { taskActionLabel, type Task } from "~/domain/tasks";
import { Icon } from "./ui/Icon";
import { buttonClass } from "./ui";

export const TASK_TYPE_STYLES = {
  survey: { icon: "survey", tint: "bg-sky-50 text-sky-600" },
  video: { icon: "video", tint: "bg-rose-50 text-rose-600" },
  app: { icon: "app", tint: "bg-emerald-50 text-emerald-600" },
  game: { icon: "game", tint: "bg-amber-50 text-amber-600" },
} as const;

export function TaskIcon({ type, size = "size-11" }: { type: Task["type"]; size?: string }) {
  const style = TASK_TYPE_STYLES[type];
  return (
    <span className={`inline-flex ${size} shrink-0 items-center justify-center rounded-xl ${style.tint}`}>
      <Icon name={style.icon} className="size-5" />
    </span>
  );
}

/**
 * One task in a list. On Home the button posts `start-task` (spec §2: an info message, then /earn);
 * on Earn the whole row links to the task's dialog (`?task=`).
 */
export function TaskRow({ task, href, startAction }: { task: Task; href?: string; startAction?: boolean }) {
  const body = (
    <>
      <TaskIcon type={task.type} />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-semibold text-ink">{task.title}</p>
        <p className="mt-0.5 flex items-center gap-2 text-xs text-muted">
          <span className="font-semibold text-money-600">+{formatCoins(task.reward)}</span>
          <span aria-hidden="true">·</span>
          <span className="inline-flex items-center gap-1">
            <Icon name="clock" className="size-3.5" />
            {task.timeToComplete}
          </span>
        </p>
      </div>
    </>
  );
  if (href) {
    return (
      <Link
        to={href}
        preventScrollReset
        className="flex items-center gap-3 rounded-2xl border border-line bg-white p-3 shadow-sm transition hover:border-brand-200 active:scale-[0.99]"
      >
        {body}
        {task.completed ? (
          <span className="rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-semibold text-emerald-700">Done</span>
        ) : (
          <Icon name="forward" className="size-5 text-muted" />
        )}
      </Link>
    );
  }
  return (
    <div className="flex items-center gap-3 rounded-2xl border border-line bg-white p-3 shadow-sm">
      {body}
      {startAction ? (
        <Form method="post" className="shrink-0">
          <input type="hidden" name="taskId" value={task.id} />
          <button name="intent" value="start-task" className={buttonClass("primary", "h-9 px-4 text-sm")}>
            {taskActionLabel(task)}
          </button>
        </Form>
      ) : null}
    </div>
  );
}
