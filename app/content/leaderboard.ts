import { LEADERBOARD_COUNTED_RANKS } from "~/domain/constants";
import { formatNumber } from "~/domain/numbers";

/** The leaderboard tips of docs/product.md, "Leaderboard". */
export const LEADERBOARD_TIPS = [
  "Complete tasks every day to climb faster.",
  "Invite friends: every friend who joins earns you a bonus.",
  "Check in daily for free coins.",
  "Rankings reset at the start of each month.",
];

/** What the board shows instead of names (docs/decisions/075-the-leaderboard-says-what-shows.md). */
export const LEADERBOARD_INTRO =
  'The top 50 earners this month. Names stay private: everyone shows as "User" and four characters of their account; your own row says You.';

/** Shown to a person who earned nothing yet this month (they are on no board). */
export const LEADERBOARD_NOT_RANKED = "You're not on the leaderboard yet this month: anything you earn puts you on it.";

/** The own row's rank below the counted ranks, and what it means. */
export const LEADERBOARD_BEYOND_COUNTED = `${formatNumber(LEADERBOARD_COUNTED_RANKS)}+`;
export const LEADERBOARD_OUTSIDE_COUNTED = `You're outside the top ${formatNumber(LEADERBOARD_COUNTED_RANKS)} this month; places below it are not numbered.`;

/** When the shared board was computed: it is refreshed every 15 minutes. */
export function leaderboardUpdated(minutesAgo: number): string {
  if (minutesAgo < 1) return "Updated just now";
  return `Updated ${minutesAgo} ${minutesAgo === 1 ? "minute" : "minutes"} ago`;
}
