import type { SVGProps } from "react";

import spriteHref from "./icons.svg";

/**
 * Stroke icons drawn on a 24-unit grid, one component so every icon shares size and weight. The
 * drawings are symbols in icons.svg, a file the browser caches for good, so the pages' JavaScript
 * carries only their names.
 */
export type IconName =
  | "home"
  | "earn"
  | "refer"
  | "withdraw"
  | "profile"
  | "back"
  | "forward"
  | "tasks"
  | "referrals"
  | "wallet"
  | "alert"
  | "check"
  | "info"
  | "close"
  | "logout"
  | "mail"
  | "lock"
  | "compass"
  | "gift"
  | "trophy"
  | "clock"
  | "bell"
  | "survey"
  | "video"
  | "app"
  | "game"
  | "search"
  | "coins"
  | "settings"
  | "copy"
  | "share"
  | "history"
  | "bank"
  | "refresh";

export function Icon({ name, className = "size-5", ...props }: { name: IconName } & SVGProps<SVGSVGElement>) {
  // The stroke (width 2, round ends) comes from the `icon` class (app.css): a page draws dozens of
  // icons, and five attributes on each were a tenth of Home's markup.
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className={`icon ${className}`} {...props}>
      <use href={`${spriteHref}#${name}`} />
    </svg>
  );
}

export function Spinner({ className = "size-5" }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={`animate-spin ${className}`} aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.2" strokeWidth="3" fill="none" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="3" strokeLinecap="round" fill="none" />
    </svg>
  );
}

/** Google's "G" in its brand colours (brand guidelines ask for the original colours), from icons.svg. */
export function GoogleLogo({ className = "size-5" }: { className?: string }) {
  return (
    <svg viewBox="0 0 48 48" className={className} aria-hidden="true" focusable="false">
      <use href={`${spriteHref}#google`} />
    </svg>
  );
}
