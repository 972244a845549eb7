import { dbCall } from "../db/core.server";
import { getDatabase } from "../db/database.server";

export interface CheckinStatus {
  today: string;
  checked_in_today: boolean;
  /** The run of consecutive days checked in through today (or yesterday, before today's check-in). */
  streak_days: number;
  /** The day of the streak's week today is, 1 to 7. */
  streak_day: number;
  /** What day 7 pays, and what today's check-in paid of it. */
  bonus_coins: number;
  bonus_paid_today: number;
}

export function checkinStatusCall(userId: string) {
  return dbCall<CheckinStatus>("get_checkin_status", { p_user_id: userId });
}

/**
 * docs/product.md, "Home: daily check-in": 10 coins once per day, and day 7 of a streak its bonus;
 * a repeat raises "Already checked in today!".
 */
export async function checkIn(userId: string) {
  const db = await getDatabase();
  return db.rpc<{
    coins: number;
    amount: number;
    balance: number;
    streak_day: number;
    bonus_coins: number;
    /** The level's check-in extra paid with it (docs/decisions/094), and the level. */
    perk_coins: number;
    level_name: string;
  }>("daily_checkin", { p_user_id: userId });
}
