import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from "vitest";
import { AUTH_MESSAGES } from "~/domain/auth";
import { hasHiddenCharacters } from "~/domain/hidden-characters";
import { FEEDBACK_MESSAGES } from "~/routes/profile/profile-forms";
import { WALL_FORM_MESSAGES } from "~/domain/operator-walls";
import { WITHDRAWAL_MESSAGES } from "~/domain/withdrawal-review-forms";
import { ruleMessage } from "~/domain/rules";
import { invalidSettingMessage, parseSettingInput, SETTINGS, type Setting } from "~/domain/settings";
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
import { newMember, newOperator } from "../support/console";
import { uniqueEmail } from "../support/http";
import { ledgerAudit } from "../support/ledger-audit";
import { signPostback, startOfferProvider } from "../support/offer-provider";
import { startPayPalStandIn, type PayPalStandIn } from "../support/paypal";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { ROUTES_DIR, routeModules } from "../support/route-modules";

// Issue 10, "Bad input, everywhere": malformed requests to every route module that has an action
// and to every resource route, generated from tables (route → forms and intents → fields → bad
// values). Each answer is checked for its status (never a 5xx), the route's message for that field
// or form (on a page: in the text a person sees, not only in the page's data) and that no markup
// comes back unescaped. The ledger audit, and everything else bad input must not touch, is taken
// before and after each route's cases and must not change. The app runs with an offer provider,
// postbacks and PayPal configured (local stand-ins), so that every route gets past its
// configuration to the input.

const SECRET = "postback-secret-for-bad-input";
const OVERSIZED = "x".repeat(10_000);
const NUL = "a\u0000b";
/** Stands for a new address in each request (the sign-in limits count per address). */
const FRESH_EMAIL = "{fresh-email}";
/** Stands for the version of the settings as they are (the console's settings form carries it). */
const SETTINGS_VERSION = "{settings-version}";
const FOREIGN = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };
const NUMBER_AND_TEXT = [...entries(NUMBERS), ...entries(TEXTS)];

/** Who sends a request: the cookies it carries. */
type Who =
  | "newcomer"
  | "visitor"
  | "member"
  | "unverified"
  | "forged"
  | "provider"
  | "operator"
  | "owner"
  | `leaver${number}`
  | `deleter${number}`;

/**
 * What a route must answer. `message` is read the route's way: the text of a page, `{ success:
 * false, error }` from an API, the whole body of a plain-text answer.
 */
type Answer =
  | { status: number; message: string }
  | { status: number; json: Record<string, unknown> }
  | { status: number; contentType: string; contains?: string }
  | { redirect: string; flash?: string };

interface Case {
  module: string;
  what: string;
  method: string;
  path: string;
  who: Who;
  body?: Body;
  headers?: Record<string, string>;
  answer: Answer;
}

const say = (message: string, status = 400): Answer => ({ status, message });
const UNREADABLE = say(UNREADABLE_FORM_MESSAGE);
const TOO_LARGE = say(BODY_TOO_LARGE_MESSAGE, 413);
const form = (fields: Record<string, string>, ...more: [string, string][]): Body => ({
  form: [...Object.entries(fields), ...more],
});

/** Cases of one route module, by default from `who` to `path` with `method`. */
function route(module: string, method: string, path: string, who: Who) {
  return (what: string, body: Body | undefined, answer: Answer, more: Partial<Case> = {}): Case => ({
    module,
    what,
    method,
    path,
    who,
    body,
    answer,
    ...more,
  });
}

// ---------------------------------------------------------------------------------------------
// Generators

/** Bodies a form route cannot read, whatever its fields (`valid` are the fields of one of its forms). */
function unreadableBodies(valid: [string, string][], unreadable = UNREADABLE, tooLarge = TOO_LARGE) {
  const fields = new URLSearchParams(valid).toString();
  return [
    ["no body and no content type", undefined, unreadable],
    ["the form's fields as JSON", { json: Object.fromEntries(valid) }, unreadable],
    ["the form's fields as text/plain", { raw: fields, type: "text/plain" }, unreadable],
    ["the form's fields as XML", { raw: "<form><intent>x</intent></form>", type: "application/xml" }, unreadable],
    ["multipart without a boundary", { raw: fields, type: "multipart/form-data" }, unreadable],
    ["a broken multipart body", { raw: "--b\r\ngarbage", type: "multipart/form-data; boundary=b" }, unreadable],
    ["a body over 64 KB", { form: [...valid, ["padding", "x".repeat(MAX_BODY_BYTES)]] }, tooLarge],
  ] as [string, Body | undefined, Answer][];
}

/** Ways a form's `intent` (which of the page's forms was sent) can be wrong. */
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
    ...NUMBER_AND_TEXT.map(([label, value]): [string, Body] => [`the intent ${label}`, withIntent(["intent", value])]),
  ];
}

/** A field's answers; a string is a 400 with that message. `null` leaves a kind of value out. */
interface FieldSpec {
  /** The answer to a wrong value. */
  wrong: string | Answer;
  /** Missing or empty (default: `wrong`); only spaces (default: `blank`); 10,000 characters (default: `wrong`). */
  blank?: string | Answer | null;
  whitespace?: string | Answer | null;
  oversized?: string | Answer | null;
  /** A NUL character (default: the route's answer to a form it cannot read). */
  nul?: string | Answer;
  /** The wrong values (default: every number, text and markup value), a few with an answer of their own. */
  values?: (Value | [label: string, value: string, answer: Answer])[];
}

