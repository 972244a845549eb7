/** A one-time message carried across a redirect (the original's toasts). */
export interface Flash {
  /** Unique per message, so the same text twice in a row still shows as a new toast. */
  id?: string;
  kind: "success" | "error" | "info";
  title: string;
  description?: string;
}
