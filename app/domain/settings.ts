// The settings an owner changes in the operator console (docs/operator-console.md, "Settings"):
// every column of app_config but its key, with what it means for people and money, its unit and
// its bounds. One list for the page, its form schema and the words of a refused value; the
// database's own check (app_setting_valid, supabase/migrations/20261202300000_operator_settings.sql)
// holds the same bounds, and tests/integration/operator-settings.test.ts holds the two equal.
import {
  goalsInWords,
  INVALID_GOALS,
  INVALID_LEVELS,
  INVALID_PRIZES,
  levelsInWords,
  listText,
  parseGoals,
  parseLevels,
  parsePrizes,
  prizesInWords,
} from "./loop-settings";
import { coinsToDollars, formatDollars } from "./money";
import { formatNumber } from "./numbers";
import type { Goal, Level } from "./rewards";

export const SETTING_TOPICS = [
  "Coins and rewards",
  "Referrals",
  "Cash-outs and review by risk",
  "Codes by email",
  "Holds and bonus money",
  "Notices",
  "Adjustments",
  "Levels, goals, prizes and codes",
] as const;
export type SettingTopic = (typeof SETTING_TOPICS)[number];

/**
 * Whole numbers (coins, days, hours, count), money with cents (dollars, ratio), rupees per dollar
 * to four decimals, yes or no, a JSON object, or a choice of the network flags.
 */
type SettingUnit =
  | "coins"
  | "dollars"
  | "days"
  | "hours"
  | "count"
  | "ratio"
  | "rupees"
  | "boolean"
  | "json"
  | "flags"
  | "levels"
  | "goals"
  | "prizes";

interface SettingBase {
  /** The app_config column. */
  key: string;
  topic: SettingTopic;
  label: string;
  /** What it means for people and money, in plain words. */
  help: string;
}

interface NumberSetting extends SettingBase {
  unit: Exclude<SettingUnit, "boolean" | "json" | "flags" | "levels" | "goals" | "prizes">;
  min: number;
  max: number;
  /** What an empty field means, for a setting that may be empty (null in the database). */
  empty?: string;
}

interface BooleanSetting extends SettingBase {
  unit: "boolean";
}

/**
 * JSON: the network holds (an object), the levels or the daily goals (lists); the monthly prizes, a
 * list of coins typed with commas (app/domain/loop-settings.ts).
 */
interface JsonSetting extends SettingBase {
  unit: "json" | "levels" | "goals" | "prizes";
}

/** Some of the IP-intelligence provider's flags (docs/decisions/091), each a checkbox. */
interface FlagsSetting extends SettingBase {
  unit: "flags";
}

export type Setting = NumberSetting | BooleanSetting | JsonSetting | FlagsSetting;

/** The provider's flags an owner may choose from, in the order they are shown and stored. */
export const NETWORK_FLAGS = ["vpn", "proxy", "tor", "relay", "hosting"] as const;
export type NetworkFlag = (typeof NETWORK_FLAGS)[number];
export const NETWORK_FLAG_LABELS: Readonly<Record<NetworkFlag, string>> = {
  vpn: "VPN",
  proxy: "Proxy",
  tor: "Tor",
  relay: "Private relay (iCloud)",
  hosting: "Data centre",
};

/** The `intent` of the console's settings form (its Save button). */
export const SAVE_SETTINGS_INTENT = "save-settings";

/** A network's own hold: its name (as the walls and postbacks name it) and whole days. */
export const NETWORK_HOLD_NAME = /^[a-z0-9-]{2,40}$/;
export const NETWORK_HOLD_MAX_DAYS = 365;
export const NETWORK_HOLDS_MAX = 50;
const NETWORK_HOLDS_MAX_LENGTH = 4000;