const answer = (value: string | Answer): Answer => (typeof value === "string" ? say(value) : value);

/**
 * `values`, those with a hidden character (TEXTS has a right-to-left override and a zero-width
 * space) answered `hidden`: a display name and a recipient refuse them with a message of their own.
 */
function withHidden(values: Value[], hidden: string): FieldSpec["values"] {
  return values.map(([label, value]) => (hasHiddenCharacters(value) ? [label, value, say(hidden)] : [label, value]));
}

/** Each field's bad values in an otherwise valid form: missing, blank, twice, oversized, NUL, wrong. */
function badFields(valid: [string, string][], fields: Record<string, FieldSpec>, unreadable = UNREADABLE) {
  const cases: [string, Body, Answer][] = [];
  for (const [field, spec] of Object.entries(fields)) {
    const others = valid.filter(([name]) => name !== field);
    const current = valid.find(([name]) => name === field)?.[1] ?? "x";
    const set = (value: string): Body => ({ form: [...others, [field, value]] });
    const blank = spec.blank === undefined ? spec.wrong : spec.blank;
    const whitespace = spec.whitespace === undefined ? blank : spec.whitespace;
    const oversized = spec.oversized === undefined ? spec.wrong : spec.oversized;
    if (blank)
      cases.push([`no ${field}`, { form: others }, answer(blank)], [`an empty ${field}`, set(""), answer(blank)]);
    if (whitespace) cases.push([`${field} only spaces`, set("   "), answer(whitespace)]);
    if (oversized) cases.push([`${field} of 10,000 characters`, set(OVERSIZED), answer(oversized)]);
    cases.push(
      [`${field} twice`, { form: [...others, [field, current], [field, current]] }, unreadable],
      [`a NUL character in ${field}`, set(NUL), spec.nul ? answer(spec.nul) : unreadable],
    );
    for (const [label, value, own] of spec.values ?? NUMBER_AND_TEXT) {
      cases.push([`${field} ${label}`, set(value), own ?? answer(spec.wrong)]);
    }
  }
  return cases;
}

interface FormSpec {
  /** The form, for the test's name ("withdraw by UPI"). */
  name: string;
  /** Where the page that holds the form posts it. */
  path: string;
  valid: Record<string, string>;
  fields?: Record<string, FieldSpec>;
}

/**
 * Every case of a page with an action: bodies it cannot read, bad intents, each form's bad fields,
 * a post from another site, and (`signedOut`) the same signed out and with a forged session cookie.
 */
function pageCases(
  module: string,
  who: Who,
  forms: FormSpec[],
  { signedOut, extra = [] }: { signedOut?: { path: string; answer: Answer }; extra?: Case[] } = {},
): Case[] {
  const first = forms[0]!;
  const valid = Object.entries(first.valid);
  const at = (spec: FormSpec) => (what: string, body: Body | undefined, answer: Answer) =>
    route(module, "POST", spec.path, who)(`${spec.name}: ${what}`, body, answer);
  const cases = [
    ...unreadableBodies(valid).map(([what, body, answer]) => at(first)(what, body, answer)),
    ...badIntents(valid).map(([what, body]) => at(first)(what, body, UNREADABLE)),
    ...forms.flatMap((spec) =>
      badFields(Object.entries(spec.valid), spec.fields ?? {}).map(([what, body, answer]) =>
        at(spec)(what, body, answer),
      ),
    ),
    { ...at(first)("posted from another site", form(first.valid), say(CROSS_SITE_MESSAGE, 403)), headers: FOREIGN },
  ];
  if (signedOut) {
    for (const [as, how] of [
      ["visitor", "signed out"],
      ["forged", "with a forged session cookie"],
    ] as const) {
      for (const [what, body] of [...badIntents(valid).slice(0, 6), ["the valid form", form(first.valid)] as const]) {
        cases.push(route(module, "POST", signedOut.path, as)(`${first.name} ${how}: ${what}`, body, signedOut.answer));
      }
    }
  }
  return [...cases, ...extra];
}

/** Every method but the one a resource route takes, with a few bodies: 405 saying which to use. */
function otherMethods(module: string, path: string, allowed: "GET" | "POST", who: Who = "member"): Case[] {
  const methods = allowed === "GET" ? ["POST", "PUT", "PATCH", "DELETE"] : ["GET", "PUT", "PATCH", "DELETE"];
  const bodies: [string, Body | undefined][] = [
    ["no body", undefined],
    ["a form", form({ intent: "x" })],
    ["JSON", { json: { a: 1 } }],
  ];
  return methods.flatMap((method) =>
    bodies
      .filter(([, body]) => method !== "GET" || !body)
      .map(([what, body]) =>
        route(
          module,
          method,
          path,
          who,
        )(`${method} with ${what}`, body, { status: 405, json: { success: false, error: `Use ${allowed}` } }),
      ),
  );
}

