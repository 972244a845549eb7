import type { $ZodType } from "zod/v4/core";
import { hasHiddenCharacters } from "~/domain/hidden-characters";
import { BODY_TOO_LARGE_MESSAGE, MAX_BODY_BYTES } from "~/server/http/body.server";
import { parseSubmission, UNREADABLE_FORM_MESSAGE } from "~/server/http/forms.server";
import { CROSS_SITE_MESSAGE } from "~/server/http/same-origin.server";

// Building blocks of the bad-input suite (tests/http/bad-input-{pages,console,api}.test.ts): the values it sends, the
// bodies it sends them in, and how it reads an answer.

/** Numbers no field takes (issue 10), by what they are. */
export const NUMBERS: Record<string, string> = {
  "-1": "-1",
  "0": "0",
  "1e309 (past a double)": "1e309",
  NaN: "NaN",
  Infinity: "Infinity",
  "5.001 (three decimals)": "5.001",
  '"٥" (an Arabic-Indic five)': "٥",
  "400 digits": "9".repeat(400),
  "0x10 (hexadecimal)": "0x10",
  "1,5 (a decimal comma)": "1,5",
};

/** Unicode and markup (a field that stores free text takes these; the others refuse them). */
export const MARKUP = "<script>alert(1)</script>";
export const TEXTS: Record<string, string> = {
  "markup (a script tag)": MARKUP,
  "markup (an attribute breakout)": '"><img src=x onerror=alert(1)>',
  "emoji and accents": "Zoë 😀🎉",
  "a right-to-left override": "\u202Eexe.txt",
  "a zero-width space only": "\u200B",
  SQL: "' or 1=1 --",
};

/** The same value, with the label the test name shows. */
export type Value = [label: string, value: string];

export const entries = (values: Record<string, string>): Value[] => Object.entries(values);

/** A form body as name/value pairs (a name may repeat), JSON, or raw bytes with a content type. */
export type Body =
  | { form: [string, string][] }
  | { json: unknown }
  | { raw: string; type: string | null }
  | { multipart: [string, string | Blob][] };

export function encodeBody(body: Body | undefined): { body?: BodyInit; type?: string | null } {
  if (!body) return {};
  if ("form" in body) {
    return { body: new URLSearchParams(body.form).toString(), type: "application/x-www-form-urlencoded" };
  }
  if ("json" in body) return { body: JSON.stringify(body.json), type: "application/json" };
  if ("raw" in body) return { body: body.raw, type: body.type };
  const data = new FormData();
  for (const [name, value] of body.multipart) data.append(name, value);
  // fetch sets the multipart content type with its boundary.
  return { body: data, type: undefined };
}

/**
 * The text a person sees on a page: no scripts or styles, tags removed, entities decoded, spaces
 * collapsed, and no NUL byte (React 18.3's streaming renderer can send one where a character of
 * several bytes falls on its buffer's edge, facebook/react#31134; browsers drop it).
 */
export function visibleText(html: string): string {
  return html
    .replaceAll("\u0000", "")
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** A cookie header from name/value pairs (values as the server set them). */
export function cookieHeader(cookies: ReadonlyMap<string, string>): string {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** The cookies a response sets, by name (an expired one maps to ""). */
export function setCookies(response: Response): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(";")[0]!;
    const index = pair.indexOf("=");
    cookies.set(pair.slice(0, index).trim(), /max-age=0\b/i.test(header) ? "" : pair.slice(index + 1).trim());
  }
  return cookies;
}

// ---------------------------------------------------------------------------------------------
// The cases' parts: who sends them, what they must answer, and the generators of each kind of
// bad request (tests/support/bad-input-{pages,console,api}.ts use them).

export const SECRET = "postback-secret-for-bad-input";
export const OVERSIZED = "x".repeat(10_000);
export const NUL = "a\u0000b";
/** Stands for a new address in each request (the sign-in limits count per address). */
export const FRESH_EMAIL = "{fresh-email}";
/** Stands for the version of the settings as they are (the console's settings form carries it). */
export const SETTINGS_VERSION = "{settings-version}";
export const FOREIGN = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };
export const NUMBER_AND_TEXT = [...entries(NUMBERS), ...entries(TEXTS)];

