// The operator console's Walls section (docs/operator-console.md, "Walls"): what the pages show of
// each offer wall's configuration and postback log, shared by the server module that builds it
// (app/server/operator/walls.server.ts), the form schemas and the pages that draw it. Nothing here
// ever holds a secret's value: a secret is shown as whether it is set, where from, and a hint.

import { formatNumber } from "./numbers";

/** Where a setting's value comes from: the console's override, the environment, or neither (the app's default). */
export type SettingSource = "console" | "environment" | "default";

export const SOURCE_LABELS: Record<SettingSource, string> = {
  console: "Console",
  environment: "Environment",
  default: "Default",
};

/** One line of a wall's configuration as the console shows it. */
export interface WallSettingRow {
  /** The variable it stands for: WALL_BITLABS_APP_SECRET. */
  variable: string;
  label: string;
  /** What it is now, as text; a secret's is its mask ("•••• 1a2b", "Set") or "Not set". */
  value: string;
  source: SettingSource;
  secret: boolean;
}

/** A network setting the owner's form can change (every one but the API addresses, which only tests move). */
export interface WallFormSetting {
  suffix: string;
  label: string;
  /** The network's own words for it. */
  meaning: string;
  secret: boolean;
  required: boolean;
  minLength: number | null;
  /** The console's value (never a secret's). */
  consoleValue: string | null;
  /** Whether the console sets it (a secret's only way to say so). */
  consoleSet: boolean;
  /** What leaving it blank means, for the field's hint ("the environment's, bitlabs-token"). */
  blankMeans: string;
}

/** What the owner's form starts from. */
export interface WallForm {
  enabled: "environment" | "on" | "off";
  /** What "the environment's setting" means for on or off ("on", "off"). */
  environmentEnabled: boolean;
  holdDays: string;
  holdDaysBlank: string;
  allowedAddresses: string;
  allowedAddressesBlank: string;
  settings: WallFormSetting[];
}

/** One network in the console. */
export interface WallView {
  name: string;
  label: string;
  /** Turned on and usable: its postbacks are taken and Earn lists it. */
  on: boolean;
  /** Turned on (by the console or the environment), whether or not it can run. */
  enabled: boolean;
  /** Where "turned on" (or off) comes from. */
  enabledSource: SettingSource;
  /** Why a wall that is turned on is off, each naming its variable. */
  problems: string[];
  /** The address to paste in the network's dashboard (its macros included, a secret as a placeholder). */
  postbackUrl: string;
  /** Whether the address is PUBLIC_URL's (else the one this page was opened at). */
  publicUrlSet: boolean;
  rows: WallSettingRow[];
  /** Whether the console overrides anything of it (so "Reset to the environment" has something to do). */
  overridden: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
  /** Whether its signature covers the transaction and the amount (else credits that repeat one are held). */
  signatureBindsTransaction: boolean;
  /** Taken from any address although its signature does not bind the transaction (WALL_{NAME}_ANY_SENDER=true). */
  anySenderWarning: boolean;
}

/** One entry of the postback log (list_postback_log, operator_postback_log): a postback as the app took or refused it. */
export interface PostbackLogEntry {
  id: number;
  received_at: string;
  network: string;
  client_address: string | null;
  method: string;
  /** What was sent, with the wall's secrets removed. */
  query: string;
  body: string;
  verdict: "credited" | "reversed" | "duplicate" | "ignored" | "refused" | "held";
  reason: string | null;
  user_id: string | null;
  email: string | null;
  transaction_id: string | null;
  coins: number | null;
}

/** The log's filters, as the page's URL carries them (?refused=1&user=…&tx=…&before=…). */
export interface PostbackLogFilters {
  refused: boolean;
  user: string;
  tx: string;
  before: number | null;
}

export const POSTBACK_LOG_PAGE_SIZE = 50;

/** The most coins one test postback from the console pays: enough to see a credit, no more. */
export const TEST_POSTBACK_MAX_COINS = 1_000;

/** The form field of a network setting: setting_APP_SECRET. */
export const settingField = (suffix: string) => `setting_${suffix}`;
/** The checkbox that gives a secret set in the console back to the environment. */
export const clearField = (suffix: string) => `clear_${suffix}`;

export const WALL_FORM_MESSAGES = {
  enabled: "Choose on, off, or the environment's setting.",
  holdDays: "Enter a whole number of days from 0 to 365, or leave it blank.",
  allowedAddresses:
    'Enter IP addresses separated by commas, or "any" for no check, or leave it blank (at most 2,000 characters).',
  setting: "At most 500 characters, without invisible or control characters.",
  reason: "Say why, in at most 500 characters without invisible or control characters.",
  reasonMissing: "Please say why you are making this change.",
  saved: "Wall saved",
  unchanged: "Nothing changed",
  reset: "Back to the environment's settings",
  resetNothing: "The console had no settings for this wall",
  failed: "The wall could not be saved. Please try again.",
  testEmail: "Enter the email of the account to credit.",
  testNoAccount: "No account has this email.",
  testCoins: `Enter a whole number of coins from 1 to ${formatNumber(TEST_POSTBACK_MAX_COINS)}.`,
  testStale: "This form is out of date. Please reload the page and send it again.",
  testWallOff: "Turn the wall on before sending it a test postback.",
  testAlreadySent: "This test postback was sent already",
  testFailed: "The test postback could not be sent. Please try again.",
} as const;

/**
 * A postback held for an operator (docs/offer-walls.md, "Held postbacks"): a credit whose signature
 * had already paid another transaction (a network whose signature does not bind the transaction),
 * or a reversal whose reversal field is unsigned. Finance and owners approve it (recorded as the
 * network's credit or reversal) or reject it.
 */
export interface HeldPostback {
  id: number;
  received_at: string;
  transaction_id: string;
  /** A credit, or a reversal whose reversal field the signature does not cover. */
  kind: "credit" | "reversal";
  user_id: string | null;
  email: string | null;
  coins: number;
  offer_name: string | null;
  /** Why it waits, in words. */
  reason: string;
  /** The transaction whose signature it repeats (null for an unsigned reversal). */
  signature_seen_on: string | null;
}

export const HELD_POSTBACK_MESSAGES = {
  decision: "Choose approve or reject.",
  stale: "This held postback is no longer waiting. Reload the page.",
  approved: "Held postback approved and recorded",
  rejected: "Held postback rejected: nothing is paid",
} as const;

/** A secret as the console may show it: its last four characters when they were kept, else only that it is set. */
export function maskedSecret(hint: string | null): string {
  return hint ? `•••• ${hint}` : "Set";
}
