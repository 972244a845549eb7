import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { taskActionLabel, type Task } from "~/domain/tasks";
import { formErrors } from "~/lib/form-replies";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { TaskRow } from "~/components/TaskRow";
import { Card } from "~/components/ui/Card";
import { SectionError } from "~/components/ui/SectionError";
import { SECTION_LINK } from "~/components/ui/section-link";

/** docs/product.md, "Home: quick tasks": the first tasks, each with Watch or Start (an info message, then /earn). */
export function QuickTasks({ tasks, lastResult }: { tasks: Task[] | null; lastResult?: SubmissionResult<string[]> }) {
  return (
    <section aria-labelledby="quick-tasks-heading">
      <div className="mb-3 flex items-center justify-between">
        <h2 id="quick-tasks-heading" className="text-base font-bold">
          Quick Tasks
        </h2>
        <Link to="/earn" className={SECTION_LINK}>
          View All
        </Link>
      </div>
      <div className="space-y-2.5">
        {/* One reply for all the rows' forms: it is shown above the list. */}
        <FormBanner errors={formErrors(lastResult, "start-task")} />
        {tasks === null ? (
          <SectionError
            title="Error fetching tasks"
            description="Couldn't load available tasks. Please try again later."
          />
        ) : tasks.length > 0 ? (
          tasks.map((task) => (
            <TaskRow key={task.id} task={task}>
              <Form method="post" className="shrink-0">
                <input type="hidden" name="taskId" value={task.id} />
                <SubmitButton intent="start-task" pendingWith={{ taskId: task.id }} look={{ size: "sm" }}>
                  {taskActionLabel(task)}
                </SubmitButton>
              </Form>
            </TaskRow>
          ))
        ) : (
          <Card className="text-center">
            <p className="text-sm text-muted">No tasks available right now</p>
            <Link to="/earn" className="mt-2 inline-block text-sm font-semibold text-brand-700 hover:underline">
              Check for more tasks
            </Link>
          </Card>
        )}
      </div>
    </section>
  );
}
