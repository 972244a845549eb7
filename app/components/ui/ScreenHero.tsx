import type { ReactNode } from "react";
import { Icon, type IconName } from "./Icon";

const BADGES = {
  // The app's own mark: sign-in and its steps.
  brand: "bg-gradient-to-br from-brand-500 to-brand-700 text-white shadow-lg shadow-brand-600/30",
  soft: "bg-brand-50 text-brand-700",
  danger: "bg-red-50 text-red-600",
} as const;

/**
 * The top of a screen without navigation (sign-in, its code step, the console's authenticator, the
 * end-sessions page): a badge with an icon, an optional line above the title, the title and a lead.
 */
export function ScreenHero({
  icon,
  badge = "brand",
  eyebrow,
  title,
  children,
  className = "",
}: {
  icon: IconName;
  badge?: keyof typeof BADGES;
  eyebrow?: string;
  title: ReactNode;
  /** The lead under the title. */
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div className={`text-center ${className}`}>
      <span className={`mx-auto inline-flex size-16 items-center justify-center rounded-2xl ${BADGES[badge]}`}>
        <Icon name={icon} className="size-8" />
      </span>
      {eyebrow ? <p className="mt-5 text-xs font-semibold uppercase tracking-wider text-brand-700">{eyebrow}</p> : null}
      <h1 className={`${eyebrow ? "mt-1" : "mt-5"} text-2xl font-bold tracking-tight`}>{title}</h1>
      {children ? <p className="mt-1 text-sm text-muted">{children}</p> : null}
    </div>
  );
}
