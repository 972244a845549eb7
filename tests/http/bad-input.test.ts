import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from "vitest";
import { AUTH_MESSAGES } from "~/domain/auth";
import { FEEDBACK_MESSAGES } from "~/domain/profile-forms";
import { ruleMessage } from "~/domain/rules";
import { BODY_TOO_LARGE_MESSAGE, MAX_BODY_BYTES } from "~/server/http/body.server";
import { UNREADABLE_FORM_MESSAGE } from "~/server/http/forms.server";
import { CROSS_SITE_MESSAGE } from "~/server/http/same-origin.server";
import {
  cookieHeader,
  encodeBody,
  entries,
  MARKUP,
  NUMBERS,
  setCookies,
  TEXTS,
  visibleText,
  type Body,
  type Value,
} from "../support/bad-input";
import { uniqueEmail } from "../support/http";
import { ledgerAudit } from "../support/ledger-audit";
import { signPostback, startOfferProvider } from "../support/offer-provider";
import { startPayPalStandIn, type PayPalStandIn } from "../support/paypal";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// Issue 10, "Bad input, everywhere": malformed requests to every route module that has an action
// and to every resource route, generated from tables (route → forms and intents → fields → bad
// values). Each answer is checked for its status (never a 5xx), the message the route gives for
// that field or form (on a page: in the text a person sees, not only in the page's data), and that
// no markup comes back unescaped. The ledger audit (and what else bad input must not touch) is
// taken before and after each route's cases and must not change.
//
// The app runs with an offer provider, postbacks and PayPal configured (local stand-ins), so that
// every route gets past its configuration checks to the input.

const SECRET = "postback-secret-for-bad-input";
const UNREADABLE = UNREADABLE_FORM_MESSAGE;
const TASK_GONE = "This task is no longer available";
const PAGE_NOT_A_FORM = "This page does not accept forms.";
const OVERSIZED = "x".repeat(10_000);
const NUL = "a\u0000b";
/** Stands for a new address in each request (sign-in limits count per address). */
const FRESH_EMAIL = "{fresh-email}";

/** Who sends a request: the cookies it carries. */
type Who = "newcomer" | "visitor" | "member" | "unverified" | "forged" | `leaver${number}` | "provider";

/** What a route must answer. `message` is read the route's way (page text, JSON error or plain text). */
type Answer =
  | { status: number; message: string }
  | { status: number; json: Record<string, unknown> }
  | { status: number; contentType: string; contains?: string }
  | { redirect: string; flash?: string };

interface Case {
  /** The route module (app/routes) the request reaches. */
  module: string;
  /** What is wrong with the request, for the test's name. */
  what: string;
  method?: string;
  path: string;
  who: Who;
  body?: Body;
  headers?: Record<string, string>;
  answer: Answer;
}

type Kind = "page" | "json" | "text";

const page = (status: number, message: string): Answer => ({ status, message });
const unreadablePage = page(400, UNREADABLE);
const tooLargePage = page(413, BODY_TOO_LARGE_MESSAGE);

// ---------------------------------------------------------------------------------------------
// Generators

/** Bodies a form route cannot read, whatever its fields (`valid` are the fields of one of its forms). */
function unreadableBodies(valid: [string, string][], unreadable: Answer, tooLarge: Answer) {
  const json = Object.fromEntries(valid);
  const cases: [string, Body | undefined, Answer][] = [
    ["no body and no content type", undefined, unreadable],
    ["the form's fields as JSON", { json }, unreadable],
    ["the form's fields as text/plain", { raw: new URLSearchParams(valid).toString(), type: "text/plain" }, unreadable],
    ["the form's fields as XML", { raw: "<form><intent>x</intent></form>", type: "application/xml" }, unreadable],
    ["multipart without a boundary", { raw: "intent=x", type: "multipart/form-data" }, unreadable],
    ["a broken multipart body", { raw: "--b\r\ngarbage", type: "multipart/form-data; boundary=b" }, unreadable],
    ["a body over 64 KB", { form: [...valid, ["padding", "x".repeat(MAX_BODY_BYTES)]] }, tooLarge],
  ];
  return cases;
}

/** Ways a form's `intent` (which form was sent) can be wrong. */
function badIntents(valid: [string, string][]): [string, Body][] {
  const intent = valid.find(([name]) => name === "intent")?.[1] ?? "";
  const rest = valid.filter(([name]) => name !== "intent");
  const withIntent = (...pairs: [string, string][]): Body => ({ form: [...pairs, ...rest] });
  return [
    ["an empty body", { raw: "", type: "application/x-www-form-urlencoded" }],
    ["no intent", withIntent()],
    ["an empty intent", withIntent(["intent", ""])],
    ["the intent twice", withIntent(["intent", intent], ["intent", intent])],
    ["two different intents", withIntent(["intent", intent], ["intent", "bogus"])],
    ["an unknown intent", withIntent(["intent", "bogus"])],
    ["the intent in capitals", withIntent(["intent", intent.toUpperCase()])],
    ["the intent with spaces around it", withIntent(["intent", ` ${intent} `])],
    ["an intent of 10,000 characters", withIntent(["intent", OVERSIZED])],
    ["a NUL character in the intent", withIntent(["intent", `${intent}\u0000`])],
    ["the intent as a list (intent[0])", withIntent(["intent[0]", intent])],
    ["the intent as a file", { multipart: [["intent", new Blob([intent])], ...rest] }],
    ["Conform's intent field, not JSON", withIntent(["intent", intent], ["__intent__", "garbage"])],
    ["Conform's intent field, well-formed", withIntent(["intent", intent], ["__intent__", '{"type":"validate"}'])],
    ["Conform's state field, not JSON", withIntent(["intent", intent], ["__state__", "garbage"])],
    ["a __proto__ field", withIntent(["__proto__[intent]", intent])],
    ...[...entries(NUMBERS), ...entries(TEXTS)].map(([label, value]): [string, Body] => [
      `the intent ${label}`,
      withIntent(["intent", value]),
    ]),
  ];
}

interface FieldSpec {
  /** The answer to a wrong value. */
  wrong: Answer;
  /** Missing or empty (default: `wrong`); whitespace only (default: `blank`). */
  blank?: Answer | null;
  whitespace?: Answer | null;
  oversized?: Answer | null;
  /** A NUL character (default: the form's unreadable answer). */
  nul?: Answer;
  /** The wrong values sent (default: every number, text and markup value), a few with an answer of their own. */
  values?: (Value | [label: string, value: string, answer: Answer])[];
}

