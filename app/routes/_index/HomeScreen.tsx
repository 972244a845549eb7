import { NoticesBell } from "~/components/NoticesBell";
import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { formatDollars, type MoneyParts } from "~/domain/money";
import type { InvitationChecklist } from "~/domain/referral-promise";
import { VerifyEmailCard } from "~/components/VerifyEmailCard";
import { VERIFIED_CHECK_PATH } from "~/domain/urls";
import type { Task } from "~/domain/tasks";
import { BalanceCard } from "~/components/BalanceCard";
import { CashoutFeed, type FeedView } from "~/components/CashoutFeed";
import { SECTION_LINK } from "~/components/ui/section-link";
import { CheckinCard, type CheckinCardData } from "./CheckinCard";
import { LeaderboardTable, type LeaderboardRow } from "~/components/LeaderboardTable";
import { QuickTasks } from "./QuickTasks";
import { GoalsCard, LevelCard } from "./RewardsCards";
import type { RewardsView } from "~/domain/rewards";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/Card";
import { Icon } from "~/components/ui/Icon";
import { NumberedSteps } from "~/components/ui/NumberedSteps";
import { SectionError } from "~/components/ui/SectionError";

export interface HomeData {
  email: string | null;
  /** False: Home asks for the verification right away, with the button (docs/decisions/074). */
  emailVerified: boolean;
  /** What "Check again" or the verification email's link (/?verified=1) found when not verified yet. */
  verificationNotice: string | null;
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
  /** The referral bonus of friends who joined but have not qualified yet. */
  referralPending: number;
  /** For an account that joined with a code, until both bonuses are paid. */
  invitation: InvitationChecklist | null;
  /** Null when that part failed to load; the rest of Home still shows. */
  checkin: CheckinCardData | null;
  quickTasks: Task[] | null;
  leaders: LeaderboardRow[] | null;
  /** Until the first offer pays, for an account not invited by a friend: the first step (docs/decisions/096). */
  firstStep: { offer: string | null; steps: readonly string[] } | null;
  /** The level card and today's goals (docs/decisions/094); null when they failed to load. */
  rewards: RewardsView | null;
}

/** docs/product.md, "Home". */
export function HomeScreen({
  data,
  feed,
  lastResult,
}: {
  data: HomeData;
  /** Recent cash-outs: the loader's list, or the newer one the events channel sent. */
  feed: FeedView | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  return (
    <div className="space-y-5">
      <header className="flex items-center justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm text-muted">{data.greeting}</p>
          <h1 className="truncate text-2xl font-bold tracking-tight">Hi, {data.displayName}</h1>
        </div>
        <NoticesBell />
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

      {data.emailVerified ? null : (
        <VerifyEmailCard
          title="Verify your email"
          email={data.email}
          checkAgainTo={VERIFIED_CHECK_PATH}
          notice={data.verificationNotice}
          lastResult={lastResult}
        >
          {data.invitation
            ? "A verified address lets you cash out, and it is a step of your welcome bonus."
            : "A verified address lets you cash out and keeps your account yours."}
        </VerifyEmailCard>
      )}

      {data.invitation ? <InvitationCard invitation={data.invitation} /> : null}

      {data.firstStep ? <FirstStepCard firstStep={data.firstStep} /> : null}

      <div className="grid grid-cols-2 gap-3 [&>*]:min-w-0">
        <StatTile label="Total Earned" value={formatDollars(data.totalEarned)} icon="coins" testId="total-earned" />
        <StatTile
          label="Referral Bonus"
          value={formatDollars(data.referralBonus)}
          icon="referrals"
          testId="referral-bonus"
          note={data.referralPending > 0 ? `+${formatDollars(data.referralPending)} pending` : undefined}
        />
      </div>

      <LevelCard level={data.rewards?.level ?? null} lastResult={lastResult} />

      <GoalsCard goals={data.rewards?.goals ?? null} lastResult={lastResult} />

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

      <CashoutFeed feed={feed} />
    </div>
  );
}

/** A person who joined with a friend's code: what each gets, and the steps left (docs/decisions/074). */
function InvitationCard({ invitation: { headline, steps, note } }: { invitation: InvitationChecklist }) {
  return (
    <Card>
      <div className="flex items-start gap-3">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
          <Icon name="gift" className="size-5" />
        </span>
        <div className="min-w-0">
          <h2 className="text-base font-bold">Your welcome bonus</h2>
          <p className="mt-1 text-sm text-muted">{headline}</p>
        </div>
      </div>
      <ol className="mt-4 space-y-3" data-testid="invitation-steps">
        {steps.map((step) => (
          <li key={step.label} className="flex gap-3">
            <span
              className={`mt-0.5 inline-flex size-6 shrink-0 items-center justify-center rounded-full ${
                step.done ? "bg-money-500 text-white" : "border-2 border-line bg-white"
              }`}
            >
              {step.done ? <Icon name="check" className="size-4" /> : null}
            </span>
            <div className="min-w-0 text-sm">
              <p className="font-semibold text-ink">
                {step.label}
                <span className="sr-only">{step.done ? " (done)" : " (to do)"}</span>
              </p>
              {step.detail && !step.done ? <p className="text-muted">{step.detail}</p> : null}
            </div>
          </li>
        ))}
      </ol>
      <p className="mt-4 rounded-xl bg-gray-50 p-3 text-xs leading-relaxed text-muted">{note}</p>
    </Card>
  );
}

/** A new account's first step (docs/decisions/096): what a first offer can pay, and how it goes. */
function FirstStepCard({ firstStep }: { firstStep: NonNullable<HomeData["firstStep"]> }) {
  return (
    <Card>
      <div className="flex items-start gap-3">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-emerald-50 text-emerald-700">
          <Icon name="coins" className="size-5" />
        </span>
        <div className="min-w-0">
          <h2 className="text-base font-bold">Your first step</h2>
          <p className="mt-1 text-sm text-muted" data-testid="first-step-offer">
            {firstStep.offer ?? "Complete your first offer to start earning."}
          </p>
        </div>
      </div>
      <NumberedSteps steps={firstStep.steps} className="mt-4" />
      <div className="mt-4">
        <Link to="/earn" className={buttonClass({ block: true })}>
          Find your first offer
        </Link>
      </div>
    </Card>
  );
}

function StatTile({
  label,
  value,
  icon,
  testId,
  note,
}: {
  label: string;
  value: string;
  icon: "coins" | "referrals";
  testId: string;
  /** A line under the amount ("+$5.00 pending"). */
  note?: string;
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
      {note ? (
        <p className="mt-0.5 text-xs font-medium text-amber-700" data-testid={`${testId}-note`}>
          {note}
        </p>
      ) : null}
    </div>
  );
}