export const SETTINGS = [
  {
    key: "coins_per_dollar",
    topic: "Coins and rewards",
    label: "Coins per dollar",
    unit: "coins",
    min: 1,
    max: 10_000,
    help:
      "How many coins make one dollar: at 100, 100 coins = $1.00. Balances are kept in dollars, so money " +
      "already earned keeps its value; every reward counted in coins from now on (check-ins, the streak bonus, " +
      "offers paid in coins) is worth more or less.",
  },
  {
    key: "checkin_coins",
    topic: "Coins and rewards",
    label: "Daily check-in reward",
    unit: "coins",
    min: 1,
    max: 100_000,
    help: "Coins a person gets for checking in, once a day. Home shows the new amount at once.",
  },
  {
    key: "checkin_streak_bonus_coins",
    topic: "Coins and rewards",
    label: "Streak bonus on day 7",
    unit: "coins",
    min: 0,
    max: 100_000,
    help: "Extra coins paid with the seventh check-in in a row, once a week, as bonus money. 0 pays no streak bonus.",
  },
  {
    key: "referral_reward",
    topic: "Referrals",
    label: "Referral reward",
    unit: "dollars",
    min: 0,
    max: 1_000,
    help: "What the person who shared their code gets once the friend qualifies, as bonus money.",
  },
  {
    key: "referral_welcome_bonus",
    topic: "Referrals",
    label: "Friend's welcome bonus",
    unit: "dollars",
    min: 0,
    max: 1_000,
    help: "What the friend who signed up with a code gets when they qualify, as bonus money. 0 pays none.",
  },
  {
    key: "referral_qualifying_coins",
    topic: "Referrals",
    label: "Coins a friend must have",
    unit: "coins",
    min: 0,
    max: 1_000_000,
    help: "The friend qualifies, and both are paid, once they have this many coins (of which kind: the next setting).",
  },
  {
    key: "referral_requires_earned",
    topic: "Referrals",
    label: "Only cleared offer earnings count",
    unit: "boolean",
    help:
      "Yes: only the friend's offer earnings that have cleared their hold count toward those coins, so check-ins " +
      "and bonuses cannot farm referral money. No: coins of any kind count.",
  },
  {
    key: "min_withdrawal_paypal",
    topic: "Cash-outs and review by risk",
    label: "Smallest PayPal cash-out",
    unit: "dollars",
    min: 0.01,
    max: 10_000,
    help: "The least a person can withdraw to PayPal. The Withdraw screen shows it at once.",
  },
  {
    key: "min_withdrawal_upi",
    topic: "Cash-outs and review by risk",
    label: "Smallest UPI cash-out",
    unit: "dollars",
    min: 0.01,
    max: 10_000,
    help: "The least a person can withdraw by UPI. The Withdraw screen shows it at once.",
  },
  {
    key: "min_withdrawal_bank",
    topic: "Cash-outs and review by risk",
    label: "Smallest bank transfer",
    unit: "dollars",
    min: 0.01,
    max: 10_000,
    help: "The least a person can withdraw by bank transfer.",
  },
  {
    key: "min_withdrawal_giftcard",
    topic: "Cash-outs and review by risk",
    label: "Smallest gift card",
    unit: "dollars",
    min: 0.01,
    max: 10_000,
    help: "The least a person can take as a gift card (Tremendous); each card's own smallest value applies as well.",
  },
  {
    key: "usd_inr_rate",
    topic: "Cash-outs and review by risk",
    label: "Rupees per dollar (UPI)",
    unit: "rupees",
    min: 1,
    max: 1_000,
    empty: "no rate: UPI amounts are shown in dollars only",
    help:
      "What a UPI cash-out pays in rupees for each dollar, fixed when the person asks for it; Withdraw shows " +
      "the rupees beside the dollars. A rate older than 7 days is not used: set it again, or let the rates " +
      "endpoint (INR_RATE_URL) keep it. A rise of more than 2 % waits for a second owner.",
  },
  {
    key: "withdrawals_per_hour",
    topic: "Cash-outs and review by risk",
    label: "Cash-out requests per hour",
    unit: "count",
    min: 1,
    max: 1_000,
    help: "How many withdrawal requests one account may make in an hour; more are refused with the time to wait.",
  },
  {
    key: "risk_review_threshold",
    topic: "Cash-outs and review by risk",
    label: "Risk score that needs review",
    unit: "count",
    min: 0,
    max: 101,
    help:
      "A withdrawal whose risk score (0 to 100) is at least this waits for an operator's review; the others are " +
      "approved at once. 0 sends every withdrawal to review; 101 sends none for its score.",
  },
  {
    key: "review_first_withdrawal",
    topic: "Cash-outs and review by risk",
    label: "Review every first cash-out",
    unit: "boolean",
    help: "Yes: a person's first withdrawal always waits for review, whatever its score.",
  },
  {
    key: "network_review_flags",
    topic: "Cash-outs and review by risk",
    label: "Networks whose cash-outs need review",
    unit: "flags",
    help:
      "A withdrawal asked for from a network ticked here (as the IP-intelligence provider says, IPINFO_TOKEN) " +
      "waits for review, whatever its score. Unticked, a VPN, proxy, Tor or data centre only adds its points.",
  },
  {
    key: "network_pause_flags",
    topic: "Cash-outs and review by risk",
    label: "Networks that pause earning",
    unit: "flags",
    help:
      "While a person's latest sign-up, new-device sign-in or withdrawal came from a network ticked here, each " +
      "offer they complete waits under Held postbacks for an operator to approve or reject it.",
  },
  {
    key: "signin_code_default",
    topic: "Codes by email",
    label: "Ask a code at sign-in from a new device",
    unit: "boolean",
    help:
      "Yes: signing in on a device the account has not used asks for a six-digit code sent to its email, unless " +
      "the person turned it off in their Settings (which itself takes a code). No: only those who turned it on.",
  },
  {
    key: "withdrawal_codes",
    topic: "Codes by email",
    label: "Ask a code before a cash-out",
    unit: "boolean",
    help:
      "Yes: a withdrawal to an address no code confirmed, from a device no code confirmed, or long after the last " +
      "code (below) first asks for a code sent to the account's email. A stolen password alone cannot cash out.",
  },
  {
    key: "withdrawal_code_days",
    topic: "Codes by email",
    label: "Ask again after",
    unit: "days",
    min: 1,
    max: 365,
    help: "A withdrawal asks for a new code when the account's last code is older than this.",
  },
  {
    key: "postback_hold_days",
    topic: "Holds and bonus money",
    label: "Hold on offer earnings",
    unit: "days",
    min: 0,
    max: 365,
    help:
      "Days an offer's credit stays pending before it can be withdrawn, so that a network's reversal takes back " +
      "pending money rather than money already paid out. Applies to new credits.",
  },
  {
    key: "provider_hold_days",
    topic: "Holds and bonus money",
    label: "Holds of particular networks",
    unit: "json",
    help:
      'A network\'s own hold in days, instead of the one above, as JSON: {"bitlabs": 14, "adgem": 30}. Leave it ' +
      "empty for none. Applies to new credits.",
  },
  {
    key: "bonus_unlock_ratio",
    topic: "Holds and bonus money",
    label: "Bonus unlocked per earned dollar",
    unit: "ratio",
    min: 0,
    max: 100,
    empty: "all bonus money can be withdrawn at once",
    help:
      "Bonus money (check-ins, referrals, streaks) can be withdrawn up to this many dollars per dollar of cleared " +
      "offer earnings: at 1.00, $1 earned unlocks $1 of bonus. 0 keeps bonus money locked; leave it empty to " +
      "unlock all bonus money at once. Applies at once.",
  },
  {
    key: "notice_delivery_attempts",
    topic: "Notices",
    label: "Tries per notice",
    unit: "count",
    min: 1,
    max: 100,
    help: "How many times a notice's push message or email is tried before it is given up.",
  },
  {
    key: "notice_delivery_window_hours",
    topic: "Notices",
    label: "Time to deliver a notice",
    unit: "hours",
    min: 1,
    max: 8_760,
    help: "Hours after which a notice not yet delivered is no longer sent by push or email.",
  },
  {
    key: "notice_emails_per_address_per_day",
    topic: "Notices",
    label: "Notice emails per address a day",
    unit: "count",
    min: 0,
    max: 1_000,
    help: "How many notice emails one address may get in 24 hours. 0 sends none.",
  },
  {
    key: "adjustment_approval_above",
    topic: "Adjustments",
    label: "Adjustments a second operator approves",
    unit: "dollars",
    min: 0,
    max: 1_000_000,
    help: "Adjustments for one person, either way, that add up past this within the window below wait for another operator's approval. 0: every one does.",
  },
  {
    key: "adjustment_window_hours",
    topic: "Adjustments",
    label: "Window the adjustment limit counts",
    unit: "hours",
    min: 1,
    max: 720,
    help: "Adjustments made for one person without a second operator in these last hours count toward the limit above, whoever made them.",
  },
  {
    key: "adjustment_operator_limit",
    topic: "Adjustments",
    label: "Adjustments one operator makes alone",
    unit: "dollars",
    min: 0,
    max: 1_000_000,
    help: "What one operator adjusts for everyone together, either way, within the window above; past it, their next adjustment waits for another operator's approval. 0: every one does.",
  },
  {
    key: "test_postbacks_per_wall_per_day",
    topic: "Adjustments",
    label: "Test postbacks a wall may take a day",
    unit: "count",
    min: 0,
    max: 100,
    help: "The console's test postbacks through one wall in 24 hours. They credit test coins that are never withdrawable.",
  },
  {
    key: "policy_change_delay_hours",
    topic: "Adjustments",
    label: "Wait before one owner's policy change applies",
    unit: "hours",
    min: 1,
    max: 720,
    help: "Raising a limit or a review threshold, turning a review off, or changing holds waits for a second owner. With only one owner, it can be applied after these hours.",
  },
  {
    key: "levels_on",
    topic: "Levels, goals, prizes and codes",
    label: "Pay level bonuses and perks",
    unit: "boolean",
    help:
      "Yes: a level reached pays its level-up bonus (claimed on Home), and each level's check-in extra and cash-out " +
      "rebate are paid, all as bonus money. No: nothing of it is paid; levels and XP still show.",
  },
  {
    key: "levels_monthly_cap",
    topic: "Levels, goals, prizes and codes",
    label: "Most paid for levels in a month",
    unit: "dollars",
    min: 0,
    max: 1_000_000,
    help:
      "Level-up bonuses, check-in extras and rebates together, for everyone, in a calendar month (UTC). A payment " +
      "that would pass it is refused and the loop says it stopped until the 1st.",
  },
  {
    key: "levels",
    topic: "Levels, goals, prizes and codes",
    label: "Levels",
    unit: "levels",
    help:
      "Each level's name, the XP it starts at (XP = cleared offer earnings in coins), its one-time bonus in coins, " +
      "its check-in extra in percent and its cash-out rebate in percent. A level's bonus is paid once per person, " +
      "by its name: renaming a level pays it again.",
  },
  {
    key: "goals_on",
    topic: "Levels, goals, prizes and codes",
    label: "Pay daily goals",
    unit: "boolean",
    help: "Yes: the three goals of the day pay their bonus when claimed, as bonus money. No: goals show as paused.",
  },
  {
    key: "goals_monthly_cap",
    topic: "Levels, goals, prizes and codes",
    label: "Most paid for daily goals in a month",
    unit: "dollars",
    min: 0,
    max: 1_000_000,
    help: "Goal bonuses together, for everyone, in a calendar month (UTC); past it, claims are refused until the 1st.",
  },
  {
    key: "daily_goals",
    topic: "Levels, goals, prizes and codes",
    label: "Daily goals to draw from",
    unit: "goals",
    help:
      "Each day (UTC) three of these are drawn, the same for everyone. Kinds: checkin; earn_coins (offer coins that " +
      "clear that day); complete_offer (offers credited that day, on one wall if network names it); refer_verified " +
      "(friends who join with the code that day and verify their email). Each pays its bonus_coins once per person a day.",
  },
  {
    key: "codes_on",
    topic: "Levels, goals, prizes and codes",
    label: "Pay promo codes",
    unit: "boolean",
    help: "Yes: a code made under Codes pays its coins, as bonus money, once per person. No: every code is refused as paused.",
  },
  {
    key: "codes_monthly_cap",
    topic: "Levels, goals, prizes and codes",
    label: "Most paid for promo codes in a month",
    unit: "dollars",
    min: 0,
    max: 1_000_000,
    help: "Codes together, for everyone, in a calendar month (UTC); past it, codes are refused until the 1st.",
  },
  {
    key: "prizes_on",
    topic: "Levels, goals, prizes and codes",
    label: "Pay monthly leaderboard prizes",
    unit: "boolean",
    help:
      "Yes: when a month ends, its prizes are paid as bonus money to the top places by offer money that cleared " +
      "in the month (a winner the risk score flags waits under Prizes). No: a month that ends pays nothing, and " +
      "the Leaderboard shows prizes as paused.",
  },
  {
    key: "prizes_monthly_cap",
    topic: "Levels, goals, prizes and codes",
    label: "Most paid for prizes in a month",
    unit: "dollars",
    min: 0,
    max: 1_000_000,
    help:
      "Prizes paid in a calendar month (UTC), for everyone: a place whose prize would pass it is recorded as not " +
      "paid, for the cap. Keep it at or above the table's total.",
  },
  {
    key: "monthly_prizes",
    topic: "Levels, goals, prizes and codes",
    label: "Monthly prizes",
    unit: "prizes",
    help:
      "In coins, 1st place first, separated by commas (2500 is $25.00 at 100 coins a dollar). The table as it " +
      "stands when a month ends is the one paid; the Leaderboard shows it as it stands now.",
  },
] as const satisfies readonly Setting[];

