export type NavIcon = "home" | "earn" | "refer" | "withdraw" | "profile";

export interface NavItem {
  to: string;
  label: string;
  icon: NavIcon;
}

export const BOTTOM_NAV_ITEMS: readonly NavItem[] = [
  { to: "/", label: "Home", icon: "home" },
  { to: "/earn", label: "Earn", icon: "earn" },
  { to: "/referral", label: "Refer", icon: "refer" },
  { to: "/withdraw", label: "Withdraw", icon: "withdraw" },
  { to: "/profile", label: "Profile", icon: "profile" },
];

/** The nav item a path belongs to: exact for "/", by prefix for the others. */
export function isNavItemActive(item: NavItem, pathname: string): boolean {
  return item.to === "/" ? pathname === "/" : pathname === item.to || pathname.startsWith(`${item.to}/`);
}
