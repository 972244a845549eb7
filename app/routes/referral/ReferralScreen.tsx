import { useNavigation, useRevalidator } from "@remix-run/react";
import { formatDollars } from "~/domain/money";
import { initials } from "~/domain/display-name";
import { joinedLabel, REFERRAL_MESSAGES } from "~/domain/referrals";
import { referralCondition } from "~/domain/referral-promise";
import { shareReferral } from "~/lib/share-referral";
import { useHydrated } from "~/lib/use-hydrated";
import { ReferralCodeBox } from "~/components/ReferralCodeBox";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/Card";
import { Icon, type IconName } from "~/components/ui/Icon";
import { PageHeader } from "~/components/ui/PageHeader";

export interface ReferralData {
  code: string | null;
  shareUrl: string | null;
  reward: number;
  welcomeBonus: number;
  qualifyingCoins: number;
  /** Dollars of the friend's offer earnings that must have cleared; null: qualifyingCoins of any kind count. */
  qualifyingEarned: number | null;
  /** Null when the list failed to load (shown empty, with the spec's message). */
  referrals: { id: number; name: string; days: number; credited: boolean; amount: number }[] | null;
}

const STEPS: { icon: IconName; title: string; text: string }[] = [
  { icon: "share", title: "Share your code", text: "Send your code or link to friends." },
  { icon: "referrals", title: "Friends sign up and enter it", text: "They create an account with your code." },
  { icon: "gift", title: "You both earn", text: "You get $5, and your friend gets a bonus." },
];

/** Refer & Earn: docs/product.md, "Refer". */
export function ReferralScreen({ data }: { data: ReferralData }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  // Loading on the client: a reload of this page's data (Try Again, or coming back to it).
  const loading =
    revalidator.state === "loading" || (navigation.state === "loading" && navigation.location.pathname === "/referral");
  const actionsDisabled = !hydrated || loading || !data.code;
  return (
    <div className="space-y-4">
      <PageHeader title="Refer & Earn" />
      <section className="rounded-3xl bg-gradient-to-br from-brand-600 to-brand-800 p-5 text-white shadow-xl shadow-brand-700/25">
        <div className="flex items-center gap-3">
          <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-2xl bg-white/15">
            <Icon name="gift" className="size-6" />
          </span>
          <p className="text-base font-semibold leading-snug">{REFERRAL_MESSAGES.banner}</p>
        </div>
        {/* The condition right under the spec's banner, in plain words (docs/decisions/074). */}
        <p className="mt-3 text-sm leading-relaxed text-white/90" data-testid="referral-condition">
          {referralCondition(data)}
        </p>
        <div className="mt-5">
          <ReferralCodeBox code={data.code} shareUrl={data.shareUrl} loading={loading} disabled={actionsDisabled} />
        </div>
        <div className="mt-4">
          <button
            type="button"
            disabled={actionsDisabled}
            onClick={() => void shareReferral(data.code, data.shareUrl)}
            className={buttonClass({ tone: "light", block: true })}
          >
            <Icon name="share" className="size-5" />
            Share with Friends
          </button>
        </div>
      </section>

      <Card>
        <h2 className="text-base font-bold">How it Works</h2>
        <ol className="mt-3 space-y-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className="flex gap-3">
              <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
                <Icon name={step.icon} className="size-5" />
              </span>
              <div>
                <p className="text-sm font-semibold">
                  {index + 1}. {step.title}
                </p>
                <p className="text-sm text-muted">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </Card>

      <Card>
        <div className="flex items-center justify-between">
          <h2 className="text-base font-bold">Your Referrals</h2>
          <span className="rounded-full bg-gray-100 px-2.5 py-1 text-xs font-semibold text-muted">
            Total: {data.referrals?.length ?? 0}
          </span>
        </div>
        <ReferralList data={data} loading={loading} onRetry={() => revalidator.revalidate()} />
      </Card>
    </div>
  );
}

function ReferralList({ data, loading, onRetry }: { data: ReferralData; loading: boolean; onRetry: () => void }) {
  if (loading) {
    return (
      <div className="mt-3" aria-busy="true">
        <p className="text-sm text-muted">{REFERRAL_MESSAGES.loading}</p>
        {[0, 1].map((row) => (
          <div key={row} className="mt-3 flex items-center gap-3" aria-hidden="true">
            <span className="size-10 animate-pulse rounded-full bg-gray-100" />
            <span className="h-4 flex-1 animate-pulse rounded bg-gray-100" />
          </div>
        ))}
      </div>
    );
  }
  if (data.referrals === null) {
    return (
      <div className="mt-3 space-y-3 text-center">
        <p role="alert" className="text-sm text-red-700">
          {REFERRAL_MESSAGES.loadFailed}
        </p>
        {/* Without JavaScript the link reloads the page; with it, only the data. */}
        <a
          href="/referral"
          onClick={(event) => {
            event.preventDefault();
            onRetry();
          }}
          className={buttonClass({ tone: "secondary", size: "sm" })}
        >
          <Icon name="refresh" className="size-4" />
          Try Again
        </a>
      </div>
    );
  }
  if (data.referrals.length === 0) {
    return <p className="py-6 text-center text-sm text-muted">{REFERRAL_MESSAGES.empty}</p>;
  }
  return (
    <ul className="mt-3 divide-y divide-line">
      {data.referrals.map((referral) => (
        <li key={referral.id} className="flex items-center gap-3 py-3">
          <span
            aria-hidden="true"
            className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-bold text-brand-700"
          >
            {initials(referral.name)}
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-semibold">{referral.name}</p>
            <p className="text-xs text-muted">{joinedLabel(referral.days)}</p>
          </div>
          <span
            className={`rounded-full px-2.5 py-1 text-xs font-semibold ${
              referral.credited ? "bg-emerald-50 text-emerald-700" : "bg-amber-50 text-amber-800"
            }`}
            title={referral.credited ? "Credited" : "Pending until your friend qualifies"}
          >
            {formatDollars(referral.amount)}
            {referral.credited ? "" : " pending"}
          </span>
        </li>
      ))}
    </ul>
  );
}