/** Query strings a GET route must shrug off: numbers, unicode, markup, NUL, repeats, sizes. */
function badQueries(param: string): [string, string][] {
  return [
    ...NUMBER_AND_TEXT.map(([label, value]): [string, string] => [
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

const JUNK_HEADERS: [string, Record<string, string>][] = [
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

/** A GET route's bad queries and junk headers, each answered `answer`. */
function getCases(module: string, path: string, who: Who, answer: Answer, param = "q"): Case[] {
  const get = route(module, "GET", path, who);
  return [
    ...badQueries(param).map(([what, query]) => get(`GET with ${what}`, undefined, answer, { path: path + query })),
    ...JUNK_HEADERS.map(([what, headers]) => get(`GET with ${what}`, undefined, answer, { headers })),
  ];
}

// ---------------------------------------------------------------------------------------------
// The routes

const TASK_GONE = "This task is no longer available";

const homeCases = [
  ...pageCases("_index/route.tsx", "newcomer", [
    { name: "onboarding", path: "/?index", valid: { intent: "complete-onboarding" } },
  ]),
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
    ],
    { signedOut: { path: "/?index", answer: { redirect: "/auth" } } },
  ),
];

// Each sign-in, sign-up and reset has an address of its own; none makes an account or sends an email.
const badEmail: FieldSpec = {
  wrong: AUTH_MESSAGES.invalidEmailFormat,
  blank: AUTH_MESSAGES.fillAllFields,
  whitespace: AUTH_MESSAGES.invalidEmail,
  values: [...NUMBER_AND_TEXT, ["without a domain", "pat@"], ['"٥@٥"', "٥@٥"]],
};
const badCode: FieldSpec = { wrong: ruleMessage("invalid_referral_code"), blank: null };
const authCases = pageCases("auth/route.tsx", "visitor", [
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
]);

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
  ],
  {
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

// My offers' missing-credit report (docs/offer-walls.md), for the offer provider's network: a
// network it does not list and a day that is no date are refused; no case sends a whole valid
// report, so none is recorded (five open reports would refuse the rest).
const MISSING_CREDIT_DAY = new Date().toISOString().slice(0, 10);
const myOffersCases = pageCases("earn_.offers/route.tsx", "member", [
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
        blank: ruleMessage("missing_credit_fields_required"),
      },
    },
  },
]);

// Log out reads no fields: whatever is posted, this device is signed out (a few signed in, each
// by an account of its own, since a log out ends every session of the account).
const LOGGED_OUT: Answer = { redirect: "/auth", flash: AUTH_MESSAGES.loggedOut };
const logout = route("logout/route.tsx", "POST", "/logout", "visitor");
const logoutBodies: [string, Body | undefined][] = [
  ...unreadableBodies([["intent", "logout"]]).map(([what, body]): [string, Body | undefined] => [what, body]),
  ...badIntents([["intent", "logout"]]),
  ...entries(TEXTS).map(([label, value]): [string, Body] => [`redirectTo ${label}`, form({ redirectTo: value })]),
];
const logoutCases = [
  ...logoutBodies.map(([what, body]) => logout(`signed out: ${what}`, body, LOGGED_OUT)),
  ...logoutBodies
    .slice(0, 6)
    .map(([what, body], i) => logout(`signed in: ${what}`, body, LOGGED_OUT, { who: `leaver${i}` })),
  logout("posted from another site", form({}), say(CROSS_SITE_MESSAGE, 403), { who: "member", headers: FOREIGN }),
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
      {
        name: "a notification switch",
        path: "/profile",
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
        path: "/profile?tab=account&confirm=deactivate",
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
        path: "/profile",
        valid: { intent: "delete-account", password: "not-the-password" },
        fields: { password: { wrong: DELETE_FAILED }, idToken: { wrong: DELETE_FAILED } },
      },
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
    ],
    { signedOut: { path: "/profile", answer: { redirect: "/auth?redirectTo=%2Fprofile" } } },
  ),
);