export type SettingKey = (typeof SETTINGS)[number]["key"];

/** The columns of app_config that are not settings, and why. */
export const NOT_SETTINGS: Readonly<Record<string, string>> = {
  id: "the key that keeps app_config to one row",
  usd_inr_rate_set_at: "the date of the rupee rate, set by the database whenever the rate changes",
  usd_inr_rate_anchor: "the rupee rate an owner last set, near which the rates endpoint may move it",
};

/**
 * A setting's value as the database holds it: a number, yes or no, null (an empty ratio),
 * {network: days}, a list of network flags, or the list of levels or of daily goals.
 */
export type SettingValue =
  | number
  | boolean
  | null
  | Record<string, number>
  | readonly string[]
  | readonly number[]
  | readonly Level[]
  | readonly Goal[];
export type SettingValues = Record<SettingKey, SettingValue>;

/** A change that loosens policy, waiting for a second owner (operator_settings' `waiting`). */
export interface WaitingSettingChange {
  id: number;
  settings: Partial<Record<SettingKey, SettingValue>>;
  before: Partial<Record<SettingKey, SettingValue>>;
  reason: string;
  requested_by: string;
  requested_by_user_id: string;
  requested_at: string;
  /** With one owner: when its owner may apply it. Null: another owner approves it. */
  apply_after: string | null;
}