/** Who sends a request: the cookies it carries. */
export type Who =
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
export type Answer =
  | { status: number; message: string }
  | { status: number; json: Record<string, unknown> }
  | { status: number; contentType: string; contains?: string }
  | { redirect: string; flash?: string };

export interface Case {
  module: string;
  what: string;
  method: string;
  path: string;
  who: Who;
  body?: Body;
  headers?: Record<string, string>;
  answer: Answer;
  /**
   * A value from a sweep (NUMBERS, TEXTS or a field's own list): its label, and the schema the
   * route reads the form with, when the page gives one (`pageCases`' `schema`). See `splitBySchema`.
   */
  sweep?: { label: string; schema?: $ZodType };
}

export const say = (message: string, status = 400): Answer => ({ status, message });
export const UNREADABLE = say(UNREADABLE_FORM_MESSAGE);
export const TOO_LARGE = say(BODY_TOO_LARGE_MESSAGE, 413);
export const form = (fields: Record<string, string>, ...more: [string, string][]): Body => ({
  form: [...Object.entries(fields), ...more],
});

/** Cases of one route module, by default from `who` to `path` with `method`. */
export function route(module: string, method: string, path: string, who: Who) {
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
export function unreadableBodies(valid: [string, string][], unreadable = UNREADABLE, tooLarge = TOO_LARGE) {
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
export function badIntents(valid: [string, string][]): [what: string, body: Body, sweep?: string][] {
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
    ...NUMBER_AND_TEXT.map(([label, value]): [string, Body, string] => [
      `the intent ${label}`,
      withIntent(["intent", value]),
      label,
    ]),
  ];
}

/** A field's answers; a string is a 400 with that message. `null` leaves a kind of value out. */
export interface FieldSpec {
  /** The answer to a wrong value. */
  wrong: string | Answer;
  /** Missing or empty (default: `wrong`); only spaces (default: `blank`); 10,000 characters (default: `wrong`). */
  blank?: string | Answer | null;
  whitespace?: string | Answer | null;
  oversized?: string | Answer | null;
  /** A NUL character (default: the route's answer to a form it cannot read). */
  nul?: string | Answer;
  /**
   * The field given twice (default: its valid value twice, a form the route cannot read); for
   * checkboxes that share a name, one `value` ticked twice and the answer to it.
   */
  twice?: { value: string; answer: string | Answer };
  /** The wrong values (default: every number, text and markup value), a few with an answer of their own. */
  values?: (Value | [label: string, value: string, answer: Answer])[];
}

export const answer = (value: string | Answer): Answer => (typeof value === "string" ? say(value) : value);

/**
 * `values`, those with a hidden character (TEXTS has a right-to-left override and a zero-width
 * space) answered `hidden`: a display name and a recipient refuse them with a message of their own.
 */
export function withHidden(values: Value[], hidden: string): FieldSpec["values"] {
  return values.map(([label, value]) => (hasHiddenCharacters(value) ? [label, value, say(hidden)] : [label, value]));
}

/** Each field's bad values in an otherwise valid form: missing, blank, twice, oversized, NUL, wrong. */
export function badFields(valid: [string, string][], fields: Record<string, FieldSpec>, unreadable = UNREADABLE) {
  const cases: [what: string, body: Body, answer: Answer, sweep?: string][] = [];
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
      [
        `${field} twice`,
        { form: [...others, [field, spec.twice?.value ?? current], [field, spec.twice?.value ?? current]] },
        spec.twice ? answer(spec.twice.answer) : unreadable,
      ],
      [`a NUL character in ${field}`, set(NUL), spec.nul ? answer(spec.nul) : unreadable],
    );
    for (const [label, value, own] of spec.values ?? NUMBER_AND_TEXT) {
      cases.push([`${field} ${label}`, set(value), own ?? answer(spec.wrong), label]);
    }
  }
  return cases;
}

