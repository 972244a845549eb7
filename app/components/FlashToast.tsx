import { useState } from "react";
import type { Flash } from "~/domain/flash";
import { Icon } from "./ui/Icon";
import { useHydrated } from "~/lib/use-hydrated";

const TONES = {
  success: { icon: "check", box: "border-emerald-200", iconColor: "text-emerald-600" },
  error: { icon: "alert", box: "border-red-200", iconColor: "text-red-600" },
  info: { icon: "info", box: "border-brand-200", iconColor: "text-brand-600" },
} as const;

/** The server renders the message (role=status); with JavaScript it can also be dismissed. */
export function FlashToast({ flash }: { flash: Flash | null }) {
  // Dismissing hides this message only; the next one (a new id) shows again.
  const [dismissedId, setDismissedId] = useState<string | null>(null);
  const hydrated = useHydrated();
  const dismissed = flash !== null && (flash.id ?? flash.title) === dismissedId;
  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-3 z-40 mx-auto w-full max-w-md px-4"
    >
      {flash && !dismissed ? (
        <div
          key={flash.id ?? flash.title}
          data-testid="flash"
          className={`toast-auto-hide pointer-events-auto flex items-start gap-3 rounded-2xl border bg-white px-4 py-3 shadow-lg ${TONES[flash.kind].box}`}
        >
          <Icon name={TONES[flash.kind].icon} className={`mt-0.5 size-5 shrink-0 ${TONES[flash.kind].iconColor}`} />
          <div className="min-w-0 flex-1 text-sm">
            <p className="font-semibold text-ink">{flash.title}</p>
            {flash.description ? <p className="mt-0.5 text-muted">{flash.description}</p> : null}
          </div>
          {hydrated ? (
            <button
              type="button"
              onClick={() => setDismissedId(flash.id ?? flash.title)}
              aria-label="Dismiss"
              className="-mr-1 inline-flex size-7 items-center justify-center rounded-full text-muted hover:bg-gray-100"
            >
              <Icon name="close" className="size-4" />
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
