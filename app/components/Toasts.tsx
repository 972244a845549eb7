import type { Flash } from "~/domain/flash";
import { dismissToast, useClientToasts } from "~/lib/toasts";
import { Icon } from "./ui/Icon";

const TONES = {
  success: { icon: "check", box: "border-emerald-200", iconColor: "text-emerald-600" },
  error: { icon: "alert", box: "border-red-200", iconColor: "text-red-600" },
  info: { icon: "info", box: "border-brand-200", iconColor: "text-brand-600" },
} as const;

// Where the stack sits on a phone: above the floating profile button, above the bottom bar, or
// at the bottom edge of a screen without either. Navigation is never under a toast.
const ABOVE = {
  button: "bottom-[calc(10.25rem+env(safe-area-inset-bottom))]",
  bar: "bottom-[calc(4.75rem+env(safe-area-inset-bottom))]",
  edge: "bottom-[calc(1rem+env(safe-area-inset-bottom))]",
} as const;

const keyOf = (message: Flash) => message.id ?? message.title;

/**
 * Toasts at the bottom of the column, clear of the header, the bar and the floating button: the
 * server's messages for this page (a flash after a form, notices of what happened meanwhile),
 * rendered in the HTML so they show without JavaScript, and the browser's own (copy, share).
 * Each leaves by itself after six seconds. Each is a `<details open>` whose summary is the Dismiss
 * control, so it can be closed without JavaScript too; a closed one is not drawn.
 */
export function Toasts({
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
      {shown.map(({ message, client }) => (
        <details
          key={keyOf(message)}
          open
          data-testid="flash"
          onToggle={
            client
              ? (event) => {
                  if (!event.currentTarget.open) dismissToast(message.id!);
                }
              : undefined
          }
          className={`toast-auto-hide pointer-events-auto relative rounded-2xl border bg-white shadow-lg [&:not([open])]:hidden ${TONES[message.kind].box}`}
        >
          <summary
            aria-label="Dismiss"
            className="absolute top-1 right-1 inline-flex size-11 cursor-pointer list-none items-center justify-center rounded-full text-muted hover:bg-gray-100 active:bg-gray-200 [&::-webkit-details-marker]:hidden"
          >
            <Icon name="close" className="size-4" />
          </summary>
          <div className="flex items-start gap-3 py-3 pr-12 pl-4">
            <Icon
              name={TONES[message.kind].icon}
              className={`mt-0.5 size-5 shrink-0 ${TONES[message.kind].iconColor}`}
            />
            <div className="min-w-0 flex-1 text-sm">
              <p className="font-semibold text-ink">{message.title}</p>
              {message.description ? <p className="mt-0.5 text-muted">{message.description}</p> : null}
            </div>
          </div>
        </details>
      ))}
    </div>
  );
}
