import { isIP } from "node:net";
import type { Operator } from "./access.server";
import {
  maskedSecret,
  POSTBACK_LOG_PAGE_SIZE,
  settingField,
  type HeldPostback,
  WALL_FORM_MESSAGES,
  type PostbackLogFilters,
  type PostbackLogEntry,
  type SettingSource,
  type WallForm,
  type WallSettingRow,
  type WallView,
} from "~/domain/operator-walls";
import { capitalised } from "~/domain/text";
import { getDatabase } from "../db/database.server";
import { getEnv } from "../runtime/env.server";
import { ownAddress } from "../http/incoming.server";
import { currentWallStates, forgetCurrentWalls } from "../walls/configured.server";
import { validId, type WallNetwork, type WallSetting } from "../walls/network.server";
import { CONSOLE_TEST_OFFER, simulatePostback, WallOperatorError, type WallAccount } from "../walls/operator.server";
import { resolveWall, type OpenOverride, type WallState } from "../walls/overrides.server";
import { DEFAULT_POSTBACKS_PER_MINUTE } from "../runtime/env.server";
import { variable, WALL_NETWORKS } from "../walls/registry.server";
import { sealWallSecret, secretHint } from "../walls/sealed-secrets.server";

/**
 * The operator console's Walls section (docs/operator-console.md, "Walls"): each network's
 * configuration with where each value comes from (the console's override or the environment), the
 * owner's changes to it, its postback log and the test postback. Secrets go one way: sealed on their
 * way in (sealed-secrets.server.ts), and out of here only as a mask. Every read and write is a SQL
 * function that checks the operator's role (operator_walls, operator_set_wall, operator_reset_wall,
 * operator_postback_log, operator_record_test_postback).
 */

/** The networks the console configures: every wall the app knows, by name. */
export function consoleNetwork(name: string | undefined): WallNetwork<unknown> | null {
  return WALL_NETWORKS.find((network) => network.name === name) ?? null;
}

/** What operator_walls gives of a console override: the secrets only as whether set, and a hint. */
interface PublicOverride {
  network: string;
  enabled: boolean | null;
  hold_days: number | null;
  allowed_addresses: string | null;
  settings: Record<string, string>;
  secrets: Record<string, { hint: string | null }>;
  updated_at: string;
  updated_by: string;
}

/** The settings an owner changes in the console: all but the API addresses, which only tests point elsewhere. */
const formSettings = (network: WallNetwork<unknown>) => network.settings.filter((setting) => !setting.url);

/** "APP_SECRET" → "App secret". */
function settingLabel(setting: WallSetting): string {
  const words = setting.suffix.toLowerCase().replaceAll("_", " ");
  return capitalised(words).replace(/\b(api|id|url)\b/gi, (word) => word.toUpperCase());
}

const envValue = (network: WallNetwork<unknown>, suffix: string) =>
  process.env[variable(network, suffix)]?.trim() || null;

/** The address to paste in the network's dashboard: PUBLIC_URL (else the address this page was opened at). */
function postbackUrl(network: WallNetwork<unknown>, origin: string): string {
  const base = `${getEnv().publicUrl ?? origin}/api/${network.name}/postback`;
  return network.postbackQuery ? `${base}?${network.postbackQuery}` : base;
}

