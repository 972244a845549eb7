import { Card } from "~/components/ui/Card";
import { Icon } from "~/components/ui/Icon";
import { SectionError } from "~/components/ui/SectionError";
import { ordinal } from "~/domain/loop-settings";
import {
  IN_REVIEW,
  monthName,
  PAST_WINNERS_TITLE,
  PRIZES_PAUSED,
  PRIZES_RULE,
  PRIZES_TITLE,
  prizeStanding,
  type LeaderboardPrizes,
} from "~/domain/prizes";
import { formatCoins } from "~/domain/money";
import { coinsAndDollars } from "~/domain/rewards";

/** docs/decisions/097: this month's prize table and the person's distance to the next prize. */
export function PrizesCard({ prizes }: { prizes: LeaderboardPrizes | null }) {
  return (
    <Card id="prizes">
      <div className="flex items-center gap-2">
        <Icon name="gift" className="size-5 text-brand-600" />
        <h2 className="text-base font-bold">{PRIZES_TITLE}</h2>
      </div>
      {prizes ? <p className="mt-0.5 text-xs text-muted">For {monthName(prizes.month)} (UTC)</p> : null}
      {prizes === null ? (
        <SectionError title="Couldn't load the prizes" description="Please try again later" />
      ) : !prizes.on ? (
        <p className="mt-3 text-sm text-muted" data-testid="prizes-paused">
          {PRIZES_PAUSED}
        </p>
      ) : (
        <>
          <p
            className="mt-3 rounded-xl bg-brand-50 p-3 text-sm font-medium text-brand-800"
            data-testid="prize-standing"
          >
            {prizeStanding(prizes)}
          </p>
          <ol className="mt-3 grid grid-cols-1 gap-x-6 sm:grid-cols-2" aria-label="Prize for each place">
            {prizes.prizes.map((coins, index) => (
              <li
                key={index}
                className={`flex items-center justify-between gap-3 border-b border-line py-2 text-sm ${
                  prizes.place === index + 1 ? "font-bold text-brand-700" : ""
                }`}
              >
                <span className="font-semibold">{ordinal(index + 1)}</span>
                <span className="tabular-nums">{coinsAndDollars(coins, prizes.coins_per_dollar)}</span>
              </li>
            ))}
          </ol>
          <p className="mt-3 text-xs leading-relaxed text-muted">{PRIZES_RULE}</p>
        </>
      )}
    </Card>
  );
}

/** The last settled months' winners: paid, or still in review. */
export function PastWinners({ prizes }: { prizes: LeaderboardPrizes }) {
  const months = prizes.past.filter((past) => past.winners.length > 0);
  if (months.length === 0) return null;
  return (
    <Card>
      <h2 className="text-base font-bold">{PAST_WINNERS_TITLE}</h2>
      <div className="mt-3 space-y-4">
        {months.map((past) => (
          <section key={past.month} aria-label={monthName(past.month)}>
            <h3 className="text-sm font-semibold text-muted">{monthName(past.month)}</h3>
            <ol className="mt-1">
              {past.winners.map((winner) => (
                <li key={winner.place} className="flex items-center gap-3 border-b border-line py-2 text-sm">
                  <span className="w-10 font-semibold">{ordinal(winner.place)}</span>
                  <span className="min-w-0 flex-1 truncate">{winner.username}</span>
                  <span className="shrink-0 tabular-nums text-muted">
                    {winner.in_review ? IN_REVIEW : formatCoins(winner.coins)}
                  </span>
                </li>
              ))}
            </ol>
          </section>
        ))}
      </div>
    </Card>
  );
}
