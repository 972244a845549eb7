import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of this document (entry.server.tsx makes one per request).
 * In the browser it is the empty string: the browser hides a nonce attribute once the policy has
 * checked it (`getAttribute("nonce")` answers ""), so hydration finds what it renders, and no
 * script of the page ever learns the nonce.
 */
export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