function rows(network: WallNetwork<unknown>, state: WallState, override: PublicOverride | null): WallSettingRow[] {
  const row = (suffix: string, label: string, value: string, source: SettingSource, secret = false) => ({
    variable: variable(network, suffix),
    label,
    value,
    source,
    secret,
  });
  const settingRows = network.settings.map((setting) => {
    const label = settingLabel(setting);
    if (setting.secret) {
      const inConsole = override?.secrets[setting.suffix];
      if (inConsole) return row(setting.suffix, label, maskedSecret(inConsole.hint), "console", true);
      const fromEnv = envValue(network, setting.suffix);
      return fromEnv
        ? row(setting.suffix, label, maskedSecret(secretHint(fromEnv)), "environment", true)
        : row(setting.suffix, label, "Not set", "default", true);
    }
    const inConsole = override?.settings[setting.suffix];
    if (inConsole !== undefined) return row(setting.suffix, label, inConsole, "console");
    const fromEnv = envValue(network, setting.suffix);
    return fromEnv
      ? row(setting.suffix, label, fromEnv, "environment")
      : row(setting.suffix, label, "Not set", "default");
  });
  const addresses = override?.allowed_addresses ?? envValue(network, "ALLOWED_ADDRESSES");
  const published = network.senderAddresses.length
    ? `Published by ${network.label}: ${network.senderAddresses.join(", ")}`
    : `Any address (${network.label} publishes none)`;
  const holdDays = override?.hold_days ?? envValue(network, "HOLD_DAYS");
  const perMinute = envValue(network, "POSTBACKS_PER_MINUTE");
  const supportUrl = envValue(network, "SUPPORT_URL");
  const sourceOf = (inConsole: unknown, fromEnv: string | null): SettingSource =>
    inConsole !== null && inConsole !== undefined ? "console" : fromEnv ? "environment" : "default";
  return [
    row(
      "ENABLED",
      "Turned on",
      state.enabled ? "On" : "Off",
      sourceOf(override?.enabled, envValue(network, "ENABLED")),
    ),
    ...settingRows,
    row(
      "ALLOWED_ADDRESSES",
      "Allowed senders",
      addresses === "any" ? "Any address (no check)" : (addresses ?? published),
      sourceOf(override?.allowed_addresses, envValue(network, "ALLOWED_ADDRESSES")),
    ),
    row(
      "HOLD_DAYS",
      "Hold",
      holdDays === null ? "The app's hold for offer credits" : `${holdDays} days`,
      sourceOf(override?.hold_days, envValue(network, "HOLD_DAYS")),
    ),
    row(
      "POSTBACKS_PER_MINUTE",
      "Postbacks a minute",
      Number(perMinute ?? DEFAULT_POSTBACKS_PER_MINUTE).toLocaleString("en-US"),
      perMinute ? "environment" : "default",
    ),
    row("SUPPORT_URL", "Support page", supportUrl ?? "Not set", supportUrl ? "environment" : "default"),
  ];
}

/** The problems that keep a wall that is turned on off, in words. */
const problemLines = (state: WallState) => state.problems.map((problem) => `${problem.variable} ${problem.message}`);

function view(state: WallState, override: PublicOverride | null, origin: string): WallView {
  const { network } = state;
  const settingRows = rows(network, state, override);
  return {
    name: network.name,
    label: network.label,
    on: state.wall !== null,
    enabled: state.enabled,
    enabledSource: settingRows[0]!.source,
    problems: problemLines(state),
    postbackUrl: postbackUrl(network, origin),
    publicUrlSet: getEnv().publicUrl !== null,
    rows: settingRows,
    overridden: override !== null,
    updatedAt: override?.updated_at ?? null,
    updatedBy: override?.updated_by ?? null,
    signatureBindsTransaction: network.signature.bindsTransaction,
    anySenderWarning: !network.signature.bindsTransaction && state.wall?.anySender === true,
  };
}

function form(network: WallNetwork<unknown>, override: PublicOverride | null): WallForm {
  const envHold = envValue(network, "HOLD_DAYS");
  const envAddresses = envValue(network, "ALLOWED_ADDRESSES");
  const published = network.senderAddresses.length
    ? `the addresses ${network.label} publishes (${network.senderAddresses.join(", ")})`
    : network.signature.bindsTransaction
      ? `any address (${network.label} publishes none)`
      : `none: ${network.label} publishes no addresses and its signature does not bind the transaction, so list them`;
  return {
    enabled: override?.enabled === true ? "on" : override?.enabled === false ? "off" : "environment",
    environmentEnabled: envValue(network, "ENABLED") === "true",
    holdDays: override?.hold_days === null || override?.hold_days === undefined ? "" : String(override.hold_days),
    holdDaysBlank: envHold ? `the environment's, ${envHold} days` : "the app's hold for offer credits",
    allowedAddresses: override?.allowed_addresses ?? "",
    allowedAddressesBlank: envAddresses ? `the environment's, ${envAddresses}` : published,
    settings: formSettings(network).map((setting) => {
      const fromEnv = envValue(network, setting.suffix);
      const consoleSet = setting.secret
        ? override?.secrets[setting.suffix] !== undefined
        : override?.settings[setting.suffix] !== undefined;
      const blankMeans = setting.secret
        ? consoleSet
          ? "keep the value set in the console"
          : fromEnv
            ? `keep the environment's (${maskedSecret(secretHint(fromEnv))})`
            : "not set"
        : fromEnv
          ? `the environment's, ${fromEnv}`
          : "not set";
      return {
        suffix: setting.suffix,
        label: settingLabel(setting),
        meaning: setting.meaning,
        secret: setting.secret === true,
        required: setting.required,
        minLength: setting.minLength ?? null,
        consoleValue: setting.secret ? null : (override?.settings[setting.suffix] ?? null),
        consoleSet,
        blankMeans,
      };
    }),
  };
}

