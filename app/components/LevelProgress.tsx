import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { LevelView } from "~/domain/rewards";
import { formErrors } from "~/lib/form-replies";
import { FormBanner } from "./forms/FormBanner";
import { SubmitButton } from "./forms/SubmitButton";
import { Banner } from "./ui/Banner";
import { ProgressBar } from "./ui/ProgressBar";

/**
 * A person's level (docs/decisions/094): its name and XP, the bar to the next level and what the
 * next unlocks, and "Claim" while a level's bonus waits. On Home's level card and the Levels page.
 */
export function LevelProgress({ level, lastResult }: { level: LevelView; lastResult?: SubmissionResult<string[]> }) {
  return (
    <div className="space-y-3">
      <div className="flex items-end justify-between gap-3">
        <p className="min-w-0">
          <span className="block text-xs font-semibold tracking-wide text-muted uppercase">Level {level.number}</span>
          <span className="block truncate text-xl font-bold" data-testid="level-name">
            {level.name}
          </span>
        </p>
        <p className="shrink-0 text-sm font-semibold text-brand-700" data-testid="level-xp">
          {level.xpText}
        </p>
      </div>
      <div>
        <ProgressBar percent={level.percent} label={level.toNext ?? "Highest level reached"} />
        <p className="mt-1.5 text-xs font-medium text-muted" data-testid="level-to-next">
          {level.toNext ?? "You reached the highest level."}
        </p>
      </div>
      {level.nextUnlocks ? (
        <p className="text-sm" data-testid="level-next-unlocks">
          {level.nextUnlocks}
        </p>
      ) : null}
      {level.stopped ? <Banner tone="info">{level.stopped}</Banner> : null}
      {level.claim ? (
        <Form method="post" className="space-y-3">
          <FormBanner title="Couldn't claim the bonus" errors={formErrors(lastResult, "claim-level")} />
          <SubmitButton intent="claim-level" look={{ block: true }} pendingText="Claiming…">
            {level.claim}
          </SubmitButton>
        </Form>
      ) : (
        <FormBanner title="Couldn't claim the bonus" errors={formErrors(lastResult, "claim-level")} />
      )}
    </div>
  );
}
