import type { TextareaHTMLAttributes } from "react";
import { fieldAria, type FieldState } from "~/lib/use-form";
import { ErrorList } from "./ErrorList";

/** A labelled textarea wired to its form field, like Field. */
export function TextareaField({
  field,
  label,
  hint,
  textareaProps,
}: {
  field: FieldState;
  label: string;
  hint?: string;
  textareaProps?: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id" | "className" | "defaultValue">;
}) {
  const hintId = hint ? `${field.id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={field.id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      <textarea
        id={field.id}
        name={field.name}
        defaultValue={field.initialValue}
        {...fieldAria(field, hintId)}
        rows={4}
        {...textareaProps}
        className="block w-full rounded-xl border border-line bg-white px-4 py-3 text-base text-ink placeholder:text-gray-400 transition focus:border-brand-500 focus:ring-4 focus:ring-brand-100 focus:outline-none aria-[invalid=true]:border-red-400"
      />
      {hint ? (
        <p id={hintId} className="mt-1.5 text-xs text-muted">
          {hint}
        </p>
      ) : null}
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}