async function publicOverrides(operatorId: string): Promise<PublicOverride[]> {
  return (await getDatabase()).rpc<PublicOverride[]>("operator_walls", { p_operator_id: operatorId });
}

/** Every network, as the list of walls shows it. `origin`: the address the page was opened at. */
export async function wallViews(operatorId: string, origin: string): Promise<WallView[]> {
  const [overrides, states] = await Promise.all([publicOverrides(operatorId), currentWallStates()]);
  return states.map((state) =>
    view(state, overrides.find((override) => override.network === state.network.name) ?? null, origin),
  );
}

/** One network's page: what it is now, and what the owner's form starts from. */
export async function wallDetail(operatorId: string, network: WallNetwork<unknown>, origin: string) {
  const [overrides, states] = await Promise.all([publicOverrides(operatorId), currentWallStates()]);
  const override = overrides.find((candidate) => candidate.network === network.name) ?? null;
  const state = states.find((candidate) => candidate.network.name === network.name)!;
  return { view: view(state, override, origin), form: form(network, override) };
}

// ------------------------------------------------------------------------------------------------
// The postback log

const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The people `user` names: an account id as it is, or every account of an email address. */
async function filteredPerson(user: string): Promise<{ userId: string } | { problem: string }> {
  if (!user.includes("@")) {
    return ACCOUNT_ID.test(user) ? { userId: user } : { problem: "Enter an account's email or its id." };
  }
  if (user.length > 254) return { problem: "Enter an account's email or its id." };
  const accounts = await (await getDatabase()).rpc<WallAccount[]>("accounts_by_email", { p_email: user });
  if (accounts.length === 0) return { problem: "No account has this email." };
  if (accounts.length > 1) {
    return {
      problem: `${accounts.length} accounts have this email: enter one's id (${accounts.map((a) => a.user_id).join(", ")}).`,
    };
  }
  return { userId: accounts[0]!.user_id };
}

export interface PostbackLogPage {
  entries: PostbackLogEntry[];
  /** The next (older) page's `before`, or null on the last. */
  olderBefore: number | null;
  /** What is wrong with a filter, by its field: the page shows it there and lists nothing. */
  problems: { user?: string; tx?: string };
}

/** A page of one network's log, newest first, as `filters` narrow it. */
export async function readPostbackLog(
  operatorId: string,
  network: WallNetwork<unknown>,
  filters: PostbackLogFilters,
): Promise<PostbackLogPage> {
  const problems: PostbackLogPage["problems"] = {};
  const person = filters.user ? await filteredPerson(filters.user) : null;
  if (person && "problem" in person) problems.user = person.problem;
  if (filters.tx && !validId(filters.tx))
    problems.tx = "A transaction id is 1 to 200 characters, without control characters.";
  if (problems.user || problems.tx) return { entries: [], olderBefore: null, problems };
  const entries = await (
    await getDatabase()
  ).rpc<PostbackLogEntry[]>("operator_postback_log", {
    p_operator_id: operatorId,
    p_network: network.name,
    p_refused_only: filters.refused,
    p_user_id: person && "userId" in person ? person.userId : null,
    p_transaction_id: filters.tx || null,
    p_before: filters.before,
    // One entry more than a page says whether there is an older page.
    p_limit: POSTBACK_LOG_PAGE_SIZE + 1,
  });
  const page = entries.slice(0, POSTBACK_LOG_PAGE_SIZE);
  return { entries: page, olderBefore: entries.length > POSTBACK_LOG_PAGE_SIZE ? page.at(-1)!.id : null, problems };
}

// ------------------------------------------------------------------------------------------------
// Held postbacks

/** The network's credits held for review, oldest first (every role reads them). */
export async function readHeldPostbacks(operatorId: string, network: WallNetwork<unknown>): Promise<HeldPostback[]> {
  return (await getDatabase()).rpc<HeldPostback[]>("operator_held_postbacks", {
    p_operator_id: operatorId,
    p_network: network.name,
  });
}

/** Approves (pays as the network's credit) or rejects a held postback: finance or owner, never on their own account, audited. */
export async function decideHeldPostback(
  operator: Operator,
  held: { id: number; approve: boolean; reason: string },
): Promise<void> {
  await (
    await getDatabase()
  ).rpc("decide_held_postback", {
    p_operator_id: operator.uid,
    p_held_id: held.id,
    p_approve: held.approve,
    p_reason: held.reason,
  });
}

