// A wall's page in the operator console (docs/operator-console.md, "Walls"): the owner's three
// forms, checked by the server (the page posts plain HTML, with or without JavaScript). The save
// form's fields depend on the network: one per setting it has (settingField), and for each secret
// set in the console a box that gives it back to the environment (clearField).
import {
  discriminatedUnion,
  enum as oneOf,
  literal,
  object,
  optional,
  pipe,
  string,
  transform,
  type ZodMiniType,
} from "zod/mini";
import { stepUp } from "~/domain/form-fields";
import { isEmailAddress } from "~/domain/email";
import { hasHiddenCharacters } from "~/domain/hidden-characters";
import {
  clearField,
  HELD_POSTBACK_MESSAGES as H,
  settingField,
  TEST_POSTBACK_MAX_COINS,
  WALL_FORM_MESSAGES as M,
} from "~/domain/operator-walls";

/** Text as typed, its ends trimmed; blank (or only spaces) is undefined. */
const trimmed = (message: string) =>
  pipe(
    optional(string(message)),
    transform((value) => value?.trim() || undefined),
  );

/** Optional text of at most `max` characters without hidden characters. */
const plainText = (max: number, message: string) =>
  pipe(
    trimmed(message),
    transform((value, ctx) => {
      if (value !== undefined && (value.length > max || hasHiddenCharacters(value))) {
        ctx.issues.push({ code: "custom", message, input: value });
      }
      return value;
    }),
  );

const reason = pipe(
  trimmed(M.reasonMissing),
  transform((value, ctx) => {
    if (value === undefined) ctx.issues.push({ code: "custom", message: M.reasonMissing, input: value });
    else if (value.length > 500 || hasHiddenCharacters(value)) {
      ctx.issues.push({ code: "custom", message: M.reason, input: value });
    }
    return value ?? "";
  }),
);

const holdDays = pipe(
  trimmed(M.holdDays),
  transform((value, ctx) => {
    if (value === undefined) return undefined;
    if (!/^[0-9]{1,3}$/.test(value) || Number(value) > 365) {
      ctx.issues.push({ code: "custom", message: M.holdDays, input: value });
      return undefined;
    }
    return Number(value);
  }),
);

/** The network's settings as the save form names them. */
export interface FormSetting {
  suffix: string;
  secret: boolean;
}

function saveForm(settings: readonly FormSetting[]) {
  const shape: Record<string, ZodMiniType> = {
    intent: literal("save"),
    enabled: oneOf(["environment", "on", "off"], M.enabled),
    holdDays,
    allowedAddresses: plainText(2_000, M.allowedAddresses),
    reason,
    ...stepUp,
  };
  for (const setting of settings) {
    shape[settingField(setting.suffix)] = plainText(500, M.setting);
    if (setting.secret) shape[clearField(setting.suffix)] = optional(literal("on", M.setting));
  }
  return object(shape);
}

const resetForm = object({ intent: literal("reset"), reason, ...stepUp });

const testPostbackForm = object({
  intent: literal("test-postback"),
  ...stepUp,
  email: pipe(
    trimmed(M.testEmail),
    transform((value, ctx) => {
      if (value === undefined || !isEmailAddress(value)) {
        ctx.issues.push({ code: "custom", message: M.testEmail, input: value });
      }
      return value ?? "";
    }),
  ),
  coins: pipe(
    trimmed(M.testCoins),
    transform((value, ctx) => {
      const coins = value !== undefined && /^[0-9]{1,4}$/.test(value) ? Number(value) : 0;
      if (coins < 1 || coins > TEST_POSTBACK_MAX_COINS) {
        ctx.issues.push({ code: "custom", message: M.testCoins, input: value });
      }
      return coins;
    }),
  ),
  // Made by the page when it is drawn: the form's idempotency key (sent twice, it pays once).
  transaction: pipe(
    trimmed(M.testStale),
    transform((value, ctx) => {
      if (value === undefined || !TEST_TRANSACTION.test(value)) {
        ctx.issues.push({ code: "custom", message: M.testStale, input: value });
      }
      return value ?? "";
    }),
  ),
});

/** An operator's decision on a held postback (finance and owners): its id, approve or reject, and why. */
const heldForm = object({
  intent: literal("held"),
  held: pipe(
    trimmed(H.stale),
    transform((value, ctx) => {
      if (value === undefined || !/^[1-9][0-9]{0,17}$/.test(value)) {
        ctx.issues.push({ code: "custom", message: H.stale, input: value });
        return 0;
      }
      return Number(value);
    }),
  ),
  decision: oneOf(["approve", "reject"], H.decision),
  reason,
  ...stepUp,
});

/** A test postback's transaction id, as the page makes it: sim- and a random UUID. */
export const TEST_TRANSACTION = /^sim-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every form of a wall's page, told apart by `intent`. */
export function wallFormSchema(settings: readonly FormSetting[]) {
  return discriminatedUnion("intent", [saveForm(settings), resetForm, testPostbackForm, heldForm]);
}
