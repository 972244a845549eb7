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
