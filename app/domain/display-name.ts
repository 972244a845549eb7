import { hasHiddenCharacters } from "./hidden-characters";

// One rule for every display name, wherever it is written (docs/decisions/060): 1 to 50
// characters once the spaces at both ends are trimmed, and no hidden characters. The SQL function
// public.clean_display_name is the authority; this copy lets the form say so first.
const DISPLAY_NAME_MAX_LENGTH = 50;

// Spaces trimmed at the ends: the space and Unicode's other space separators (not controls,
// which are refused, as SQL's trim leaves them too). Trimmed in one pass from each end: a pattern
// such as /\s+$/ retries a run of spaces from each of its positions, quadratic on a long run.
function isEdgeSpace(code: number): boolean {
  return (
    code === 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

export function trimDisplayName(name: string): string {
  let start = 0;
  let end = name.length;
  while (start < end && isEdgeSpace(name.charCodeAt(start))) start++;
  while (end > start && isEdgeSpace(name.charCodeAt(end - 1))) end--;
  return name.slice(start, end);
}

/** Why a (trimmed) name cannot be a display name, as the rule key SQL raises; null when it can. */
export function displayNameProblem(name: string): "display_name_hidden_characters" | "invalid_display_name" | null {
  if (hasHiddenCharacters(name)) return "display_name_hidden_characters";
  const length = [...name].length; // characters, as SQL's char_length counts them
  return length < 1 || length > DISPLAY_NAME_MAX_LENGTH ? "invalid_display_name" : null;
}

function usableDisplayName(name: string | null | undefined): string | null {
  const trimmed = trimDisplayName(name ?? "");
  return displayNameProblem(trimmed) ? null : trimmed;
}

/**
 * docs/product.md, "Profile: the rules": the user's display name, else the part of the email before the @, else "User"; a name
 * that breaks the rule (an identity provider's, say) counts as none.
 */
export function defaultDisplayName(displayName: string | null | undefined, email: string | null | undefined): string {
  return usableDisplayName(displayName) ?? usableDisplayName(email?.split("@")[0]) ?? "User";
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