export interface FormSpec {
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
 * `schema` is the one the page's action reads every form with (parseForm): its sweeps are checked
 * against it (`splitBySchema`).
 */
export function pageCases(
  module: string,
  who: Who,
  forms: FormSpec[],
  {
    signedOut,
    extra = [],
    schema,
  }: { signedOut?: { path: string; answer: Answer }; extra?: Case[]; schema?: $ZodType } = {},
): Case[] {
  const first = forms[0]!;
  const valid = Object.entries(first.valid);
  const at = (spec: FormSpec) => (what: string, body: Body | undefined, answer: Answer, sweep?: string) => ({
    ...route(module, "POST", spec.path, who)(`${spec.name}: ${what}`, body, answer),
    ...(sweep === undefined ? {} : { sweep: { label: sweep, schema } }),
  });
  const cases = [
    ...unreadableBodies(valid).map(([what, body, answer]) => at(first)(what, body, answer)),
    ...badIntents(valid).map(([what, body, sweep]) => at(first)(what, body, UNREADABLE, sweep)),
    ...forms.flatMap((spec) =>
      badFields(Object.entries(spec.valid), spec.fields ?? {}).map(([what, body, answer, sweep]) =>
        at(spec)(what, body, answer, sweep),
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

/**
 * The values of every sweep that are still sent over HTTP when the form's schema refuses them: markup
 * (the page must not echo it unescaped), a hidden character and a number past any column. Each field
 * keeps its missing, empty, spaces-only, 10,000-character, repeated and NUL cases over HTTP too.
 */
export const SENT_FROM_EVERY_SWEEP = new Set([
  "markup (a script tag)",
  "markup (an attribute breakout)",
  "a right-to-left override",
  "400 digits",
]);

/** A case's form fields as the server would read them (its placeholders filled in with valid values). */
export function caseFields(c: Case): URLSearchParams | null {
  if (!c.body || !("form" in c.body)) return null;
  return new URLSearchParams(
    c.body.form.map(([name, value]): [string, string] => [
      name,
      value === FRESH_EMAIL ? "fresh@example.com" : value === SETTINGS_VERSION ? "0".repeat(32) : value,
    ]),
  );
}

/** Whether the route's schema refuses the case's form (parseSubmission: unreadable, or not a success). */
function refusedBySchema(c: Case): boolean {
  const fields = caseFields(c);
  if (!c.sweep?.schema || !fields) return false;
  const submission = parseSubmission(fields, c.sweep.schema);
  return submission === null || submission.status !== "success";
}

/**
 * A route group's cases split in two. A sweep's value that the route's own schema refuses is
 * checked against that schema, without a server, in tests/unit/form-schemas.test.ts (the message,
 * or "unreadable"); over HTTP go every other case, the values `SENT_FROM_EVERY_SWEEP` (which
 * prove that the route shows what its schema says for that field), and any value the schema lets
 * through: the server's own checks and SQL must refuse it, and only a request can show they do.
 */
export function splitBySchema(cases: Case[]): { overHttp: Case[]; bySchema: Case[] } {
  const bySchema = cases.filter(refusedBySchema);
  const checked = new Set(bySchema);
  const overHttp = cases.filter((c) => !checked.has(c) || SENT_FROM_EVERY_SWEEP.has(c.sweep!.label));
  return { overHttp, bySchema };
}

/** Every method but the one a resource route takes, with a few bodies: 405 saying which to use. */
export function otherMethods(module: string, path: string, allowed: "GET" | "POST", who: Who = "member"): Case[] {
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
export function badQueries(param: string): [string, string][] {
  // `q` is read by no route: of its sweep, only the values sent from every sweep.
  const values =
    param === "q" ? NUMBER_AND_TEXT.filter(([label]) => SENT_FROM_EVERY_SWEEP.has(label)) : NUMBER_AND_TEXT;
  return [
    ...values.map(([label, value]): [string, string] => [
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

export const JUNK_HEADERS: [string, Record<string, string>][] = [
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
export function getCases(module: string, path: string, who: Who, answer: Answer, param = "q"): Case[] {
  const get = route(module, "GET", path, who);
  return [
    ...badQueries(param).map(([what, query]) => get(`GET with ${what}`, undefined, answer, { path: path + query })),
    ...JUNK_HEADERS.map(([what, headers]) => get(`GET with ${what}`, undefined, answer, { headers })),
  ];
}
