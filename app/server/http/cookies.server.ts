import { ONBOARDING_COOKIE } from "~/domain/constants";
import type { TimeZone } from "~/domain/dates";
import { parseTimeZoneCookie, readTimeZone, TIME_ZONE_COOKIE, TIME_ZONE_COOKIE_PATTERN } from "~/domain/time-zone";
import { getEnv } from "../runtime/env.server";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * The value of the request's cookie `name` when it matches `pattern` (the first such cookie), else
 * null: for the app's own plain cookies, whose values are single tokens (no quoting or encoding).
 */
export function cookieValue(request: Request, name: string, pattern: RegExp): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, value] = part.trim().split("=");
    if (key === name && value && pattern.test(value)) return value;
  }
  return null;
}

/** The original's localStorage flag, as a plain cookie the server can read. */
export function hasSeenOnboarding(request: Request): boolean {
  return cookieValue(request, ONBOARDING_COOKIE, /^true$/) !== null;
}

export function seenOnboardingCookie(): string {
  const secure = getEnv().isProduction ? "; Secure" : "";
  return `${ONBOARDING_COOKIE}=true; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure}`;
}

/** The person's time zone, as their browser reported it (lib/time-zone.ts), or null (UTC). */
export function requestTimeZone(request: Request): TimeZone {
  return readTimeZone(parseTimeZoneCookie(cookieValue(request, TIME_ZONE_COOKIE, TIME_ZONE_COOKIE_PATTERN))?.name);
}
