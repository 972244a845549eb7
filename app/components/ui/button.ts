// One set of button looks for the whole app. Every look is a named variant (tone × size, and
// `block` for full width), so no call site appends classes that could lose to the variant's own
// by CSS order (e.g. a custom h-9 beside the variant's h-12).

// What every button shares: the `btn` class (app.css), one class instead of eleven on each.
const BASE = "btn";

const TONES = {
  primary: "bg-brand-600 text-white shadow-sm shadow-brand-600/30 hover:bg-brand-700 active:bg-brand-800",
  secondary: "border border-line bg-white text-ink hover:bg-gray-50 active:bg-gray-100",
  onBrand: "bg-white/15 text-white ring-1 ring-white/30 hover:bg-white/25 active:bg-white/30",
  light: "bg-white text-brand-700 hover:bg-brand-50 active:bg-brand-100",
  danger: "bg-red-600 text-white shadow-sm shadow-red-600/30 hover:bg-red-700 active:bg-red-800",
} as const;

const SIZES = {
  // 44 px tall, as every tap target on a phone (issue 36); narrower and lighter than md.
  sm: "h-11 rounded-lg px-3.5 text-sm",
  md: "h-11 rounded-xl px-4 text-sm",
  lg: "h-12 rounded-xl px-5 text-base",
} as const;

export type ButtonTone = keyof typeof TONES;
export type ButtonSize = keyof typeof SIZES;

export interface ButtonLook {
  tone?: ButtonTone;
  size?: ButtonSize;
  /** Full width of its container. */
  block?: boolean;
}

/** Classes for a <button> or a link that looks like one. */
export function buttonClass({ tone = "primary", size = "lg", block = false }: ButtonLook = {}): string {
  return `${BASE} ${TONES[tone]} ${SIZES[size]}${block ? " w-full" : ""}`;
}
