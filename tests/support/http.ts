/** A tiny browser stand-in for HTTP tests: keeps cookies, posts forms, follows nothing by itself. */
export class HttpClient {
  constructor(
    readonly baseUrl: string = appUrl(),
    /** Another client's cookies: the same browser talking to another server of the app. */
    readonly cookies = new Map<string, string>(),
  ) {}

  private remember(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";");
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private headers(extra: Record<string, string> = {}) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    return { ...(cookie ? { cookie } : {}), ...extra };
  }

  async get(path: string, headers: Record<string, string> = {}) {
    const response = await fetch(new URL(path, this.baseUrl), { headers: this.headers(headers), redirect: "manual" });
    this.remember(response);
    return response;
  }

  /**
   * Posts `fields` as a form (a list: the field once per value, as ticked checkboxes are); `rawBody`,
   * when given, is sent instead (duplicate keys, other encodings).
   * Like today's browsers it says where the post comes from (Origin, Sec-Fetch-Site: this site),
   * unless `headers` names either; a header given as "" is not sent (an old browser sends neither).
   */
  async post(
    path: string,
    fields: Record<string, string | readonly string[]>,
    headers: Record<string, string> = {},
    rawBody?: string,
  ) {
    const site =
      "origin" in headers || "sec-fetch-site" in headers
        ? {}
        : { origin: new URL(this.baseUrl).origin, "sec-fetch-site": "same-origin" };
    const sent = Object.fromEntries(
      Object.entries({ "content-type": "application/x-www-form-urlencoded", ...site, ...headers }).filter(
        ([, value]) => value !== "",
      ),
    );
    const response = await fetch(new URL(path, this.baseUrl), {
      method: "POST",
      headers: this.headers(sent),
      body:
        rawBody ??
        new URLSearchParams(
          Object.entries(fields).flatMap(([name, value]) =>
            typeof value === "string" ? [[name, value]] : value.map((one) => [name, one]),
          ),
        ),
      redirect: "manual",
    });
    this.remember(response);
    return response;
  }

  /** GETs `path` and follows redirects (as a browser would), returning the final response and its HTML. */
  async visit(path: string): Promise<{ response: Response; html: string; url: string }> {
    let current = path;
    for (let hop = 0; hop < 5; hop++) {
      const response = await this.get(current);
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        current = location;
        continue;
      }
      return { response, html: await response.text(), url: current };
    }
    throw new Error(`Too many redirects from ${path}`);
  }
}

export function appUrl(): string {
  const url = process.env.APP_URL;
  if (!url) throw new Error("APP_URL is not set: run the tests through `npm test`");
  return url;
}

let counter = 0;
/** A unique address for each test account. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/** HTML-escaped text as React renders it (apostrophes and ampersands). */
export function html(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/'/g, "&#x27;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** A returning visitor (onboarding seen) with a brand-new account, signed in. */
export async function signedInClient(password = "s3cret-pass"): Promise<{ client: HttpClient; email: string }> {
  const client = new HttpClient();
  client.cookies.set("hasSeenOnboarding", "true");
  const email = uniqueEmail("earner");
  const response = await client.post("/auth?tab=signup", { intent: "signup", email, password });
  if (response.status !== 302) throw new Error(`sign-up failed with ${response.status}`);
  return { client, email };
}

/** Follows a post's redirect and returns the page it lands on. */
export async function landing(client: HttpClient, response: Response) {
  const location = response.headers.get("location");
  if (response.status !== 302 || !location) throw new Error(`expected a redirect, got ${response.status}`);
  return { location, ...(await client.visit(location)) };
}

/**
 * Sends `count` requests made by `send`, `concurrency` at a time (a flood against a rate limit),
 * reading each body; how many answered each status.
 */
export async function statusCounts(
  send: () => Promise<Response>,
  count: number,
  concurrency = 8,
): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      sent += 1;
      const response = await send();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return statuses;
}
