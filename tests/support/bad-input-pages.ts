import { AUTH_MESSAGES } from "~/domain/auth";
import { END_SESSIONS_TEXTS } from "~/domain/email-codes";
import { onboardingFormSchema } from "~/domain/onboarding";
import { authFormSchema } from "~/domain/auth-form";
import { earnFormSchema } from "~/routes/earn/earn-forms";
import { claimLevelFormSchema, PROMO_CODE_FORMAT } from "~/domain/reward-forms";
import { homeFormSchema } from "~/routes/_index/home-forms";
import { MISSING_CREDIT_MESSAGES, missingCreditFormSchema } from "~/routes/earn_.offers/missing-credit-form";
import { profileFormSchema } from "~/routes/profile/profile-forms";
import { settingsFormSchema } from "~/routes/settings/settings-forms";
import { withdrawFormsSchema } from "~/routes/withdraw/withdrawal-form";
import { hasHiddenCharacters } from "~/domain/hidden-characters";
import { ruleMessage } from "~/domain/rules";
import { FEEDBACK_MESSAGES } from "~/routes/profile/profile-forms";
import { ANSWER_FORM } from "~/domain/support";
import { CROSS_SITE_MESSAGE } from "~/server/http/same-origin.server";
import {
  entries,
  MARKUP,
  NUMBERS,
  TEXTS,
  type Body,
  type Value,
  type Answer,
  type Case,
  FOREIGN,
  FRESH_EMAIL,
  type FieldSpec,
  type FormSpec,
  NUMBER_AND_TEXT,
  UNREADABLE,
  badFields,
  badIntents,
  form,
  pageCases,
  SENT_FROM_EVERY_SWEEP,
  splitBySchema,
  route,
  say,
  unreadableBodies,
  withHidden,
} from "./bad-input";

// The bad-input cases of the pages people use (tests/http/bad-input-pages.test.ts).

// ---------------------------------------------------------------------------------------------
// The routes

export const TASK_GONE = "This task is no longer available";
const GOAL_GONE = "That goal is not one of today's. Today's goals are on Home.";

const homeCases = [
  ...pageCases(
    "_index/route.tsx",
    "newcomer",
    [{ name: "onboarding", path: "/?index", valid: { intent: "complete-onboarding" } }],
    { schema: onboardingFormSchema },
  ),
  ...pageCases(
    "_index/route.tsx",
    "member",
    [
      { name: "check-in", path: "/?index", valid: { intent: "checkin" } },
      {
        name: "a quick task's Start",
        path: "/?index",
        valid: { intent: "start-task", taskId: "acme-1" },
        fields: { taskId: { wrong: TASK_GONE } },
      },
      // A goal that is not today's (or no goal id at all) pays nothing (docs/decisions/094).
      {
        name: "a daily goal's Claim",
        path: "/?index",
        valid: { intent: "claim-goal", goalId: "check-in" },
        fields: { goalId: { wrong: GOAL_GONE } },
      },
    ],
    { schema: homeFormSchema, signedOut: { path: "/?index", answer: { redirect: "/auth" } } },
  ),
];

// The Levels page: one button, "Claim" of the levels' bonuses (docs/decisions/094).
const levelsCases = pageCases(
  "levels/route.tsx",
  "member",
  [{ name: "claim a level's bonus", path: "/levels", valid: { intent: "claim-level" } }],
  { schema: claimLevelFormSchema, signedOut: { path: "/levels", answer: { redirect: "/auth?redirectTo=%2Flevels" } } },
);

