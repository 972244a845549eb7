// The names of the /legal page's three documents, apart from their text: Settings links to each
// without carrying the whole of it.

export type LegalTabId = "terms" | "privacy" | "cookies";

export const LEGAL_HEADINGS = {
  terms: { id: "terms", tab: "Terms", title: "Terms of Service" },
  privacy: { id: "privacy", tab: "Privacy", title: "Privacy Policy" },
  cookies: { id: "cookies", tab: "Cookies", title: "Cookie Policy" },
} as const satisfies Record<LegalTabId, { id: LegalTabId; tab: string; title: string }>;
