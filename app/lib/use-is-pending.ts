import { useNavigation } from "@remix-run/react";

/**
 * Whether a form submission is in flight: any POST, or only the one whose submit button sent
 * this `intent`, and whose fields include `with` (e.g. the task id of one row among many).
 * With JavaScript off there is no pending state; the browser shows its own loading.
 */
export function useIsPending({ intent, with: fields = {} }: { intent?: string; with?: Record<string, string> } = {}) {
  const navigation = useNavigation();
  if (navigation.state === "idle" || navigation.formMethod?.toUpperCase() !== "POST") return false;
  const sent = navigation.formData;
  if (intent !== undefined && sent?.get("intent") !== intent) return false;
  return Object.entries(fields).every(([name, value]) => sent?.get(name) === value);
}
