/** What a refused user reads: whole minutes, rounded up so they never come back too early. */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Number.isFinite(retryAfterSeconds) ? Math.max(1, Math.ceil(retryAfterSeconds / 60)) : 1;
  return `Too many attempts. Please try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}
