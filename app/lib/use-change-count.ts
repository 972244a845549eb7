import { useState } from "react";

/**
 * How many times `value` has been a different object than at the render before: a key that gives
 * what it keys a fresh start with each new value (each new reply of an action, say).
 */
export function useChangeCount(value: unknown): number {
  const [seen, setSeen] = useState({ value, count: 0 });
  if (seen.value === value) return seen.count;
  // Adjusted while rendering, as React recommends for state that follows a prop.
  const next = { value, count: seen.count + 1 };
  setSeen(next);
  return next.count;
}