// ------------------------------------------------------------------------------------------------
// The owner's changes

/** What the owner's form asks for, checked for its form (wall-forms.ts); blanks are undefined. */
export interface WallChange {
  enabled: "environment" | "on" | "off";
  holdDays?: number;
  allowedAddresses?: string;
  /** Network settings by suffix, as typed (a secret's blank keeps it). */
  settings: Record<string, string | undefined>;
  /** Secrets set in the console to give back to the environment. */
  clear: string[];
  reason: string;
}

export type WallChangeResult =
  { saved: true; changed: boolean } | { saved: false; fieldErrors: Record<string, string[]>; formErrors: string[] };

/** A problem readWall found, as the owner's form says it, on the field it blames (or none). */
function problemField(network: WallNetwork<unknown>, problemVariable: string): string | null {
  if (problemVariable === variable(network, "ENABLED")) return "enabled";
  if (problemVariable === variable(network, "HOLD_DAYS")) return "holdDays";
  if (problemVariable === variable(network, "ALLOWED_ADDRESSES")) return "allowedAddresses";
  const setting = formSettings(network).find((candidate) => variable(network, candidate.suffix) === problemVariable);
  return setting ? settingField(setting.suffix) : null;
}

function problemWords(network: WallNetwork<unknown>, message: string): string {
  const required = /^is required: (.*)$/.exec(message);
  if (required) return `Needed to turn ${network.label} on: ${required[1]}.`;
  return `${capitalised(message)}.`;
}

/**
 * What is wrong with a change whatever else the wall has (each value on its own: the senders are IP
 * addresses, a setting is as long as it must be), by field; empty when nothing is.
 */
export function checkWallChange(network: WallNetwork<unknown>, change: WallChange): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  if (change.allowedAddresses && change.allowedAddresses !== "any") {
    const wrong = change.allowedAddresses
      .split(",")
      .map((address) => address.trim())
      .filter((address) => isIP(address) === 0);
    if (wrong.length > 0) fieldErrors.allowedAddresses = [`Not an IP address: ${wrong.join(", ")}.`];
  }
  for (const setting of formSettings(network)) {
    const value = change.settings[setting.suffix];
    if (value !== undefined && setting.minLength && value.length < setting.minLength) {
      fieldErrors[settingField(setting.suffix)] = [`Must be at least ${setting.minLength} characters.`];
    }
  }
  return fieldErrors;
}

/**
 * Saves the owner's change to a network (checked by checkWallChange), with its audit entry: only
 * when the wall it leaves can run (turned on, every setting it needs set and right), else nothing
 * changes and each problem is on the field it names. Secrets are sealed here, before they leave
 * the server.
 */
export async function saveWall(
  operator: Operator,
  network: WallNetwork<unknown>,
  change: WallChange,
): Promise<WallChangeResult> {
  const fieldErrors: Record<string, string[]> = {};
  const blame = (field: string, message: string) => (fieldErrors[field] ??= []).push(message);
  const settings = formSettings(network);

  // The wall as it would run: this change over what the console already holds (its secrets kept
  // unless given again or cleared), over the environment.
  forgetCurrentWalls();
  const current = (await currentWallStates()).find((state) => state.network.name === network.name)!;
  const newSecrets = Object.fromEntries(
    settings.flatMap((setting) =>
      setting.secret && change.settings[setting.suffix] !== undefined
        ? [[setting.suffix, change.settings[setting.suffix]!]]
        : [],
    ),
  );
  const keptSecrets = Object.fromEntries(
    Object.entries(current.override?.secrets ?? {}).filter(([suffix]) => !change.clear.includes(suffix)),
  );
  const plainSettings = Object.fromEntries(
    settings.flatMap((setting) =>
      !setting.secret && change.settings[setting.suffix] !== undefined
        ? [[setting.suffix, change.settings[setting.suffix]!]]
        : [],
    ),
  );
  const proposed: OpenOverride = {
    network: network.name,
    enabled: change.enabled === "environment" ? null : change.enabled === "on",
    hold_days: change.holdDays ?? null,
    allowed_addresses: change.allowedAddresses ?? null,
    settings: plainSettings,
    secrets: { ...keptSecrets, ...newSecrets },
    updated_at: "",
    updated_by: "",
  };
  const outcome = resolveWall(network, process.env, proposed);
  if (outcome.enabled && !outcome.wall) {
    const formErrors: string[] = [];
    for (const problem of outcome.problems) {
      const field = problemField(network, problem.variable);
      if (field) blame(field, problemWords(network, problem.message));
      else formErrors.push(`${problem.variable} ${problem.message}.`);
    }
    formErrors.unshift(
      `Not saved: ${network.label} cannot run with these settings. Each field below says what is missing.`,
    );
    return { saved: false, fieldErrors, formErrors };
  }

  const secret = getEnv().accountHashSecret;
  const result = await (
    await getDatabase()
  ).rpc<{ changed: boolean }>("operator_set_wall", {
    p_operator_id: operator.uid,
    p_network: network.name,
    p_enabled: proposed.enabled,
    p_hold_days: proposed.hold_days,
    p_allowed_addresses: proposed.allowed_addresses,
    p_settings: proposed.settings,
    p_secrets: Object.fromEntries(
      Object.entries(newSecrets).map(([suffix, value]) => [
        suffix,
        { sealed: sealWallSecret(value, network.name, suffix, secret), hint: secretHint(value) },
      ]),
    ),
    p_clear_secrets: change.clear.filter((suffix) => !(suffix in newSecrets)),
    p_reason: change.reason,
  });
  forgetCurrentWalls();
  return { saved: true, changed: result.changed };
}

