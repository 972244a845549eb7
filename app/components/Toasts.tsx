import { useState } from "react";
import type { Flash } from "~/domain/flash";
import { dismissToast, useClientToasts } from "~/lib/toasts";
import { useHydrated } from "~/lib/use-hydrated";
import { Icon } from "./ui/Icon";

const TONES = {
  success: { icon: "check", box: "border-emerald-200", iconColor: "text-emerald-600" },
  error: { icon: "alert", box: "border-red-200", iconColor: "text-red-600" },
  info: { icon: "info", box: "border-brand-200", iconColor: "text-brand-600" },
} as const;

const keyOf = (message: Flash) => message.id ?? message.title;

/**
 * Toasts at the top of the screen: the server's messages for this page (a flash after a form,
 * notices of what happened meanwhile), rendered in the HTML so they show without JavaScript, and
 * the browser's own (copy, share). Each leaves by itself; with JavaScript it can be dismissed.
 */
export function Toasts({ messages }: { messages: readonly Flash[] }) {
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const clientToasts = useClientToasts();
  const hydrated = useHydrated();
  const shown = [
    ...messages.filter((message) => !dismissed.has(keyOf(message))).map((message) => ({ message, client: false })),
    ...clientToasts.map((message) => ({ message, client: true })),
  ];
  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-3 z-40 mx-auto flex w-full max-w-md flex-col gap-2 px-4"
    >
      {shown.map(({ message, client }) => (
        <div
          key={keyOf(message)}
          data-testid="flash"
          className={`toast-auto-hide pointer-events-auto flex items-start gap-3 rounded-2xl border bg-white px-4 py-3 shadow-lg ${TONES[message.kind].box}`}
        >
          <Icon name={TONES[message.kind].icon} className={`mt-0.5 size-5 shrink-0 ${TONES[message.kind].iconColor}`} />
          <div className="min-w-0 flex-1 text-sm">
            <p className="font-semibold text-ink">{message.title}</p>
            {message.description ? <p className="mt-0.5 text-muted">{message.description}</p> : null}
          </div>
          {hydrated ? (
            <button
              type="button"
              onClick={() =>
                client ? dismissToast(message.id!) : setDismissed((set) => new Set(set).add(keyOf(message)))
              }
              aria-label="Dismiss"
              className="-mr-1 inline-flex size-7 items-center justify-center rounded-full text-muted hover:bg-gray-100"
            >
              <Icon name="close" className="size-4" />
            </button>
          ) : null}
        </div>
      ))}
    </div>
  );
}