// Each sign-in, sign-up and reset has an address of its own; none makes an account or sends an email.
const badEmail: FieldSpec = {
  wrong: AUTH_MESSAGES.invalidEmailFormat,
  blank: AUTH_MESSAGES.fillAllFields,
  whitespace: AUTH_MESSAGES.invalidEmail,
  values: [...NUMBER_AND_TEXT, ["without a domain", "pat@"], ['"٥@٥"', "٥@٥"]],
};
const badCode: FieldSpec = { wrong: ruleMessage("invalid_referral_code"), blank: null };
const authCases = pageCases(
  "auth/route.tsx",
  "visitor",
  [
    {
      name: "sign-in",
      path: "/auth",
      valid: { intent: "signin", email: FRESH_EMAIL, password: "s3cret-pass" },
      fields: {
        email: badEmail,
        password: {
          wrong: AUTH_MESSAGES.invalidCredentials,
          blank: AUTH_MESSAGES.fillAllFields,
          whitespace: AUTH_MESSAGES.passwordMissing,
        },
      },
    },
    {
      // An unknown referral code: refused before any account is made, whatever else is right.
      name: "sign-up",
      path: "/auth?tab=signup",
      valid: { intent: "signup", email: FRESH_EMAIL, password: "s3cret-pass", referralCode: "ABCDEFG" },
      fields: {
        email: badEmail,
        // A long password is a good one; these are all too short.
        password: {
          wrong: AUTH_MESSAGES.passwordTooShort,
          blank: AUTH_MESSAGES.fillAllFields,
          whitespace: null,
          oversized: null,
          values: [...entries(NUMBERS).filter(([, value]) => value.length < 6), ["of 5 characters", "12345"]],
        },
        // No code is a sign-up without one: only wrong codes are sent.
        referralCode: badCode,
      },
    },
    {
      name: "password reset",
      path: "/auth",
      valid: { intent: "reset", email: FRESH_EMAIL },
      fields: { email: { ...badEmail, blank: AUTH_MESSAGES.resetEmailMissing, whitespace: undefined } },
    },
    {
      // From the Sign Up tab, where the referral code is.
      name: "Google sign-in",
      path: "/auth?tab=signup",
      valid: { intent: "google", idToken: "not-a-real-id-token-but-long-enough" },
      fields: { idToken: { wrong: AUTH_MESSAGES.genericError }, referralCode: badCode },
    },
  ],
  { schema: authFormSchema },
);

const earnCases = pageCases(
  "earn/route.tsx",
  "member",
  [
    {
      name: "Start Task",
      path: "/earn?task=acme-1",
      valid: { intent: "start", taskId: "acme-1" },
      fields: { taskId: { wrong: TASK_GONE } },
    },
    {
      name: "Complete Task",
      path: "/earn?task=acme-1&started=1",
      valid: { intent: "complete", taskId: "acme-1" },
      fields: { taskId: { wrong: TASK_GONE } },
    },
    {
      // A promo code (docs/decisions/095): a code of the right shape that no one made is refused by
      // the database with its own words; nothing is paid.
      name: "Redeem a promo code",
      path: "/earn",
      valid: { intent: "redeem-code", code: "NOSUCHCODE" },
      fields: {
        code: {
          wrong: PROMO_CODE_FORMAT,
          values: NUMBER_AND_TEXT.map(([label, value]) =>
            /^\s*[A-Za-z0-9]{4,20}\s*$/.test(value)
              ? ([label, value, say(ruleMessage("promo_code_unknown"))] as const)
              : ([label, value] as const),
          ) as FieldSpec["values"],
        },
      },
    },
  ],
  {
    schema: earnFormSchema,
    signedOut: {
      path: "/earn?task=acme-1",
      answer: { redirect: "/earn?task=acme-1", flash: "Please sign in to complete this task" },
    },
    extra: [
      route(
        "earn/route.tsx",
        "POST",
        "/earn?task=acme-2",
        "member",
      )(
        "Complete Task: a task that was never started",
        form({ intent: "complete", taskId: "acme-2" }),
        say(ruleMessage("task_not_started")),
      ),
    ],
  },
);

/**
 * The answer to one of the person's tickets (docs/decisions/082), as Profile (feedback) and My
 * offers (reports) post it, to a ticket that is not the member's: every case is refused before
 * anything is written. A kind or an id the page cannot have sent is not found, before the hourly
 * allowance is touched (no swept id is a whole number the page could send); the answer's own
 * values are the ones its rule refuses.
 */
function answerForm(path: string, kind: "feedback" | "missing_credit"): FormSpec {
  const tooLong = ruleMessage("ticket_answer_too_long");
  return {
    name: "Send answer",
    path,
    valid: { intent: "answer", kind, ticketId: "999999999", body: "Thanks, that helps." },
    fields: {
      kind: { wrong: ANSWER_FORM.notFound },
      ticketId: { wrong: ANSWER_FORM.notFound },
      body: {
        wrong: tooLong,
        blank: ruleMessage("ticket_answer_required"),
        values: [
          ["of 2,001 characters", "m".repeat(2001)],
          ["of 2,001 emoji", "😀".repeat(2001)],
          ...withHidden(
            [
              ...entries(TEXTS).filter(([, value]) => hasHiddenCharacters(value)),
              ["with a tab", "Pixel\t8"],
              ["with ESC[8m", "Pixel\u001b[8m8"],
            ],
            ruleMessage("ticket_answer_hidden_characters"),
          )!,
        ],
      },
    },
  };
}

