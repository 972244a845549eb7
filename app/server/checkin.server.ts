import { dbCall } from "./db/core.server";
import { getDatabase } from "./db/database.server";

export interface CheckinStatus {
  today: string;
  checked_in_today: boolean;
  recent_dates: string[];
}

export function checkinStatusCall(userId: string) {
  return dbCall<CheckinStatus>("get_checkin_status", { p_user_id: userId });
}

/** docs/product.md, "Home: daily check-in": 10 coins once per day; a repeat raises "Already checked in today!". */
export async function checkIn(userId: string) {
  const db = await getDatabase();
  return db.rpc<{ coins: number; amount: number; balance: number }>("daily_checkin", { p_user_id: userId });
}
