import { formatDollars } from "~/domain/money";

export interface LeaderboardRow {
  rank: number;
  username: string;
  total_earned: number;
  is_current_user: boolean;
}

// docs/product.md, "Leaderboard: the rules": ranks 1-3 get gold, silver and bronze badges.
const MEDALS: Record<number, { label: string; style: string }> = {
  1: { label: "Gold", style: "bg-amber-400 text-white" },
  2: { label: "Silver", style: "bg-slate-400 text-white" },
  3: { label: "Bronze", style: "bg-orange-700 text-white" },
};

export function RankBadge({ rank }: { rank: number }) {
  const medal = MEDALS[rank];
  return (
    <span
      title={medal ? `${medal.label} medal` : undefined}
      className={`inline-flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
        medal ? medal.style : "bg-gray-100 text-muted"
      }`}
    >
      {rank}
    </span>
  );
}

/**
 * The signed-in person's own row below the board: no rank beyond the counted ones, where
 * `beyondLabel` ("1,000+") shows instead (the words come from the page, so that Home's teaser
 * does not carry them).
 */
type OwnLeaderboardRow = Omit<LeaderboardRow, "rank"> & { rank: number | null; beyondLabel?: string };

/**
 * The Rank, User, Earnings table of docs/product.md, "Leaderboard" (and its first rows on Home);
 * `own`: the signed-in person's row when they are below the rows shown, after a gap.
 */
export function LeaderboardTable({
  rows,
  own = null,
}: {
  rows: readonly LeaderboardRow[];
  own?: OwnLeaderboardRow | null;
}) {
  return (
    <table className="w-full text-left text-sm">
      <thead>
        <tr className="text-xs uppercase tracking-wide text-muted">
          <th scope="col" className="w-14 pb-2 font-medium">
            Rank
          </th>
          <th scope="col" className="pb-2 font-medium">
            User
          </th>
          <th scope="col" className="pb-2 text-right font-medium">
            Earnings
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line">
        {rows.map((row) => (
          <Row key={row.rank} row={row} />
        ))}
        {own ? (
          <>
            {rows.length > 0 ? (
              <tr aria-hidden="true">
                <td colSpan={3} className="py-1 text-center text-muted">
                  &middot;&middot;&middot;
                </td>
              </tr>
            ) : null}
            <Row row={own} />
          </>
        ) : null}
      </tbody>
    </table>
  );
}

function Row({ row }: { row: OwnLeaderboardRow }) {
  return (
    <tr
      className={row.is_current_user ? "bg-brand-50" : undefined}
      aria-current={row.is_current_user ? "true" : undefined}
    >
      <td className="py-2.5">
        {row.rank === null ? (
          <span className="inline-flex h-8 items-center whitespace-nowrap rounded-full bg-gray-100 px-2 text-xs font-bold text-muted">
            {row.beyondLabel}
          </span>
        ) : (
          <RankBadge rank={row.rank} />
        )}
      </td>
      <td className="py-2.5 font-medium">
        {row.username}
        {row.is_current_user ? (
          <span className="ml-2 rounded-full bg-brand-600 px-2 py-0.5 text-[11px] font-semibold text-white">You</span>
        ) : null}
      </td>
      <td className="py-2.5 text-right font-semibold text-money-600">{formatDollars(row.total_earned)}</td>
    </tr>
  );
}
