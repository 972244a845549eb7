import type { SubmissionResult } from "@conform-to/react";
import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useHydrated } from "./use-hydrated";

/** A form's errors by field name; "" holds the form's own (the shape of Conform's replies). */
export type FormErrors = Record<string, string[] | null | undefined>;

/** What a field needs to render: the ids that tie its label, input and errors together, and its value. */
export interface FieldState {
  id: string;
  name: string;
  errorId: string;
  errors: string[] | undefined;
  initialValue: string | undefined;
  /** Every value it starts with: the boxes ticked, for checkboxes that share its name. */
  initialValues: readonly string[];
}

interface FormOptions<Name extends string> {
  id: string;
  fields: readonly Name[];
  /** The action's reply (made on the server by Conform): its errors and the values that were sent. */
  lastResult?: SubmissionResult<string[]>;
  defaultValue?: Partial<Record<Name, string | readonly string[]>>;
  /**
   * Checks made in the browser before posting (given the submitter's `intent`); a submission they
   * refuse is not sent, and once refused the form is checked again as the person types.
   */
  validate?: (formData: FormData) => FormErrors;
  /** Keep the browser's own checks (required, type=email, ...) until React runs: they guard the form without JavaScript. */
  nativeChecksWithoutJavaScript?: boolean;
}

interface Checked {
  formId: string;
  /** The reply these errors were found after: a newer reply replaces them. */
  after: SubmissionResult<string[]> | undefined;
  intent: string | null;
  errors: FormErrors;
}

function firstValue(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  return Array.isArray(value) && typeof value[0] === "string" ? value[0] : undefined;
}

function allValues(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function hasErrors(errors: FormErrors): boolean {
  return Object.values(errors).some((list) => list?.length);
}

function focusFirstInvalid(form: HTMLFormElement | null, errors: FormErrors) {
  for (const element of Array.from(form?.elements ?? [])) {
    const name = (element as HTMLInputElement).name;
    if (name && errors[name]?.length && element instanceof HTMLElement) {
      element.focus();
      return;
    }
  }
}

/**
 * A small stand-in for Conform's `useForm` in the browser (Conform stays on the server, which makes
 * the replies): the form's and each field's ids, errors and starting values, the same ids and ARIA
 * wiring, and optional checks before posting. It keeps Conform and zod out of the pages' JavaScript.
 */
export function useFormState<Name extends string>({
  id,
  fields,
  lastResult,
  defaultValue,
  validate,
  nativeChecksWithoutJavaScript = false,
}: FormOptions<Name>) {
  const hydrated = useHydrated();
  const [checked, setChecked] = useState<Checked | null>(null);
  const current = checked?.formId === id && checked.after === lastResult ? checked : null;
  const errors: FormErrors = current?.errors ?? lastResult?.error ?? {};
  const values = lastResult?.initialValue ?? defaultValue ?? {};

  // A refused reply that arrives in the page moves focus to the first field it blames.
  const formRef = useRef<HTMLFormElement>(null);
  const seenResult = useRef(lastResult);
  useEffect(() => {
    if (seenResult.current === lastResult) return;
    seenResult.current = lastResult;
    if (lastResult?.status === "error" && lastResult.error) focusFirstInvalid(formRef.current, lastResult.error);
  }, [lastResult]);

  function check(form: HTMLFormElement, intent: string | null): FormErrors {
    if (!validate) return {};
    const formData = new FormData(form);
    if (intent !== null) formData.set("intent", intent);
    return validate(formData);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const intent = submitter?.name === "intent" ? submitter.value : null;
    const found = check(event.currentTarget, intent);
    setChecked({ formId: id, after: lastResult, intent, errors: found });
    if (hasErrors(found)) {
      event.preventDefault();
      focusFirstInvalid(event.currentTarget, found);
    }
  }

  function onInput(event: FormEvent<HTMLFormElement>) {
    const intent = current ? current.intent : firstValue(lastResult?.initialValue?.intent);
    if (intent === undefined) return;
    setChecked({ formId: id, after: lastResult, intent, errors: check(event.currentTarget, intent) });
  }

  const formErrors = errors[""]?.length ? errors[""] : undefined;
  const form = {
    errorId: `${id}-error`,
    errors: formErrors,
    props: {
      id,
      ref: formRef,
      noValidate: hydrated || !nativeChecksWithoutJavaScript,
      "aria-describedby": formErrors ? `${id}-error` : undefined,
      ...(validate ? { onSubmit, onInput } : {}),
    },
  };
  const fieldStates = Object.fromEntries(
    fields.map((name): [Name, FieldState] => [
      name,
      {
        id: `${id}-${name}`,
        name,
        errorId: `${id}-${name}-error`,
        errors: errors[name]?.length ? errors[name] : undefined,
        initialValue: firstValue(values[name]),
        initialValues: allValues(values[name]),
      },
    ]),
  ) as Record<Name, FieldState>;
  return [form, fieldStates] as const;
}

/** The ARIA wiring of a field's control: invalid while it has errors, described by them and its hint. */
export function fieldAria(field: FieldState, hintId?: string) {
  const invalid = field.errors !== undefined;
  return {
    "aria-invalid": invalid || undefined,
    "aria-describedby": invalid ? `${field.errorId} ${hintId ?? ""}`.trim() : hintId,
  };
}

/** Each reply's key: the same reply object keeps its key from render to render. */
const replyKeys = new WeakMap<object, number>();
let lastReplyKey = 0;

/**
 * The `key` of a form that starts afresh after a request went through and keeps what was sent
 * after a refusal: a new key for each page (`location.key`) and for each reply of the form's action.
 * A reply is shown while the page's data reloads, and the reload ends with a new location: keyed on
 * the location alone, the form was made again then, and what the person had typed since the message
 * appeared went back to what was sent.
 */
export function useFormKey(lastResult: SubmissionResult<string[]> | undefined): string {
  const location = useLocation();
  if (!lastResult) return location.key;
  let key = replyKeys.get(lastResult);
  if (key === undefined) {
    key = ++lastReplyKey;
    replyKeys.set(lastResult, key);
  }
  return `reply-${key}`;
}
