/**
 * `value` without the slashes at its end ("https://x.example/" → "https://x.example", "/auth//" →
 * "/auth"); a lone "/" stays. One pass: a pattern like /\/+$/ retries the run of slashes from each
 * of its positions, which is quadratic on a long run that does not end the string.
 */
export function withoutTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 1 && value.charCodeAt(end - 1) === 0x2f) end--;
  return value.slice(0, end);
}

/** An operator's reason as a sentence: trimmed, ending in ".", "!" or "?"; null when there is none. */
export function asSentence(text: string | null | undefined): string | null {
  const said = text?.trim() ?? "";
  if (!said) return null;
  return /[.!?]$/.test(said) ? said : `${said}.`;
}

/** `words` with a capital first letter: a phrase made to stand alone ("a 25-coin bonus" → "A 25-coin bonus"). */
export function capitalised(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
