// The console's settings form (docs/operator-console.md, "Settings"), checked by the server: every
// setting of app/domain/settings.ts by its own unit and bounds, the reason, and the version of the
// settings the form was shown with. The database checks all of it again (operator_set_settings).
import { array, coerce, int, literal, object, optional, pipe, regex, string, transform, union } from "zod/mini";
import { stepUp } from "~/domain/form-fields";
import { hasHiddenCharacters } from "~/domain/hidden-characters";
import { ruleMessage } from "~/domain/rules";
import {
  invalidSettingMessage,
  parseSettingInput,
  SAVE_SETTINGS_INTENT,
  SETTINGS,
  type Setting,
  type SettingKey,
  type SettingValue,
} from "~/domain/settings";

// operator_reason's limit.
const REASON_MAX_LENGTH = 500;
const STALE_FORM = "This page is out of date. Please reload it and make your change again.";

function settingField(setting: Setting) {
  return pipe(
    // The flags are checkboxes: one value per ticked box. Every other field sends one value.
    optional(setting.unit === "flags" ? union([string(), array(string())]) : string()),
    transform((input, ctx): SettingValue => {
      const value = parseSettingInput(setting, input);
      if (value === undefined) ctx.issues.push({ code: "custom", message: invalidSettingMessage(setting), input });
      return value ?? null;
    }),
  );
}

const reason = pipe(
  optional(string()),
  transform((input, ctx) => {
    const text = (input ?? "").trim();
    if (text === "") ctx.issues.push({ code: "custom", message: ruleMessage("reason_required"), input });
    else if (text.length > REASON_MAX_LENGTH || hasHiddenCharacters(text)) {
      ctx.issues.push({ code: "custom", message: ruleMessage("invalid_reason"), input });
    }
    return text;
  }),
);

const settingFields = Object.fromEntries(SETTINGS.map((setting) => [setting.key, settingField(setting)])) as Record<
  SettingKey,
  ReturnType<typeof settingField>
>;

/** The settings posted as checkboxes, one value per ticked box. */
export const FLAG_SETTINGS: ReadonlySet<string> = new Set(
  SETTINGS.filter((setting) => setting.unit === "flags").map((setting) => setting.key),
);

export const settingsFormSchema = object({
  intent: literal(SAVE_SETTINGS_INTENT),
  ...settingFields,
  reason,
  /** Asked for while the sign-in is older than 15 minutes; checked as typed. */
  ...stepUp,
  version: string(STALE_FORM).check(regex(/^[0-9a-f]{32}$/, STALE_FORM)),
});

export const APPROVE_CHANGE_INTENT = "approve-change";
export const WITHDRAW_CHANGE_INTENT = "withdraw-change";

/** Approving or withdrawing a change that waits for a second owner: which one, and the password when asked. */
export const settingChangeDecisionSchema = object({
  intent: union([literal(APPROVE_CHANGE_INTENT), literal(WITHDRAW_CHANGE_INTENT)]),
  change: coerce.number().check(int()),
  ...stepUp,
});
