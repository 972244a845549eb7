import { hasHiddenCharacters } from "~/domain/hidden-characters";
import { bulkApproveSchema, withdrawalActionSchema } from "~/domain/withdrawal-review-forms";
import { settingsFormSchema } from "~/routes/admin.settings/settings-form";
import { TWO_FACTOR_TEXTS } from "~/routes/admin_.2fa/texts";
import { twoFactorFormSchema } from "~/routes/admin_.2fa/two-factor-form";
import { personActionSchema } from "~/routes/admin.people_.$userId/person-forms";
import { ticketActionSchema } from "~/routes/admin.support_.$kind.$ticketId/ticket-forms";
import { WALL_FORM_MESSAGES } from "~/domain/operator-walls";
import { ruleMessage } from "~/domain/rules";
import { invalidSettingMessage, parseSettingInput, SETTINGS, type Setting } from "~/domain/settings";
import { WITHDRAWAL_MESSAGES } from "~/domain/withdrawal-review-forms";
import { CROSS_SITE_MESSAGE } from "~/server/http/same-origin.server";
import {
  entries,
  TEXTS,
  type Value,
  type Answer,
  type Case,
  FOREIGN,
  type FieldSpec,
  NUMBER_AND_TEXT,
  SETTINGS_VERSION,
  UNREADABLE,
  form,
  otherMethods,
  pageCases,
  splitBySchema,
  route,
  say,
  unreadableBodies,
  withHidden,
} from "./bad-input";
import { listText } from "~/domain/loop-settings";
import { parseCountries, parseDay, parseWhole, PROMO_CODE_MESSAGES } from "~/domain/promo-codes";
import { codesActionSchema } from "~/routes/admin.codes/codes-forms";
import { PRIZE_FORM_MESSAGES } from "~/domain/prizes";
import { prizeActionSchema } from "~/routes/admin.prizes/prize-forms";
import { DEFAULT_GOALS, DEFAULT_LEVELS } from "./loop-samples";

// The bad-input cases of the operator console (tests/http/bad-input-console.test.ts).

// The console's settings (docs/operator-console.md, "Settings"), posted by an owner. The form holds
// the demo settings the app starts with, so it is valid but for the one field each case spoils;
// nothing is ever saved (the ledger audit's fingerprint holds app_config and the audit log). One
// setting of each kind of value gets every bad value; the others a few.
const SETTINGS_FORM: Record<string, string> = {
  intent: "save-settings",
  coins_per_dollar: "100",
  checkin_coins: "10",
  checkin_streak_bonus_coins: "50",
  referral_reward: "5.00",
  referral_welcome_bonus: "1.00",
  referral_qualifying_coins: "100",
  referral_requires_earned: "no",
  min_withdrawal_paypal: "5.00",
  min_withdrawal_upi: "1.00",
  min_withdrawal_bank: "10.00",
  min_withdrawal_giftcard: "1.00",
  withdrawals_per_hour: "5",
  risk_review_threshold: "50",
  review_first_withdrawal: "no",
  network_review_flags: "",
  network_pause_flags: "",
  signin_code_default: "no",
  withdrawal_codes: "no",
  withdrawal_code_days: "30",
  postback_hold_days: "0",
  provider_hold_days: "",
  bonus_unlock_ratio: "",
  notice_delivery_attempts: "10",
  notice_delivery_window_hours: "72",
  notice_emails_per_address_per_day: "10",
  adjustment_approval_above: "50.00",
  adjustment_window_hours: "24",
  adjustment_operator_limit: "200.00",
  test_postbacks_per_wall_per_day: "5",
  policy_change_delay_hours: "24",
  levels_on: "yes",
  levels_monthly_cap: "500.00",
  levels: listText(DEFAULT_LEVELS),
  goals_on: "yes",
  goals_monthly_cap: "1000.00",
  daily_goals: listText(DEFAULT_GOALS),
  codes_on: "yes",
  codes_monthly_cap: "500.00",
  prizes_on: "yes",
  prizes_monthly_cap: "100.00",
  monthly_prizes: "2500, 1500, 1000, 700, 500, 400, 300, 250, 200, 200",
  reason: "Bad input",
  version: SETTINGS_VERSION,
};
const EVERY_BAD_VALUE = new Set([
  "checkin_coins",
  "min_withdrawal_upi",
  "bonus_unlock_ratio",
  "review_first_withdrawal",
  "provider_hold_days",
]);
const SOME_BAD_VALUES = new Set(["-1", "400 digits", "1e309 (past a double)", "markup (a script tag)"]);
const STALE_FORM = "This page is out of date. Please reload it and make your change again.";

