import type { FieldState } from "~/lib/use-form";
import { Icon, type IconName } from "../ui/Icon";
import { ErrorList } from "./ErrorList";

/** A choice between a few options, each a card with a label and a detail line (a native radio group). */
export function RadioCards<Value extends string>({
  field,
  legend,
  options,
}: {
  field: FieldState;
  legend: string;
  options: readonly { value: Value; label: string; detail: string; icon: IconName }[];
}) {
  return (
    <fieldset aria-describedby={field.errors?.length ? field.errorId : undefined}>
      <legend className="mb-1.5 block text-sm font-medium text-ink">{legend}</legend>
      <div className="grid grid-cols-2 gap-3">
        {options.map((option) => (
          <label
            key={option.value}
            className="relative flex cursor-pointer items-center gap-3 rounded-xl border border-line bg-white p-3 transition has-checked:border-brand-500 has-checked:ring-2 has-checked:ring-brand-100 has-focus-visible:ring-2 has-focus-visible:ring-brand-500"
          >
            <input
              type="radio"
              name={field.name}
              value={option.value}
              defaultChecked={field.initialValue === option.value}
              aria-invalid={field.errors ? true : undefined}
              aria-describedby={field.errors ? field.errorId : undefined}
              id={`${field.id}-${option.value}`}
              className="peer sr-only"
            />
            {/* Below 360 px two cards leave no room for the icon beside "UPI (India)" and "Min. $5.00". */}
            <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-600 max-[359px]:hidden">
              <Icon name={option.icon} className="size-5" />
            </span>
            <span className="min-w-0">
              <span className="block text-sm font-semibold text-ink [overflow-wrap:anywhere]">{option.label}</span>
              <span className="block text-xs text-muted">{option.detail}</span>
            </span>
          </label>
        ))}
      </div>
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}
