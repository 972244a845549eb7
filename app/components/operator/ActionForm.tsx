import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorList } from "../forms/ErrorList";
import { FormBanner } from "../forms/FormBanner";
import { SubmitButton } from "../forms/SubmitButton";
import { PasswordAgain } from "./PasswordAgain";

type Reply = SubmissionResult<string[]> | undefined;

const TEXTAREA =
  "block w-full rounded-xl border border-line bg-white px-3 py-2 text-base focus:border-brand-500 focus:ring-4 " +
  "focus:ring-brand-100 focus:outline-none aria-[invalid=true]:border-red-400";
const INPUT = TEXTAREA.replace("py-2", "h-11");

/**
 * The reply to this form only: a console page has several forms (some with the same intent, told
 * apart by `match`, e.g. the adjustment they decide), and each shows only what its own post was told.
 */
export function replyTo(lastResult: Reply, intent: string, match: Record<string, string> = {}): Reply {
  const sent = lastResult?.initialValue;
  if (sent?.intent !== intent) return undefined;
  return Object.entries(match).every(([name, value]) => sent[name] === value) ? lastResult : undefined;
}

/**
 * One of a console page's action forms, in a card: its title and what it does, its fields, the
 * password when the sign-in is old (`needsPassword`: money, policy and access), and its button.
 */
export function ActionForm({
  intent,
  title,
  help,
  button,
  pendingText,
  tone = "primary",
  needsPassword = false,
  lastResult,
  hidden = {},
  children,
}: {
  intent: string;
  title: string;
  help?: string;
  button: string;
  pendingText: string;
  tone?: "primary" | "danger" | "secondary";
  needsPassword?: boolean;
  lastResult: Reply;
  /** Fields the form carries unseen (which record it acts on). */
  hidden?: Record<string, string>;
  children?: ReactNode;
}) {
  const reply = replyTo(lastResult, intent, hidden);
  const passwordErrors = reply?.error?.password ?? undefined;
  const key = Object.values(hidden).join("-");
  return (
    <Form
      method="post"
      className="space-y-3 rounded-2xl border border-line bg-white p-5 shadow-sm"
      data-testid={`form-${intent}`}
    >
      <div>
        <h3 className="text-base font-bold">{title}</h3>
        {help ? <p className="mt-0.5 text-sm text-muted">{help}</p> : null}
      </div>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <FormBanner errors={reply?.error?.[""] ?? undefined} />
      {children}
      {needsPassword || passwordErrors ? (
        <PasswordAgain id={`${intent}${key ? `-${key}` : ""}-password`} errors={passwordErrors} />
      ) : null}
      <SubmitButton intent={intent} pendingText={pendingText} pendingWith={hidden} look={{ tone, size: "md" }}>
        {button}
      </SubmitButton>
    </Form>
  );
}

/** A labelled text field of an action form, with its hint and errors; the value sent comes back on a refusal. */
export function ActionField({
  intent,
  name,
  label,
  hint,
  multiline = false,
  inputMode,
  lastResult,
  match = {},
}: {
  intent: string;
  name: string;
  label: string;
  hint?: string;
  multiline?: boolean;
  inputMode?: "decimal" | "numeric" | "text";
  lastResult: Reply;
  match?: Record<string, string>;
}) {
  const reply = replyTo(lastResult, intent, match);
  const id = [intent, ...Object.values(match), name].join("-");
  const errors = reply?.error?.[name] ?? undefined;
  const value = typeof reply?.initialValue?.[name] === "string" ? (reply.initialValue[name] as string) : undefined;
  const described = [errors?.length ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ");
  const aria = { "aria-invalid": errors?.length ? true : undefined, "aria-describedby": described || undefined };
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      {multiline ? (
        <textarea id={id} name={name} rows={3} maxLength={500} defaultValue={value} className={TEXTAREA} {...aria} />
      ) : (
        <input
          id={id}
          name={name}
          type="text"
          inputMode={inputMode}
          maxLength={200}
          defaultValue={value}
          className={INPUT}
          {...aria}
        />
      )}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
          {hint}
        </p>
      ) : null}
      <ErrorList id={`${id}-error`} errors={errors} />
    </div>
  );
}
