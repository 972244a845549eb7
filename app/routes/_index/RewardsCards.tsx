import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { LevelProgress } from "~/components/LevelProgress";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { Banner } from "~/components/ui/Banner";
import { Card } from "~/components/ui/Card";
import { Icon } from "~/components/ui/Icon";
import { SECTION_LINK } from "~/components/ui/section-link";
import { ProgressBar } from "~/components/ui/ProgressBar";
import { SectionError } from "~/components/ui/SectionError";
import type { GoalView, LevelView, RewardsView } from "~/domain/rewards";
import { formErrors } from "~/lib/form-replies";

/** Home's level card (docs/decisions/094): the level, the way to the next, and its bonus to claim. */
export function LevelCard({ level, lastResult }: { level: LevelView | null; lastResult?: SubmissionResult<string[]> }) {
  return (
    <Card>
      <div className="mb-3 flex items-center justify-between">
        <h2 className="flex items-center gap-2 text-base font-bold">
          <Icon name="trophy" className="size-5 text-brand-600" />
          Your level
        </h2>
        <Link to="/levels" className={SECTION_LINK}>
          See levels
        </Link>
      </div>
      {level ? (
        <LevelProgress level={level} lastResult={lastResult} />
      ) : (
        <SectionError title="Couldn't load your level" description="Please try again later" />
      )}
    </Card>
  );
}

/** Today's three goals, their progress and bonus, "Claim" once one is done, and the streak of full days. */
export function GoalsCard({
  goals,
  lastResult,
}: {
  goals: RewardsView["goals"] | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  return (
    <Card>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-base font-bold">Today&apos;s goals</h2>
          {goals ? <p className="mt-0.5 text-sm text-muted">{goals.renews}</p> : null}
        </div>
        {goals?.streak ? (
          <span
            className="inline-flex shrink-0 items-center gap-1 rounded-full bg-amber-50 px-2.5 py-1 text-xs font-semibold text-amber-800"
            data-testid="goal-streak"
          >
            <Icon name="check" className="size-3.5" />
            {goals.streak}
          </span>
        ) : null}
      </div>
      {goals ? (
        <>
          <div className="mt-3">
            <FormBanner title="Couldn't claim the goal" errors={formErrors(lastResult, "claim-goal")} />
          </div>
          {goals.stopped ? (
            <div className="mt-3">
              <Banner tone="info">{goals.stopped}</Banner>
            </div>
          ) : null}
          <ul className="mt-3 divide-y divide-line" data-testid="daily-goals">
            {goals.goals.map((goal) => (
              <GoalRow key={goal.id} goal={goal} />
            ))}
          </ul>
          <p className="mt-1 text-xs text-muted">{goals.explained}</p>
        </>
      ) : (
        <div className="mt-4">
          <SectionError title="Couldn't load today's goals" description="Please try again later" />
        </div>
      )}
    </Card>
  );
}

function GoalRow({ goal }: { goal: GoalView }) {
  return (
    <li className="flex items-start gap-3 py-3">
      <span
        className={`inline-flex size-9 shrink-0 items-center justify-center rounded-full ${
          goal.claimed ? "bg-money-500 text-white" : goal.done ? "bg-brand-600 text-white" : "bg-gray-100 text-muted"
        }`}
      >
        <Icon name={goal.claimed || goal.done ? "check" : "tasks"} className="size-4" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold">
          {goal.title}
          <span className="sr-only">{goal.claimed ? " (claimed)" : goal.done ? " (done)" : " (to do)"}</span>
        </p>
        <div className="mt-1.5">
          <ProgressBar percent={goal.percent} label={goal.progress} thin />
        </div>
        <p className="mt-1 flex flex-wrap gap-x-2 text-xs text-muted">
          <span>{goal.progress}</span>
          <span className="font-semibold whitespace-nowrap text-money-600">{goal.reward}</span>
        </p>
      </div>
      {goal.claimed ? (
        <span className="shrink-0 text-xs font-semibold text-money-600">Claimed</span>
      ) : goal.done ? (
        <Form method="post" className="shrink-0">
          <input type="hidden" name="goalId" value={goal.id} />
          <SubmitButton intent="claim-goal" pendingWith={{ goalId: goal.id }} look={{ size: "sm" }}>
            Claim
          </SubmitButton>
        </Form>
      ) : null}
    </li>
  );
}
