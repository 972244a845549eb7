export type NavIcon = "home" | "earn" | "refer" | "withdraw" | "profile";

export interface NavItem {
  to: string;
  label: string;
  icon: NavIcon;
  /** Other pages that belong to this item (Settings is reached from Profile). */
  also?: readonly string[];
}

export const BOTTOM_NAV_ITEMS: readonly NavItem[] = [
  { to: "/", label: "Home", icon: "home" },
  { to: "/earn", label: "Earn", icon: "earn" },
  { to: "/referral", label: "Refer", icon: "refer" },
  { to: "/withdraw", label: "Withdraw", icon: "withdraw" },
  { to: "/profile", label: "Profile", icon: "profile", also: ["/settings"] },
];

/** The nav item a path belongs to: exact for "/", by prefix for the others and their `also` pages. */
export function isNavItemActive(item: NavItem, pathname: string): boolean {
  if (item.to === "/") return pathname === "/";
  return [item.to, ...(item.also ?? [])].some((to) => pathname === to || pathname.startsWith(`${to}/`));
}
