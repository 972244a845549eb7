/** Spec §5: the user's display name, else the part of the email before the @, else "User". */
export function defaultDisplayName(displayName: string | null | undefined, email: string | null | undefined): string {
  const name = displayName?.trim();
  if (name) return name;
  const local = email?.split("@")[0]?.trim();
  return local || "User";
}
