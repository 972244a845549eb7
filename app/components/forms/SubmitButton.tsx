import type { ReactNode } from "react";
import { useIsPending } from "~/lib/use-is-pending";
import { buttonClass, type ButtonLook } from "../ui/button";
import { Spinner } from "../ui/Icon";

/**
 * A submit button that shows its pending text and a spinner while its own submission (its
 * `intent`) is in flight, and is disabled meanwhile so it cannot be sent twice.
 */
export function SubmitButton({
  children,
  pendingText,
  intent,
  pendingWith,
  disabled = false,
  look,
  formNoValidate,
}: {
  children: ReactNode;
  pendingText?: string;
  /** Sent as `intent=<value>`; also what the pending state listens for. */
  intent?: string;
  /** Fields that tell this button's submission apart from others with the same intent. */
  pendingWith?: Record<string, string>;
  disabled?: boolean;
  look?: ButtonLook;
  formNoValidate?: boolean;
}) {
  const pending = useIsPending({ intent, with: pendingWith });
  return (
    <button
      type="submit"
      name={intent ? "intent" : undefined}
      value={intent}
      disabled={disabled || pending}
      formNoValidate={formNoValidate}
      className={buttonClass(look)}
    >
      {pending ? <Spinner /> : null}
      {pending && pendingText ? pendingText : children}
    </button>
  );
}
