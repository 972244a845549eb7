import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useSubmit } from "@remix-run/react";
import { useEffect, useState } from "react";
import { coinsToDollars, formatCoins, formatDollars } from "~/domain/money";
import { formatTime } from "~/domain/dates";
import { TASK_REQUIREMENTS, TASK_TYPE_LABELS, type Task, type TaskStart } from "~/domain/tasks";
import { formErrors } from "~/lib/form-replies";
import { authHref } from "~/domain/urls";
import { useHydrated } from "~/lib/use-hydrated";
import { useIsPending } from "~/lib/use-is-pending";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { TASK_TYPE_STYLES, TaskIcon } from "~/components/TaskRow";
import { buttonClass } from "~/components/ui/button";
import { UrlDialog } from "~/components/ui/UrlDialog";
import { Icon, Spinner } from "~/components/shared";
import { useTimeZone } from "~/lib/time-zone";

/**
 * The task dialog (docs/product.md, "Earn: the task dialog"), rendered by the server from `?task=` (works without JavaScript).
 * After Start Task the server holds the start time; completion is accepted 5 seconds later. A
 * started task opened again offers Complete Task and says from when (decision 069). With
 * JavaScript the completion is sent by itself when the count ends while the dialog is open, and
 * the dialog holds the keyboard's focus until it closes (Escape closes it). A finished task offers
 * only Close.
 */
export function TaskDialog({
  task,
  coinsPerDollar,
  closeHref,
  signedIn,
  started,
  lastResult,
}: {
  task: Task;
  coinsPerDollar: number;
  closeHref: string;
  signedIn: boolean;
  started: TaskStart | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  const zone = useTimeZone();
  return (
    <UrlDialog closeHref={closeHref} layout="card" labelledBy="task-dialog-title">
      <div className="flex items-start gap-3">
        <TaskIcon type={task.type} large />
        <div className="min-w-0">
          <span
            className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${TASK_TYPE_STYLES[task.type].badge}`}
          >
            {TASK_TYPE_LABELS[task.type]}
          </span>
          <h2 id="task-dialog-title" className="mt-1 text-lg font-bold leading-snug">
            {task.title}
          </h2>
        </div>
      </div>
      <p className="mt-3 text-sm leading-relaxed text-gray-700">{task.description}</p>
      <dl className="mt-4 grid grid-cols-2 gap-3">
        <div className="rounded-2xl bg-emerald-50 p-3">
          <dt className="text-xs font-medium text-emerald-700">Reward</dt>
          <dd className="mt-0.5 text-base font-bold text-emerald-800">
            {formatCoins(task.reward)}
            <span className="block text-xs font-medium text-emerald-700">
              = {formatDollars(coinsToDollars(task.reward, coinsPerDollar))}
            </span>
          </dd>
        </div>
        <div className="rounded-2xl bg-gray-50 p-3">
          <dt className="text-xs font-medium text-muted">Time to complete</dt>
          <dd className="mt-0.5 flex items-center gap-1 text-base font-bold">
            <Icon name="clock" className="size-4" />
            {task.timeToComplete}
          </dd>
        </div>
      </dl>
      <p className="mt-4 flex gap-2 rounded-2xl border border-line p-3 text-sm text-gray-700">
        <Icon name="info" className="mt-0.5 size-4 shrink-0 text-brand-600" />
        {TASK_REQUIREMENTS[task.type]}
      </p>
      {task.pending ? (
        <p className="mt-4 rounded-2xl bg-amber-50 p-3 text-center text-sm font-semibold text-amber-800">
          Waiting for confirmation: your coins arrive as soon as the offer provider confirms you finished.
        </p>
      ) : task.completed ? (
        <p className="mt-4 rounded-2xl bg-emerald-50 p-3 text-center text-sm font-semibold text-emerald-800">
          You have completed this task.
        </p>
      ) : started ? (
        <p
          data-testid="task-started"
          className="mt-4 rounded-2xl bg-brand-50 p-3 text-center text-sm font-semibold text-brand-800"
        >
          {started.secondsLeft > 0
            ? `You started this task. You can complete it from ${formatTime(started.readyAt, zone)}.`
            : "You started this task. You can complete it now."}
        </p>
      ) : null}
      <div className="mt-4">
        <FormBanner title="Error" errors={formErrors(lastResult)} />
      </div>
      {task.completed ? (
        <Link
          to={closeHref}
          replace
          preventScrollReset
          className={`mt-1 ${buttonClass({ tone: "secondary", block: true })}`}
        >
          Close
        </Link>
      ) : (
        <Form method="post" preventScrollReset className="mt-1 grid grid-cols-2 gap-3">
          <input type="hidden" name="taskId" value={task.id} />
          <Link to={closeHref} replace preventScrollReset className={buttonClass({ tone: "secondary" })}>
            Cancel
          </Link>
          {!signedIn ? (
            <Link to={authHref("signin", `/earn?task=${task.id}`)} className={buttonClass()}>
              Sign in
            </Link>
          ) : started ? (
            <CompleteButton key={started.readyAt} taskId={task.id} secondsLeft={started.secondsLeft} />
          ) : (
            <SubmitButton intent="start">Start Task</SubmitButton>
          )}
        </Form>
      )}
    </UrlDialog>
  );
}

/**
 * Complete Task; with JavaScript it counts down the seconds the server said are left and, when a
 * count ends with the dialog open, sends the completion by itself (a task already ready waits for the press).
 */
function CompleteButton({ taskId, secondsLeft: initial }: { taskId: string; secondsLeft: number }) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const pending = useIsPending({ intent: "complete" });
  const [secondsLeft, setSecondsLeft] = useState(initial);
  useEffect(() => {
    if (initial <= 0) return;
    const readyAt = Date.now() + initial * 1000;
    const timer = setInterval(() => {
      const left = Math.max(0, Math.ceil((readyAt - Date.now()) / 1000));
      setSecondsLeft(left);
      if (left === 0) {
        clearInterval(timer);
        submit({ intent: "complete", taskId }, { method: "post", preventScrollReset: true });
      }
    }, 250);
    return () => clearInterval(timer);
  }, [submit, taskId, initial]);
  const waiting = hydrated && secondsLeft > 0;
  return (
    <button name="intent" value="complete" disabled={pending || waiting} className={buttonClass()}>
      {pending || waiting ? <Spinner /> : null}
      {pending ? "Completing..." : waiting ? `Wait ${secondsLeft}s` : "Complete Task"}
    </button>
  );
}
