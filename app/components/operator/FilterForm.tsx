import { Form, useSubmit } from "@remix-run/react";
import type { ReactNode } from "react";
import { buttonClass } from "~/components/ui/button";

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

/** One of a filter form's choices: "every" option first (no filter), then `options` as [value, label]. */
export function FilterSelect({
  id,
  name,
  label,
  defaultValue,
  every,
  options,
}: {
  id: string;
  name: string;
  label: string;
  defaultValue: string | number | null;
  every: string;
  options: readonly (readonly [value: string | number, label: string])[];
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={defaultValue ?? ""}
        className="h-11 rounded-xl border border-line bg-white px-3 text-sm"
      >
        <option value="">{every}</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A filter form's submit button (the way to apply the filters without JavaScript). */
export function ShowButton() {
  return (
    <button type="submit" className={buttonClass({ tone: "secondary", size: "md" })}>
      Show
    </button>
  );
}
