import type { InputHTMLAttributes } from "react";
import { fieldAria, type FieldState } from "~/lib/use-form";
import { Icon, type IconName } from "../ui/Icon";
import { ErrorList } from "./ErrorList";

const INPUT =
  "block h-12 w-full rounded-xl border border-line bg-white px-4 text-base text-ink placeholder:text-gray-400 " +
  "transition focus:border-brand-500 focus:ring-4 focus:ring-brand-100 focus:outline-none " +
  "aria-[invalid=true]:border-red-400 disabled:bg-gray-50 disabled:text-muted";

type InputType = "text" | "email" | "password" | "search" | "tel" | "url";

/**
 * A labelled input wired to its form field (lib/use-form.ts): its errors (aria-invalid, aria-describedby) and
 * an optional hint, which the input's description also points at.
 */
export function Field({
  field,
  label,
  type = "text",
  hint,
  icon,
  inputProps,
}: {
  field: FieldState;
  label: string;
  type?: InputType;
  hint?: string;
  icon?: IconName;
  /** Native attributes the field does not set (placeholder, autoComplete, inputMode, minLength, ...). */
  inputProps?: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "className" | "defaultValue">;
}) {
  const hintId = hint ? `${field.id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={field.id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      <div className="relative">
        {icon ? (
          <Icon
            name={icon}
            className="pointer-events-none absolute left-4 top-1/2 size-5 -translate-y-1/2 text-gray-400"
          />
        ) : null}
        <input
          id={field.id}
          name={field.name}
          type={type}
          defaultValue={field.initialValue}
          {...fieldAria(field, hintId)}
          {...inputProps}
          className={`${INPUT}${icon ? " pl-11" : ""}`}
        />
      </div>
      {hint ? (
        <p id={hintId} className="mt-1.5 text-xs text-muted">
          {hint}
        </p>
      ) : null}
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}
