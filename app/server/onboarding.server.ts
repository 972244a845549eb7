import { redirect } from "@remix-run/node";
import { ONBOARDING_SLIDES } from "~/content/onboarding";
import { parseSlideIndex } from "~/domain/onboarding";
import { seenOnboardingCookie } from "./http/cookies.server";

/** Spec §2 onboarding: the slide lives in the URL (`?slide=`). */
export function loadOnboarding(request: Request) {
  return { slide: parseSlideIndex(new URL(request.url).searchParams.get("slide"), ONBOARDING_SLIDES.length) };
}

/** Skip or Get Started: remember that onboarding was seen, then sign in. */
export function completeOnboarding() {
  return redirect("/auth", { headers: { "Set-Cookie": seenOnboardingCookie() } });
}