/** A field's bad values, each in an otherwise valid form: missing, blank, twice, oversized, NUL, wrong. */
function badFields(
  valid: [string, string][],
  fields: Record<string, FieldSpec>,
  unreadable: Answer,
): [string, Body, Answer][] {
  const cases: [string, Body, Answer][] = [];
  for (const [field, spec] of Object.entries(fields)) {
    const others = valid.filter(([name]) => name !== field);
    const current = valid.find(([name]) => name === field)?.[1] ?? "x";
    const set = (value: string): Body => ({ form: [...others, [field, value]] });
    const blank = spec.blank === undefined ? spec.wrong : spec.blank;
    const whitespace = spec.whitespace === undefined ? blank : spec.whitespace;
    const oversized = spec.oversized === undefined ? spec.wrong : spec.oversized;
    if (blank) cases.push([`no ${field}`, { form: others }, blank], [`an empty ${field}`, set(""), blank]);
    if (whitespace) cases.push([`${field} only spaces`, set("   "), whitespace]);
    if (oversized) cases.push([`${field} of 10,000 characters`, set(OVERSIZED), oversized]);
    cases.push(
      [`${field} twice`, { form: [...others, [field, current], [field, current]] }, unreadable],
      [`a NUL character in ${field}`, set(NUL), spec.nul ?? unreadable],
    );
    for (const [label, value, answer] of spec.values ?? [...entries(NUMBERS), ...entries(TEXTS)]) {
      cases.push([`${field} ${label}`, set(value), answer ?? spec.wrong]);
    }
  }
  return cases;
}

interface FormSpec {
  /** The form, for the test name ("withdraw by UPI"). */
  name: string;
  path: string;
  who: Who;
  valid: [string, string][];
  fields: Record<string, FieldSpec>;
}

interface PageSpec {
  module: string;
  forms: FormSpec[];
  /** Requests by someone not signed in (and with a forged session cookie), and their answer. */
  signedOut?: { who: Who; path: string; answer: Answer };
  extra?: Case[];
}

/** Every case of a page with an action: unreadable bodies, bad intents, each form's bad fields, signed out. */
function pageCases(spec: PageSpec): Case[] {
  const first = spec.forms[0]!;
  const at = (form: FormSpec, what: string, body: Body | undefined, answer: Answer): Case => ({
    module: spec.module,
    what: `${form.name}: ${what}`,
    method: "POST",
    path: form.path,
    who: form.who,
    body,
    answer,
  });
  const cases = [
    ...unreadableBodies(first.valid, unreadablePage, tooLargePage).map(([what, body, answer]) =>
      at(first, what, body, answer),
    ),
    ...badIntents(first.valid).map(([what, body]) => at(first, what, body, unreadablePage)),
    ...spec.forms.flatMap((form) =>
      badFields(form.valid, form.fields, unreadablePage).map(([what, body, answer]) => at(form, what, body, answer)),
    ),
    {
      module: spec.module,
      what: `${first.name}: posted from another site`,
      method: "POST",
      path: first.path,
      who: first.who,
      body: { form: first.valid },
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      answer: page(403, CROSS_SITE_MESSAGE),
    },
  ];
  if (spec.signedOut) {
    const { who, path: signedOutPath, answer } = spec.signedOut;
    for (const [as, cookies] of [
      [who, "signed out"],
      ["forged", "with a forged session cookie"],
    ] as const) {
      for (const [what, body] of [
        ...badIntents(first.valid).slice(0, 6),
        ["the valid form", { form: first.valid }],
      ] as [string, Body][]) {
        cases.push({
          module: spec.module,
          what: `${first.name} ${cookies}: ${what}`,
          method: "POST",
          path: signedOutPath,
          who: as,
          body,
          answer,
        });
      }
    }
  }
  return [...cases, ...(spec.extra ?? [])];
}

/** A JSON answer `{ success: false, error }`. */
const apiError = (status: number, error: string): Answer => ({ status, json: { success: false, error } });

/** Every method but the one a resource route takes, with a few bodies, and the 405 it answers. */
function otherMethods(module: string, path: string, allowed: "GET" | "POST", who: Who = "member"): Case[] {
  const methods = allowed === "GET" ? ["POST", "PUT", "PATCH", "DELETE"] : ["GET", "PUT", "PATCH", "DELETE"];
  const bodies: [string, Body | undefined][] = [
    ["no body", undefined],
    ["a form", { form: [["intent", "x"]] }],
    ["JSON", { json: { a: 1 } }],
  ];
  return methods.flatMap((method) =>
    bodies
      .filter(([, body]) => method !== "GET" || body === undefined)
      .map(([what, body]) => ({
        module,
        what: `${method} with ${what}`,
        method,
        path,
        who,
        body,
        answer: apiError(405, `Use ${allowed}`),
      })),
  );
}

/** Query strings a GET route ignores or refuses: numbers, unicode, markup, NUL, 400 digits, repeats. */
function badQueries(param: string): [string, string][] {
  return [
    ...[...entries(NUMBERS), ...entries(TEXTS)].map(([label, value]): [string, string] => [
      `${param}=${label}`,
      `?${new URLSearchParams([[param, value]])}`,
    ]),
    [`${param} twice`, `?${param}=1&${param}=2`],
    [`${param} with a NUL character`, `?${param}=a%00b`],
    [`${param} of 10,000 characters`, `?${param}=${OVERSIZED}`],
    ["a query string without a name", "?=1&&&="],
    [`${param}[] as a list`, `?${param}[]=1`],
    [`${param} empty`, `?${param}=`],
    ["broken percent-encoding", `?${param}=%ZZ%`],
    ["a NUL character in a name", "?%00=1"],
    ["a name of 5,000 characters", `?${"n".repeat(5000)}=1`],
    ["500 parameters", `?${Array.from({ length: 500 }, (_, i) => `p${i}=${i}`).join("&")}`],
  ];
}

// ---------------------------------------------------------------------------------------------
// The routes

