/**
 * One person, one identity (docs/decisions/064): the form of an email address that every alias of
 * one inbox shares. Lower case, trimmed; a `+tag` is dropped from the local part (most providers
 * deliver `name+anything@` to `name@`); Gmail ignores dots in the local part and treats
 * googlemail.com as gmail.com, so those are folded too. Other providers' dots are kept: at most
 * providers `a.b@` and `ab@` are different people. A quoted local part (`"a+b"@x`) is kept as it is
 * (lower-cased): nobody signs up with one by accident, and its `+` is not a tag. Null for a value
 * that is not an address at all (no `@`, or nothing on one side).
 */
const GMAIL_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

export function canonicalEmail(email: string): string | null {
  const value = email.trim().toLowerCase();
  const at = value.lastIndexOf("@");
  if (at <= 0 || at === value.length - 1) return null;
  let local = value.slice(0, at);
  let domain = value.slice(at + 1);
  if (local.startsWith('"')) return value;
  const plus = local.indexOf("+");
  // "+tag@" alone has no name to keep: the address is taken as it is.
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replace(/\./g, "");
    domain = "gmail.com";
    if (local === "") return null;
  }
  return `${local}@${domain}`;
}

/** What a person is told when one of the app's own tasks was already paid to their identity. */
export const TASK_ALREADY_REWARDED =
  "This email address was already paid for this task on another account, so it earns no coins this time.";
