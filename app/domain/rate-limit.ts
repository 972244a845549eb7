/**
 * What a refused user reads: whole minutes, rounded up so they never come back too early; or, for
 * the short waits of a slowed-down sign-in, whole seconds.
 */
export function tooManyAttemptsMessage(retryAfterSeconds: number, unit: "minutes" | "seconds" = "minutes"): string {
  const finite = Number.isFinite(retryAfterSeconds) ? retryAfterSeconds : 60;
  if (unit === "seconds") {
    const seconds = Math.max(1, Math.ceil(finite));
    return `Too many attempts. Please try again in ${seconds} ${seconds === 1 ? "second" : "seconds"}.`;
  }
  const minutes = Math.max(1, Math.ceil(finite / 60));
  return `Too many attempts. Please try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}