/** One change of a setting, from the audit log (list_setting_changes): the page's list of changes. */
export interface SettingChange {
  id: number;
  at: string;
  actor: string;
  actor_user_id: string | null;
  /** The column; one the console no longer lists is shown as stored. */
  setting: string;
  before: SettingValue;
  after: SettingValue;
  reason: string | null;
}

export function isSettingKey(value: unknown): value is SettingKey {
  return typeof value === "string" && SETTINGS.some((setting) => setting.key === value);
}

export function settingOf(key: SettingKey): Setting {
  return SETTINGS.find((setting) => setting.key === key)!;
}

const WHOLE = /^[0-9]{1,9}$/;
const CENTS = /^[0-9]{1,9}(?:[.][0-9]{1,2})?$/;
const TEN_THOUSANDTHS = /^[0-9]{1,4}(?:[.][0-9]{1,4})?$/;

/** What a refused value is told, from the setting's unit and bounds (the form's and the database's refusal alike). */
export function invalidSettingMessage(setting: Setting): string {
  switch (setting.unit) {
    case "boolean":
      return "Choose Yes or No";
    case "flags":
      return "Tick only the networks listed";
    case "levels":
      return INVALID_LEVELS;
    case "goals":
      return INVALID_GOALS;
    case "prizes":
      return INVALID_PRIZES;
    case "json":
      return (
        'Write the holds as JSON, such as {"bitlabs": 14}: network names of 2 to 40 lowercase letters, digits or ' +
        `dashes, each with whole days from 0 to ${NETWORK_HOLD_MAX_DAYS} (at most ${NETWORK_HOLDS_MAX} networks)`
      );
    case "dollars":
      return `Enter an amount from ${formatDollars(setting.min)} to ${formatDollars(setting.max)}, with at most two decimals`;
    case "ratio":
      return (
        `Enter a ratio from ${setting.min} to ${setting.max} with at most two decimals` +
        (setting.empty ? ", or leave it empty" : "")
      );
    case "count":
      return `Enter a whole number from ${formatNumber(setting.min)} to ${formatNumber(setting.max)}`;
    case "rupees":
      return `Enter rupees per dollar from ${setting.min} to ${formatNumber(setting.max)} with at most four decimals, or leave it empty`;
    default:
      return `Enter a whole number of ${setting.unit} from ${formatNumber(setting.min)} to ${formatNumber(setting.max)}`;
  }
}

