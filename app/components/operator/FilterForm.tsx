import { Form, useSubmit } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * A console list's filters: a GET form (the URL is the filter, so it works without JavaScript,
 * with its Show button), which with JavaScript applies a changed choice (a select, a checkbox) at
 * once. Text boxes still wait for Enter or the button: a half-typed term is no search.
 */
export function FilterForm({
  children,
  className,
  action,
  role,
}: {
  children: ReactNode;
  className?: string;
  action?: string;
  role?: "search";
}) {
  const submit = useSubmit();
  return (
    <Form
      method="get"
      action={action}
      role={role}
      className={className}
      onChange={(event) => {
        const target = event.target as HTMLInputElement | HTMLSelectElement;
        if (target.tagName === "SELECT" || (target instanceof HTMLInputElement && target.type === "checkbox")) {
          submit(event.currentTarget, { replace: true, preventScrollReset: true });
        }
      }}
    >
      {children}
    </Form>
  );
}
