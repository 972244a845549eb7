import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
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
  daysThisWeek: number;
  /** Until the next UTC day, e.g. "5 h". */
  nextCheckinIn: string;
}

/** docs/product.md, "Home: daily check-in": D1 to D7 (D7 highlighted), one check-in a day. */
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
          <ol
            className="mt-4 grid grid-cols-7 gap-1.5"
            aria-label={`${data.daysThisWeek} of ${CHECKIN_DAY_COUNT} days checked in`}
          >
            {Array.from({ length: CHECKIN_DAY_COUNT }, (_, index) => (
              <DayCircle key={index} day={index + 1} done={index < data.daysThisWeek} />
            ))}
          </ol>
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

function DayCircle({ day, done }: { day: number; done: boolean }) {
  const last = day === CHECKIN_DAY_COUNT;
  return (
    <li
      className={`flex aspect-square items-center justify-center rounded-full text-xs font-bold ${
        done
          ? "bg-brand-600 text-white"
          : last
            ? "bg-amber-100 text-amber-700 ring-2 ring-amber-400"
            : "bg-gray-100 text-muted"
      }`}
    >
      D{day}
    </li>
  );
}
