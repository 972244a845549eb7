import { useEffect, useState } from "react";
import type { Flash } from "~/domain/flash";
import { useClientToasts } from "~/lib/toasts";
import type { toastItems } from "./Toasts";

// Where the stack sits on a phone: above the floating profile button, above the bottom bar, or
// at the bottom edge of a screen without either. Navigation is never under a toast.
const ABOVE = {
  button: "bottom-[calc(10.25rem+env(safe-area-inset-bottom))]",
  bar: "bottom-[calc(4.75rem+env(safe-area-inset-bottom))]",
  edge: "bottom-[calc(1rem+env(safe-area-inset-bottom))]",
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
  const render = useToastRenderer(shown.length > 0);
  const serverDrawn = useServerDrawnToasts(messages);
  const region = {
    id: STACK_ID,
    role: "status",
    "aria-live": "polite",
    className: `pointer-events-none fixed inset-x-0 z-40 mx-auto flex w-full max-w-md flex-col gap-2 px-4 lg:bottom-6 lg:max-w-xl lg:px-8 ${ABOVE[above]} ${beside ? "lg:left-60" : ""}`,
  } as const;
  if (!render && serverDrawn && clientToasts.length === 0)
    return <div {...region} dangerouslySetInnerHTML={{ __html: serverDrawn }} />;
  return <div {...region}>{render && shown.length > 0 ? render(shown) : null}</div>;
}