/** Gives every setting of a network back to the environment, with its audit entry. */
export async function resetWall(operator: Operator, network: WallNetwork<unknown>, reason: string) {
  const result = await (
    await getDatabase()
  ).rpc<{ changed: boolean }>("operator_reset_wall", {
    p_operator_id: operator.uid,
    p_network: network.name,
    p_reason: reason,
  });
  forgetCurrentWalls();
  return result;
}

// ------------------------------------------------------------------------------------------------
// The test postback

export type TestPostbackResult =
  | { sent: true; status: number; body: string; accepted: boolean; email: string }
  | { sent: false; field?: "email"; message: string; alreadySent?: boolean };

/**
 * Sends the network's own postback for one account, signed as the network signs it (its
 * simulatedPostback, as `npm run walls -- simulate` does), to this server over loopback: the wall's
 * settings and the app are proved end to end, and the credit goes to the account named, once per
 * form (its transaction id). The audit entry is written before it is sent.
 */
export async function sendTestPostback(
  operator: Operator,
  network: WallNetwork<unknown>,
  test: { email: string; coins: number; transactionId: string },
): Promise<TestPostbackResult> {
  const state = (await currentWallStates()).find((candidate) => candidate.network.name === network.name);
  if (!state?.wall) return { sent: false, message: WALL_FORM_MESSAGES.testWallOff };
  const db = await getDatabase();
  const accounts = await db.rpc<WallAccount[]>("accounts_by_email", { p_email: test.email });
  if (accounts.length === 0) return { sent: false, field: "email", message: WALL_FORM_MESSAGES.testNoAccount };
  if (accounts.length > 1) {
    return {
      sent: false,
      field: "email",
      message: `${accounts.length} accounts have this email: the test cannot tell which.`,
    };
  }
  const account = accounts[0]!;
  const own = ownAddress();
  if (!own) return { sent: false, message: WALL_FORM_MESSAGES.testFailed };
  const recorded = await db.rpc<{ recorded: boolean }>("operator_record_test_postback", {
    p_operator_id: operator.uid,
    p_network: network.name,
    p_user_id: account.user_id,
    p_transaction_id: test.transactionId,
    p_coins: test.coins,
  });
  if (!recorded.recorded) return { sent: false, message: WALL_FORM_MESSAGES.testAlreadySent, alreadySent: true };
  try {
    const result = await simulatePostback({
      wall: state.wall,
      account,
      kind: "credit",
      transactionId: test.transactionId,
      coins: test.coins,
      // The app checks signatures on its PUBLIC_URL when it has one, whatever address it is called at.
      appUrl: getEnv().publicUrl ?? own,
      targetUrl: own,
      offer: CONSOLE_TEST_OFFER,
      fromConsole: true,
    });
    return { sent: true, status: result.status, body: result.body, accepted: result.accepted, email: account.email };
  } catch (error) {
    if (!(error instanceof WallOperatorError)) throw error;
    console.error(`test postback of ${network.name}:`, error.message);
    return { sent: false, message: WALL_FORM_MESSAGES.testFailed };
  }
}
