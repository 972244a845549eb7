import type { Flash } from "~/domain/flash";
import { dismissToast, lastUsedControl } from "~/lib/toasts";
import { Icon } from "./shared";

const TONES = {
  success: { icon: "check", box: "border-emerald-200", iconColor: "text-emerald-600" },
  error: { icon: "alert", box: "border-red-200", iconColor: "text-red-600" },
  info: { icon: "info", box: "border-brand-200", iconColor: "text-brand-600" },
} as const;

const keyOf = (message: Flash) => message.id ?? message.title;

// The slots of app.css: the first toast now, the next once it has gone, and so on.
const SLOTS = ["toast-slot-0", "toast-slot-1", "toast-slot-2", "toast-slot-3"] as const;

// What a toast must not cover besides the control the person has just used (the toast is its
// answer): the balance card.
const KEPT_CLEAR = "[aria-labelledby='balance-heading']";

/**
 * On a phone a toast sits on the bottom bar, over the page. Once it has shown, the control the
 * person just used (lastUsedControl) and the balance card are scrolled above it when it lies over
 * them, into the room the page keeps at its end while a toast is open (`.toast-reserve`). Only
 * those: moving every control clear would bring the ones under the bar into its place. From `lg`
 * up toasts sit at the foot of the side bar, over no content; without JavaScript, in the flow at
 * the top of the page (app.css).
 */
function clearBeneath(toast: HTMLElement) {
  if (window.matchMedia("(min-width: 64rem)").matches) return;
  const { top, bottom } = toast.getBoundingClientRect();
  const control = lastUsedControl();
  const kept = [...(control?.closest("main") ? [control] : []), ...document.querySelectorAll(`main ${KEPT_CLEAR}`)];
  let lowest = -Infinity;
  for (const element of kept) {
    const box = element.getBoundingClientRect();
    if (box.height > 0 && box.bottom > top && box.top < bottom) lowest = Math.max(lowest, box.bottom);
  }
  if (lowest > -Infinity) window.scrollBy({ top: lowest - top + 8, behavior: "smooth" });
}

/**
 * The toasts themselves (ToastStack holds them; a function, not a component, as it is handed
 * over once downloaded): the server's messages for this page and the browser's own. Loaded with
 * the first toast a page shows, not with every page. All sit in one place, one shown at a time
 * (its slot), each leaving by itself after six seconds. Each is a `<details open>` whose summary
 * is the Dismiss control, so it can be closed without JavaScript too; a closed one is not drawn,
 * and with JavaScript the next moves up to the first slot.
 */
export function toastItems(shown: readonly { message: Flash; client: boolean }[], close: (message: Flash) => void) {
  return (
    <>
      {shown.map(({ message, client }, index) => {
        const remove = () => (client ? dismissToast(message.id!) : close(message));
        return (
          <details
            // A new slot is a new element: its six seconds start when it is shown.
            key={`${keyOf(message)}:${index}`}
            open
            data-testid="flash"
            onToggle={(event) => {
              if (!event.currentTarget.open) remove();
            }}
            // Shown: the page moves what it would cover above it. Gone by itself: out of the list,
            // so the next moves up and the page's end is freed.
            onAnimationEnd={(event) => {
              if (event.animationName === "toast-show") clearBeneath(event.currentTarget);
              if (event.animationName === "toast-out") remove();
            }}
            className={`toast-auto-hide ${SLOTS[Math.min(index, SLOTS.length - 1)]} pointer-events-auto absolute inset-x-3 bottom-2 rounded-2xl border bg-white shadow-lg lg:inset-x-4 [&:not([open])]:hidden ${TONES[message.kind].box}`}
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
        );
      })}
    </>
  );
}
