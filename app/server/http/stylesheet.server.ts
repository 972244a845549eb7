import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

const texts = new Map<string, string | null>();

/**
 * The text of a built stylesheet, by the URL the build gave it (`/build/_assets/app-….css`), read
 * once from `public/` (where remix-serve serves it from, relative to the working directory); null
 * when it cannot be read. Safe to put in a `<style>` element: it cannot close the element.
 */
export function readStylesheet(href: string): string | null {
  if (!texts.has(href)) {
    let text: string | null = null;
    try {
      if (!href.startsWith("/build/") || href.includes("..")) throw new Error("not a built asset");
      text = readFileSync(path.join(process.cwd(), "public", href), "utf8").replace(/<\/(style)/gi, "<\\/$1");
    } catch (error) {
      console.error(`stylesheet ${href} could not be read, so it is imported instead:`, error);
    }
    texts.set(href, text);
  }
  return texts.get(href) ?? null;
}

/** The CSP source of the inline stylesheet's text (`'sha256-…'`), or null when it cannot be read. */
export function stylesheetHashSource(href: string): string | null {
  const text = readStylesheet(href);
  return text === null ? null : `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}