/** The holds as typed (a JSON object of whole days), or null. Empty: none. */
function parseNetworkHolds(text: string): Record<string, number> | null {
  if (text === "") return {};
  if (text.length > NETWORK_HOLDS_MAX_LENGTH) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  const entries = Object.entries(parsed);
  if (entries.length > NETWORK_HOLDS_MAX) return null;
  const valid = entries.every(
    ([name, days]) =>
      NETWORK_HOLD_NAME.test(name) && Number.isInteger(days) && days >= 0 && days <= NETWORK_HOLD_MAX_DAYS,
  );
  return valid ? (Object.fromEntries(entries) as Record<string, number>) : null;
}

/** The flags ticked (none ticked posts nothing), in their own order, or null when one is not a flag or is ticked twice. */
function parseNetworkFlags(input: string | readonly string[] | undefined): NetworkFlag[] | null {
  const ticked = (typeof input === "string" ? [input] : (input ?? [])).filter((flag) => flag !== "");
  if (new Set(ticked).size !== ticked.length) return null;
  if (!ticked.every((flag) => (NETWORK_FLAGS as readonly string[]).includes(flag))) return null;
  return NETWORK_FLAGS.filter((flag) => ticked.includes(flag));
}

/**
 * A setting's value from the text of its field (trimmed; missing is empty), or undefined when the
 * text is no valid value: whole numbers and amounts in ASCII digits, within the bounds. Only the
 * flags take several values (one per ticked box).
 */
