/** Spec §5: the user's display name, else the part of the email before the @, else "User". */
export function defaultDisplayName(displayName: string | null | undefined, email: string | null | undefined): string {
  const name = displayName?.trim();
  if (name) return name;
  const local = email?.split("@")[0]?.trim();
  return local || "User";
}

/** At most two letters: the first of the first two words ("Ana Lima" → "AL", "ana" → "A"). */
export function initials(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => [...word][0] ?? "")
    .join("")
    .toUpperCase();
}
