import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { fieldAria, type FieldState } from "~/lib/use-form";
import { Icon, type IconName } from "../ui/Icon";
import { ErrorList } from "./ErrorList";

const CONTROL =
  "block w-full rounded-xl border border-line bg-white px-4 text-base text-ink placeholder:text-gray-400 " +
  "transition focus:border-brand-500 focus:ring-4 focus:ring-brand-100 focus:outline-none " +
  "aria-[invalid=true]:border-red-400";
const INPUT = `${CONTROL} h-12 disabled:bg-gray-50 disabled:text-muted`;

/** The look of a text input, for one laid out by hand (a search box beside its button). */
export const INPUT_CLASS = INPUT;

type InputType = "text" | "email" | "password" | "search" | "tel" | "url" | "date";

/** The label above a control, and below it the hint and the errors that the control's description points at. */
function Labelled({
  field,
  label,
  hint,
  children,
}: {
  field: FieldState;
  label: string;
  hint: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={field.id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${field.id}-hint`} className="mt-1.5 text-xs text-muted">
          {hint}
        </p>
      ) : null}
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/**
 * A labelled input wired to its form field (lib/use-form.ts): its errors (aria-invalid,
 * aria-describedby) and an optional hint, which the input's description also points at.
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
  hint?: ReactNode;
  icon?: IconName;
  /** Native attributes the field does not set (placeholder, autoComplete, inputMode, minLength, ...). */
  inputProps?: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "className" | "defaultValue">;
}) {
  return (
    <Labelled field={field} label={label} hint={hint}>
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
          {...fieldAria(field, hint ? `${field.id}-hint` : undefined)}
          {...inputProps}
          className={`${INPUT}${icon ? " pl-11" : ""}`}
        />
      </div>
    </Labelled>
  );
}

/** A labelled textarea wired to its form field, like Field. */
export function TextareaField({
  field,
  label,
  hint,
  textareaProps,
}: {
  field: FieldState;
  label: string;
  hint?: ReactNode;
  textareaProps?: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id" | "className" | "defaultValue">;
}) {
  return (
    <Labelled field={field} label={label} hint={hint}>
      <textarea
        id={field.id}
        name={field.name}
        defaultValue={field.initialValue}
        {...fieldAria(field, hint ? `${field.id}-hint` : undefined)}
        rows={4}
        {...textareaProps}
        className={`${CONTROL} py-3`}
      />
    </Labelled>
  );
}

/** A labelled native select wired to its form field, like Field: a choice among a few `options`. */
export function SelectField({
  field,
  label,
  hint,
  options,
  selectProps,
}: {
  field: FieldState;
  label: string;
  hint?: ReactNode;
  options: readonly { value: string; label: string }[];
  selectProps?: Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "id" | "className" | "defaultValue">;
}) {
  return (
    <Labelled field={field} label={label} hint={hint}>
      <select
        id={field.id}
        name={field.name}
        defaultValue={field.initialValue}
        {...fieldAria(field, hint ? `${field.id}-hint` : undefined)}
        {...selectProps}
        className={`${INPUT} pr-10`}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Labelled>
  );
}
