import type { Flash } from "~/domain/flash";
import { lazyComponent } from "~/lib/lazy-component";
import { useClientToasts } from "~/lib/toasts";

// Where the stack sits on a phone: above the floating profile button, above the bottom bar, or
// at the bottom edge of a screen without either. Navigation is never under a toast.
const ABOVE = {
  button: "bottom-[calc(10.25rem+env(safe-area-inset-bottom))]",
  bar: "bottom-[calc(4.75rem+env(safe-area-inset-bottom))]",
  edge: "bottom-[calc(1rem+env(safe-area-inset-bottom))]",
} as const;

// The list's code comes with the first toast: most pages show none (lib/lazy-component.tsx).
const ToastList = lazyComponent(() => import("./Toasts").then((module) => module.ToastList));

/**
 * Toasts at the bottom of the column, clear of the header, the bar and the floating button: the
 * server's messages for this page (a flash after a form, notices of what happened meanwhile),
 * rendered in the HTML so they show without JavaScript, and the browser's own (copy, share). The
 * live region is always there, so a screen reader announces the first toast too.
 */
export function ToastStack({
  messages,
  above,
  beside,
}: {
  messages: readonly Flash[];
  above: keyof typeof ABOVE;
  /** The side bar is on the left from `lg` up: centre the stack on the column. */
  beside: boolean;
}) {
  const clientToasts = useClientToasts();
  const shown = [
    ...messages.map((message) => ({ message, client: false })),
    ...clientToasts.map((message) => ({ message, client: true })),
  ];
  return (
    <div
      role="status"
      aria-live="polite"
      className={`pointer-events-none fixed inset-x-0 z-40 mx-auto flex w-full max-w-md flex-col gap-2 px-4 lg:bottom-6 lg:max-w-xl lg:px-8 ${ABOVE[above]} ${beside ? "lg:left-60" : ""}`}
    >
      {shown.length > 0 ? <ToastList shown={shown} /> : null}
    </div>
  );
}