export function parseSettingInput(
  setting: Setting,
  input: string | readonly string[] | undefined,
): SettingValue | undefined {
  if (setting.unit === "flags") return parseNetworkFlags(input) ?? undefined;
  if (typeof input !== "string" && input !== undefined) return undefined;
  const text = (input ?? "").trim();
  switch (setting.unit) {
    case "boolean":
      return text === "yes" ? true : text === "no" ? false : undefined;
    case "json":
      return parseNetworkHolds(text) ?? undefined;
    case "levels":
      return parseLevels(text) ?? undefined;
    case "goals":
      return parseGoals(text) ?? undefined;
    case "prizes":
      return parsePrizes(text) ?? undefined;
    default: {
      if (text === "" && setting.empty) return null;
      const pattern =
        setting.unit === "rupees"
          ? TEN_THOUSANDTHS
          : setting.unit === "dollars" || setting.unit === "ratio"
            ? CENTS
            : WHOLE;
      if (!pattern.test(text)) return undefined;
      const value = Number(text);
      return value >= setting.min && value <= setting.max ? value : undefined;
    }
  }
}

/** The text a setting's field starts with (the boxes ticked, for flags): what parseSettingInput reads back as the same value. */
export function settingInputText(setting: Setting, value: SettingValue): string | readonly string[] {
  if (setting.unit === "flags") return (value ?? []) as readonly string[];
  if (setting.unit === "boolean") return value ? "yes" : "no";
  if (setting.unit === "levels" || setting.unit === "goals") return listText((value ?? []) as readonly object[]);
  if (setting.unit === "prizes") return ((value ?? []) as readonly number[]).join(", ");
  if (setting.unit === "json") {
    const holds = Object.entries((value ?? {}) as Record<string, number>);
    return holds.length === 0 ? "" : `{${holds.map(([network, days]) => `"${network}": ${days}`).join(", ")}}`;
  }
  if (value === null) return "";
  if (setting.unit === "rupees") return String(Number(value));
  return setting.unit === "dollars" || setting.unit === "ratio" ? Number(value).toFixed(2) : String(value);
}

