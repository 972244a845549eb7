import { INR_RATE_MAX_AGE_MS } from "~/domain/rupees";
import { roleAtLeast, signedInRecently } from "~/domain/operator-roles";
import { isSettingKey, settingOf, SETTINGS, type SettingValues } from "~/domain/settings";
import { formatTimestamp } from "~/domain/dates";
import type { Flash } from "~/domain/flash";
import { ruleMessage } from "~/domain/rules";
import { requireOperator, type Operator } from "~/server/operator/access.server";
import { auditRefusal } from "~/server/operator/refusals.server";
import { confirmRecentSignIn } from "~/server/operator/recent-sign-in.server";
import {
  decideSettingChange,
  refusedSetting,
  saveSettings,
  type SavedSettings,
  settingChangesCall,
  settingChangesPage,
  settingsCall,
} from "~/server/operator/settings.server";
import { readTogether } from "~/server/db/reads.server";
import { ruleViolation } from "~/server/db/core.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { bannerErrors, parsedOrThrown, readFormData, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import {
  APPROVE_CHANGE_INTENT,
  FLAG_SETTINGS,
  settingChangeDecisionSchema,
  settingsFormSchema,
  WITHDRAW_CHANGE_INTENT,
} from "./settings-form";

const SETTINGS_PAGE = "/admin/settings";
// A change's id as a page's `before` carries it: a positive whole number (a bigint in SQL).
const CHANGE_ID = /^[1-9][0-9]{0,17}$/;
// The fields the page shows; a message for any other (the version, the intent) goes on the banner.
const SHOWN_FIELDS = [...SETTINGS.map((setting) => setting.key), "reason"];

/**
 * The settings page (docs/operator-console.md, "Settings"): every setting with its value, and the
 * changes made to them, newest first, paged by URL (`?before=<id>`). Every role reads it; only an
 * owner's page has a form that can be sent.
 */
export async function loadSettingsPage(request: Request) {
  const operator = await requireOperator(request, "support");
  const requested = new URL(request.url).searchParams.get("before");
  // A `before` that is no change id (edited by hand) shows the newest page rather than an error.
  const before = requested !== null && CHANGE_ID.test(requested) ? Number(requested) : null;
  const [settingsRead, changesRead] = readTogether([
    settingsCall(operator.uid),
    settingChangesCall(operator.uid, before),
  ]);
  const [stored, changes] = await Promise.all([settingsRead, changesRead]);
  const values = Object.fromEntries(SETTINGS.map(({ key }) => [key, stored.settings[key]])) as SettingValues;
  const rateSetAt = stored.settings.usd_inr_rate_set_at;
  return {
    values,
    // The rupee rate's date (docs/decisions/087), shown beside it, and whether it is too old to be used.
    inrRateSet:
      typeof rateSetAt === "string"
        ? { at: rateSetAt, stale: Date.now() - Date.parse(rateSetAt) > INR_RATE_MAX_AGE_MS }
        : null,
    version: stored.version,
    waiting: stored.waiting,
    viewerId: operator.uid,
    canChange: roleAtLeast(operator.role, "owner"),
    needsPassword: roleAtLeast(operator.role, "owner") && !signedInRecently(operator.authTime),
    ...settingChangesPage(changes),
    paged: before !== null,
  };
}

