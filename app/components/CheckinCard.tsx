import { Form, useNavigation } from "@remix-run/react";
import { CHECKIN_DAY_COUNT, CHECKIN_REWARD_COINS } from "~/domain/constants";
import { Icon, Spinner } from "./ui/Icon";
import { buttonClass, Card } from "./ui";

/** Spec §2 Daily Check-in: D1 to D7 (D7 highlighted), one check-in a day. */
export function CheckinCard({ checkedInToday, daysThisWeek }: { checkedInToday: boolean; daysThisWeek: number }) {
  const navigation = useNavigation();
  const pending = navigation.formData?.get("intent") === "checkin";
  return (
    <Card>
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 className="text-base font-bold">Daily Check-in</h2>
          <p className="mt-0.5 text-sm text-muted">Come back every day to earn {CHECKIN_REWARD_COINS} coins.</p>
        </div>
        <span className="inline-flex size-10 items-center justify-center rounded-xl bg-amber-50 text-amber-600">
          <Icon name="gift" className="size-5" />
        </span>
      </div>
      <ol
        className="mt-4 grid grid-cols-7 gap-1.5"
        aria-label={`${daysThisWeek} of ${CHECKIN_DAY_COUNT} days checked in`}
      >
        {Array.from({ length: CHECKIN_DAY_COUNT }, (_, index) => {
          const done = index < daysThisWeek;
          const last = index === CHECKIN_DAY_COUNT - 1;
          return (
            <li
              key={index}
              className={`flex aspect-square items-center justify-center rounded-full text-xs font-bold ${
                done
                  ? "bg-brand-600 text-white"
                  : last
                    ? "bg-amber-100 text-amber-700 ring-2 ring-amber-400"
                    : "bg-gray-100 text-muted"
              }`}
            >
              D{index + 1}
            </li>
          );
        })}
      </ol>
      <Form method="post" className="mt-4">
        <button
          name="intent"
          value="checkin"
          disabled={checkedInToday || pending}
          className={buttonClass(checkedInToday ? "secondary" : "primary", "w-full")}
        >
          {pending ? <Spinner /> : null}
          {checkedInToday ? "Checked In Today" : `Check In Now (+${CHECKIN_REWARD_COINS} coins)`}
        </button>
      </Form>
    </Card>
  );
}
