import { useEffect, useState } from "react";
import type { Flash } from "~/domain/flash";
import { useClientToasts } from "~/lib/toasts";
import type { toastItems } from "./Toasts";

// Where a toast sits on a phone: on the bottom bar (its round profile button included), or at the
// bottom edge of a screen without one. From `lg` up, at the foot of the side bar.
const ABOVE = {
  bar: "bottom-[calc(4rem+1px+env(safe-area-inset-bottom))] lg:inset-x-auto lg:left-0 lg:mx-0 lg:w-60 lg:max-w-none lg:bottom-2",
  edge: "bottom-[env(safe-area-inset-bottom)]",
} as const;

const STACK_ID = "toasts";

/*
 * The list's code (Toasts.tsx) comes with the first toast: most pages show none. Not a Suspense
 * boundary (lib/lazy-component.tsx): the stack updates with every navigation, and an update
 * reaching a boundary still waiting for its code during hydration makes React throw that part
 * away (error 421). Until the code is there, the server's toasts stay as the server drew them.
 */
let renderToasts: typeof toastItems | undefined;
let loading: Promise<void> | undefined;
const loadToastList = () =>
  (loading ??= import("./Toasts").then((module) => {
    renderToasts = module.toastItems;
  }));
// The server renders every toast at once; a page the server sent with toasts fetches the code
// before hydration.
if (typeof document === "undefined" || (document.getElementById(STACK_ID)?.childElementCount ?? 0) > 0)
  void loadToastList().catch(() => {});

/** The server's toasts as it drew them, while the list's code is on its way (hydration). */
function useServerDrawnToasts(messages: readonly Flash[]) {
  const [html] = useState(() => (typeof document === "undefined" ? "" : document.getElementById(STACK_ID)?.innerHTML));
  const [first] = useState(messages);
  return first === messages ? html : undefined;
}

/** The list's renderer once its code is there, asking for it when there is something to show. */
function useToastRenderer(needed: boolean) {
  const [, setLoaded] = useState(renderToasts !== undefined);
  useEffect(() => {
    if (needed && !renderToasts) void loadToastList().then(() => setLoaded(true));
  }, [needed]);
  return renderToasts;
}

/**
 * Toasts on the bottom bar, one at a time, over no content: the server's messages for this page (a
 * flash after a form, notices of what happened meanwhile), rendered in the HTML so they show
 * without JavaScript, and the browser's own (copy, share). Each shows for six seconds, then the
 * next (toast-slot-N in app.css); one closed before its time makes way for the next at once. The
 * live region is always there, so a screen reader announces the first toast too.
 */
export function ToastStack({ messages, above }: { messages: readonly Flash[]; above: keyof typeof ABOVE }) {
  const clientToasts = useClientToasts();
  // The server's toasts closed on this page (a new page's messages are new objects).
  const [closed, setClosed] = useState<{ of: readonly Flash[]; ids: ReadonlySet<Flash> }>({
    of: messages,
    ids: new Set(),
  });
  const closedHere = closed.of === messages ? closed.ids : new Set<Flash>();
  const shown = [
    ...messages.filter((message) => !closedHere.has(message)).map((message) => ({ message, client: false })),
    ...clientToasts.map((message) => ({ message, client: true })),
  ];
  const close = (message: Flash) =>
    setClosed((before) => ({
      of: messages,
      ids: new Set([...(before.of === messages ? before.ids : []), message]),
    }));
  const render = useToastRenderer(shown.length > 0);
  const serverDrawn = useServerDrawnToasts(messages);
  const region = {
    id: STACK_ID,
    role: "status",
    "aria-live": "polite",
    className: `pointer-events-none fixed inset-x-0 z-30 mx-auto h-0 w-full max-w-md ${ABOVE[above]}`,
  } as const;
  if (!render && serverDrawn && clientToasts.length === 0)
    return <div {...region} dangerouslySetInnerHTML={{ __html: serverDrawn }} />;
  return <div {...region}>{render && shown.length > 0 ? render(shown, close) : null}</div>;
}
