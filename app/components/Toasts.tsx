import type { Flash } from "~/domain/flash";
import { dismissToast } from "~/lib/toasts";
import { Icon } from "./shared";

const TONES = {
  success: { icon: "check", box: "border-emerald-200", iconColor: "text-emerald-600" },
  error: { icon: "alert", box: "border-red-200", iconColor: "text-red-600" },
  info: { icon: "info", box: "border-brand-200", iconColor: "text-brand-600" },
} as const;

const keyOf = (message: Flash) => message.id ?? message.title;

// The slots of app.css: the first toast now, the next once it has gone, and so on.
const SLOTS = ["toast-slot-0", "toast-slot-1", "toast-slot-2", "toast-slot-3"] as const;

// What a toast must not hide besides the controls: the balance card.
const KEPT_CLEAR = "[aria-labelledby='balance-heading']";
const CONTROLS = `a[href], button, input:not([type='hidden']), select, textarea, summary, [role='switch'], [tabindex='0'], ${KEPT_CLEAR}`;
// Each toast makes room once: a second pass would take the controls the first brought up from
// under the bar for ones that had been in sight.
const madeRoomFor = new WeakSet<Element>();

/**
 * A toast sits docked (on the bar, at a screen's foot, or at the foot of the side bar), over the
 * page. Once it has shown, the page moves up just far enough that every control that was in sight
 * in the strip it covers (and the balance card) sits above it, into the room the page keeps at its
 * end while a toast is open (`.toast-reserve`). Those that were under the bar come into its place,
 * out of sight as they were; while it is open the toast is part of the bottom edge, and the page
 * can be scrolled clear of it like the bar. Nothing moves when nothing in sight lies under it (the
 * side bar's toasts sit over no content). Without JavaScript toasts sit in the flow (app.css).
 */
function makeRoom(toast: HTMLElement) {
  if (madeRoomFor.has(toast) || !toast.isConnected) return;
  madeRoomFor.add(toast);
  const over = toast.getBoundingClientRect();
  // The strip runs from the toast's top to where the dock sits (the bar's top, or the screen's foot).
  const dockTop = toast.parentElement?.getBoundingClientRect().top ?? window.innerHeight;
  if (over.height === 0) return;
  let reach = 0;
  for (const element of document.querySelectorAll(`main :is(${CONTROLS})`)) {
    const box = element.getBoundingClientRect();
    const inStrip = box.bottom > over.top && box.top < dockTop && box.right > over.left && box.left < over.right;
    if (box.height > 0 && box.top >= 0 && inStrip) reach = Math.max(reach, Math.min(box.bottom, dockTop) - over.top);
  }
  if (reach > 0) window.scrollBy({ top: reach + 8, behavior: "instant" });
}

/** A toast that had already shown when its code arrived (the page's own, at load) makes room now. */
function makeRoomIfShown(toast: HTMLDetailsElement | null) {
  if (!toast?.open) return;
  const entering = toast
    .getAnimations()
    .some(
      (animation) => (animation as CSSAnimation).animationName === "toast-show" && animation.playState !== "finished",
    );
  // After the layout effects of this commit (scroll restoration among them), before anything else
  // runs: the page is where it stays by the time a tap can reach it.
  if (!entering) queueMicrotask(() => makeRoom(toast));
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
            ref={makeRoomIfShown}
            // Shown: the page moves what it would cover above it. Gone by itself: out of the list,
            // so the next moves up and the page's end is freed.
            onAnimationEnd={(event) => {
              if (event.animationName === "toast-show") makeRoom(event.currentTarget);
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
