import type { ReactNode } from "react";
import { Icon, type IconName } from "./Icon";

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