function allCases(): Case[] {
  const NUMBER_AND_TEXT = [...entries(NUMBERS), ...entries(TEXTS)];
  const BAD_NOTICE = page(400, "Unknown notification setting");
  const DELETE_FAILED = page(400, "Failed to delete account. Please check your password and try again.");
  const INVALID_AMOUNT = page(400, ruleMessage("invalid_amount"));
  const cases: Case[] = [];

  // Home and onboarding (_index.tsx).
  cases.push(
    ...pageCases({
      module: "_index.tsx",
      forms: [
        {
          name: "onboarding",
          path: "/?index",
          who: "newcomer",
          valid: [["intent", "complete-onboarding"]],
          fields: {},
        },
      ],
    }),
    ...pageCases({
      module: "_index.tsx",
      forms: [
        { name: "check-in", path: "/?index", who: "member", valid: [["intent", "checkin"]], fields: {} },
        {
          name: "a quick task's Start",
          path: "/?index",
          who: "member",
          valid: [
            ["intent", "start-task"],
            ["taskId", "acme-1"],
          ],
          fields: { taskId: { wrong: page(400, TASK_GONE) } },
        },
      ],
      signedOut: { who: "visitor", path: "/?index", answer: { redirect: "/auth" } },
    }),
  );

  // Sign in, sign up, password reset and Google (auth.tsx). Each case has an address of its own, so
  // that no per-address limit is reached; none of them makes an account or sends an email.
  const formatError = page(400, AUTH_MESSAGES.invalidEmailFormat);
  const fillAll = page(400, AUTH_MESSAGES.fillAllFields);
  const badEmails: Value[] = [...NUMBER_AND_TEXT, ["without a domain", "pat@"], ['"٥@٥"', "٥@٥"]];
  cases.push(
    ...pageCases({
      module: "auth.tsx",
      forms: [
        {
          name: "sign-in",
          path: "/auth",
          who: "visitor",
          valid: [
            ["intent", "signin"],
            ["email", FRESH_EMAIL],
            ["password", "s3cret-pass"],
          ],
          fields: {
            email: {
              wrong: formatError,
              blank: fillAll,
              whitespace: page(400, AUTH_MESSAGES.invalidEmail),
              values: badEmails,
            },
            password: {
              wrong: page(400, AUTH_MESSAGES.invalidCredentials),
              blank: fillAll,
              whitespace: page(400, AUTH_MESSAGES.passwordMissing),
            },
          },
        },
        {
          name: "sign-up",
          path: "/auth?tab=signup",
          who: "visitor",
          // An unknown referral code: refused before any account is made, whatever else is right.
          valid: [
            ["intent", "signup"],
            ["email", FRESH_EMAIL],
            ["password", "s3cret-pass"],
            ["referralCode", "ABCDEFG"],
          ],
          fields: {
            email: {
              wrong: formatError,
              blank: fillAll,
              whitespace: page(400, AUTH_MESSAGES.invalidEmail),
              values: badEmails,
            },
            // A long password is a good password; these are all too short.
            password: {
              wrong: page(400, AUTH_MESSAGES.passwordTooShort),
              blank: fillAll,
              whitespace: null,
              oversized: null,
              values: [...entries(NUMBERS).filter(([, value]) => value.length < 6), ["5 characters", "12345"]],
            },
            // No code is a sign-up without one (not in this table): only wrong codes are sent.
            referralCode: { wrong: page(400, ruleMessage("invalid_referral_code")), blank: null },
          },
        },
        {
          name: "password reset",
          path: "/auth",
          who: "visitor",
          valid: [
            ["intent", "reset"],
            ["email", FRESH_EMAIL],
          ],
          fields: {
            email: { wrong: formatError, blank: page(400, AUTH_MESSAGES.resetEmailMissing), values: badEmails },
          },
        },
        {
          // From the Sign Up tab, where the referral code is.
          name: "Google sign-in",
          path: "/auth?tab=signup",
          who: "visitor",
          valid: [
            ["intent", "google"],
            ["idToken", "not-a-real-id-token-but-long-enough"],
          ],
          fields: {
            idToken: { wrong: page(400, AUTH_MESSAGES.genericError) },
            referralCode: { wrong: page(400, ruleMessage("invalid_referral_code")), blank: null },
          },
        },
      ],
    }),
  );

  // Earn's task dialog (earn.tsx).
  cases.push(
    ...pageCases({
      module: "earn.tsx",
      forms: [
        {
          name: "Start Task",
          path: "/earn?task=acme-1",
          who: "member",
          valid: [
            ["intent", "start"],
            ["taskId", "acme-1"],
          ],
          fields: { taskId: { wrong: page(400, TASK_GONE) } },
        },
        {
          name: "Complete Task",
          path: "/earn?task=acme-1&started=1",
          who: "member",
          valid: [
            ["intent", "complete"],
            ["taskId", "acme-1"],
          ],
          fields: { taskId: { wrong: page(400, TASK_GONE) } },
        },
      ],
      signedOut: {
        who: "visitor",
        path: "/earn?task=acme-1",
        answer: { redirect: "/earn?task=acme-1", flash: "Please sign in to complete this task" },
      },
      extra: [
        {
          module: "earn.tsx",
          what: "Complete Task: a task that was never started",
          path: "/earn?task=acme-2",
          who: "member",
          body: {
            form: [
              ["intent", "complete"],
              ["taskId", "acme-2"],
            ],
          },
          answer: page(400, ruleMessage("task_not_started")),
        },
      ],
    }),
  );

  // Log out (logout.tsx): it reads no fields, so whatever is posted, this device is signed out.
  const loggedOut: Answer = { redirect: "/auth", flash: AUTH_MESSAGES.loggedOut };
  const logoutBodies: [string, Body | undefined][] = [
    ...unreadableBodies([["intent", "logout"]], loggedOut, loggedOut).map(
      ([what, body]): [string, Body | undefined] => [what, body],
    ),
    ...badIntents([["intent", "logout"]]),
  ];
  logoutBodies.forEach(([what, body], index) => {
    cases.push({
      module: "logout.tsx",
      what: `signed out: ${what}`,
      method: "POST",
      path: "/logout",
      who: "visitor",
      body,
      answer: loggedOut,
    });
    // A few signed-in ones, each by an account of its own (a log out ends every session of it).
    if (index < 6) {
      cases.push({
        module: "logout.tsx",
        what: `signed in: ${what}`,
        method: "POST",
        path: "/logout",
        who: `leaver${index}`,
        body,
        answer: loggedOut,
      });
    }
  });
  for (const [label, value] of entries(TEXTS)) {
    cases.push({
      module: "logout.tsx",
      what: `signed out: redirectTo ${label}`,
      method: "POST",
      path: "/logout",
      who: "visitor",
      body: { form: [["redirectTo", value]] },
      answer: loggedOut,
    });
  }
  cases.push({
    module: "logout.tsx",
    what: "posted from another site",
    method: "POST",
    path: "/logout",
    who: "member",
    body: { form: [] },
    headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    answer: page(403, CROSS_SITE_MESSAGE),
  });

  // Profile's forms (profile.tsx), each posted to the address its form is on.
  const tooLong = page(400, ruleMessage("feedback_too_long"));
  cases.push(
    ...pageCases({
      module: "profile.tsx",
      forms: [
        {
          name: "Edit Profile",
          path: "/profile?edit=1",
          who: "member",
          valid: [
            ["intent", "update-name"],
            ["displayName", "Pat"],
          ],
          // Numbers, unicode and markup of up to 50 characters are a name (shown escaped).
          fields: {
            displayName: {
              wrong: page(400, ruleMessage("invalid_display_name")),
              values: [
                ["of 400 digits", NUMBERS["400 digits"]!],
                ["of markup over 50 characters", MARKUP.repeat(3)],
                ["of 51 characters", "n".repeat(51)],
              ],
            },
          },
        },
        {
          name: "a notification switch",
          path: "/profile",
          who: "member",
          valid: [
            ["intent", "notification"],
            ["kind", "marketing"],
            ["enabled", "off"],
          ],
          fields: {
            kind: { wrong: BAD_NOTICE },
            enabled: { wrong: BAD_NOTICE, values: [...NUMBER_AND_TEXT, ["ON", "ON"], ["true", "true"]] },
            // Absent, the reply is the page; "data" asks for JSON. Anything else is refused.
            respond: { wrong: BAD_NOTICE, blank: null },
          },
        },
        {
          name: "Deactivate",
          path: "/profile?tab=account&confirm=deactivate",
          who: "member",
          valid: [
            ["intent", "deactivate"],
            ["confirm", "no"],
          ],
          fields: {
            confirm: {
              wrong: page(400, "Please confirm that you want to deactivate"),
              values: [...NUMBER_AND_TEXT, ["YES", "YES"], ["no", "no"], ["true", "true"]],
            },
          },
        },
        {
          name: "Delete account",
          path: "/profile",
          who: "member",
          valid: [
            ["intent", "delete-account"],
            ["password", "not-the-password"],
          ],
          fields: { password: { wrong: DELETE_FAILED }, idToken: { wrong: DELETE_FAILED } },
        },
        {
          name: "feedback",
          path: "/profile?tab=help",
          who: "member",
          valid: [
            ["intent", "feedback"],
            ["name", "Pat"],
            ["email", "pat@example.com"],
            ["message", "Hello"],
          ],
          // Numbers, unicode and markup are a name or a message (shown escaped): only lengths are wrong.
          fields: {
            name: {
              wrong: tooLong,
              blank: page(400, FEEDBACK_MESSAGES.fillAll),
              values: [
                ["of 400 digits", NUMBERS["400 digits"]!],
                ["of 101 characters", "n".repeat(101)],
              ],
            },
            email: {
              wrong: page(400, FEEDBACK_MESSAGES.invalidEmail),
              blank: page(400, FEEDBACK_MESSAGES.fillAll),
              oversized: page(400, FEEDBACK_MESSAGES.invalidEmail),
              values: [...NUMBER_AND_TEXT, ["without a domain", "pat@"]],
            },
            message: {
              wrong: tooLong,
              blank: page(400, FEEDBACK_MESSAGES.fillAll),
              values: [["of 2,001 characters", "m".repeat(2001)]],
            },
          },
        },
      ],
      signedOut: { who: "visitor", path: "/profile", answer: { redirect: "/auth?redirectTo=%2Fprofile" } },
      extra: [
        {
          module: "profile.tsx",
          what: "feedback: an email over 254 characters",
          path: "/profile?tab=help",
          who: "member",
          body: {
            form: [
              ["intent", "feedback"],
              ["name", "Pat"],
              ["email", `${"p".repeat(250)}@example.com`],
              ["message", "Hello"],
            ],
          },
          answer: tooLong,
        },
      ],
    }),
  );

  // Withdraw Money (withdraw.tsx): a verified member with $20.00, who never gets to withdraw.
  const withdraw = (method: string, amount: string, recipient: [string, string]): [string, string][] => [
    ["intent", "withdraw"],
    ["amount", amount],
    ["method", method],
    recipient,
  ];
  const amount: FieldSpec = {
    wrong: INVALID_AMOUNT,
    values: [...NUMBER_AND_TEXT, ["with a dollar sign", "$5"], ["negative zero", "-0"], ["with spaces inside", "5 0"]],
  };
  const refusedBeforeTheRules = page(400, ruleMessage("email_not_verified"));
  cases.push(
    ...pageCases({
      module: "withdraw.tsx",
      forms: [
        {
          name: "withdraw by PayPal",
          path: "/withdraw",
          who: "member",
          valid: withdraw("paypal", "5", ["paypalEmail", "payee@example.com"]),
          fields: {
            amount,
            method: { wrong: page(400, "Please choose a payment method") },
            paypalEmail: {
              wrong: page(400, ruleMessage("invalid_paypal_email")),
              blank: page(400, ruleMessage("paypal_email_required")),
              values: [
                ...NUMBER_AND_TEXT,
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
          who: "member",
          valid: withdraw("upi", "5", ["upiId", "payee@okhdfcbank"]),
          fields: {
            upiId: {
              wrong: page(400, ruleMessage("invalid_upi_id")),
              blank: page(400, ruleMessage("upi_id_required")),
            },
          },
        },
        {
          name: "withdraw by bank transfer",
          path: "/withdraw?method=bank",
          who: "member",
          valid: withdraw("bank", "10", ["bankDetails", "Pat Doe, 12345678, IFSC HDFC0001234"]),
          // Any text of up to 1,000 characters is bank details (shown escaped).
          fields: {
            bankDetails: {
              wrong: page(400, ruleMessage("bank_details_too_long")),
              blank: page(400, ruleMessage("bank_details_required")),
              values: [["of 1,001 characters", "d".repeat(1001)]],
            },
          },
        },
      ],
      signedOut: { who: "visitor", path: "/withdraw", answer: { redirect: "/auth?redirectTo=%2Fwithdraw" } },
      extra: [
        ...(
          [
            ["an amount over the balance", "100000", ruleMessage("amount_exceeds_balance")],
            ["an amount under PayPal's minimum", "1", ruleMessage("below_minimum", "5.00")],
          ] as const
        ).map(([what, value, message]): Case => ({
          module: "withdraw.tsx",
          what: `withdraw by PayPal: ${what}`,
          path: "/withdraw",
          who: "member",
          body: { form: withdraw("paypal", value, ["paypalEmail", "payee@example.com"]) },
          answer: page(400, message),
        })),
        // An unverified account is told to verify first, whatever else is wrong (the form is not on its page).
        ...badFields(withdraw("paypal", "5", ["paypalEmail", "payee@example.com"]), { amount }, unreadablePage)
          .filter(([, , answer]) => answer === INVALID_AMOUNT)
          .slice(0, 8)
          .map(([what, body]): Case => ({
            module: "withdraw.tsx",
            what: `withdraw by an unverified account: ${what}`,
            path: "/withdraw",
            who: "unverified",
            body,
            answer: refusedBeforeTheRules,
          })),
      ],
    }),
  );

  // POST /api/{provider}/complete (JSON or a form; the user comes from the session).
  const completeModule = "api.$provider.complete.ts";
  const gone = apiError(404, TASK_GONE);
  const api = (
    module: string,
    what: string,
    apiPath: string,
    body: Body | undefined,
    answer: Answer,
    who: Who = "member",
  ): Case => ({
    module,
    what,
    method: "POST",
    path: apiPath,
    who,
    body,
    answer,
  });
  cases.push(
    ...unreadableBodies([["taskId", "acme-1"]], apiError(400, UNREADABLE), apiError(413, BODY_TOO_LARGE_MESSAGE))
      .filter(([what]) => what !== "the form's fields as JSON")
      .map(([what, body, answer]) => api(completeModule, what, "/api/acme/complete", body, answer)),
    ...badFields([["taskId", "acme-1"]], { taskId: { wrong: gone } }, gone).map(([what, body, answer]) =>
      api(completeModule, what, "/api/acme/complete", body, answer),
    ),
    ...(
      [
        ["an empty form", { raw: "", type: "application/x-www-form-urlencoded" }],
        ["JSON that does not parse", { raw: "{taskId: acme-1", type: "application/json" }],
        ["a JSON array", { json: ["acme-1"] }],
        ["a JSON string", { json: "acme-1" }],
        ["JSON null", { json: null }],
        ["a JSON number", { json: 5 }],
        ["a JSON number as taskId", { json: { taskId: 5 } }],
        ["a JSON boolean as taskId", { json: { taskId: true } }],
        ["JSON null as taskId", { json: { taskId: null } }],
        ["a JSON object as taskId", { json: { taskId: { id: "acme-1" } } }],
        ["a JSON array as taskId", { json: { taskId: ["acme-1"] } }],
        ["1e309 in JSON as taskId", { raw: '{"taskId":1e309}', type: "application/json" }],
        [
          "Conform's intent field",
          {
            form: [
              ["taskId", "acme-1"],
              ["__intent__", "garbage"],
            ],
          },
        ],
        [
          "Conform's state field",
          {
            form: [
              ["taskId", "acme-1"],
              ["__state__", "garbage"],
            ],
          },
        ],
      ] as [string, Body][]
    ).map(([what, body]) => api(completeModule, what, "/api/acme/complete", body, gone)),
    api(
      completeModule,
      "a task that was never started",
      "/api/acme/complete",
      { json: { taskId: "acme-2" } },
      apiError(400, ruleMessage("task_not_started")),
    ),
    ...["<b>", "٥", "-1", "9".repeat(400), "ACME"].map((provider) =>
      api(
        completeModule,
        `the provider ${provider.slice(0, 12)}`,
        `/api/${encodeURIComponent(provider)}/complete`,
        { json: { taskId: "acme-1" } },
        apiError(404, "Unknown offer provider"),
      ),
    ),
    api(
      completeModule,
      "signed out",
      "/api/acme/complete",
      { json: { taskId: "acme-1" } },
      apiError(401, "Authentication required"),
      "visitor",
    ),
    api(
      completeModule,
      "a forged session cookie",
      "/api/acme/complete",
      { json: { taskId: "acme-1" } },
      apiError(401, "Authentication required"),
      "forged",
    ),
    {
      ...api(
        completeModule,
        "posted from another site",
        "/api/acme/complete",
        { json: { taskId: "acme-1" } },
        apiError(403, CROSS_SITE_MESSAGE),
      ),
      headers: { origin: "https://evil.example" },
    },
    ...otherMethods(completeModule, "/api/acme/complete", "POST").filter((c) => c.method !== "GET"),
  );

  // POST /api/push-tokens (JSON or a form): register, status or delete this device's token.
  const pushModule = "api.push-tokens.ts";
  const invalidRequest = apiError(400, "Invalid push token request");
  const notAccepted = apiError(400, ruleMessage("invalid_push_token"));
  const token = "fcm-token_0123456789:APA91bHxYz";
  cases.push(
    ...unreadableBodies(
      [
        ["intent", "register"],
        ["token", token],
      ],
      apiError(400, UNREADABLE),
      apiError(413, BODY_TOO_LARGE_MESSAGE),
    )
      .filter(([what]) => what !== "the form's fields as JSON")
      .map(([what, body, answer]) => api(pushModule, what, "/api/push-tokens", body, answer)),
    ...badIntents([
      ["intent", "register"],
      ["token", token],
    ]).map(([what, body]) => api(pushModule, what, "/api/push-tokens", body, invalidRequest)),
    // A token is 20 to 4,096 characters of the FCM alphabet; 400 digits would be one.
    ...badFields(
      [
        ["intent", "register"],
        ["token", token],
      ],
      {
        token: {
          wrong: notAccepted,
          blank: invalidRequest,
          whitespace: notAccepted,
          values: [
            ...NUMBER_AND_TEXT.filter(([label]) => label !== "400 digits"),
            ["with markup, 20 characters or more", `${MARKUP}-padding`],
            ["of 4,097 characters", "t".repeat(4097)],
          ],
        },
      },
      invalidRequest,
    ).map(([what, body, answer]) => api(pushModule, `register: ${what}`, "/api/push-tokens", body, answer)),
    ...(
      [
        ["a JSON number as token", { json: { intent: "register", token: 12345 } }, notAccepted],
        ["JSON null as token", { json: { intent: "register", token: null } }, invalidRequest],
        ["a JSON array as token", { json: { intent: "register", token: [token] } }, invalidRequest],
        ["a JSON object as intent", { json: { intent: { register: true }, token } }, invalidRequest],
        [
          "status of a token with a NUL character",
          { json: { intent: "status", token: `${token}\u0000` } },
          invalidRequest,
        ],
        [
          "delete of a token with a NUL character",
          { json: { intent: "delete", token: `${token}\u0000` } },
          invalidRequest,
        ],
        ["status without a token", { json: { intent: "status" } }, invalidRequest],
        ["delete without a token", { json: { intent: "delete" } }, invalidRequest],
      ] as [string, Body, Answer][]
    ).map(([what, body, answer]) => api(pushModule, what, "/api/push-tokens", body, answer)),
    api(
      pushModule,
      "signed out",
      "/api/push-tokens",
      { json: { intent: "register", token } },
      apiError(401, "Authentication required"),
      "visitor",
    ),
    api(
      pushModule,
      "a forged session cookie",
      "/api/push-tokens",
      { json: { intent: "register", token } },
      apiError(401, "Authentication required"),
      "forged",
    ),
    {
      ...api(
        pushModule,
        "posted from another site",
        "/api/push-tokens",
        { json: { intent: "register", token } },
        apiError(403, CROSS_SITE_MESSAGE),
      ),
      headers: { origin: "https://evil.example" },
    },
    ...otherMethods(pushModule, "/api/push-tokens", "POST").filter((c) => c.method === "GET"),
    ...badQueries("token")
      .slice(0, 4)
      .map(([what, query]) => ({
        module: pushModule,
        what: `GET with ${what}`,
        method: "GET",
        path: `/api/push-tokens${query}`,
        who: "member" as Who,
        answer: apiError(405, "Use POST"),
      })),
  );

  // GET or POST /api/{provider}/postback, signed by the provider (plain-text answers).
  const postbackModule = "api.$provider.postback.ts";
  const text = (status: number, message: string): Answer => ({ status, message });
  const nobody = "nobody-bad-input";
  const postbackBase: [string, string][] = [
    ["user_id", nobody],
    ["transaction_id", "tx-bad-input"],
    ["amount", "100"],
  ];
  const signed = (pairs: [string, string][]) =>
    [...pairs, ["sig", signPostback(Object.fromEntries(pairs), SECRET)]] as [string, string][];
  const postback = (what: string, pairs: [string, string][], answer: Answer, index: number): Case =>
    index % 2 === 0
      ? {
          module: postbackModule,
          what: `GET, ${what}`,
          method: "GET",
          path: `/api/acme/postback?${new URLSearchParams(pairs)}`,
          who: "provider",
          answer,
        }
      : {
          module: postbackModule,
          what: `POST, ${what}`,
          method: "POST",
          path: "/api/acme/postback",
          who: "provider",
          body: { form: pairs },
          answer,
        };
  const invalidPostback = text(400, "Invalid postback");
  // Ids of up to 200 characters; the base names nobody, so any well-formed one is an unknown user.
  const ids: FieldSpec["values"] = NUMBER_AND_TEXT.map(([label, value]) => [
    label,
    value,
    value.length > 200 ? invalidPostback : text(400, "Unknown user"),
  ]);
  const postbackFields: Record<string, FieldSpec> = {
    user_id: { wrong: invalidPostback, nul: invalidPostback, values: ids },
    transaction_id: { wrong: invalidPostback, nul: invalidPostback, values: ids },
    // -1 is a reversal (of nothing, for nobody), below.
    amount: {
      wrong: text(400, "Invalid amount"),
      nul: text(400, "Invalid amount"),
      values: NUMBER_AND_TEXT.filter(([label]) => label !== "-1"),
    },
    offer_id: {
      wrong: invalidPostback,
      nul: invalidPostback,
      blank: null,
      values: NUMBER_AND_TEXT.filter(([, value]) => !/^[\w.:-]{1,100}$/.test(value)),
    },
    status: {
      wrong: text(400, "Invalid status"),
      nul: text(400, "Invalid status"),
      blank: null,
      values: [...NUMBER_AND_TEXT, ["COMPLETED", "COMPLETED"]],
    },
  };
  let index = 0;
  for (const [what, body, answer] of badFields(postbackBase, postbackFields, text(400, "Duplicate parameter"))) {
    const pairs = "form" in body ? body.form : [];
    // A repeated name is refused before the signature; everything else is signed.
    const repeated = new Set(pairs.map(([name]) => name)).size < pairs.length;
    cases.push(postback(what, repeated ? pairs : signed(pairs), answer, index++));
  }
  cases.push(
    ...(
      [
        ["no signature", postbackBase, text(403, "Invalid signature")],
        ["an empty signature", [...postbackBase, ["sig", ""]], text(403, "Invalid signature")],
        ["a signature that is not hex", [...postbackBase, ["sig", "z".repeat(64)]], text(403, "Invalid signature")],
        ["a short signature", [...postbackBase, ["sig", "ab"]], text(403, "Invalid signature")],
        ["a wrong signature", [...postbackBase, ["sig", "0".repeat(64)]], text(403, "Invalid signature")],
        ["a signature with markup", [...postbackBase, ["sig", MARKUP]], text(403, "Invalid signature")],
        [
          "the signature of other values",
          [
            ...postbackBase.slice(0, 2),
            ["amount", "1000000"],
            ["sig", signPostback(Object.fromEntries(postbackBase), SECRET)],
          ],
          text(403, "Invalid signature"),
        ],
        [
          "an amount of -1 (a reversal) for nobody",
          signed([...postbackBase.slice(0, 2), ["amount", "-1"]]),
          text(400, "Unknown user"),
        ],
        [
          "an amount over 10,000,000",
          signed([...postbackBase.slice(0, 2), ["amount", "10000001"]]),
          text(400, "Invalid amount"),
        ],
      ] as [string, [string, string][], Answer][]
    ).map(([what, pairs, answer]) => postback(what, pairs, answer, index++)),
    {
      module: postbackModule,
      what: "a name in the query string and again in the body",
      method: "POST",
      path: `/api/acme/postback?user_id=${nobody}`,
      who: "provider",
      body: { form: signed(postbackBase) },
      answer: text(400, "Duplicate parameter"),
    },
    {
      module: postbackModule,
      what: "a JSON body",
      method: "POST",
      path: "/api/acme/postback",
      who: "provider",
      body: { json: Object.fromEntries(signed(postbackBase)) },
      answer: text(403, "Invalid signature"),
    },
    {
      module: postbackModule,
      what: "an empty body",
      method: "POST",
      path: "/api/acme/postback",
      who: "provider",
      body: { raw: "", type: "application/x-www-form-urlencoded" },
      answer: text(403, "Invalid signature"),
    },
    {
      module: postbackModule,
      what: "a body over 64 KB",
      method: "POST",
      path: "/api/acme/postback",
      who: "provider",
      body: { form: [...signed(postbackBase), ["padding", "x".repeat(MAX_BODY_BYTES)]] },
      answer: text(413, "Payload too large"),
    },
    ...["<b>", "٥", "-1", "ACME"].map((provider) => ({
      module: postbackModule,
      what: `the provider ${provider}`,
      method: "GET",
      path: `/api/${encodeURIComponent(provider)}/postback?${new URLSearchParams(signed(postbackBase))}`,
      who: "provider" as Who,
      answer: text(404, "Unknown provider"),
    })),
  );

  // POST /api/paypal/webhook: PayPal's events, checked with PayPal before anything is believed.
  const webhookModule = "api.paypal.webhook.ts";
  const webhook = (what: string, body: Body | undefined, answer: Answer, headers?: Record<string, string>): Case => ({
    module: webhookModule,
    what,
    method: "POST",
    path: "/api/paypal/webhook",
    who: "provider",
    body,
    headers,
    answer,
  });
  const invalidEvent = apiError(400, "Invalid webhook event");
  const event = (resource: unknown, eventType: unknown = "PAYMENT.PAYOUTS-ITEM.SUCCEEDED") => ({
    id: "WH-BAD-INPUT",
    event_type: eventType,
    resource_type: "payouts_item",
    resource,
  });
  cases.push(
    ...(
      [
        ["no body", undefined],
        ["an empty body", { raw: "", type: "application/json" }],
        ["JSON that does not parse", { raw: "{event_type:", type: "application/json" }],
        ["a form", { form: [["event_type", "PAYMENT.PAYOUTS-ITEM.SUCCEEDED"]] }],
        ["a JSON array", { json: [event({})] }],
        ["a JSON string", { json: "PAYMENT.PAYOUTS-ITEM.SUCCEEDED" }],
        ["JSON null", { json: null }],
        ["a JSON number", { json: 1e308 }],
        ["no event_type", { json: { resource: {} } }],
        ["no resource", { json: { event_type: "PAYMENT.PAYOUTS-ITEM.SUCCEEDED" } }],
        ["a number as event_type", { json: event({}, 5) }],
        ["null as event_type", { json: event({}, null) }],
        ["a string as resource", { json: event("payout") }],
        ["an array as resource", { json: event([]) }],
        ["XML", { raw: "<event/>", type: "application/xml" }],
      ] as [string, Body | undefined][]
    ).map(([what, body]) => webhook(what, body, invalidEvent)),
    webhook(
      "a body over 64 KB",
      { json: { ...event({}), padding: "x".repeat(MAX_BODY_BYTES) } },
      apiError(413, "Payload too large"),
    ),
    webhook(
      "an event without PayPal's signature headers",
      { json: event({ sender_item_id: "x" }) },
      apiError(403, "Invalid signature"),
    ),
    webhook(
      "an event with forged signature headers",
      { json: event({ sender_item_id: "x" }) },
      apiError(403, "Invalid signature"),
      {
        "paypal-auth-algo": "SHA256withRSA",
        "paypal-cert-url": "https://evil.example/cert",
        "paypal-transmission-id": "1",
        "paypal-transmission-sig": "Zm9yZ2Vk",
        "paypal-transmission-time": new Date().toISOString(),
      },
    ),
    ...otherMethods(webhookModule, "/api/paypal/webhook", "POST", "provider"),
  );
  // Signed by PayPal (the stand-in) but about nothing of ours: answered 200, so PayPal stops, and ignored.
  const senderIds: Value[] = [
    ...NUMBER_AND_TEXT,
    ["empty", ""],
    ["of 10,000 characters", OVERSIZED],
    ["with a NUL character", NUL],
    ["a UUID with markup", `${MARKUP}-0000-0000-0000-000000000000`],
  ];
  for (const [label, value] of senderIds) {
    cases.push(
      webhook(
        `a signed event whose sender_item_id is ${label}`,
        { json: event({ payout_item: { sender_item_id: value } }) },
        { status: 200, json: { received: true, ignored: "not a withdrawal" } },
      ),
    );
  }
  cases.push(
    webhook(
      "a signed event about a withdrawal that does not exist",
      { json: event({ payout_item: { sender_item_id: "00000000-0000-4000-8000-000000000000" } }) },
      { status: 200, json: { received: true, ignored: "unknown withdrawal" } },
    ),
    ...[...entries(TEXTS), ["an unknown type", "PAYMENT.PAYOUTS-ITEM.EXPLODED"] as Value].map(([label, value]) =>
      webhook(
        `a signed event whose event_type is ${label}`,
        { json: event({ payout_item: { sender_item_id: "00000000-0000-4000-8000-000000000000" } }, value) },
        { status: 200, json: { received: true, ignored: "event type" } },
      ),
    ),
  );

  // Resource routes that read only their URL: every bad query string, and every other method.
  const healthy: Answer = { status: 200, json: { status: "ok", database: "postgres" } };
  const script: Answer = { status: 200, contentType: "text/javascript", contains: 'addEventListener("push"' };
  const stream: Answer = { status: 200, contentType: "text/event-stream" };
  const signInForUpdates: Answer = { status: 401, message: "Sign in to receive updates" };
  const getCases = (module: string, base: string, who: Who, answer: Answer, param = "q") =>
    badQueries(param).map(([what, query]): Case => ({
      module,
      what: `GET with ${what}`,
      method: "GET",
      path: `${base}${query}`,
      who,
      answer,
    }));
  const junkHeaders: [string, Record<string, string>][] = [
    ["Accept: nonsense", { accept: "nonsense/*;q=x" }],
    ["a malformed If-None-Match", { "if-none-match": '"' }],
    ["a Range header", { range: "bytes=-1" }],
    ["a malformed Cookie", { cookie: "=;;;=%%%" }],
    ["a Content-Type on a GET", { "content-type": "application/json" }],
    ["If-Modified-Since: yesterday", { "if-modified-since": "yesterday" }],
    ["Accept-Encoding with a negative weight", { "accept-encoding": "br;q=2, *;q=-1" }],
    ["a header of 8,000 characters", { "x-padding": "x".repeat(8000) }],
    ["X-Forwarded-For with markup", { "x-forwarded-for": MARKUP }],
    ["X-Forwarded-Host of another site", { "x-forwarded-host": "evil.example" }],
    ["an Origin of another site", { origin: "https://evil.example" }],
    ["Last-Event-ID: markup", { "last-event-id": MARKUP }],
  ];
  const headerCases = (module: string, base: string, who: Who, answer: Answer) =>
    junkHeaders.map(([what, headers]): Case => ({
      module,
      what: `GET with ${what}`,
      method: "GET",
      path: base,
      who,
      headers,
      answer,
    }));
  cases.push(
    ...getCases("healthz.ts", "/healthz", "visitor", healthy),
    ...headerCases("healthz.ts", "/healthz", "visitor", healthy),
    ...otherMethods("healthz.ts", "/healthz", "GET", "visitor"),
    ...getCases("service-worker[.]js.ts", "/service-worker.js", "visitor", script),
    ...headerCases("service-worker[.]js.ts", "/service-worker.js", "visitor", script),
    ...otherMethods("service-worker[.]js.ts", "/service-worker.js", "GET", "visitor"),
    ...getCases("api.events.ts", "/api/events", "visitor", signInForUpdates, "since"),
    ...headerCases("api.events.ts", "/api/events", "visitor", signInForUpdates),
    ...getCases("api.events.ts", "/api/events", "forged", signInForUpdates, "since").slice(0, 3),
    ...getCases("api.events.ts", "/api/events", "member", stream, "since").slice(0, 5),
    ...headerCases("api.events.ts", "/api/events", "member", stream).slice(-1),
    ...otherMethods("api.events.ts", "/api/events", "GET", "member"),
    ...[
      ...NUMBER_AND_TEXT,
      ["of 10,000 characters", OVERSIZED] as Value,
      ["with a NUL character", NUL] as Value,
      ["in lower case, unknown", "abcdefg"] as Value,
      ["well-formed, unknown", "ABCDEFG"] as Value,
      ["with spaces around", " ABCDEFG "] as Value,
    ].map(([label, code]): Case => ({
      module: "api.referral-codes.$code.ts",
      what: `GET the code ${label}`,
      method: "GET",
      path: `/api/referral-codes/${encodeURIComponent(code)}`,
      who: "visitor",
      answer: { status: 200, json: { exists: false } },
    })),
    ...getCases(
      "api.referral-codes.$code.ts",
      "/api/referral-codes/ABCDEFG",
      "visitor",
      { status: 200, json: { exists: false } },
      "code",
    ),
    ...otherMethods("api.referral-codes.$code.ts", "/api/referral-codes/ABCDEFG", "GET", "visitor"),
    ...getCases("api.$provider.offers.ts", "/api/acme/offers", "member", {
      status: 200,
      json: { offers: expect.any(Array) },
    }),
    ...getCases(
      "api.$provider.offers.ts",
      "/api/acme/offers",
      "visitor",
      apiError(401, "Authentication required"),
    ).slice(0, 6),
    ...getCases(
      "api.$provider.offers.ts",
      "/api/acme/offers",
      "forged",
      apiError(401, "Authentication required"),
    ).slice(0, 3),
    ...[...NUMBER_AND_TEXT, ["ACME", "ACME"] as Value].map(([label, provider]): Case => ({
      module: "api.$provider.offers.ts",
      what: `GET the provider ${label}`,
      method: "GET",
      path: `/api/${encodeURIComponent(provider)}/offers`,
      who: "member",
      answer: apiError(404, "Unknown offer provider"),
    })),
    ...otherMethods("api.$provider.offers.ts", "/api/acme/offers", "GET", "member"),
  );

  // Pages without an action: a form posted to them is answered by the page, not by a crash.
  for (const [module, pagePath] of [
    ["legal.tsx", "/legal"],
    ["leaderboard.tsx", "/leaderboard"],
    ["referral.tsx", "/referral"],
    ["$.tsx", "/no-such-page"],
  ]) {
    for (const [what, body] of unreadableBodies([["intent", "x"]], unreadablePage, unreadablePage)) {
      cases.push({
        module: module!,
        what: `POST ${what}`,
        method: "POST",
        path: pagePath!,
        who: "member",
        body,
        answer: page(405, PAGE_NOT_A_FORM),
      });
    }
  }
  return cases;
}

const CASES = allCases();

const describeAnswer = (answer: Answer) =>
  "redirect" in answer
    ? `302 to ${answer.redirect}${answer.flash ? ` saying "${answer.flash}"` : ""}`
    : "message" in answer
      ? `${answer.status} "${answer.message}"`
      : "json" in answer
        ? `${answer.status} ${JSON.stringify(answer.json)}`
        : `${answer.status} ${answer.contentType}`;

// ---------------------------------------------------------------------------------------------
// The run

describe("bad input, everywhere: malformed requests to every route with an action and every resource route", () => {
  let app: PostgresApp;
  let paypal: PayPalStandIn;
  let provider: Awaited<ReturnType<typeof startOfferProvider>>;
  const cookies = new Map<Who, Map<string, string>>();

  async function userId(email: string) {
    const [row] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    return row!.id;
  }

  /** A signed-in account with $20.00, verified unless told otherwise. */
  async function account(verified = true) {
    const { client, email, response } = await app.signUp();
    expect(response.status).toBe(302);
    const id = await userId(email);
    if (verified) await app.sql("select record_email_verified($1)", [id]);
    await app.sql("select add_user_coins($1, 2000)", [id]);
    return { cookies: new Map(client.cookies) };
  }

  beforeAll(async () => {
    [paypal, provider] = await Promise.all([startPayPalStandIn(), startOfferProvider()]);
    app = await startPostgresApp({
      OFFER_PROVIDER: "acme",
      OFFER_PROVIDER_API_URL: provider.url,
      OFFER_POSTBACK_SECRET: SECRET,
      AUTH_GLOBAL_LIMIT_PER_MINUTE: "100000",
      ...paypal.env,
    });
    cookies.set("member", (await account()).cookies);
    cookies.set("unverified", (await account(false)).cookies);
    cookies.set("newcomer", new Map());
    cookies.set("visitor", new Map([["hasSeenOnboarding", "true"]]));
    cookies.set("provider", new Map());
    cookies.set(
      "forged",
      new Map([
        ["hasSeenOnboarding", "true"],
        ["__session", "forged.session.cookie"],
      ]),
    );
    const leavers = new Set(CASES.map((c) => c.who).filter((who) => who.startsWith("leaver")));
    for (const leaver of leavers) cookies.set(leaver, (await account()).cookies);
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    await paypal?.close();
    await provider?.close();
  });

  /** Sends a case's request: its cookies, a same-origin browser's headers, its body. */
  async function send(c: Case, extraCookies = new Map<string, string>()) {
    const fresh = (pairs: [string, string][]) =>
      pairs.map(([name, value]): [string, string] => [name, value === FRESH_EMAIL ? uniqueEmail("bad-input") : value]);
    const { body, type } = encodeBody(c.body && "form" in c.body ? { form: fresh(c.body.form) } : c.body);
    const jar = new Map([...(cookies.get(c.who) ?? []), ...extraCookies]);
    const headers: Record<string, string> = {
      origin: new URL(app.url).origin,
      "sec-fetch-site": "same-origin",
      ...(jar.size > 0 ? { cookie: cookieHeader(jar) } : {}),
      ...(type ? { "content-type": type } : {}),
      ...c.headers,
    };
    let signed = headers;
    if (c.module === "api.paypal.webhook.ts" && c.what.startsWith("a signed event") && "json" in c.body!) {
      signed = { ...headers, ...paypal.signedHeaders(c.body.json) };
    }
    return fetch(new URL(c.path, app.url), {
      method: c.method ?? (c.body ? "POST" : "GET"),
      headers: signed,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(20_000),
    });
  }

  const kindOf = (c: Case): Kind =>
    c.module === "api.$provider.postback.ts" || c.module === "api.events.ts"
      ? "text"
      : c.module.startsWith("api.") || c.module === "healthz.ts"
        ? "json"
        : "page";

  async function check(c: Case, expect: ExpectStatic) {
    const response = await send(c);
    expect(response.status, "never a 5xx").toBeLessThan(500);
    const answer = c.answer;
    if ("contentType" in answer && answer.contentType === "text/event-stream") {
      await response.body?.cancel();
    }
    const body = "contentType" in answer && answer.contentType === "text/event-stream" ? "" : await response.text();
    expect(body.includes(MARKUP), "markup never comes back unescaped").toBe(false);
    if ("redirect" in answer) {
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(answer.redirect);
      if (answer.flash) {
        const next = await send(
          { ...c, method: "GET", path: answer.redirect, body: undefined, headers: undefined },
          setCookies(response),
        );
        expect(visibleText(await next.text())).toContain(answer.flash);
      }
      return;
    }
    expect(response.status, body.slice(0, 500)).toBe(answer.status);
    if ("contentType" in answer) {
      expect(response.headers.get("content-type")).toContain(answer.contentType);
      if (answer.contains) expect(body).toContain(answer.contains);
    } else if ("json" in answer) {
      expect(JSON.parse(body)).toMatchObject(answer.json);
    } else if (kindOf(c) === "page") {
      expect(visibleText(body), "the message is on the page a person sees").toContain(answer.message);
    } else if (kindOf(c) === "json") {
      expect(JSON.parse(body)).toEqual({ success: false, error: answer.message });
    } else {
      expect(body).toBe(answer.message);
    }
  }

  it("has at least 50 cases for every route module that has an action and every resource route", () => {
    const dir = path.resolve("app/routes");
    const required = readdirSync(dir).filter((file) => {
      const source = readFileSync(path.join(dir, file), "utf8");
      const hasAction = /export (async )?function action\b|export const action\b|export \{[^}]*\baction\b/.test(source);
      const isResource = !/export default\b/.test(source);
      return hasAction || isResource;
    });
    const counts = Object.fromEntries(required.map((file) => [file, CASES.filter((c) => c.module === file).length]));
    const short = Object.entries(counts).filter(([, count]) => count < 50);
    expect(short, `cases per route: ${JSON.stringify(counts)}`).toEqual([]);
  });

  for (const module of [...new Set(CASES.map((c) => c.module))]) {
    describe(module, () => {
      let before: Awaited<ReturnType<typeof ledgerAudit>>;
      beforeAll(async () => {
        before = await ledgerAudit(app.sql);
        expect(before.problems).toEqual([]);
      });

      describe.concurrent("each answer: no 5xx, the route's message, no markup echoed", () => {
        for (const c of CASES.filter((candidate) => candidate.module === module)) {
          it(`${c.method ?? "POST"} ${c.path.slice(0, 60)} (${c.who}): ${c.what} → ${describeAnswer(c.answer)}`, ({
            expect: localExpect,
          }) => check(c, localExpect));
        }
      });

      it("leaves the ledger audit unchanged: every balance equals its ledger, none negative, nothing written", async () => {
        const after = await ledgerAudit(app.sql);
        expect(after.problems).toEqual([]);
        expect(after.fingerprint).toEqual(before.fingerprint);
      });
    });
  }
});