const plural = (count: number, one: string, many: string) => `${formatNumber(count)} ${count === 1 ? one : many}`;

/**
 * A setting's value in words: "10 coins ($0.10)", "$5.00", "7 days", "Yes", "bitlabs: 14 days".
 * `coinsPerDollar` prices coins in dollars.
 */
export function formatSettingValue(setting: Setting, value: SettingValue, coinsPerDollar?: number): string {
  switch (setting.unit) {
    case "boolean":
      return value ? "Yes" : "No";
    case "levels":
      return levelsInWords((value ?? []) as readonly Level[]);
    case "goals":
      return goalsInWords((value ?? []) as readonly Goal[]);
    case "prizes":
      return prizesInWords((value ?? []) as readonly number[]);
    case "flags": {
      const flags = (value ?? []) as readonly NetworkFlag[];
      return flags.length === 0 ? "None" : flags.map((flag) => NETWORK_FLAG_LABELS[flag] ?? flag).join(", ");
    }
    case "json": {
      const holds = Object.entries((value ?? {}) as Record<string, number>);
      return holds.length === 0
        ? "None"
        : holds.map(([network, days]) => `${network}: ${plural(days, "day", "days")}`).join(", ");
    }
    case "dollars":
      return formatDollars(Number(value));
    case "ratio":
      return value === null ? `empty (${setting.empty ?? "none"})` : Number(value).toFixed(2);
    case "rupees":
      return value === null ? `empty (${setting.empty ?? "none"})` : `₹${Number(value)} per $1`;
    case "coins": {
      const coins = Number(value);
      if (setting.key === "coins_per_dollar") return `${plural(coins, "coin", "coins")} = $1.00`;
      const worth = coinsPerDollar ? ` (${formatDollars(coinsToDollars(coins, coinsPerDollar))})` : "";
      return `${plural(coins, "coin", "coins")}${worth}`;
    }
    case "days":
      return plural(Number(value), "day", "days");
    case "hours":
      return plural(Number(value), "hour", "hours");
    case "count":
      return formatNumber(Number(value));
  }
}
