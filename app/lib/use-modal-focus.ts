import { useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";

const FOCUSABLE =
  "a[href],button:not(:disabled),input:not(:disabled):not([type=hidden]),select:not(:disabled),textarea:not(:disabled),[tabindex]:not([tabindex='-1'])";

/**
 * Keyboard behaviour of a dialog or sheet that lives in the URL, once JavaScript runs: focus moves
 * into it when it opens, Tab and Shift+Tab go round inside it, Escape goes to `closeHref` (its close
 * link), and focus then returns to what opened it. Give the returned ref to the dialog element,
 * with tabIndex={-1}. Without JavaScript the dialog is a plain part of the page, as before.
 */
export function useModalFocus<T extends HTMLElement>(closeHref: string) {
  const ref = useRef<T>(null);
  const navigate = useNavigate();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement;
    const openedAt = location.pathname + location.search;
    dialog.setAttribute("aria-modal", "true");
    dialog.focus();
    return () => {
      // Back to the opener; after a page load there was none, so to the link that opens this dialog.
      const back =
        opener instanceof HTMLElement && opener !== document.body && opener.isConnected
          ? opener
          : [...document.querySelectorAll("a")].find((link) => link.getAttribute("href") === openedAt);
      back?.focus();
    };
  }, []);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        navigate(closeHref, { replace: true, preventScrollReset: true });
        return;
      }
      if (event.key !== "Tab") return;
      const items = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const active = document.activeElement;
      // Focus outside (a click on the page behind, a button that went away) comes back in.
      const inside = active !== dialog && dialog.contains(active);
      const target = event.shiftKey
        ? !inside || active === items[0]
          ? items.at(-1)
          : null
        : !inside && active !== dialog
          ? items[0]
          : active === items.at(-1)
            ? items[0]
            : null;
      if (target || items.length === 0) {
        event.preventDefault();
        (target ?? dialog).focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [closeHref, navigate]);

  return ref;
}
