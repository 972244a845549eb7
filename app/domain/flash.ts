/** A one-time message carried across a redirect (the original's toasts). */
export interface Flash {
  kind: "success" | "error" | "info";
  title: string;
  description?: string;
}