// My offers' missing-credit report (docs/offer-walls.md), for the offer provider's network: a
// network it does not list and a day that is no date are refused; no case sends a whole valid
// report, so none is recorded (five open reports would refuse the rest).
const MISSING_CREDIT_DAY = new Date().toISOString().slice(0, 10);
const myOffersCases = pageCases(
  "earn_.offers/route.tsx",
  "member",
  [
    {
      name: "Report missing credit",
      path: "/earn/offers?report=acme",
      valid: {
        intent: "report-missing-credit",
        network: "acme",
        offerName: "Spin the wheel",
        completedOn: MISSING_CREDIT_DAY,
        details: "I finished it and got nothing",
      },
      fields: {
        network: { wrong: "Please choose one of the networks listed on this page." },
        completedOn: {
          wrong: ruleMessage("missing_credit_date_out_of_range"),
          blank: MISSING_CREDIT_MESSAGES.blank.completedOn,
        },
      },
    },
    answerForm("/earn/offers", "missing_credit"),
  ],
  { schema: missingCreditFormSchema },
);

// Log out reads no fields: whatever is posted, this device is signed out (a few signed in, each
// by an account of its own, since a log out ends every session of the account).
const LOGGED_OUT: Answer = { redirect: "/auth", flash: AUTH_MESSAGES.loggedOut };
const logout = route("logout/route.tsx", "POST", "/logout", "visitor");
const logoutBodies: [string, Body | undefined][] = [
  ...unreadableBodies([["intent", "logout"]]).map(([what, body]): [string, Body | undefined] => [what, body]),
  // Log out reads no intent: of the intent's sweep, only the values sent from every sweep.
  ...badIntents([["intent", "logout"]])
    .filter(([, , sweep]) => sweep === undefined || SENT_FROM_EVERY_SWEEP.has(sweep))
    .map(([what, body]): [string, Body] => [what, body]),
  ...entries(TEXTS).map(([label, value]): [string, Body] => [`redirectTo ${label}`, form({ redirectTo: value })]),
];
const logoutCases = [
  ...logoutBodies.map(([what, body]) => logout(`signed out: ${what}`, body, LOGGED_OUT)),
  ...logoutBodies
    .slice(0, 6)
    .map(([what, body], i) => logout(`signed in: ${what}`, body, LOGGED_OUT, { who: `leaver${i}` })),
  logout("posted from another site", form({}), say(CROSS_SITE_MESSAGE, 403), { who: "member", headers: FOREIGN }),
];

// The email's "end every session" link (docs/decisions/092) reads no fields, only its `link`: whatever
// is posted without a link it made, nothing ends and the page says the link is not valid.
const END_SESSIONS_REFUSED = say(END_SESSIONS_TEXTS.invalid, 400);
const endSessions = (link: string) =>
  route("end-sessions/route.tsx", "POST", `/end-sessions?link=${encodeURIComponent(link)}`, "visitor");
const endSessionsCases = [
  ...unreadableBodies([["intent", "end"]]).map(([what, body]) =>
    endSessions("")(`no link: ${what}`, body, END_SESSIONS_REFUSED),
  ),
  // It reads no intent: of the intent's sweep, only the values sent from every sweep.
  ...badIntents([["intent", "end"]])
    .filter(([, , sweep]) => sweep === undefined || SENT_FROM_EVERY_SWEEP.has(sweep))
    .map(([what, body]) => endSessions("")(`no link: ${what}`, body, END_SESSIONS_REFUSED)),
  ...NUMBER_AND_TEXT.map(([label, value]) => endSessions(value)(`link ${label}`, form({}), END_SESSIONS_REFUSED)),
  endSessions("1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")(
    "a link signed by nobody",
    form({}),
    END_SESSIONS_REFUSED,
  ),
  endSessions("")("posted from another site", form({}), say(CROSS_SITE_MESSAGE, 403), { headers: FOREIGN }),
];

