import type { ReactNode } from "react";

const TONES = {
  red: "bg-red-50 text-red-700 ring-red-200",
  amber: "bg-amber-50 text-amber-800 ring-amber-200",
  green: "bg-green-50 text-green-700 ring-green-200",
  gray: "bg-gray-50 text-muted ring-line",
  brand: "bg-brand-50 text-brand-700 ring-brand-200",
} as const;

/** A short state in the operator console ("Banned", "On"), in a tone that says how it reads. */
export function Badge({ tone, children }: { tone: keyof typeof TONES; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${TONES[tone]}`}>
      {children}
    </span>
  );
}
