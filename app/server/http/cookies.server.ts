import { ONBOARDING_COOKIE } from "~/domain/constants";
import { getEnv } from "../env.server";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The original's localStorage flag, as a plain cookie the server can read. */
export function hasSeenOnboarding(request: Request): boolean {
  const header = request.headers.get("cookie") ?? "";
  return header.split(";").some((part) => part.trim() === `${ONBOARDING_COOKIE}=true`);
}

export function seenOnboardingCookie(): string {
  const secure = getEnv().isProduction ? "; Secure" : "";
  return `${ONBOARDING_COOKIE}=true; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure}`;
}
