import { useSyncExternalStore } from "react";
import type { Flash } from "~/domain/flash";

// Toasts raised in the browser (copy, share): the server's messages come with the page instead.
let toasts: Flash[] = [];
const listeners = new Set<() => void>();
const NONE: Flash[] = [];

function publish(next: Flash[]) {
  toasts = next;
  listeners.forEach((listener) => listener());
}

export function showToast(toast: Omit<Flash, "id">) {
  publish([...toasts, { ...toast, id: `toast-${Date.now()}-${Math.random().toString(36).slice(2)}` }].slice(-3));
}

export function dismissToast(id: string) {
  publish(toasts.filter((toast) => toast.id !== id));
}

export function useClientToasts(): Flash[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasts,
    () => NONE,
  );
}

// The control the person used last (a click, or a key that acts as one), which a toast answering
// it must not cover (Toasts.tsx). Kept here, in the shell's code, because the toasts' own code is
// fetched only when the first toast shows, after that click. Not the focus: a control that sends a
// form is disabled while it waits, and loses the focus.
let lastUsed: Element | null = null;
if (typeof document !== "undefined") {
  document.addEventListener(
    "click",
    (event) => {
      if (event.target instanceof Element)
        lastUsed = event.target.closest("button, a, input, select, textarea, summary, label");
    },
    { capture: true },
  );
}

/** The control the person used last, while it is on the page. */
export function lastUsedControl(): Element | null {
  return lastUsed?.isConnected ? lastUsed : null;
}