// Settings (docs/decisions/071-settings-is-a-real-page.md): Profile's switches, deactivation and
// deletion posted here, and Sign out of every device, which reads no fields (a valid one would end
// the member's sessions, so only its unreadable forms are cases).
const settingsCases = spreadDeleteCases(
  pageCases(
    "settings/route.tsx",
    "member",
    [
      {
        name: "a notification switch",
        path: "/settings",
        valid: { intent: "notification", kind: "marketing", enabled: "off" },
        fields: {
          kind: { wrong: NOTICE_REFUSED },
          enabled: { wrong: NOTICE_REFUSED, values: [...NUMBER_AND_TEXT, ["ON", "ON"], ["true", "true"]] },
          respond: { wrong: NOTICE_REFUSED, blank: null },
        },
      },
      {
        name: "Deactivate",
        path: "/settings?confirm=deactivate",
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
        path: "/settings",
        valid: { intent: "delete-account", password: "not-the-password" },
        fields: { password: { wrong: DELETE_FAILED }, idToken: { wrong: DELETE_FAILED } },
      },
    ],
    {
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
  withdrawals_per_hour: "5",
  risk_review_threshold: "50",
  review_first_withdrawal: "no",
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

// POST /api/{provider}/complete (JSON or a form; the user comes from the session).
const GONE = say(TASK_GONE, 404);
const complete = route("api.$provider.complete.ts", "POST", "/api/acme/complete", "member");
const jsonBodies: [string, Body][] = [
  ["an empty form", { raw: "", type: "application/x-www-form-urlencoded" }],
  ["JSON that does not parse", { raw: "{taskId: acme-1", type: "application/json" }],
  ["a JSON array", { json: ["acme-1"] }],
  ["a JSON string", { json: "acme-1" }],
  ["JSON null", { json: null }],
  ["a JSON number", { json: 5 }],
  ["1e309 in JSON", { raw: '{"taskId":1e309}', type: "application/json" }],
];
const completeCases = [
  ...unreadableBodies([["taskId", "acme-1"]])
    .filter(([what]) => what !== "the form's fields as JSON")
    .map(([what, body, answer]) => complete(what, body, answer)),
  ...badFields([["taskId", "acme-1"]], { taskId: { wrong: GONE } }, GONE).map(([what, body, answer]) =>
    complete(what, body, answer),
  ),
  ...[
    ...jsonBodies,
    ...([5, true, null, { id: "acme-1" }, ["acme-1"]].map((taskId) => [
      `${JSON.stringify(taskId)} as taskId in JSON`,
      { json: { taskId } },
    ]) as [string, Body][]),
  ].map(([what, body]) => complete(what, body, GONE)),
  complete("Conform's intent field", form({ taskId: "acme-1" }, ["__intent__", "garbage"]), GONE),
  complete("Conform's state field", form({ taskId: "acme-1" }, ["__state__", "garbage"]), GONE),
  complete("a task that was never started", { json: { taskId: "acme-2" } }, say(ruleMessage("task_not_started"))),
  ...["<b>", "٥", "-1", "9".repeat(400), "ACME"].map((provider) =>
    complete(
      `the provider ${provider.slice(0, 12)}`,
      { json: { taskId: "acme-1" } },
      say("Unknown offer provider", 404),
      { path: `/api/${encodeURIComponent(provider)}/complete` },
    ),
  ),
  complete("signed out", { json: { taskId: "acme-1" } }, say("Authentication required", 401), { who: "visitor" }),
  complete("a forged session cookie", { json: { taskId: "acme-1" } }, say("Authentication required", 401), {
    who: "forged",
  }),
  complete("posted from another site", { json: { taskId: "acme-1" } }, say(CROSS_SITE_MESSAGE, 403), {
    headers: FOREIGN,
  }),
  ...otherMethods("api.$provider.complete.ts", "/api/acme/complete", "POST"),
];

// POST /api/push-tokens (JSON or a form): register, check or forget this device's token.
const INVALID_PUSH_REQUEST = say("Invalid push token request");
const TOKEN_REFUSED = say(ruleMessage("invalid_push_token"));
const TOKEN = "fcm-token_0123456789:APA91bHxYz";
const push = route("api.push-tokens.ts", "POST", "/api/push-tokens", "member");
const REGISTER: [string, string][] = [
  ["intent", "register"],
  ["token", TOKEN],
];
const pushCases = [
  ...unreadableBodies(REGISTER)
    .filter(([what]) => what !== "the form's fields as JSON")
    .map(([what, body, answer]) => push(what, body, answer)),
  ...badIntents(REGISTER).map(([what, body]) => push(what, body, INVALID_PUSH_REQUEST)),
  // A token is 20 to 4,096 characters of FCM's alphabet: 400 digits would be one.
  ...badFields(
    REGISTER,
    {
      token: {
        wrong: TOKEN_REFUSED,
        blank: INVALID_PUSH_REQUEST,
        whitespace: TOKEN_REFUSED,
        values: [
          ...NUMBER_AND_TEXT.filter(([label]) => label !== "400 digits"),
          ["with markup, 20 characters or more", `${MARKUP}-padding`],
          ["of 4,097 characters", "t".repeat(4097)],
        ],
      },
    },
    INVALID_PUSH_REQUEST,
  ).map(([what, body, answer]) => push(`register: ${what}`, body, answer)),
  ...(
    [
      ["a JSON number as token", { intent: "register", token: 12345 }, TOKEN_REFUSED],
      ["JSON null as token", { intent: "register", token: null }, INVALID_PUSH_REQUEST],
      ["a JSON array as token", { intent: "register", token: [TOKEN] }, INVALID_PUSH_REQUEST],
      ["a JSON object as intent", { intent: { register: true }, token: TOKEN }, INVALID_PUSH_REQUEST],
      ["status of a token with a NUL character", { intent: "status", token: `${TOKEN}\u0000` }, INVALID_PUSH_REQUEST],
      ["delete of a token with a NUL character", { intent: "delete", token: `${TOKEN}\u0000` }, INVALID_PUSH_REQUEST],
      ["status without a token", { intent: "status" }, INVALID_PUSH_REQUEST],
      ["delete without a token", { intent: "delete" }, INVALID_PUSH_REQUEST],
    ] as [string, unknown, Answer][]
  ).map(([what, json, answer]) => push(what, { json }, answer)),
  push("signed out", { json: { intent: "register", token: TOKEN } }, say("Authentication required", 401), {
    who: "visitor",
  }),
  push("a forged session cookie", { json: { intent: "register", token: TOKEN } }, say("Authentication required", 401), {
    who: "forged",
  }),
  push("posted from another site", { json: { intent: "register", token: TOKEN } }, say(CROSS_SITE_MESSAGE, 403), {
    headers: FOREIGN,
  }),
  ...otherMethods("api.push-tokens.ts", "/api/push-tokens", "POST"),
];

// GET or POST /api/{provider}/postback, signed by the provider; plain-text answers. The base names
// nobody, so a postback whose other values are fine is an unknown user: nothing is ever credited.
const text = say;
/** A postback refused for what it holds says why, in the network adapter's words. */
const invalidPostback = (reason: string) => text(`Invalid postback: ${reason}`);
const UNREADABLE_AMOUNT = invalidPostback("missing or unreadable amount");
const TWICE = invalidPostback("a parameter appears twice");
const POSTBACK: [string, string][] = [
  ["user_id", "nobody-bad-input"],
  ["transaction_id", "tx-bad-input"],
  ["amount", "100"],
];
const signed = (pairs: [string, string][]): [string, string][] => [
  ...pairs,
  ["sig", signPostback(Object.fromEntries(pairs), SECRET)],
];
let postbacks = 0;
/** GET and POST in turn. */
function postback(what: string, pairs: [string, string][], answer: Answer): Case {
  const send = route("api.$provider.postback.ts", "POST", "/api/acme/postback", "provider");
  return postbacks++ % 2 === 0
    ? send(`GET, ${what}`, undefined, answer, {
        method: "GET",
        path: `/api/acme/postback?${new URLSearchParams(pairs)}`,
      })
    : send(`POST, ${what}`, { form: pairs }, answer);
}
// Ids of up to 200 characters; any well-formed one is an unknown user.
const ids = (name: string): FieldSpec["values"] =>
  NUMBER_AND_TEXT.map(([label, value]) => [
    label,
    value,
    value.length > 200 ? invalidPostback(`missing or unreadable ${name}`) : text("Unknown user"),
  ]);
const UNREADABLE_USER_ID = invalidPostback("missing or unreadable user id");
const UNREADABLE_TRANSACTION_ID = invalidPostback("missing or unreadable transaction id");
const NOT_A_TASK_ID = invalidPostback("an offer_id that is no task id");
const BAD_STATUS = invalidPostback("status must be completed or reversed");
const postbackCases = [
  ...badFields(
    POSTBACK,
    {
      user_id: { wrong: UNREADABLE_USER_ID, nul: UNREADABLE_USER_ID, values: ids("user id") },
      transaction_id: {
        wrong: UNREADABLE_TRANSACTION_ID,
        nul: UNREADABLE_TRANSACTION_ID,
        values: ids("transaction id"),
      },
      // -1 is a reversal, below.
      amount: {
        wrong: UNREADABLE_AMOUNT,
        nul: UNREADABLE_AMOUNT,
        values: NUMBER_AND_TEXT.filter(([label]) => label !== "-1").map(([label, value]) => [
          label,
          value,
          value === "0" ? invalidPostback("an amount of zero coins") : UNREADABLE_AMOUNT,
        ]),
      },
      offer_id: {
        wrong: NOT_A_TASK_ID,
        nul: NOT_A_TASK_ID,
        blank: null,
        values: NUMBER_AND_TEXT.filter(([, value]) => !/^[\w.:-]{1,100}$/.test(value)),
      },
      status: {
        wrong: BAD_STATUS,
        nul: BAD_STATUS,
        blank: null,
        values: [...NUMBER_AND_TEXT, ["COMPLETED", "COMPLETED"]],
      },
    },
    TWICE,
  ).map(([what, body, answer]) => {
    const pairs = "form" in body ? body.form : [];
    // A repeated name is refused before the signature is looked at; everything else is signed.
    return postback(what, new Set(pairs.map(([name]) => name)).size < pairs.length ? pairs : signed(pairs), answer);
  }),
  ...(
    [
      ["no signature", POSTBACK],
      ["an empty signature", [...POSTBACK, ["sig", ""]]],
      ["a signature that is not hex", [...POSTBACK, ["sig", "z".repeat(64)]]],
      ["a short signature", [...POSTBACK, ["sig", "ab"]]],
      ["a wrong signature", [...POSTBACK, ["sig", "0".repeat(64)]]],
      ["a signature with markup", [...POSTBACK, ["sig", MARKUP]]],
      ["the signature of other values", [...POSTBACK.slice(0, 2), ["amount", "1000000"], signed(POSTBACK)[3]!]],
    ] as [string, [string, string][]][]
  ).map(([what, pairs]) => postback(what, pairs, text("Invalid signature", 403))),
  postback(
    "an amount of -1 (a reversal) for nobody",
    signed([...POSTBACK.slice(0, 2), ["amount", "-1"]]),
    text("Unknown user"),
  ),
  postback(
    "an amount over 10,000,000",
    signed([...POSTBACK.slice(0, 2), ["amount", "10000001"]]),
    invalidPostback("amount over the cap of 10,000,000 coins a postback"),
  ),
  ...(
    [
      ["a name in the query string and again in the body", { form: signed(POSTBACK) }, TWICE, "?user_id=x"],
      ["a JSON body", { json: Object.fromEntries(signed(POSTBACK)) }, text("Invalid signature", 403), ""],
      ["an empty body", { raw: "", type: "application/x-www-form-urlencoded" }, text("Invalid signature", 403), ""],
      [
        "a body over 64 KB",
        { form: [...signed(POSTBACK), ["padding", "x".repeat(MAX_BODY_BYTES)]] },
        text("Payload too large", 413),
        "",
      ],
    ] as [string, Body, Answer, string][]
  ).map(([what, body, answer, query]) =>
    route("api.$provider.postback.ts", "POST", `/api/acme/postback${query}`, "provider")(`POST, ${what}`, body, answer),
  ),
  ...["<b>", "٥", "-1", "ACME"].map((provider) =>
    route(
      "api.$provider.postback.ts",
      "GET",
      `/api/${encodeURIComponent(provider)}/postback?${new URLSearchParams(signed(POSTBACK))}`,
      "provider",
    )(`GET, the provider ${provider}`, undefined, text("Unknown provider", 404)),
  ),
];

// POST /api/paypal/webhook: nothing is believed before PayPal confirms the signature. A signed
// event about nothing of ours is answered 200 (so PayPal stops) and ignored.
const webhook = route("api.paypal.webhook.ts", "POST", "/api/paypal/webhook", "provider");
const SIGNED_EVENT = "a signed event";
const event = (resource: unknown, eventType: unknown = "PAYMENT.PAYOUTS-ITEM.SUCCEEDED") => ({
  id: "WH-BAD-INPUT",
  event_type: eventType,
  resource_type: "payouts_item",
  resource,
});
const UNKNOWN_WITHDRAWAL = { payout_item: { sender_item_id: "00000000-0000-4000-8000-000000000000" } };
const webhookCases = [
  ...(
    [
      ["no body", undefined],
      ["an empty body", { raw: "", type: "application/json" }],
      ["JSON that does not parse", { raw: "{event_type:", type: "application/json" }],
      ["a form", form({ event_type: "PAYMENT.PAYOUTS-ITEM.SUCCEEDED" })],
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
  ).map(([what, body]) => webhook(what, body, say("Invalid webhook event"))),
  webhook(
    "a body over 64 KB",
    { json: { ...event({}), padding: "x".repeat(MAX_BODY_BYTES) } },
    say("Payload too large", 413),
  ),
  webhook(
    "an event without PayPal's signature headers",
    { json: event(UNKNOWN_WITHDRAWAL) },
    say("Invalid signature", 403),
  ),
  webhook(
    "an event with forged signature headers",
    { json: event(UNKNOWN_WITHDRAWAL) },
    say("Invalid signature", 403),
    {
      headers: {
        "paypal-auth-algo": "SHA256withRSA",
        "paypal-cert-url": "https://evil.example/cert",
        "paypal-transmission-id": "1",
        "paypal-transmission-sig": "Zm9yZ2Vk",
        "paypal-transmission-time": new Date().toISOString(),
      },
    },
  ),
  ...otherMethods("api.paypal.webhook.ts", "/api/paypal/webhook", "POST", "provider"),
  ...(
    [
      ...NUMBER_AND_TEXT,
      ["empty", ""],
      ["of 10,000 characters", OVERSIZED],
      ["with a NUL character", NUL],
      ["a UUID with markup", `${MARKUP}-0000-0000-0000-000000000000`],
    ] as Value[]
  ).map(([label, value]) =>
    webhook(
      `${SIGNED_EVENT} whose sender_item_id is ${label}`,
      { json: event({ payout_item: { sender_item_id: value } }) },
      { status: 200, json: { received: true, ignored: "not a withdrawal" } },
    ),
  ),
  webhook(
    `${SIGNED_EVENT} about a withdrawal that does not exist`,
    { json: event(UNKNOWN_WITHDRAWAL) },
    { status: 200, json: { received: true, ignored: "unknown withdrawal" } },
  ),
  ...[...entries(TEXTS), ["an unknown type", "PAYMENT.PAYOUTS-ITEM.EXPLODED"] as Value].map(([label, value]) =>
    webhook(
      `${SIGNED_EVENT} whose event_type is ${label}`,
      { json: event(UNKNOWN_WITHDRAWAL, value) },
      { status: 200, json: { received: true, ignored: "event type" } },
    ),
  ),
];

// Resource routes that read only their URL: bad query strings and headers, every other method.
const HEALTHY: Answer = { status: 200, json: { status: "ok", database: "ok" } };
const OFFLINE_PAGE: Answer = { status: 200, contentType: "text/html", contains: "<h1>You're offline</h1>" };
const SCRIPT: Answer = { status: 200, contentType: "text/javascript", contains: 'addEventListener("push"' };
const STREAM: Answer = { status: 200, contentType: "text/event-stream" };
const SIGN_IN_FOR_UPDATES = say("Sign in to receive updates", 401);
const OFFERS: Answer = { status: 200, contentType: "application/json", contains: '"offers":[' };
const NO_SUCH_CODE: Answer = { status: 200, json: { exists: false } };
const codes: Value[] = [
  ...NUMBER_AND_TEXT,
  // The longest path segment the server routes (a longer path is answered 414, below).
  ["of 2,000 characters", "X".repeat(2_000)],
  ["with a NUL character", NUL],
  ["in lower case", "abcdefg"],
  ["well-formed, unknown", "ABCDEFG"],
  ["with spaces around", " ABCDEFG "],
];
const resourceCases = [
  ...getCases("healthz.ts", "/healthz", "visitor", HEALTHY),
  ...otherMethods("healthz.ts", "/healthz", "GET", "visitor"),
  ...getCases("offline.ts", "/offline", "visitor", OFFLINE_PAGE),
  ...otherMethods("offline.ts", "/offline", "GET", "visitor"),
  ...getCases("service-worker[.]js.ts", "/service-worker.js", "visitor", SCRIPT),
  ...otherMethods("service-worker[.]js.ts", "/service-worker.js", "GET", "visitor"),
  ...getCases("api.events.ts", "/api/events", "visitor", SIGN_IN_FOR_UPDATES, "since"),
  ...getCases("api.events.ts", "/api/events", "forged", SIGN_IN_FOR_UPDATES, "since").slice(0, 3),
  ...getCases("api.events.ts", "/api/events", "member", STREAM, "since").filter((_, i) => i < 5 || i % 10 === 0),
  ...otherMethods("api.events.ts", "/api/events", "GET"),
  ...codes.map(([label, code]) =>
    route(
      "api.referral-codes.$code.ts",
      "GET",
      `/api/referral-codes/${encodeURIComponent(code)}`,
      "visitor",
    )(`GET the code ${label}`, undefined, NO_SUCH_CODE),
  ),
  // A path too long to route is answered 414 before the app (app/server/http/incoming.server.ts).
  route(
    "api.referral-codes.$code.ts",
    "GET",
    `/api/referral-codes/${"x".repeat(10_000)}`,
    "visitor",
  )("GET a code too long for a path (10,000 characters)", undefined, {
    status: 414,
    contentType: "text/plain",
    contains: "This address is too long.",
  }),
  // A path that is not UTF-8 never reaches the app: the HTTP server refuses it.
  route(
    "api.referral-codes.$code.ts",
    "GET",
    "/api/referral-codes/%E0%A4%A",
    "visitor",
  )("GET a code whose percent-encoding is broken", undefined, {
    status: 400,
    contentType: "text/html",
    contains: "Bad Request",
  }),
  ...getCases("api.referral-codes.$code.ts", "/api/referral-codes/ABCDEFG", "visitor", NO_SUCH_CODE, "code").slice(
    0,
    20,
  ),
  ...otherMethods("api.referral-codes.$code.ts", "/api/referral-codes/ABCDEFG", "GET", "visitor"),
  ...getCases("api.$provider.offers.ts", "/api/acme/offers", "member", OFFERS),
  ...getCases("api.$provider.offers.ts", "/api/acme/offers", "visitor", say("Authentication required", 401)).slice(
    0,
    6,
  ),
  ...getCases("api.$provider.offers.ts", "/api/acme/offers", "forged", say("Authentication required", 401)).slice(0, 3),
  ...[...NUMBER_AND_TEXT, ["ACME", "ACME"] as Value].map(([label, provider]) =>
    route(
      "api.$provider.offers.ts",
      "GET",
      `/api/${encodeURIComponent(provider)}/offers`,
      "member",
    )(`GET the provider ${label}`, undefined, say("Unknown offer provider", 404)),
  ),
  ...otherMethods("api.$provider.offers.ts", "/api/acme/offers", "GET"),
];

// The operator console (docs/operator-console.md), as an owner signed in moments ago (no password
// needed). Anyone else gets the console's 404 for every URL. The withdrawal page's cases act on a
// withdrawal already paid, so a form that gets past its fields changes nothing (409); the list's
// bulk approval names withdrawals that do not exist.
const PAID_WITHDRAWAL = "00000000-0000-4000-8000-00000000b4d1";
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

// Pages without an action: a form posted to them is answered by the page, not by a crash.
const noActionCases = (
  [
    ["legal/route.tsx", "/legal"],
    ["leaderboard/route.tsx", "/leaderboard"],
    ["referral/route.tsx", "/referral"],
    ["$/route.tsx", "/no-such-page"],
  ] as const
).flatMap(([module, path]) =>
  unreadableBodies([["intent", "x"]]).map(([what, body]) =>
    route(module, "POST", path, "member")(`POST ${what}`, body, say("This page does not accept forms.", 405)),
  ),
);

const CASES: Case[] = [
  ...homeCases,
  ...authCases,
  ...earnCases,
  ...myOffersCases,
  ...logoutCases,
  ...profileCases,
  ...settingsCases,
  ...withdrawCases,
  ...consoleSettingsCases,
  ...completeCases,
  ...pushCases,
  ...postbackCases,
  ...webhookCases,
  ...resourceCases,
  ...noActionCases,
  ...consoleListCases,
  ...consoleWithdrawalCases,
  ...consoleExportCases,
  ...consolePersonCases,
  ...consoleTicketCases,
  ...wallCases,
];

// ---------------------------------------------------------------------------------------------
// The run

const TEXT_ROUTES = new Set(["api.$provider.postback.ts", "api.events.ts"]);
const JSON_ROUTES = (module: string) => module.startsWith("api.") || module === "healthz.ts";

function describeAnswer(answer: Answer) {
  if ("redirect" in answer) return `302 to ${answer.redirect}${answer.flash ? ` saying "${answer.flash}"` : ""}`;
  if ("message" in answer) return `${answer.status} "${answer.message}"`;
  return `${answer.status} ${"json" in answer ? JSON.stringify(answer.json) : answer.contentType}`;
}

describe("bad input, everywhere: malformed requests to every route with an action and every resource route", () => {
  let app: PostgresApp;
  let paypal: PayPalStandIn;
  let provider: Awaited<ReturnType<typeof startOfferProvider>>;
  let settingsVersion = "";
  const cookies = new Map<Who, Map<string, string>>([
    ["newcomer", new Map()],
    ["provider", new Map()],
    ["visitor", new Map([["hasSeenOnboarding", "true"]])],
    [
      "forged",
      new Map([
        ["hasSeenOnboarding", "true"],
        ["__session", "forged.session.cookie"],
      ]),
    ],
  ]);

  /** A signed-in account with $20.00, its email verified unless told otherwise: its cookies. */
  // newMember fails the test unless the sign-up redirects (302).
  async function account(verified = true) {
    const { client, uid } = await newMember(app);
    if (verified) await app.sql("select record_email_verified($1)", [uid]);
    await app.sql("select add_user_coins($1, 2000)", [uid]);
    return new Map(client.cookies);
  }

  beforeAll(async () => {
    [paypal, provider] = await Promise.all([startPayPalStandIn(), startOfferProvider()]);
    app = await startPostgresApp({
      OFFER_PROVIDER: "acme",
      OFFER_PROVIDER_API_URL: provider.url,
      OFFER_POSTBACK_SECRET: SECRET,
      // Only the cases' own limits count here: several hundred sign-ins come in a few seconds.
      AUTH_GLOBAL_LIMIT_PER_MINUTE: "100000",
      // A wall turned on, so its console page offers the test postback form (no case sends one).
      WALL_BITLABS_ENABLED: "true",
      WALL_BITLABS_APP_TOKEN: "bad-input-bitlabs-token",
      WALL_BITLABS_APP_SECRET: "bad-input-bitlabs-secret",
      ...paypal.env,
    });
    cookies.set("member", await account());
    const [settings] = await app.sql<{ version: string }>("select md5(to_jsonb(c)::text) as version from app_config c");
    settingsVersion = settings!.version;
    cookies.set("unverified", await account(false));
    const owner = await newOperator(app, "owner");
    cookies.set("operator", new Map(owner.client.cookies));
    cookies.set("owner", new Map(owner.client.cookies));
    // The console's withdrawal cases act on one already paid, which nothing can change.
    await app.sql(
      `insert into withdrawals (id, user_id, amount, payment_method, recipient_upi, status, settled_at, review_state)
       values ($1, $2, 1, 'upi', 'paid@okaxis', 'completed', now(), 'approved')`,
      [PAID_WITHDRAWAL, owner.uid],
    );
    const ownAccounts = (who: Who) => who.startsWith("leaver") || who.startsWith("deleter");
    for (const who of new Set(CASES.map((c) => c.who).filter(ownAccounts))) {
      cookies.set(who, await account());
    }
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    await paypal?.close();
    await provider?.close();
  });

  /** Sends a case's request with its cookies and a same-origin browser's headers. */
  function send(c: Case, extraCookies = new Map<string, string>()) {
    const fresh = (pairs: [string, string][]) =>
      pairs.map(([name, value]): [string, string] => [
        name,
        value === FRESH_EMAIL ? uniqueEmail("bad-input") : value === SETTINGS_VERSION ? settingsVersion : value,
      ]);
    const { body, type } = encodeBody(c.body && "form" in c.body ? { form: fresh(c.body.form) } : c.body);
    const jar = new Map([...cookies.get(c.who)!, ...extraCookies]);
    const cookie = [cookieHeader(jar), c.headers?.cookie].filter(Boolean).join("; ");
    const signedByPayPal =
      c.what.startsWith(SIGNED_EVENT) && c.body && "json" in c.body ? paypal.signedHeaders(c.body.json) : {};
    return fetch(new URL(c.path, app.url), {
      method: c.method,
      headers: {
        origin: new URL(app.url).origin,
        "sec-fetch-site": "same-origin",
        ...(type ? { "content-type": type } : {}),
        ...signedByPayPal,
        ...c.headers,
        // A case's own Cookie header comes after the session's.
        ...(cookie ? { cookie } : {}),
      },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(20_000),
    });
  }

  async function check(c: Case, expect: ExpectStatic) {
    const response = await send(c);
    expect(response.status, "never a 5xx").toBeLessThan(500);
    const { answer } = c;
    const streaming = "contentType" in answer && answer.contentType === "text/event-stream";
    if (streaming) await response.body?.cancel();
    const body = streaming ? "" : await response.text();
    expect(body.includes(MARKUP), "markup never comes back unescaped").toBe(false);
    if ("redirect" in answer) {
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(answer.redirect);
      if (!answer.flash) return;
      const next = await send({ ...c, method: "GET", path: answer.redirect, body: undefined }, setCookies(response));
      expect(visibleText(await next.text()), "the next page says so").toContain(answer.flash);
      return;
    }
    expect(response.status, body.slice(0, 300)).toBe(answer.status);
    if ("contentType" in answer) {
      expect(response.headers.get("content-type")).toContain(answer.contentType);
      if (answer.contains) expect(body).toContain(answer.contains);
    } else if ("json" in answer) {
      expect(JSON.parse(body)).toMatchObject(answer.json);
    } else if (TEXT_ROUTES.has(c.module)) {
      expect(body).toBe(answer.message);
    } else if (JSON_ROUTES(c.module)) {
      expect(JSON.parse(body)).toEqual({ success: false, error: answer.message });
    } else {
      expect(visibleText(body), "the message is on the page a person sees").toContain(answer.message);
    }
  }

  it("has at least 50 cases for every route module that has an action and every resource route", () => {
    const required = routeModules().filter((file) => {
      const source = readFileSync(path.join(ROUTES_DIR, file), "utf8");
      const hasAction = /export (async )?function action\b|export const action\b|export \{[^}]*\baction\b/.test(source);
      return hasAction || !/export default\b/.test(source);
    });
    const counts = Object.fromEntries(required.map((file) => [file, CASES.filter((c) => c.module === file).length]));
    expect(
      Object.entries(counts).filter(([, count]) => count < 50),
      `cases per route: ${JSON.stringify(counts)}`,
    ).toEqual([]);
  });

  for (const module of new Set(CASES.map((c) => c.module))) {
    describe(module, () => {
      let before: Awaited<ReturnType<typeof ledgerAudit>>;
      beforeAll(async () => {
        before = await ledgerAudit(app.sql);
        expect(before.problems).toEqual([]);
      });

      describe.concurrent("each answer: no 5xx, the route's message, no markup echoed", () => {
        for (const c of CASES.filter((candidate) => candidate.module === module)) {
          const name = `${c.method} ${c.path.slice(0, 60)} (${c.who}): ${c.what} → ${describeAnswer(c.answer)}`;
          it(name, ({ expect: localExpect }) => check(c, localExpect));
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
