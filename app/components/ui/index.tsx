import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Icon, type IconName } from "./Icon";

// One set of button looks for the whole app: size, radius, pressed and disabled states.
const BUTTON_BASE =
  "inline-flex items-center justify-center gap-2 rounded-xl px-4 font-semibold transition select-none " +
  "active:scale-[0.98] disabled:cursor-not-allowed disabled:opacity-60 disabled:active:scale-100";

const BUTTON_VARIANTS = {
  primary: "h-12 bg-brand-600 text-white shadow-sm shadow-brand-600/30 hover:bg-brand-700 active:bg-brand-800",
  secondary: "h-12 border border-line bg-white text-ink hover:bg-gray-50 active:bg-gray-100",
  onBrand: "h-11 bg-white/15 text-white ring-1 ring-white/30 hover:bg-white/25 active:bg-white/30",
  light: "h-11 bg-white text-brand-700 hover:bg-brand-50 active:bg-brand-100",
} as const;

export type ButtonVariant = keyof typeof BUTTON_VARIANTS;

export function buttonClass(variant: ButtonVariant = "primary", extra = "") {
  return `${BUTTON_BASE} ${BUTTON_VARIANTS[variant]} ${extra}`.trim();
}

const BANNER_TONES = {
  error: { box: "border-red-200 bg-red-50 text-red-800", icon: "alert" },
  warning: { box: "border-amber-200 bg-amber-50 text-amber-900", icon: "alert" },
  success: { box: "border-emerald-200 bg-emerald-50 text-emerald-800", icon: "check" },
  info: { box: "border-brand-200 bg-brand-50 text-brand-800", icon: "info" },
} as const satisfies Record<string, { box: string; icon: IconName }>;

export function Banner({
  tone,
  title,
  children,
  id,
}: {
  tone: keyof typeof BANNER_TONES;
  title?: string;
  children?: ReactNode;
  id?: string;
}) {
  const style = BANNER_TONES[tone];
  return (
    <div
      id={id}
      role={tone === "error" ? "alert" : "status"}
      className={`flex gap-3 rounded-xl border px-4 py-3 text-sm ${style.box}`}
    >
      <Icon name={style.icon} className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 space-y-0.5">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div className="leading-relaxed">{children}</div> : null}
      </div>
    </div>
  );
}

/** Top bar of an inner screen: a back link and a title. */
export function PageHeader({ title, backTo = "/", action }: { title: string; backTo?: string; action?: ReactNode }) {
  return (
    <header className="flex items-center gap-2 pb-4">
      <Link
        to={backTo}
        aria-label="Back"
        className="-ml-2 inline-flex size-10 items-center justify-center rounded-full text-ink hover:bg-black/5 active:bg-black/10"
      >
        <Icon name="back" className="size-6" />
      </Link>
      <h1 className="min-w-0 flex-1 truncate text-xl font-bold tracking-tight">{title}</h1>
      {action}
    </header>
  );
}

export function Card({ children, className = "" }: { children: ReactNode; className?: string }) {
  return <section className={`rounded-2xl border border-line bg-white p-5 shadow-sm ${className}`}>{children}</section>;
}
