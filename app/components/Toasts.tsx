import type { Flash } from "~/domain/flash";
import { dismissToast } from "~/lib/toasts";
import { Icon } from "./shared";

const TONES = {
  success: { icon: "check", box: "border-emerald-200", iconColor: "text-emerald-600" },
  error: { icon: "alert", box: "border-red-200", iconColor: "text-red-600" },
  info: { icon: "info", box: "border-brand-200", iconColor: "text-brand-600" },
} as const;

const keyOf = (message: Flash) => message.id ?? message.title;

/**
 * The toasts themselves (ToastStack holds them; a function, not a component, as it is handed
 * over once downloaded): the server's messages for this page and the
 * browser's own. Loaded with the first toast a page shows, not with every page. Each leaves by
 * itself after six seconds. Each is a `<details open>` whose summary is the Dismiss control, so
 * it can be closed without JavaScript too; a closed one is not drawn.
 */
export function toastItems(shown: readonly { message: Flash; client: boolean }[]) {
  return (
    <>
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
    </>
  );
}
