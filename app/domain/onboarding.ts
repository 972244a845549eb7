import { literal, object } from "zod/mini";

/** The slide index from `?slide=`, clamped to the slides that exist. */
export function parseSlideIndex(value: string | null, slideCount: number): number {
  const index = Number.parseInt(value ?? "0", 10);
  if (!Number.isFinite(index) || index < 0) return 0;
  return Math.min(index, slideCount - 1);
}

/** Skip and Get Started post the same form. */
export const onboardingFormSchema = object({ intent: literal("complete-onboarding") });
