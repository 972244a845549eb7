/** The leaderboard tips of docs/product.md, "Leaderboard". */
export const LEADERBOARD_TIPS = [
  "Complete tasks every day to climb faster.",
  "Invite friends: every friend who joins earns you a bonus.",
  "Check in daily for free coins.",
  "Rankings reset at the start of each month.",
];
