import type { SubmissionResult } from "@conform-to/react";
import { LevelProgress } from "~/components/LevelProgress";
import { Card } from "~/components/ui/Card";
import { Icon } from "~/components/ui/Icon";
import { PageHeader } from "~/components/ui/PageHeader";
import { formatNumber } from "~/domain/numbers";
import type { LevelView } from "~/domain/rewards";

export interface LevelsData {
  level: LevelView;
  /** What XP is and where it comes from. */
  explained: string;
  levels: {
    number: number;
    name: string;
    xp: number;
    /** What it pays, in words ("a 25-coin level-up bonus ($0.25)"). */
    perks: string[];
    reached: boolean;
    current: boolean;
    bonusClaimed: boolean;
  }[];
}

/** docs/decisions/094: the person's level, then every level with its XP and perks. */
export function LevelsScreen({ data, lastResult }: { data: LevelsData; lastResult?: SubmissionResult<string[]> }) {
  return (
    <div className="space-y-4">
      <PageHeader title="Levels" />
      <Card>
        <LevelProgress level={data.level} lastResult={lastResult} />
      </Card>
      <p className="rounded-xl bg-gray-50 p-3 text-xs leading-relaxed text-muted">{data.explained}</p>
      <ol className="space-y-3" aria-label="Every level">
        {data.levels.map((level) => (
          <li
            key={level.number}
            aria-current={level.current ? "step" : undefined}
            className={`rounded-2xl border bg-white p-4 shadow-sm ${
              level.current ? "border-brand-500 ring-2 ring-brand-100" : "border-line"
            }`}
          >
            <div className="flex items-center gap-3">
              <span
                className={`inline-flex size-10 shrink-0 items-center justify-center rounded-xl text-sm font-bold ${
                  level.reached ? "bg-brand-600 text-white" : "bg-gray-100 text-muted"
                }`}
              >
                {level.reached ? <Icon name="check" className="size-5" /> : level.number}
              </span>
              <div className="min-w-0 flex-1">
                <p className="font-bold">
                  Level {level.number} · {level.name}
                  {level.current ? (
                    <span className="ml-2 text-xs font-semibold text-brand-700">You are here</span>
                  ) : null}
                </p>
                <p className="text-xs text-muted">
                  {level.xp === 0 ? "Where everyone starts" : `From ${formatNumber(level.xp)} XP`}
                </p>
              </div>
            </div>
            {level.perks.length > 0 ? (
              <ul className="mt-3 space-y-1.5 text-sm">
                {level.perks.map((perk) => (
                  <li key={perk} className="flex gap-2">
                    <Icon name="gift" className="mt-0.5 size-4 shrink-0 text-amber-600" />
                    <span className="min-w-0">{perk}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-3 text-sm text-muted">No perks yet: earn from offers to climb.</p>
            )}
            {level.bonusClaimed ? <p className="mt-2 text-xs font-semibold text-money-600">Bonus claimed</p> : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