function settingSpec(setting: Setting): FieldSpec {
  const every = EVERY_BAD_VALUE.has(setting.key);
  const outOfBounds: Value[] =
    "min" in setting
      ? [
          [
            "below its minimum",
            String(Math.round((setting.min - (setting.unit === "dollars" ? 0.01 : 1)) * 100) / 100),
          ],
          ["above its maximum", String(setting.max + 1)],
        ]
      : setting.unit === "json"
        ? [
            ["a network in capitals", '{"BitLabs": 14}'],
            ["a hold of 366 days", '{"bitlabs": 366}'],
            ["a JSON array", "[]"],
            ["JSON that does not parse", '{"bitlabs": 14'],
          ]
        : setting.unit === "levels" || setting.unit === "goals"
          ? [
              ["JSON that does not parse", "[{"],
              ["an empty list", "[]"],
              ["a JSON object", "{}"],
              ...(setting.unit === "levels"
                ? ([["a first level above 0 XP", JSON.stringify([{ ...DEFAULT_LEVELS[0], xp: 5 }])]] as Value[])
                : ([
                    [
                      "a goal of a kind the app does not have",
                      JSON.stringify([{ ...DEFAULT_GOALS[0], kind: "watch" }]),
                    ],
                  ] as Value[])),
            ]
          : setting.unit === "prizes"
            ? [
                ["a prize above the place before it", "100, 200"],
                ["a prize of 0 coins", "0"],
                ["a list with a gap", "2500,,1000"],
              ]
            : setting.unit === "flags"
              ? [
                  ["a flag in capitals", "VPN"],
                  ["a flag the provider does not have", "mobile"],
                ]
              : [
                  ["Yes", "Yes"],
                  ["true", "true"],
                ];
  const values = [
    ...(every ? NUMBER_AND_TEXT : NUMBER_AND_TEXT.filter(([label]) => SOME_BAD_VALUES.has(label))),
    ...outOfBounds,
  ];
  // An empty ratio or list of holds is a value (all bonus unlocked, no network holds).
  const canBeEmpty = parseSettingInput(setting, "") !== undefined;
  return {
    wrong: invalidSettingMessage(setting),
    // Checkboxes share their name: the same flag ticked twice is refused as a value.
    ...(setting.unit === "flags" ? { twice: { value: "vpn", answer: invalidSettingMessage(setting) } } : {}),
    blank: canBeEmpty || !every ? null : undefined,
    whitespace: canBeEmpty || !every ? null : undefined,
    oversized: every ? undefined : null,
    // Only what the setting refuses: "0" is a hold of no days.
    values: values.filter(([, value]) => parseSettingInput(setting, value) === undefined),
  };
}

const NOT_FOUND_PAGE = say("Oops! Page not found", 404);
const consoleSettings = route("admin.settings/route.tsx", "POST", "/admin/settings", "owner");
const consoleSettingsCases = pageCases(
  "admin.settings/route.tsx",
  "owner",
  [
    {
      name: "Save settings",
      path: "/admin/settings",
      valid: SETTINGS_FORM,
      fields: {
        ...Object.fromEntries(SETTINGS.map((setting) => [setting.key, settingSpec(setting)])),
        reason: {
          wrong: ruleMessage("invalid_reason"),
          blank: ruleMessage("reason_required"),
          // Any other text is a reason: only hidden characters and length are wrong.
          values: [
            ["of 501 characters", "r".repeat(501)],
            ...withHidden(
              [...entries(TEXTS).filter(([, value]) => hasHiddenCharacters(value)), ["with ESC[2K", "why\u001b[2K"]],
              ruleMessage("invalid_reason"),
            )!,
          ],
        },
        version: {
          wrong: STALE_FORM,
          values: [
            ...NUMBER_AND_TEXT,
            ["in capitals", "ABCDEF0123456789ABCDEF0123456789"],
            ["of 31 characters", "0".repeat(31)],
            // Well formed, but not the settings as they are: another owner saved since.
            ["of settings as they were before", "0".repeat(32), say(ruleMessage("settings_changed"), 409)],
          ],
        },
      },
    },
  ],
  {
    // Anyone but an owner gets the console's 404, whatever they post.
    schema: settingsFormSchema,
    signedOut: { path: "/admin/settings", answer: NOT_FOUND_PAGE },
    extra: [
      consoleSettings("a member's valid form", form(SETTINGS_FORM), NOT_FOUND_PAGE, { who: "member" }),
      consoleSettings(
        "a member's form with a bad value",
        form({ ...SETTINGS_FORM, checkin_coins: "-1" }),
        NOT_FOUND_PAGE,
        {
          who: "member",
        },
      ),
    ],
  },
);

