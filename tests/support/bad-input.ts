// Building blocks of the bad-input suite (tests/http/bad-input.test.ts): the values it sends, the
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

/** The text a person sees on a page: no scripts or styles, tags removed, entities decoded, spaces collapsed. */
export function visibleText(html: string): string {
  return html
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
