import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useModalFocus } from "~/lib/use-modal-focus";

const LAYOUTS = {
  // From the bottom on a phone, centred from `sm` up (the task dialog); from `lg` up centred on
  // the column, beside the side bar.
  card: {
    overlay: "items-end justify-center sm:items-center lg:pl-60",
    dialog: "w-full max-w-md rounded-t-3xl p-6 sm:rounded-3xl",
  },
  // A full-height sheet from the right edge (the withdrawal history); from `lg` up from the
  // column's right edge rather than the window's (the column is 36rem wide beside a 15rem bar).
  side: {
    overlay: "justify-end",
    dialog: "flex h-full w-[92%] max-w-sm flex-col overflow-y-auto p-5 lg:mr-[calc(50vw-25.5rem)]",
  },
} as const;

/**
 * The shell of a dialog that lives in the page's address (`?task=…`, `?history=1`): the server
 * renders it open, so it works without JavaScript; the backdrop is a link to `closeHref`; with
 * JavaScript it holds the keyboard's focus and Escape closes it (useModalFocus).
 */
export function UrlDialog({
  closeHref,
  layout,
  labelledBy,
  describedBy,
  children,
}: {
  closeHref: string;
  layout: keyof typeof LAYOUTS;
  labelledBy: string;
  describedBy?: string;
  children: ReactNode;
}) {
  const dialogRef = useModalFocus<HTMLDialogElement>(closeHref);
  return (
    <div className={`fixed inset-0 z-30 flex ${LAYOUTS[layout].overlay}`}>
      <Link to={closeHref} replace preventScrollReset aria-label="Close" className="absolute inset-0 bg-black/40" />
      <dialog
        ref={dialogRef}
        open
        tabIndex={-1}
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        className={`relative m-0 bg-white text-ink shadow-2xl focus:outline-none ${LAYOUTS[layout].dialog}`}
      >
        {children}
      </dialog>
    </div>
  );
}