// The operator console (docs/operator-console.md), as an owner signed in moments ago (no password
// needed). Anyone else gets the console's 404 for every URL. The withdrawal page's cases act on a
// withdrawal already paid, so a form that gets past its fields changes nothing (409); the list's
// bulk approval names withdrawals that do not exist.
export const PAID_WITHDRAWAL = "00000000-0000-4000-8000-00000000b4d1";
const ALREADY_PAID = say("This withdrawal is already paid: nothing changed.", 409);
const NO_SUCH_SELECTION = `select-00000000-0000-4000-8000-0000000000b1`;
const NOTHING_APPROVED: Answer = { redirect: "/admin/withdrawals", flash: "Nothing was approved" };
const consoleListCases = pageCases(
  "admin.withdrawals/route.tsx",
  "operator",
  [
    {
      name: "Approve selected",
      path: "/admin/withdrawals",
      valid: { intent: "approve-selected", [NO_SUCH_SELECTION]: "on", password: "" },
      fields: {
        [NO_SUCH_SELECTION]: {
          wrong: NOTHING_APPROVED,
          blank: say(WITHDRAWAL_MESSAGES.noneSelected),
          whitespace: NOTHING_APPROVED,
        },
        password: { wrong: NOTHING_APPROVED, blank: NOTHING_APPROVED },
      },
    },
  ],
  {
    schema: bulkApproveSchema,
    signedOut: { path: "/admin/withdrawals", answer: NOT_FOUND_PAGE },
    extra: [
      route(
        "admin.withdrawals/route.tsx",
        "POST",
        "/admin/withdrawals",
        "operator",
      )(
        "a selection that names no withdrawal id",
        form({ intent: "approve-selected", "select-7d1f0c9e": "on" }),
        UNREADABLE,
      ),
      route(
        "admin.withdrawals/route.tsx",
        "POST",
        "/admin/withdrawals",
        "operator",
      )(
        "51 withdrawals selected",
        {
          form: [
            ["intent", "approve-selected"],
            ...Array.from({ length: 51 }, (_, index): [string, string] => [
              `select-00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
              "on",
            ]),
          ],
        },
        say(WITHDRAWAL_MESSAGES.tooMany),
      ),
      route(
        "admin.withdrawals/route.tsx",
        "POST",
        "/admin/withdrawals",
        "member",
      )("a member's post", form({ intent: "approve-selected", [NO_SUCH_SELECTION]: "on" }), NOT_FOUND_PAGE),
    ],
  },
);
const paidPath = `/admin/withdrawals/${PAID_WITHDRAWAL}`;
const consoleWithdrawalCases = pageCases(
  "admin.withdrawals_.$withdrawalId/route.tsx",
  "operator",
  [
    {
      name: "Approve",
      path: paidPath,
      valid: { intent: "approve" },
      fields: { password: { wrong: ALREADY_PAID, blank: null } },
    },
    {
      name: "Refuse",
      path: paidPath,
      valid: { intent: "reject", reason: "Alias of a closed account" },
      fields: {
        reason: {
          wrong: ALREADY_PAID,
          blank: WITHDRAWAL_MESSAGES.reasonRequired,
          oversized: WITHDRAWAL_MESSAGES.reasonTooLong,
        },
      },
    },
    {
      name: "Mark paid",
      path: paidPath,
      valid: { intent: "mark-paid", reference: "UTR 4109" },
      fields: {
        reference: {
          wrong: ALREADY_PAID,
          blank: WITHDRAWAL_MESSAGES.referenceRequired,
          oversized: WITHDRAWAL_MESSAGES.referenceTooLong,
          values: NUMBER_AND_TEXT.map(([label, value]): [string, string, Answer] => [
            label,
            value,
            value.length > 200 ? say(WITHDRAWAL_MESSAGES.referenceTooLong) : ALREADY_PAID,
          ]),
        },
      },
    },
    {
      name: "Mark not paid",
      path: paidPath,
      valid: { intent: "mark-failed", reason: "UPI ID does not exist" },
      fields: {
        reason: {
          wrong: ALREADY_PAID,
          blank: WITHDRAWAL_MESSAGES.reasonRequired,
          oversized: WITHDRAWAL_MESSAGES.reasonTooLong,
        },
      },
    },
  ],
  {
    schema: withdrawalActionSchema,
    signedOut: { path: paidPath, answer: NOT_FOUND_PAGE },
    extra: [
      route(
        "admin.withdrawals_.$withdrawalId/route.tsx",
        "POST",
        "/admin/withdrawals/00000000-0000-4000-8000-00000000dead",
        "operator",
      )(
        "Approve a withdrawal that does not exist",
        form({ intent: "approve" }),
        say(ruleMessage("withdrawal_not_found"), 404),
      ),
      route(
        "admin.withdrawals_.$withdrawalId/route.tsx",
        "POST",
        "/admin/withdrawals/not-an-id",
        "operator",
      )(
        "Approve at an address that is no withdrawal id",
        form({ intent: "approve" }),
        say(ruleMessage("withdrawal_not_found"), 404),
      ),
      route(
        "admin.withdrawals_.$withdrawalId/route.tsx",
        "POST",
        paidPath,
        "member",
      )("a member's post", form({ intent: "approve" }), NOT_FOUND_PAGE),
    ],
  },
);
// A person's page, posted for an account that does not exist: each field's own check answers
// first, then "Account not found" (404) for a form that passes them, so nothing can change.
const NO_PERSON = "/admin/people/no-such-account";
const ACCOUNT_GONE = say(ruleMessage("account_not_found"), 404);
const REASON: FieldSpec = {
  wrong: ACCOUNT_GONE,
  blank: "Write the reason (it is kept in the audit log).",
  oversized: "The reason can be at most 500 characters.",
};
const consolePersonCases = pageCases(
  "admin.people_.$userId/route.tsx",
  "operator",
  [
    {
      name: "Adjust the balance",
      path: NO_PERSON,
      valid: { intent: "adjust", amount: "-2.50", kind: "bonus", reason: "Duplicate credit" },
      fields: {
        amount: {
          wrong: ruleMessage("invalid_adjustment"),
          values: [
            ...NUMBER_AND_TEXT.filter(([label]) => label !== "-1"),
            ["-1", "-1", ACCOUNT_GONE],
            ["with a dollar sign", "$5"],
          ],
        },
        kind: { wrong: ruleMessage("invalid_adjustment_kind"), values: [...NUMBER_AND_TEXT, ["EARNED", "EARNED"]] },
        reason: REASON,
      },
    },
    {
      name: "Decline an adjustment",
      path: NO_PERSON,
      valid: { intent: "decline-adjustment", adjustment: "1", reason: "No evidence" },
      fields: {
        adjustment: {
          wrong: "That adjustment is not waiting on this account.",
          values: NUMBER_AND_TEXT.map(([label, value]): [string, string, Answer] => [
            label,
            value,
            /^[1-9][0-9]{0,17}$/.test(value) ? ACCOUNT_GONE : say("That adjustment is not waiting on this account."),
          ]),
        },
        reason: REASON,
      },
    },
    {
      name: "Pause cash-outs",
      path: NO_PERSON,
      valid: { intent: "pause", reason: "Checking" },
      fields: { reason: REASON },
    },
    {
      name: "Close the account",
      path: NO_PERSON,
      valid: { intent: "ban", reason: "Alias farm" },
      fields: { reason: REASON },
    },
    {
      name: "Add a note",
      path: NO_PERSON,
      valid: { intent: "note", note: "Called" },
      fields: {
        note: { wrong: ACCOUNT_GONE, blank: "Write the note.", oversized: "A note can be at most 500 characters." },
      },
    },
  ],
  {
    schema: personActionSchema,
    signedOut: { path: NO_PERSON, answer: NOT_FOUND_PAGE },
    extra: [
      route(
        "admin.people_.$userId/route.tsx",
        "POST",
        "/admin/people/bad%20id%3Cx%3E",
        "operator",
      )("a note at an address that is no account id", form({ intent: "note", note: "Called" }), ACCOUNT_GONE),
      route(
        "admin.people_.$userId/route.tsx",
        "POST",
        NO_PERSON,
        "member",
      )("a member's post", form({ intent: "note", note: "hi" }), NOT_FOUND_PAGE),
    ],
  },
);

// A support ticket that does not exist: each field's own check answers first, then "Ticket not
// found" (404), so nothing is written.
const NO_TICKET = "/admin/support/feedback/999999999";
const TICKET_GONE = say(ruleMessage("ticket_not_found"), 404);
const ticketBody: FieldSpec = {
  wrong: TICKET_GONE,
  blank: "Write the message.",
  oversized: "A message can be at most 2,000 characters.",
};
const consoleTicketCases = pageCases(
  "admin.support_.$kind.$ticketId/route.tsx",
  "operator",
  [
    { name: "Reply", path: NO_TICKET, valid: { intent: "reply", body: "Hello" }, fields: { body: ticketBody } },
    { name: "Note", path: NO_TICKET, valid: { intent: "note", body: "Checked" }, fields: { body: ticketBody } },
    {
      name: "Status",
      path: NO_TICKET,
      valid: { intent: "status", status: "resolved" },
      fields: {
        status: {
          wrong: "Choose open, waiting or resolved.",
          values: [...NUMBER_AND_TEXT, ["closed", "closed"], ["RESOLVED", "RESOLVED"]],
        },
      },
    },
    {
      name: "Assign",
      path: NO_TICKET,
      valid: { intent: "assign", to: "me" },
      fields: { to: { wrong: "Take the ticket or hand it back.", values: [...NUMBER_AND_TEXT, ["ME", "ME"]] } },
    },
    {
      name: "Credit the offer",
      path: "/admin/support/missing-credit/999999999",
      valid: { intent: "credit", coins: "120", reason: "Confirmed" },
      fields: {
        coins: {
          wrong: "Enter the credit in whole coins, more than zero, such as 400",
          values: [...NUMBER_AND_TEXT, ["a negative", "-120"], ["dollars", "1.20"], ["8 digits", "12345678"]],
        },
        reason: {
          wrong: TICKET_GONE,
          blank: "Write the reason (it is kept in the audit log).",
          oversized: "The reason can be at most 500 characters.",
        },
      },
    },
  ],
  {
    schema: ticketActionSchema,
    signedOut: { path: NO_TICKET, answer: NOT_FOUND_PAGE },
    extra: [
      route(
        "admin.support_.$kind.$ticketId/route.tsx",
        "POST",
        "/admin/support/other/1",
        "operator",
      )("a reply to a kind of ticket there is none of", form({ intent: "reply", body: "Hello" }), TICKET_GONE),
      route(
        "admin.support_.$kind.$ticketId/route.tsx",
        "POST",
        NO_TICKET,
        "member",
      )("a member's post", form({ intent: "reply", body: "hi" }), NOT_FOUND_PAGE),
      // An appeal's reasons (docs/decisions/090) on a ticket that does not exist, or on a report.
      ...([...NUMBER_AND_TEXT, ["blank", ""], ["a real reason code", "new_account"]] as [string, string][]).map(
        ([what, value]) =>
          route(
            "admin.support_.$kind.$ticketId/route.tsx",
            "POST",
            NO_TICKET,
            "operator",
          )(`reasons to share: ${what}`, form({ intent: "show-reasons", reasons: value }), TICKET_GONE),
      ),
      route(
        "admin.support_.$kind.$ticketId/route.tsx",
        "POST",
        "/admin/support/missing-credit/999999999",
        "operator",
      )(
        "reasons to share on a missing-credit report",
        form({ intent: "show-reasons", reasons: "new_account" }),
        TICKET_GONE,
      ),
    ],
  },
);

const CSV: Answer = { status: 200, contentType: "text/csv" };
const exportCsv = route("admin.withdrawals[.csv].ts", "POST", "/admin/withdrawals.csv", "operator");
const consoleExportCases: Case[] = [
  ...unreadableBodies([["intent", "export"]], CSV, CSV).map(([what, body]) => exportCsv(what, body, CSV)),
  ...NUMBER_AND_TEXT.map(([label, value]) => exportCsv(`a field ${label}`, form({ intent: value }), CSV)),
  ...otherMethods("admin.withdrawals[.csv].ts", "/admin/withdrawals.csv", "POST", "operator"),
  ...entries(TEXTS).map(([label, value]) =>
    exportCsv(`a query ${label}`, form({}), CSV, { path: `/admin/withdrawals.csv?view=${encodeURIComponent(value)}` }),
  ),
  { ...exportCsv("posted from another site", form({}), say(CROSS_SITE_MESSAGE, 403)), headers: FOREIGN },
  ...(["visitor", "forged", "member"] as const).flatMap((who) =>
    unreadableBodies([["intent", "export"]], say("Not Found", 404), say("Not Found", 404))
      .slice(0, 4)
      .map(([what, body]) =>
        route(
          "admin.withdrawals[.csv].ts",
          "POST",
          "/admin/withdrawals.csv",
          who,
        )(`${who}: ${what}`, body, say("Not Found", 404)),
      ),
  ),
];

// Pages without an action: a form posted to them is answered by the page, not by a crash.// A wall's page in the operator console (docs/operator-console.md, "Walls"): an owner's three
// forms, each refused on the field it blames before any password or database; everyone else gets
// the app's 404 page. No case saves, resets or sends anything.
const WALL_PAGE = "/admin/walls/bitlabs";
const hiddenOnly = (answer: string) =>
  withHidden(
    entries(TEXTS).filter(([, value]) => hasHiddenCharacters(value)),
    answer,
  )!;
const wallReason: FieldSpec = {
  wrong: WALL_FORM_MESSAGES.reason,
  blank: WALL_FORM_MESSAGES.reasonMissing,
  values: [...hiddenOnly(WALL_FORM_MESSAGES.reason), ["of 501 characters", "r".repeat(501)]],
};
const NOT_AN_ADDRESS = "Not an IP address:";
const wallCases = pageCases(
  "admin.walls_.$network/route.tsx",
  "owner",
  [
    {
      name: "save a wall",
      path: WALL_PAGE,
      valid: {
        intent: "save",
        enabled: "off",
        holdDays: "3",
        allowedAddresses: "any",
        setting_APP_TOKEN: "bitlabs-token",
        reason: "Checking bad input",
      },
      fields: {
        enabled: { wrong: WALL_FORM_MESSAGES.enabled },
        // Blank is the environment's: only wrong values are sent (0 days is a hold).
        holdDays: {
          wrong: WALL_FORM_MESSAGES.holdDays,
          blank: null,
          values: NUMBER_AND_TEXT.filter(([, value]) => value !== "0"),
        },
        allowedAddresses: {
          wrong: NOT_AN_ADDRESS,
          blank: null,
          oversized: WALL_FORM_MESSAGES.allowedAddresses,
          values: withHidden(NUMBER_AND_TEXT, WALL_FORM_MESSAGES.allowedAddresses),
        },
        setting_APP_TOKEN: {
          wrong: WALL_FORM_MESSAGES.setting,
          blank: null,
          values: [...hiddenOnly(WALL_FORM_MESSAGES.setting), ["of 501 characters", "t".repeat(501)]],
        },
        reason: wallReason,
      },
    },
    {
      name: "reset to the environment",
      path: WALL_PAGE,
      valid: { intent: "reset", reason: "Checking bad input" },
      fields: { reason: wallReason },
    },
    {
      name: "send a test postback",
      path: WALL_PAGE,
      valid: {
        intent: "test-postback",
        email: "someone@example.com",
        coins: "5",
        transaction: "sim-00000000-0000-4000-8000-000000000000",
      },
      fields: {
        email: { wrong: WALL_FORM_MESSAGES.testEmail },
        coins: { wrong: WALL_FORM_MESSAGES.testCoins, values: [...NUMBER_AND_TEXT, ["1,001", "1001"]] },
        transaction: { wrong: WALL_FORM_MESSAGES.testStale },
      },
    },
  ],
  {
    signedOut: { path: WALL_PAGE, answer: NOT_FOUND_PAGE },
    extra: [
      // A member, and a network the app does not know: the 404 page, whatever is sent.
      ...[
        form({ intent: "save", enabled: "on", setting_APP_SECRET: "s3cret-of-a-member", reason: "x" }),
        form({ intent: "reset", reason: "x" }),
        form({ intent: "test-postback", email: "someone@example.com", coins: "5" }),
      ].map((body, i) =>
        route(
          "admin.walls_.$network/route.tsx",
          "POST",
          WALL_PAGE,
          "member",
        )(`a member's form ${i + 1}`, body, NOT_FOUND_PAGE),
      ),
      ...["nosuch", "BITLABS", "%3Cscript%3E"].map((name) =>
        route(
          "admin.walls_.$network/route.tsx",
          "POST",
          `/admin/walls/${name}`,
          "owner",
        )(`a network named ${name}`, form({ intent: "reset", reason: "x" }), NOT_FOUND_PAGE),
      ),
    ],
  },
);

// The authenticator page (docs/decisions/093): a wrong code is refused on its field. Few of them:
// each code checked counts against the operator's ten tries in 15 minutes.
const twoFactorCases = pageCases(
  "admin_.2fa/route.tsx",
  "operator",
  [
    {
      name: "Authenticator code",
      path: "/admin/2fa",
      valid: { intent: "totp-code", code: "000000" },
      fields: {
        code: {
          wrong: TWO_FACTOR_TEXTS.wrongCode,
          values: [
            ["letters", "abcdef"],
            ["seven digits", "1234567"],
          ],
        },
      },
    },
  ],
  { schema: twoFactorFormSchema, signedOut: { path: "/admin/2fa", answer: NOT_FOUND_PAGE } },
);

// Promo codes (docs/decisions/095): every swept value is one the page refuses before the database
// is asked, so no code is ever made; ending a code that does not exist is refused by the database.
const refusedBy = (accepts: (value: string) => boolean) => NUMBER_AND_TEXT.filter(([, value]) => !accepts(value));
const codesCases = pageCases(
  "admin.codes/route.tsx",
  "operator",
  [
    {
      name: "Make a code",
      path: "/admin/codes",
      valid: {
        intent: "create-code",
        code: "BADINPUT1",
        coins: "50",
        uses: "10",
        starts: "2026-01-01",
        ends: "2099-12-31",
        countries: "",
        reason: "Campaign",
      },
      fields: {
        code: {
          wrong: PROMO_CODE_MESSAGES.code,
          values: [
            ["three letters", "ABC"],
            ["a space", "AB CD"],
            ["a dash", "AB-CD"],
            ["21 characters", "A".repeat(21)],
            ["accents", "ÉCOLE"],
            ...refusedBy((value) => /^[A-Za-z0-9]{4,20}$/.test(value.trim())),
          ],
        },
        coins: {
          wrong: PROMO_CODE_MESSAGES.coins,
          values: refusedBy((value) => parseWhole(value, 1, 100_000) !== null),
        },
        uses: {
          wrong: PROMO_CODE_MESSAGES.uses,
          values: refusedBy((value) => parseWhole(value, 1, 1_000_000) !== null),
        },
        starts: {
          wrong: PROMO_CODE_MESSAGES.date,
          values: [["February 30", "2026-02-30"], ...refusedBy((value) => parseDay(value) !== null)],
        },
        ends: {
          wrong: PROMO_CODE_MESSAGES.date,
          values: [
            ["a day in the past", "2020-01-01", say(PROMO_CODE_MESSAGES.ends)],
            ...refusedBy((value) => parseDay(value) !== null),
          ],
        },
        // Empty is every country.
        countries: {
          wrong: PROMO_CODE_MESSAGES.countries,
          blank: null,
          whitespace: null,
          values: [
            ["three letters", "IND"],
            ["one twice", "IN, IN"],
            ...refusedBy((value) => parseCountries(value) !== null),
          ],
        },
        reason: { wrong: PROMO_CODE_MESSAGES.reason, oversized: PROMO_CODE_MESSAGES.reasonTooLong, values: [] },
      },
    },
    {
      name: "End a code",
      path: "/admin/codes",
      valid: { intent: "disable-code", codeId: "999999999", reason: "Ended early" },
      fields: {
        codeId: {
          wrong: PROMO_CODE_MESSAGES.codeNotFound,
          values: NUMBER_AND_TEXT.map(([label, value]): [string, string, Answer] => [
            label,
            value,
            say(PROMO_CODE_MESSAGES.codeNotFound),
          ]),
        },
        reason: {
          wrong: PROMO_CODE_MESSAGES.codeNotFound,
          oversized: PROMO_CODE_MESSAGES.reasonTooLong,
          blank: PROMO_CODE_MESSAGES.reason,
          // The database reads the reason first: a hidden character is refused before the code is looked for.
          values: withHidden(NUMBER_AND_TEXT, ruleMessage("invalid_reason")),
        },
      },
    },
  ],
  { schema: codesActionSchema, signedOut: { path: "/admin/codes", answer: NOT_FOUND_PAGE } },
);

// A held prize's decision (docs/decisions/097): a month or place the page cannot read is refused
// before the database is asked; a readable one that was never held is refused by the database.
const prizeDecision = (intent: "pay-prize" | "refuse-prize", name: string) => ({
  name,
  path: "/admin/prizes",
  valid: { intent, month: "2019-01-01", place: "1", reason: "Checked with the network" },
  fields: {
    month: {
      wrong: PRIZE_FORM_MESSAGES.notFound,
      values: [
        ["a day other than the 1st", "2019-01-02"],
        ["month 13", "2019-13-01"],
        ...NUMBER_AND_TEXT.map(([label, value]): [string, string, Answer] => [
          label,
          value,
          say(PRIZE_FORM_MESSAGES.notFound),
        ]),
      ] as Value[],
    },
    place: {
      wrong: PRIZE_FORM_MESSAGES.notFound,
      values: [
        ["place 0", "0"],
        ["place 21", "21"],
        ["a leading zero", "01"],
        ...NUMBER_AND_TEXT.filter(([, value]) => !/^([1-9]|1[0-9]|20)$/.test(value)),
      ] as Value[],
    },
    reason: {
      wrong: ruleMessage("prize_award_not_found"),
      oversized: PRIZE_FORM_MESSAGES.reasonTooLong,
      blank: PRIZE_FORM_MESSAGES.reason,
      values: withHidden(NUMBER_AND_TEXT, ruleMessage("invalid_reason")),
    },
  },
});
const prizeCases = pageCases(
  "admin.prizes/route.tsx",
  "operator",
  [prizeDecision("pay-prize", "Pay a held prize"), prizeDecision("refuse-prize", "Refuse a held prize")],
  { schema: prizeActionSchema, signedOut: { path: "/admin/prizes", answer: NOT_FOUND_PAGE } },
);

const ALL_CONSOLE_CASES: Case[] = [
  ...codesCases,
  ...prizeCases,
  ...consoleSettingsCases,
  ...consoleListCases,
  ...consoleWithdrawalCases,
  ...consoleExportCases,
  ...consolePersonCases,
  ...consoleTicketCases,
  ...wallCases,
  ...twoFactorCases,
];

/** Sent over HTTP (tests/http/bad-input-console.test.ts), and checked against the console's schemas (tests/unit/form-schemas.test.ts). */
export const { overHttp: CONSOLE_CASES, bySchema: CONSOLE_SCHEMA_CASES } = splitBySchema(ALL_CONSOLE_CASES);
