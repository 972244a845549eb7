import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { formatDollars, type MoneyParts } from "~/domain/money";
import type { Task } from "~/domain/tasks";
import { BalanceCard } from "~/components/BalanceCard";
import { SECTION_LINK } from "~/components/ui/section-link";
import { CheckinCard, type CheckinCardData } from "./CheckinCard";
import { LeaderboardTable, type LeaderboardRow } from "~/components/LeaderboardTable";
import { QuickTasks } from "./QuickTasks";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/Card";
import { Icon } from "~/components/ui/Icon";
import { SectionError } from "~/components/ui/SectionError";

export interface HomeData {
  /** "Welcome" on a new account's first day, "Welcome back" afterwards (app/domain/greeting.ts). */
  greeting: string;
  displayName: string;
  /** The balance card: available, pending, locked bonus (docs/product.md, "Home: balance and tiles"). */
  money: MoneyParts;
  /** Null when the app's settings could not be read: the card then leaves out the coin rate. */
  coinsPerDollar: number | null;
  /** "$0.85 more to cash out with UPI" until a cash-out is possible. */
  cashOutHint: string | null;
  totalEarned: number;
  referralBonus: number;
  /** Null when that part failed to load; the rest of Home still shows. */
  checkin: CheckinCardData | null;
  quickTasks: Task[] | null;
  leaders: LeaderboardRow[] | null;
}

/** docs/product.md, "Home". */
export function HomeScreen({ data, lastResult }: { data: HomeData; lastResult?: SubmissionResult<string[]> }) {
  return (
    <div className="space-y-5">
      <header className="flex items-center justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm text-muted">{data.greeting}</p>
          <h1 className="truncate text-2xl font-bold tracking-tight">Hi, {data.displayName}</h1>
        </div>
      </header>

      <BalanceCard money={data.money} coinsPerDollar={data.coinsPerDollar} cashOutHint={data.cashOutHint}>
        <div className="grid grid-cols-2 gap-3 [&>*]:min-w-0">
          <Link to="/earn" className={buttonClass({ tone: "light", size: "md" })}>
            Earn More
          </Link>
          <Link to="/withdraw" className={buttonClass({ tone: "onBrand", size: "md" })}>
            Withdraw
          </Link>
        </div>
      </BalanceCard>

      <div className="grid grid-cols-2 gap-3 [&>*]:min-w-0">
        <StatTile label="Total Earned" value={formatDollars(data.totalEarned)} icon="coins" testId="total-earned" />
        <StatTile
          label="Referral Bonus"
          value={formatDollars(data.referralBonus)}
          icon="referrals"
          testId="referral-bonus"
        />
      </div>

      <CheckinCard data={data.checkin} lastResult={lastResult} />

      <QuickTasks tasks={data.quickTasks} lastResult={lastResult} />

      <Card>
        <div className="mb-3 flex items-center justify-between">
          <h2 className="flex items-center gap-2 text-base font-bold">
            <Icon name="trophy" className="size-5 text-amber-500" />
            Leaderboard
          </h2>
          <Link to="/leaderboard" className={SECTION_LINK}>
            See All
          </Link>
        </div>
        {data.leaders === null ? (
          <SectionError title="Couldn't load leaderboard" description="Please try again later" />
        ) : data.leaders.length > 0 ? (
          <LeaderboardTable rows={data.leaders} />
        ) : (
          <p className="py-2 text-center text-sm text-muted">No data available</p>
        )}
        <div className="mt-4">
          <Link to="/leaderboard" className={buttonClass({ tone: "secondary", block: true })}>
            View Leaderboard
          </Link>
        </div>
      </Card>
    </div>
  );
}

function StatTile({
  label,
  value,
  icon,
  testId,
}: {
  label: string;
  value: string;
  icon: "coins" | "referrals";
  testId: string;
}) {
  return (
    <div className="rounded-2xl border border-line bg-white p-4 shadow-sm">
      <span className="inline-flex size-9 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
        <Icon name={icon} className="size-5" />
      </span>
      <p className="mt-3 text-xs font-medium text-muted">{label}</p>
      {/* A long amount ("$40,000,000.00") takes a smaller size, and wraps rather than leave the tile. */}
      <p
        className={`mt-0.5 font-bold [overflow-wrap:anywhere] ${value.length > 11 ? "text-base" : "text-lg"}`}
        data-testid={testId}
      >
        {value}
      </p>
    </div>
  );
}
