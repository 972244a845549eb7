import { roleAtLeast, signedInRecently } from "~/domain/operator-roles";
import { settingOf, SETTINGS, type SettingValues } from "~/domain/settings";
import { requireOperator } from "~/server/admin/access.server";
import { confirmRecentSignIn } from "~/server/admin/recent-sign-in.server";
import {
  refusedSetting,
  saveSettings,
  settingChangesCall,
  settingChangesPage,
  settingsCall,
} from "~/server/admin/settings.server";
import { readTogether } from "~/server/db/reads.server";
import { ruleViolation } from "~/server/db/core.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { bannerErrors, parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import { settingsFormSchema } from "./settings-form";

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
  return {
    values,
    version: stored.version,
    canChange: roleAtLeast(operator.role, "owner"),
    needsPassword: roleAtLeast(operator.role, "owner") && !signedInRecently(operator.authTime),
    ...settingChangesPage(changes),
    paged: before !== null,
  };
}

/** Saves the form (owners only: anyone else gets the console's 404), then back to the page with what changed. */
export async function settingsAction(request: Request) {
  const operator = await requireOperator(request, "owner");
  const submission = await parseForm(request, settingsFormSchema);
  if (submission.status !== "success") {
    return rejectForm(submission, { formErrors: bannerErrors(submission, SHOWN_FIELDS) });
  }
  const { intent: _intent, reason, version, password, ...values } = submission.value;
  // Checked after the values, so a wrong value costs no password attempt; what was typed comes back.
  const signIn = await confirmRecentSignIn(request, operator, password || null);
  if (!signIn.ok) return rejectForm(submission, { fieldErrors: { password: [signIn.problem] } }, signIn.status);
  const renewed: HeadersInit = signIn.setCookie ? { "Set-Cookie": signIn.setCookie } : {};
  try {
    const saved = await saveSettings(operator, { values: values as Partial<SettingValues>, reason, version });
    if (saved.changed.length === 0) {
      return redirectWithFlash(SETTINGS_PAGE, { kind: "info", title: "Nothing changed" }, renewed);
    }
    return redirectWithFlash(
      SETTINGS_PAGE,
      {
        kind: "success",
        title: `Settings saved: ${saved.changed.length} changed`,
        description: saved.changed.map(({ setting }) => settingOf(setting).label).join(", "),
      },
      renewed,
    );
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
