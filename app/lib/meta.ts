import type { MetaDescriptor } from "@remix-run/node";

const DESCRIPTION = "Earn coins with tasks, daily check-ins and referrals, and cash out to PayPal or UPI.";

/** Title and description for a page (Remix replaces, not merges, the parent's meta). */
export function pageMeta(title?: string): MetaDescriptor[] {
  return [
    { title: title ? `${title} · Rewards` : "Rewards" },
    { name: "description", content: DESCRIPTION },
    { name: "theme-color", content: "#6938ef" },
  ];
}
