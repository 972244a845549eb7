import { createCookie, type Cookie } from "@remix-run/node";
import { getEnv } from "../runtime/env.server";

/**
 * The address a password reset was asked for, carried across the redirect to the next /auth page
 * so the form still shows it without JavaScript (docs/product.md, "Auth: the rules"). Signed,
 * HttpOnly, for /auth only and for one minute; the next /auth page reads it once and clears it.
 */
let cookie: Cookie | undefined;

function resetEmailCookie() {
  const env = getEnv();
  cookie ??= createCookie("__reset_email", {
    httpOnly: true,
    sameSite: "lax",
    secure: env.isProduction,
    path: "/auth",
    maxAge: 60,
    secrets: [env.sessionSecret],
  });
  return cookie;
}

/** The Set-Cookie value that keeps `email` for the next /auth page. */
export function rememberResetEmail(email: string): Promise<string> {
  return resetEmailCookie().serialize(email);
}

/** The kept address, if any, and the Set-Cookie value that clears it. */
export async function takeResetEmail(request: Request): Promise<{ email: string | null; setCookie: string | null }> {
  const header = request.headers.get("cookie");
  if (!header?.includes("__reset_email=")) return { email: null, setCookie: null };
  const value: unknown = await resetEmailCookie().parse(header);
  const setCookie = await resetEmailCookie().serialize("", { maxAge: 0 });
  return { email: typeof value === "string" && value.length <= 254 ? value : null, setCookie };
}
