import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { CheckinDayState } from "~/domain/checkin";
import { CHECKIN_DAY_COUNT } from "~/domain/constants";
import { formErrors } from "~/lib/form-replies";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { Card } from "~/components/ui/Card";
import { Icon } from "~/components/ui/Icon";
import { SectionError } from "~/components/ui/SectionError";

export interface CheckinCardData {
  /** The reward, from the database's app_config. */
  coins: number;
  /** What the reward is in dollars ("$0.10"): coins meet dollars here first. */
  dollars: string;
  checkedInToday: boolean;
  /** D1 to D7 of the streak's week (docs/decisions/072). */
  days: CheckinDayState[];
  /** "Day 3 of 7 · check in 4 more days in a row for a 50-coin bonus ($0.50)". */
  streakLine: string;
  /** What day 7 pays (0: no bonus). */
  bonusCoins: number;
  /** Until the next UTC day, e.g. "5 h". */
  nextCheckinIn: string;
}

/**
 * docs/product.md, "Home: daily check-in": D1 to D7 are the days of the streak's week, D7 carries the
 * bonus; one check-in a day. Each circle says what it is in words, not colour alone.
 */
export function CheckinCard({
  data,
  lastResult,
}: {
  data: CheckinCardData | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  return (
    <Card>
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 className="text-base font-bold">Daily Check-in</h2>
          <p className="mt-0.5 text-sm text-muted">
            {data
              ? `Come back every day to earn ${data.coins} coins (${data.dollars}).`
              : "Come back every day to earn coins."}
          </p>
        </div>
        <span className="inline-flex size-10 items-center justify-center rounded-xl bg-amber-50 text-amber-600">
          <Icon name="gift" className="size-5" />
        </span>
      </div>
      {data ? (
        <>
          <ol className="mt-4 grid grid-cols-7 gap-1.5" aria-label="Your check-in streak this week">
            {data.days.map((state, index) => (
              <DayCircle key={index} day={index + 1} state={state} bonusCoins={data.bonusCoins} />
            ))}
          </ol>
          <p className="mt-3 text-sm font-medium" data-testid="checkin-streak">
            {data.streakLine}
          </p>
          <p className="mt-0.5 text-xs text-muted">Miss a day (UTC) and the streak starts again at Day 1.</p>
          <Form method="post" className="mt-4 space-y-3">
            <FormBanner title="Failed to check in. Please try again." errors={formErrors(lastResult, "checkin")} />
            <SubmitButton
              intent="checkin"
              disabled={data.checkedInToday}
              look={{ block: true, tone: data.checkedInToday ? "secondary" : "primary" }}
            >
              {data.checkedInToday ? "Checked In Today" : `Check In Now (+${data.coins} coins)`}
            </SubmitButton>
          </Form>
          {data.checkedInToday ? (
            <p className="mt-2 text-center text-xs text-muted">Next check-in in {data.nextCheckinIn}</p>
          ) : null}
        </>
      ) : (
        <div className="mt-4">
          <SectionError title="Couldn't load your check-in" description="Please try again later" />
        </div>
      )}
    </Card>
  );
}

const STATE_WORDS: Record<CheckinDayState, string> = {
  done: "checked in",
  today: "today",
  ahead: "ahead",
};

function DayCircle({ day, state, bonusCoins }: { day: number; state: CheckinDayState; bonusCoins: number }) {
  const bonusDay = day === CHECKIN_DAY_COUNT && bonusCoins > 0;
  const words = `Day ${day}, ${STATE_WORDS[state]}${bonusDay ? `, pays a ${bonusCoins}-coin bonus` : ""}`;
  return (
    <li
      className={`relative flex aspect-square flex-col items-center justify-center rounded-full text-xs font-bold ${
        state === "done"
          ? "bg-brand-600 text-white"
          : state === "today"
            ? "bg-white text-brand-700 ring-2 ring-brand-600"
            : bonusDay
              ? "bg-amber-100 text-amber-700 ring-2 ring-amber-400"
              : "bg-gray-100 text-muted"
      }`}
    >
      {state === "done" ? <Icon name="check" className="size-3.5" aria-hidden="true" /> : null}
      <span className="sr-only">{words}</span>
      <span aria-hidden="true">D{day}</span>
      {bonusDay ? (
        <span
          aria-hidden="true"
          className="absolute -top-1 -right-1 inline-flex size-4 items-center justify-center rounded-full bg-amber-400 text-amber-950"
        >
          <Icon name="gift" className="size-3" />
        </span>
      ) : null}
    </li>
  );
}