const NOTICE_REFUSED = "Unknown notification setting";
const DELETE_FAILED = "Failed to delete account. Please check your password and try again.";
const FEEDBACK_TOO_LONG = ruleMessage("feedback_too_long");
// The delete form's password check is limited as a sign-in's (ten failures at full speed per
// account): its cases are spread over accounts of their own, a few each.
const DELETE_CASES_PER_ACCOUNT = 8;
// `after`: cases already spread (another page's delete form), whose accounts are not used again.
const spreadDeleteCases = (cases: Case[], after: Case[] = []): Case[] => {
  let n = new Set(after.filter((c) => c.who.startsWith("deleter")).map((c) => c.who)).size * DELETE_CASES_PER_ACCOUNT;
  return cases.map((c) =>
    c.what.startsWith("Delete account:") && c.who === "member"
      ? { ...c, who: `deleter${Math.floor(n++ / DELETE_CASES_PER_ACCOUNT)}` }
      : c,
  );
};
/** The account's forms that Profile and Settings both post: a notification switch, Deactivate and Delete account. */
function accountForms(at: { switchAt: string; deactivateAt: string; deleteAt: string }): FormSpec[] {
  return [
    {
      name: "a notification switch",
      path: at.switchAt,
      valid: { intent: "notification", kind: "marketing", enabled: "off" },
      fields: {
        kind: { wrong: NOTICE_REFUSED },
        enabled: { wrong: NOTICE_REFUSED, values: [...NUMBER_AND_TEXT, ["ON", "ON"], ["true", "true"]] },
        // Without it the answer is the page; "data" asks for JSON; anything else is refused.
        respond: { wrong: NOTICE_REFUSED, blank: null },
      },
    },
    {
      name: "Deactivate",
      path: at.deactivateAt,
      valid: { intent: "deactivate", confirm: "no" },
      fields: {
        confirm: {
          wrong: "Please confirm that you want to deactivate",
          values: [...NUMBER_AND_TEXT, ["YES", "YES"], ["no", "no"], ["true", "true"]],
        },
      },
    },
    {
      name: "Delete account",
      path: at.deleteAt,
      // The account's $20.00 given up (decision 081), so each case reaches the password check.
      valid: { intent: "delete-account", password: "not-the-password", giveUp: "20.00" },
      fields: { password: { wrong: DELETE_FAILED }, idToken: { wrong: DELETE_FAILED } },
    },
  ];
}

const profileCases = spreadDeleteCases(
  pageCases(
    "profile/route.tsx",
    "member",
    [
      {
        // Numbers, unicode and markup of up to 50 characters are a name (shown escaped).
        name: "Edit Profile",
        path: "/profile?edit=1",
        valid: { intent: "update-name", displayName: "Pat" },
        fields: {
          displayName: {
            wrong: ruleMessage("invalid_display_name"),
            values: [
              ["of 400 digits", NUMBERS["400 digits"]!],
              ["of markup over 50 characters", MARKUP.repeat(3)],
              ["of 51 characters", "n".repeat(51)],
              ...withHidden(
                [
                  ...entries(TEXTS).filter(([, value]) => hasHiddenCharacters(value)),
                  ["with a line break", "Pat\r\nDoe"],
                  ["with ESC[8m", "Pat\u001b[8mDoe"],
                ],
                ruleMessage("display_name_hidden_characters"),
              )!,
            ],
          },
        },
      },
      ...accountForms({
        switchAt: "/profile",
        deactivateAt: "/profile?tab=account&confirm=deactivate",
        deleteAt: "/profile",
      }),
      {
        // Numbers, unicode and markup make a name or a message (shown escaped): only lengths are wrong.
        name: "feedback",
        path: "/profile?tab=help",
        valid: { intent: "feedback", name: "Pat", email: "pat@example.com", message: "Hello" },
        fields: {
          name: {
            wrong: FEEDBACK_TOO_LONG,
            blank: FEEDBACK_MESSAGES.fillAll,
            values: [
              ["of 400 digits", NUMBERS["400 digits"]!],
              ["of 101 characters", "n".repeat(101)],
              // More over-long names than the hourly allowance of feedback: none may use it up.
              ["of 101 emoji", "😀".repeat(101)],
              ["of markup over 100 characters", MARKUP.repeat(5)],
              ["of 101 Arabic-Indic digits", "٥".repeat(101)],
            ],
          },
          email: {
            wrong: FEEDBACK_MESSAGES.invalidEmail,
            blank: FEEDBACK_MESSAGES.fillAll,
            oversized: FEEDBACK_TOO_LONG,
            values: [
              // Over 254 characters is refused on its length, before the address's form is looked at.
              ...NUMBER_AND_TEXT.map(([label, value]): [string, string, Answer] | Value =>
                [...value].length > 254 ? [label, value, say(FEEDBACK_TOO_LONG)] : [label, value],
              ),
              ["without a domain", "pat@"],
              ["over 254 characters", `${"p".repeat(250)}@example.com`, say(FEEDBACK_TOO_LONG)],
            ],
          },
          message: {
            wrong: FEEDBACK_TOO_LONG,
            blank: FEEDBACK_MESSAGES.fillAll,
            values: [["of 2,001 characters", "m".repeat(2001)]],
          },
        },
      },
      answerForm("/profile?tab=help", "feedback"),
    ],
    { schema: profileFormSchema, signedOut: { path: "/profile", answer: { redirect: "/auth?redirectTo=%2Fprofile" } } },
  ),
);

