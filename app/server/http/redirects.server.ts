// Any origin that cannot be the app's: a path is resolved against it and must stay on it.
const PLACEHOLDER_ORIGIN = "https://app.invalid";
// Browsers strip tabs and newlines from URLs and read a backslash as a slash, so "/\t/evil.example"
// and "/\\evil.example" are "//evil.example" to them; a control character would also make the
// Location header itself invalid (redirect() throws, after the session cookie was made).
function hasUnsafeCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

/**
 * A path on this site to return to after sign-in, or `fallback` (never an open redirect): it must
 * start with one "/", hold no control characters or backslashes, and resolve to a path of the
 * app's own origin that does not itself start with "//". What is returned is the resolved path, query and fragment.
 */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return fallback;
  if (hasUnsafeCharacter(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  // Dot segments and their encodings ("/.//evil.example", "/a/..//x", "/%2e%2e//x") resolve to a
  // path that starts with "//", which a browser reads as another host.
  if (url.origin !== PLACEHOLDER_ORIGIN || url.pathname.startsWith("//")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
