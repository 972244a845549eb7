import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatCoins } from "~/domain/money";
import type { Task } from "~/domain/tasks";
import { Icon } from "./ui/Icon";

// `tint` colours an icon; `badge` a label, whose small text needs the darker shade (4.5:1).
export const TASK_TYPE_STYLES = {
  survey: { icon: "survey", tint: "bg-sky-50 text-sky-600", badge: "bg-sky-50 text-sky-800" },
  video: { icon: "video", tint: "bg-rose-50 text-rose-600", badge: "bg-rose-50 text-rose-800" },
  app: { icon: "app", tint: "bg-emerald-50 text-emerald-600", badge: "bg-emerald-50 text-emerald-800" },
  game: { icon: "game", tint: "bg-amber-50 text-amber-600", badge: "bg-amber-50 text-amber-800" },
} as const;

export function TaskIcon({ type, large = false }: { type: Task["type"]; large?: boolean }) {
  const style = TASK_TYPE_STYLES[type];
  return (
    <span
      className={`inline-flex ${large ? "size-12" : "size-11"} shrink-0 items-center justify-center rounded-xl ${style.tint}`}
    >
      <Icon name={style.icon} className="size-5" />
    </span>
  );
}

function TaskSummary({ task }: { task: Task }) {
  return (
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
}

const ROW = "flex items-center gap-3 rounded-2xl border border-line bg-white p-3 shadow-sm";

/** One task in a list, with its own action on the right (Home's Start button). */
export function TaskRow({ task, children }: { task: Task; children?: ReactNode }) {
  return (
    <div className={ROW}>
      <TaskSummary task={task} />
      {children}
    </div>
  );
}

/** One task on Earn: the whole row opens the task's dialog (`?task=`). */
export function TaskLinkRow({ task, href }: { task: Task; href: string }) {
  return (
    <Link to={href} preventScrollReset className={`${ROW} transition hover:border-brand-200 active:scale-[0.99]`}>
      <TaskSummary task={task} />
      {task.pending ? (
        // A provider offer finished in the app: its coins wait for the provider's confirmation.
        <span className="rounded-full bg-amber-50 px-2.5 py-1 text-xs font-semibold text-amber-700">Pending</span>
      ) : task.completed ? (
        <span className="rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-semibold text-emerald-700">Done</span>
      ) : (
        <Icon name="forward" className="size-5 text-muted" />
      )}
    </Link>
  );
}