// Settings (docs/decisions/071-settings-is-a-real-page.md): Profile's switches, deactivation and
// deletion posted here, and Sign out of every device, which reads no fields (a valid one would end
// the member's sessions, so only its unreadable forms are cases).
const settingsCases = spreadDeleteCases(
  pageCases(
    "settings/route.tsx",
    "member",
    [...accountForms({ switchAt: "/settings", deactivateAt: "/settings?confirm=deactivate", deleteAt: "/settings" })],
    {
      schema: settingsFormSchema,
      signedOut: { path: "/settings", answer: { redirect: "/auth?redirectTo=%2Fsettings" } },
      extra: [
        ...badIntents([["intent", "sign-out-everywhere"]])
          .slice(3, 12)
          .map(([what, body]) =>
            route(
              "settings/route.tsx",
              "POST",
              "/settings",
              "member",
            )(`Sign out of every device: ${what}`, body, UNREADABLE),
          ),
      ],
    },
  ),
  profileCases,
);

// A verified member with $20.00 who never gets to withdraw.
const withdrawal = (method: string, amount: string, recipient: Record<string, string>) => ({
  intent: "withdraw",
  amount,
  method,
  ...recipient,
});
const PAYPAL_REQUEST = withdrawal("paypal", "5", { paypalEmail: "payee@example.com" });
const amount: FieldSpec = {
  wrong: ruleMessage("invalid_amount"),
  values: [...NUMBER_AND_TEXT, ["with a dollar sign", "$5"], ["negative zero", "-0"], ["with a space inside", "5 0"]],
};
const withdraw = route("withdraw/route.tsx", "POST", "/withdraw", "member");
const withdrawCases = pageCases(
  "withdraw/route.tsx",
  "member",
  [
    {
      name: "withdraw by PayPal",
      path: "/withdraw",
      valid: PAYPAL_REQUEST,
      fields: {
        amount,
        method: { wrong: "Please choose a payment method" },
        paypalEmail: {
          wrong: ruleMessage("invalid_paypal_email"),
          blank: ruleMessage("paypal_email_required"),
          values: [
            ...withHidden(NUMBER_AND_TEXT, ruleMessage("recipient_hidden_characters"))!,
            ["with ESC[2K", "pay\u001b[2Kee@example.com", say(ruleMessage("recipient_hidden_characters"))],
            ["with markup", "<b>payee</b>@example.com"],
            ["with a quote", 'pay"ee@example.com'],
            ["in angle brackets", "<payee@example.com>"],
            ["without a domain", "payee@"],
          ],
        },
      },
    },
    {
      name: "withdraw by UPI",
      path: "/withdraw",
      valid: withdrawal("upi", "5", { upiId: "payee@okhdfcbank" }),
      fields: {
        upiId: {
          wrong: ruleMessage("invalid_upi_id"),
          blank: ruleMessage("upi_id_required"),
          values: withHidden(NUMBER_AND_TEXT, ruleMessage("recipient_hidden_characters")),
        },
      },
    },
    {
      // Any text of up to 1,000 characters is bank details (shown escaped).
      name: "withdraw by bank transfer",
      path: "/withdraw?method=bank",
      valid: withdrawal("bank", "10", { bankDetails: "Pat Doe, 12345678, IFSC HDFC0001234" }),
      fields: {
        bankDetails: {
          wrong: ruleMessage("bank_details_too_long"),
          blank: ruleMessage("bank_details_required"),
          values: [
            ["of 1,001 characters", "d".repeat(1001)],
            ...withHidden(
              [
                ...entries(TEXTS).filter(([, value]) => hasHiddenCharacters(value)),
                ["with ESC[2K and ESC[8m", "Pat Doe\u001b[2K\u001b[8m, 12345678"],
                ["with a lone carriage return", "Pat Doe\r12345678"],
              ],
              ruleMessage("recipient_hidden_characters"),
            )!,
          ],
        },
      },
    },
  ],
  {
    schema: withdrawFormsSchema,
    signedOut: { path: "/withdraw", answer: { redirect: "/auth?redirectTo=%2Fwithdraw" } },
    extra: [
      withdraw(
        "withdraw by PayPal: more than the balance",
        form({ ...PAYPAL_REQUEST, amount: "100000" }),
        say(ruleMessage("amount_exceeds_balance")),
      ),
      withdraw(
        "withdraw by PayPal: under its minimum",
        form({ ...PAYPAL_REQUEST, amount: "1" }),
        say(ruleMessage("below_minimum", "5.00")),
      ),
      // A gift card the catalogue does not list (the run's catalogue is empty; docs/decisions/089):
      // the browser names a card, it never chooses one the server does not offer.
      ...([...NUMBER_AND_TEXT, ["blank", ""], ["a card in euros", "ZALANDO00001"]] as Value[]).map(([what, value]) =>
        withdraw(
          `withdraw by gift card: the card is ${what}`,
          form(withdrawal("giftcard", "5", { giftcardProduct: value })),
          say(ruleMessage(hasHiddenCharacters(value) ? "recipient_hidden_characters" : "giftcard_not_offered")),
        ),
      ),
      // "Ask for a review" (docs/decisions/090): only paused cash-outs or one's own refused cash-out,
      // with a message as a ticket answer's.
      ...(
        [
          ...NUMBER_AND_TEXT,
          ["paused, while nothing is paused", "paused"],
          ["a withdrawal that does not exist", "00000000-0000-4000-8000-000000000000"],
        ] as Value[]
      ).map(([what, value]) =>
        withdraw(
          `ask for a review of ${what}`,
          form({ intent: "appeal", appealOf: value, message: "Please look again" }),
          say(ruleMessage("nothing_to_appeal")),
        ),
      ),
      ...(
        [
          ["blank", "   ", "ticket_answer_required"],
          ["of 2,001 characters", "x".repeat(2001), "ticket_answer_too_long"],
          ["with a right-to-left override", "look\u202eagain", "ticket_answer_hidden_characters"],
        ] as const
      ).map(([what, message, rule]) =>
        withdraw(
          `ask for a review with a message ${what}`,
          form({ intent: "appeal", appealOf: "paused", message }),
          say(ruleMessage(rule)),
        ),
      ),
      // An unverified account is told to verify first, whatever else is wrong (its page has no form).
      ...badFields(Object.entries(PAYPAL_REQUEST), { amount })
        .filter(([what]) => !/twice|NUL/.test(what))
        .slice(0, 8)
        .map(([what, body]) =>
          withdraw(`withdraw by an unverified account: ${what}`, body, say(ruleMessage("email_not_verified")), {
            who: "unverified",
          }),
        ),
    ],
  },
);

// Pages without an action: a form posted to them is answered by the page, not by a crash.
const noActionCases = (
  [
    ["legal/route.tsx", "/legal"],
    ["leaderboard/route.tsx", "/leaderboard"],
    ["referral/route.tsx", "/referral"],
    ["join.$code/route.tsx", "/join/ABCD234"],
    ["$/route.tsx", "/no-such-page"],
  ] as const
).flatMap(([module, path]) =>
  unreadableBodies([["intent", "x"]]).map(([what, body]) =>
    route(module, "POST", path, "member")(`POST ${what}`, body, say("This page does not accept forms.", 405)),
  ),
);

const ALL_PAGE_CASES: Case[] = [
  ...homeCases,
  ...levelsCases,
  ...authCases,
  ...earnCases,
  ...myOffersCases,
  ...logoutCases,
  ...endSessionsCases,
  ...profileCases,
  ...settingsCases,
  ...withdrawCases,
  ...noActionCases,
];

/** Sent over HTTP (tests/http/bad-input-pages.test.ts), and checked against the pages' schemas (tests/unit/form-schemas.test.ts). */
export const { overHttp: PAGE_CASES, bySchema: PAGE_SCHEMA_CASES } = splitBySchema(ALL_PAGE_CASES);
