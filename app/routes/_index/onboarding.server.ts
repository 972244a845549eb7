import { redirect } from "@remix-run/node";
import { ONBOARDING_SLIDES } from "~/content/onboarding";
import { onboardingFormSchema, parseSlideIndex } from "~/domain/onboarding";
import { seenOnboardingCookie } from "~/server/http/cookies.server";
import { parseForm, rejectForm } from "~/server/http/forms.server";

/** docs/product.md, "Onboarding": the slide lives in the URL (`?slide=`). */
export function loadOnboarding(request: Request) {
  return { slide: parseSlideIndex(new URL(request.url).searchParams.get("slide"), ONBOARDING_SLIDES.length) };
}

/** Skip or Get Started: remember that onboarding was seen, then sign in. */
export async function onboardingAction(request: Request) {
  const submission = await parseForm(request, onboardingFormSchema);
  if (submission.status !== "success") return rejectForm(submission);
  return redirect("/auth", { headers: { "Set-Cookie": seenOnboardingCookie() } });
}