/** Saves the form, or approves or withdraws a waiting change (owners only: anyone else gets the console's 404). */
export async function settingsAction(request: Request) {
  const operator = await requireOperator(request, "owner");
  // Read once, within the app's limits; the intent says which form it is.
  const fields = await readFormData(request);
  const intent = fields.get("intent");
  if (intent === APPROVE_CHANGE_INTENT || intent === WITHDRAW_CHANGE_INTENT) {
    return decideChange(request, operator, fields);
  }
  const submission = parsedOrThrown(fields, settingsFormSchema, FLAG_SETTINGS);
  if (submission.status !== "success") {
    return rejectForm(submission, { formErrors: bannerErrors(submission, SHOWN_FIELDS) });
  }
  const { intent: _intent, reason, version, password, totpCode, ...values } = submission.value;
  // Checked after the values, so a wrong value costs no password attempt; what was typed comes back.
  const signIn = await confirmRecentSignIn(request, operator, { password, totpCode });
  if (!signIn.ok) return rejectForm(submission, { fieldErrors: { password: [signIn.problem] } }, signIn.status);
  const renewed: HeadersInit = signIn.setCookie ? { "Set-Cookie": signIn.setCookie } : {};
  try {
    const saved = await saveSettings(operator, { values: values as Partial<SettingValues>, reason, version });
    return redirectWithFlash(SETTINGS_PAGE, savedFlash(saved), renewed);
  } catch (error) {
    // Another owner saved in between: nothing changed; the page shows the values as they are now.
    if (ruleViolation(error)?.rule === "settings_changed") {
      return rejectForm(submission, { formErrors: [ruleViolation(error)!.message] }, 409);
    }
    const setting = refusedSetting(error);
    return replyWithDbError(submission, error, {
      fields: { reason_required: "reason", invalid_reason: "reason", ...(setting ? { invalid_setting: setting } : {}) },
      fallback: "The settings could not be saved. Please try again.",
      context: "console settings",
    });
  }
}

/** What a save did: changed now, waiting for a second owner, or nothing. */
function savedFlash(saved: SavedSettings): Flash {
  const waiting = saved.waiting ? Object.keys(saved.waiting.settings) : [];
  const labels = (keys: readonly string[]) =>
    keys.map((key) => (isSettingKey(key) ? settingOf(key).label : key)).join(", ");
  if (saved.changed.length === 0 && waiting.length === 0) return { kind: "info", title: "Nothing changed" };
  const waitingWords = waiting.length
    ? `Waiting for a second owner: ${labels(waiting)}${
        saved.waiting?.apply_after
          ? ` (you are the only owner: you can apply it after ${formatTimestamp(saved.waiting.apply_after)})`
          : ""
      }.`
    : "";
  if (saved.changed.length === 0)
    return { kind: "info", title: "Your change waits for a second owner", description: waitingWords };
  return {
    kind: "success",
    title: `Settings saved: ${saved.changed.length} changed`,
    description: [labels(saved.changed.map(({ setting }) => setting)), waitingWords].filter(Boolean).join(". "),
  };
}

/** Approve or withdraw a waiting change: an old session needs the password, as a save does. */
async function decideChange(request: Request, operator: Operator, fields: FormData) {
  const submission = parsedOrThrown(fields, settingChangeDecisionSchema);
  if (submission.status !== "success") {
    return rejectForm(submission, { formErrors: [ruleMessage("setting_change_not_found")] }, 400);
  }
  const { intent, change, password, totpCode } = submission.value;
  const signIn = await confirmRecentSignIn(request, operator, { password, totpCode });
  if (!signIn.ok) return rejectForm(submission, { fieldErrors: { password: [signIn.problem] } }, signIn.status);
  const renewed: HeadersInit = signIn.setCookie ? { "Set-Cookie": signIn.setCookie } : {};
  try {
    const approve = intent === APPROVE_CHANGE_INTENT;
    const result = await decideSettingChange(operator, change, approve);
    const flash: Flash = !result.changed
      ? { kind: "info", title: `Nothing changed: that change was already ${result.state}` }
      : approve
        ? { kind: "success", title: "Change approved and applied" }
        : { kind: "success", title: "Change withdrawn" };
    return redirectWithFlash(SETTINGS_PAGE, flash, renewed);
  } catch (error) {
    await auditRefusal(operator, intent, error, { recordKind: "setting", recordId: String(change) });
    return replyWithDbError(submission, error, {
      fallback: "The change could not be decided. Please try again.",
      context: "console setting change",
    });
  }
}
