import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { ErrorList } from "~/components/forms/ErrorList";
import { INPUT_CLASS } from "~/components/forms/Field";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { Icon } from "~/components/ui/Icon";

/**
 * "Have a promo code?" on Earn (docs/decisions/095): the code and Redeem. A refused code says why
 * under the field, with the code as typed kept in it.
 */
export function PromoCodeForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const ours = lastResult?.initialValue?.intent === "redeem-code";
  const errors = (ours ? lastResult?.error?.code : undefined) ?? undefined;
  const typed = ours ? String(lastResult?.initialValue?.code ?? "") : "";
  return (
    <Form method="post" className="rounded-2xl border border-line bg-white p-4 shadow-sm" id="promo-code">
      <label htmlFor="promo-code-field" className="flex items-center gap-2 text-sm font-semibold">
        <Icon name="gift" className="size-5 text-amber-600" />
        Have a promo code?
      </label>
      <div className="mt-2.5 flex flex-col gap-2 min-[360px]:flex-row">
        <input
          id="promo-code-field"
          name="code"
          defaultValue={typed}
          key={typed}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          placeholder="Enter the code"
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errors?.length ? "promo-code-error" : undefined}
          className={`${INPUT_CLASS} min-w-0 flex-1 uppercase placeholder:normal-case`}
        />
        <SubmitButton intent="redeem-code" look={{ size: "lg" }} pendingText="Redeeming…">
          Redeem
        </SubmitButton>
      </div>
      <ErrorList id="promo-code-error" errors={errors} />
    </Form>
  );
}
