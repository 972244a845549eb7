import { createContext, useContext } from "react";

/** On the server, reads a built stylesheet's text by its URL (entry.server.tsx provides it); null in the browser. */
export const StylesheetTextContext = createContext<((href: string) => string | null) | null>(null);

let keptCss: string | undefined;

/**
 * In the browser: the CSS the server sent, read from the document once. A root error boundary makes
 * React render the whole document again, head included; the new element gets the same text, which
 * the policy allows by its hash (the browser does not know the nonce).
 */
function cssInDocument(): string {
  if (typeof document === "undefined") return "";
  keptCss ??= document.querySelector("style[data-app-stylesheet]")?.textContent ?? "";
  return keptCss;
}

/**
 * The app's stylesheet, inline in the document's head, so the first paint waits for no request
 * (a linked stylesheet blocks rendering until it has downloaded). It carries the document's nonce,
 * which the Content-Security-Policy's `style-src` allows. The CSS travels in the HTML only: in the
 * browser this renders the text it finds in the document, so the pages' JavaScript does not carry
 * it. If the built file cannot be read, the element imports it instead.
 * Under `remix dev` it stays a link, which live reload swaps when the CSS changes.
 */
export function InlineStylesheet({ href, nonce }: { href: string; nonce: string }) {
  const read = useContext(StylesheetTextContext);
  if (process.env.NODE_ENV === "development") return <link rel="stylesheet" href={href} />;
  const css = read ? (read(href) ?? `@import url(${JSON.stringify(href)});`) : cssInDocument();
  return (
    <style data-app-stylesheet="" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: css }} />
  );
}
