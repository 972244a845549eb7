// Characters that no display name or payment address needs and that hide, move or rewrite the
// text around them: C0 and C1 controls and DEL (a terminal runs ESC[2K, ESC[8m), the bidi controls
// (U+202E shows "gpj.exe" as "exe.jpg"), zero-width and other invisible format characters, the
// Unicode line separators, and tag characters (invisible ASCII). The SQL function
// public.has_hidden_characters (20261128000000_display_names_and_recipients.sql) holds the same
// list and is what decides; this copy lets a form say so first.
//
// Every range is written as an escape, so the list can be compared with the SQL one by eye.
export const HIDDEN_CHARACTER_CLASS = String.raw`[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}]`;

// The class lists combining and joining characters on purpose, one by one: they are what it finds.
// eslint-disable-next-line no-misleading-character-class
const HIDDEN_CHARACTER = new RegExp(HIDDEN_CHARACTER_CLASS, "u");
// eslint-disable-next-line no-misleading-character-class
const HIDDEN_CHARACTERS = new RegExp(HIDDEN_CHARACTER_CLASS, "gu");

export function hasHiddenCharacters(text: string): boolean {
  return HIDDEN_CHARACTER.test(text);
}

// The short JSON escapes where JSON has them; \uXXXX (per UTF-16 unit) for the rest.
const SHORT_ESCAPES: Record<string, string> = { "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };

/**
 * `text` with every hidden character written out as an escape (`\u001b`, `\n`, `\u202e`), so that
 * printing it to a terminal, a log or a spreadsheet shows what is there instead of obeying it.
 * The escapes are JSON's, so a JSON text stays valid JSON with the same meaning.
 */
export function escapeHiddenCharacters(text: string): string {
  return text.replace(HIDDEN_CHARACTERS, (character) => {
    const short = SHORT_ESCAPES[character];
    if (short) return short;
    // One or two UTF-16 units; built without an array per character (64 KB of them is a log line).
    let escaped = "";
    for (let index = 0; index < character.length; index++) {
      escaped += `\\u${character.charCodeAt(index).toString(16).padStart(4, "0")}`;
    }
    return escaped;
  });
}
