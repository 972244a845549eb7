import type { SubmissionResult } from "@conform-to/react";
import { FilterForm } from "~/components/operator/FilterForm";
import { Form, Link } from "@remix-run/react";
import { Badge } from "~/components/operator/Badge";
import { PasswordAgain } from "~/components/operator/PasswordAgain";
import { ConsoleEmpty, ConsolePager, ConsoleSection, ConsoleTable } from "~/components/operator/ConsoleTable";
import { WallSettingList } from "~/components/operator/WallSettingList";
import { ErrorList } from "~/components/forms/ErrorList";
import { Field, INPUT_CLASS, TextareaField } from "~/components/forms/Field";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { Banner } from "~/components/ui/Banner";
import { buttonClass } from "~/components/ui/button";
import { formatCoins } from "~/domain/money";
import { formatTimestamp } from "~/domain/dates";
import {
  clearField,
  settingField,
  TEST_POSTBACK_MAX_COINS,
  type HeldPostback,
  type PostbackLogFilters,
  type PostbackLogEntry,
  type WallForm,
  type WallView,
} from "~/domain/operator-walls";
import { fieldAria, useFormState } from "~/lib/use-form";
import { useIsPending } from "~/lib/use-is-pending";
import { Spinner } from "~/components/ui/Icon";

type Reply = SubmissionResult<string[]> | undefined;

const CELL = "px-4 py-3";
const WRAP = `${CELL} [overflow-wrap:anywhere]`;
const NUMBER = `${CELL} whitespace-nowrap tabular-nums`;
const LINK = "font-medium text-brand-700 underline underline-offset-2";

/** The reply to the form whose button sent `intent`, and no other's. */
const replyTo = (reply: Reply, intent: string) => (reply?.initialValue?.intent === intent ? reply : undefined);

/** Where the wall's "turned on" or "off" comes from, in words. */
const ENABLED_BY = { console: "in the console", environment: "by the environment", default: "by default" } as const;

/** "the app's API token" → "The app's API token". */
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

const PASSWORD_BECAUSE = "changing a wall and sending a test postback need your password again.";

/** The password field of an owner's form, while the sign-in is over 15 minutes old. */
function Password({ formId, needed, errors }: { formId: string; needed: boolean; errors: string[] | undefined }) {
  return needed ? <PasswordAgain id={`${formId}-password`} errors={errors} because={PASSWORD_BECAUSE} /> : null;
}

function Configuration({ view }: { view: WallView }) {
  return (
    <ConsoleSection title="Configuration">
      <p className="max-w-3xl text-sm text-muted">
        A value set in the console wins over the environment&apos;s variable; what the console leaves unset comes from
        the environment. Secrets are never shown.
      </p>
      <div className="max-w-4xl rounded-2xl border border-line bg-white px-5 py-2 shadow-sm">
        <WallSettingList rows={view.rows} variables />
      </div>
      <div className="space-y-1 text-sm">
        <p className="font-semibold">Postback URL to paste in {view.label}&apos;s dashboard</p>
        <code
          data-testid="postback-url"
          className="block rounded-xl border border-line bg-white px-4 py-3 text-xs [overflow-wrap:anywhere]"
        >
          {view.postbackUrl}
        </code>
        <p className="text-muted">
          {view.publicUrlSet
            ? "On PUBLIC_URL, with the network's macros."
            : "PUBLIC_URL is not set: this is the address this page was opened at. Set PUBLIC_URL to the app's public address."}{" "}
          What else its dashboard asks for is in <code>docs/walls/{view.name}.md</code>.
        </p>
      </div>
      {view.updatedAt ? (
        <p className="text-sm text-muted">
          Last changed in the console by {view.updatedBy} on {formatTimestamp(view.updatedAt)}.
        </p>
      ) : null}
    </ConsoleSection>
  );
}

function EnabledChoice({
  field,
  environmentEnabled,
}: {
  field: ReturnType<typeof useFormState<"enabled">>[1]["enabled"];
  environmentEnabled: boolean;
}) {
  const options = [
    ["environment", `The environment's setting (now ${environmentEnabled ? "on" : "off"})`],
    ["on", "On"],
    ["off", "Off"],
  ] as const;
  return (
    <fieldset aria-describedby={field.errors ? field.errorId : undefined}>
      <legend className="mb-1.5 block text-sm font-medium text-ink">Turned on</legend>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {options.map(([value, label]) => (
          <label
            key={value}
            className="flex min-h-11 cursor-pointer items-center gap-2 rounded-xl border border-line bg-white px-3 text-sm has-checked:border-brand-500 has-checked:ring-2 has-checked:ring-brand-100"
          >
            <input
              type="radio"
              name={field.name}
              value={value}
              id={`${field.id}-${value}`}
              defaultChecked={field.initialValue === value}
              aria-invalid={field.errors ? true : undefined}
              className="size-4 accent-brand-600"
            />
            {label}
          </label>
        ))}
      </div>
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}

function ChangeForm({
  view,
  form: start,
  reply,
  needsPassword,
}: {
  view: WallView;
  form: WallForm;
  reply: Reply;
  needsPassword: boolean;
}) {
  const names = [
    "enabled",
    "holdDays",
    "allowedAddresses",
    "reason",
    "password",
    ...start.settings.map((setting) => settingField(setting.suffix)),
  ];
  const [form, fields] = useFormState({
    id: "wall-save",
    fields: names,
    lastResult: replyTo(reply, "save"),
    defaultValue: {
      enabled: start.enabled,
      holdDays: start.holdDays,
      allowedAddresses: start.allowedAddresses,
      ...Object.fromEntries(
        start.settings.flatMap((setting) =>
          setting.consoleValue === null ? [] : [[settingField(setting.suffix), setting.consoleValue]],
        ),
      ),
    },
  });
  return (
    <ConsoleSection title="Change the configuration">
      <Form
        method="post"
        {...form.props}
        className="max-w-2xl space-y-5 rounded-2xl border border-line bg-white p-5 shadow-sm"
      >
        <FormBanner id={form.errorId} errors={form.errors} />
        <p className="text-sm text-muted">
          A field left blank uses the environment&apos;s value; a secret left blank keeps its value. Turning the wall on
          is refused, with what is missing, unless it can run.
        </p>
        <EnabledChoice field={fields.enabled!} environmentEnabled={start.environmentEnabled} />
        {start.settings.map((setting) => {
          const field = fields[settingField(setting.suffix)]!;
          return (
            <div key={setting.suffix} className="space-y-2">
              <Field
                field={field}
                label={`${setting.label}${setting.secret ? " (secret)" : ""}`}
                type={setting.secret ? "password" : "text"}
                hint={`${sentence(setting.meaning)}. ${setting.required ? "Required to turn it on. " : ""}Blank: ${setting.blankMeans}.`}
                inputProps={{
                  autoComplete: setting.secret ? "new-password" : "off",
                  maxLength: 500,
                  spellCheck: false,
                }}
              />
              {setting.secret && setting.consoleSet ? (
                <label className="flex min-h-11 items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    name={clearField(setting.suffix)}
                    value="on"
                    className="size-4 accent-brand-600"
                  />
                  Give {setting.label.toLowerCase()} back to the environment
                </label>
              ) : null}
            </div>
          );
        })}
        <Field
          field={fields.allowedAddresses!}
          label="Allowed senders"
          hint={`Comma-separated IP addresses, or "any" for no check. Blank: ${start.allowedAddressesBlank}. Checked only when TRUST_PROXY is set.`}
          inputProps={{ autoComplete: "off", maxLength: 2000, spellCheck: false }}
        />
        <Field
          field={fields.holdDays!}
          label="Hold (days)"
          hint={`Days its credits stay pending, 0 to 365. Blank: ${start.holdDaysBlank}.`}
          inputProps={{ inputMode: "numeric", autoComplete: "off", maxLength: 3 }}
        />
        <TextareaField
          field={fields.reason!}
          label="Why (for the audit log)"
          textareaProps={{ maxLength: 500, rows: 2 }}
        />
        <Password formId="wall-save" needed={needsPassword} errors={fields.password?.errors} />
        <SubmitButton intent="save" pendingText="Saving…" look={{ size: "md" }}>
          Save {view.label}
        </SubmitButton>
      </Form>
    </ConsoleSection>
  );
}

function ResetForm({ view, reply, needsPassword }: { view: WallView; reply: Reply; needsPassword: boolean }) {
  const [form, fields] = useFormState({
    id: "wall-reset",
    fields: ["reason", "password"],
    lastResult: replyTo(reply, "reset"),
  });
  return (
    <ConsoleSection title="Give it back to the environment">
      <Form
        method="post"
        {...form.props}
        className="max-w-2xl space-y-4 rounded-2xl border border-line bg-white p-5 shadow-sm"
      >
        <FormBanner id={form.errorId} errors={form.errors} />
        <p className="text-sm text-muted">
          Removes every value the console sets for {view.label}, secrets included: it runs on its WALL_
          {view.name.toUpperCase()}_… variables alone.
        </p>
        <TextareaField
          field={fields.reason}
          label="Why (for the audit log)"
          textareaProps={{ maxLength: 500, rows: 2 }}
        />
        <Password formId="wall-reset" needed={needsPassword} errors={fields.password.errors} />
        <SubmitButton intent="reset" pendingText="Resetting…" look={{ tone: "secondary", size: "md" }}>
          Reset to the environment
        </SubmitButton>
      </Form>
    </ConsoleSection>
  );
}

function TestPostbackForm({
  view,
  transaction,
  reply,
  needsPassword,
}: {
  view: WallView;
  transaction: string;
  reply: Reply;
  needsPassword: boolean;
}) {
  const [form, fields] = useFormState({
    id: "wall-test",
    fields: ["email", "coins", "password"],
    lastResult: replyTo(reply, "test-postback"),
  });
  return (
    <ConsoleSection title="Send a test postback">
      {view.on || replyTo(reply, "test-postback") ? (
        <Form
          method="post"
          {...form.props}
          className="max-w-2xl space-y-4 rounded-2xl border border-line bg-white p-5 shadow-sm"
        >
          <FormBanner id={form.errorId} errors={form.errors} />
          <p className="text-sm text-muted">
            Sends the postback {view.label} would send for the account below, signed with its settings, to this app. It
            credits that account test coins, once: shown as a test in My offers, never in a balance or withdrawable. The
            audit log records it, and a wall takes a few a day (Settings).
          </p>
          <input type="hidden" name="transaction" value={transaction} />
          <Field
            field={fields.email}
            label="Email of the account to credit"
            type="email"
            inputProps={{ autoComplete: "off", maxLength: 254, spellCheck: false }}
          />
          <Field
            field={fields.coins}
            label="Coins"
            hint={`1 to ${TEST_POSTBACK_MAX_COINS.toLocaleString("en-US")} test coins.`}
            inputProps={{ inputMode: "numeric", autoComplete: "off", maxLength: 4 }}
          />
          <Password formId="wall-test" needed={needsPassword} errors={fields.password.errors} />
          <SubmitButton intent="test-postback" pendingText="Sending…" look={{ size: "md" }}>
            Send a test postback
          </SubmitButton>
        </Form>
      ) : (
        <ConsoleEmpty>Turn the wall on to send it a test postback.</ConsoleEmpty>
      )}
    </ConsoleSection>
  );
}

const VERDICT_TONES = {
  credited: "green",
  reversed: "amber",
  duplicate: "gray",
  ignored: "gray",
  refused: "red",
  held: "amber",
} as const;

/** The log page's URL with these filters (and `before`, for an older page). */
function logHref(name: string, filters: PostbackLogFilters, before: number | null = null): string {
  const params = new URLSearchParams();
  if (filters.refused) params.set("refused", "1");
  if (filters.user) params.set("user", filters.user);
  if (filters.tx) params.set("tx", filters.tx);
  if (before !== null) params.set("before", String(before));
  const query = params.toString();
  return `/admin/walls/${name}${query ? `?${query}` : ""}`;
}

/** A text box of the log's filter form, with what is wrong with it under it. */
function FilterBox({
  name,
  label,
  value,
  problem,
  maxLength,
}: {
  name: "user" | "tx";
  label: string;
  value: string;
  problem: string | undefined;
  maxLength: number;
}) {
  const field = {
    id: `log-${name}`,
    name,
    errorId: `log-${name}-error`,
    errors: problem ? [problem] : undefined,
    initialValue: value,
  };
  return (
    <div className="w-full min-w-0 sm:w-auto sm:flex-1 sm:basis-56">
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        id={field.id}
        name={name}
        type="search"
        defaultValue={value}
        maxLength={maxLength}
        autoComplete="off"
        className={INPUT_CLASS}
        {...fieldAria(field)}
      />
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

function LogFilters({
  view,
  filters,
  problems,
}: {
  view: WallView;
  filters: PostbackLogFilters;
  problems: { user?: string; tx?: string };
}) {
  return (
    <FilterForm action={`/admin/walls/${view.name}`} className="flex flex-wrap items-end gap-3" role="search">
      <FilterBox
        name="user"
        label="Person (email or account id)"
        value={filters.user}
        problem={problems.user}
        maxLength={320}
      />
      <FilterBox name="tx" label="Transaction" value={filters.tx} problem={problems.tx} maxLength={200} />
      <label className="flex h-12 items-center gap-2 text-sm font-medium">
        <input
          type="checkbox"
          name="refused"
          value="1"
          defaultChecked={filters.refused}
          className="size-4 accent-brand-600"
        />
        Refused only
      </label>
      <button type="submit" className={buttonClass({ tone: "secondary", size: "lg" })}>
        Show
      </button>
      {filters.refused || filters.user || filters.tx ? (
        <Link to={`/admin/walls/${view.name}`} className={`${LINK} inline-flex min-h-12 items-center text-sm`}>
          Clear filters
        </Link>
      ) : null}
    </FilterForm>
  );
}

/** A log entry's row: called, not rendered as a component, so that ConsoleTable sees its cells and labels them. */
function logEntryRow({ name, entry, filters }: { name: string; entry: PostbackLogEntry; filters: PostbackLogFilters }) {
  const sent = [entry.query, entry.body].filter(Boolean).join(" · ");
  return (
    <tr key={entry.id} data-testid="postback-entry" className="align-top">
      <td className={NUMBER}>{formatTimestamp(entry.received_at)}</td>
      <td className={`${CELL} min-w-40`}>
        <Badge tone={VERDICT_TONES[entry.verdict]}>{entry.verdict}</Badge>
        {entry.reason ? (
          <span className="mt-1 block text-xs text-muted [overflow-wrap:anywhere]">{entry.reason}</span>
        ) : null}
      </td>
      <td className={`${CELL} min-w-40 break-words`}>
        {entry.user_id ? (
          <Link to={`/admin/people/${encodeURIComponent(entry.user_id)}`} className={LINK}>
            {entry.email ?? entry.user_id}
          </Link>
        ) : (
          "—"
        )}
      </td>
      <td className={`${WRAP} min-w-32`}>
        {entry.transaction_id ? (
          <Link to={logHref(name, { ...filters, tx: entry.transaction_id })} className={LINK}>
            <code>{entry.transaction_id}</code>
          </Link>
        ) : (
          "—"
        )}
      </td>
      <td className={NUMBER}>{entry.coins === null ? "—" : formatCoins(entry.coins)}</td>
      <td className={`${CELL} min-w-32`}>
        <span className="block whitespace-nowrap tabular-nums">{entry.client_address ?? "Not known"}</span>
        {sent ? (
          <details className="mt-1">
            <summary className="cursor-pointer text-xs font-medium text-brand-700">
              {entry.method}: what was sent
            </summary>
            <code className="mt-1 block text-xs [overflow-wrap:anywhere]">{sent}</code>
          </details>
        ) : (
          <span className="text-xs text-muted">{entry.method}</span>
        )}
      </td>
    </tr>
  );
}

/** Approve or reject: a submit button of the held postback's form, pending while its own decision is on its way. */
function DecisionButton({
  held,
  decision,
  children,
}: {
  held: number;
  decision: "approve" | "reject";
  children: string;
}) {
  const pending = useIsPending({ intent: "held", with: { held: String(held), decision } });
  return (
    <button
      type="submit"
      name="decision"
      value={decision}
      disabled={pending}
      className={buttonClass({ tone: decision === "approve" ? "primary" : "secondary", size: "md" })}
    >
      {pending ? <Spinner /> : null}
      {pending ? (decision === "approve" ? "Approving…" : "Rejecting…") : children}
    </button>
  );
}

/** One held postback's decision form (finance and owners): a reason for the audit log, then approve or reject. */
function HeldDecision({ held, reply, needsPassword }: { held: HeldPostback; reply: Reply; needsPassword: boolean }) {
  const formId = `held-${held.id}`;
  const ours = reply?.initialValue?.intent === "held" && reply.initialValue.held === String(held.id);
  const [form, fields] = useFormState({
    id: formId,
    fields: ["reason", "password"],
    lastResult: ours ? reply : undefined,
  });
  return (
    <Form method="post" {...form.props} className="mt-2 space-y-3">
      <input type="hidden" name="intent" value="held" />
      <input type="hidden" name="held" value={held.id} />
      <FormBanner id={form.errorId} errors={form.errors} />
      <TextareaField
        field={fields.reason}
        label="Why (for the audit log)"
        textareaProps={{ maxLength: 500, rows: 2 }}
      />
      <Password formId={formId} needed={needsPassword} errors={fields.password.errors} />
      <div className="flex flex-wrap gap-3">
        <DecisionButton held={held.id} decision="approve">
          {held.kind === "credit" ? "Approve and pay" : "Approve: take it back"}
        </DecisionButton>
        <DecisionButton held={held.id} decision="reject">
          Reject
        </DecisionButton>
      </div>
    </Form>
  );
}

/**
 * Credits held because their signature had already paid another transaction: a network whose
 * signature does not bind the transaction (docs/offer-walls.md, "Held postbacks"). A second
 * completion of the same offer is genuine and approved by hand; a replay is rejected.
 */
function HeldPostbacks({
  view,
  held,
  canDecide,
  operatorId,
  reply,
  needsPassword,
}: {
  view: WallView;
  held: readonly HeldPostback[];
  canDecide: boolean;
  operatorId: string;
  reply: Reply;
  needsPassword: boolean;
}) {
  if (held.length === 0 && view.signatureBindsTransaction) return null;
  return (
    <ConsoleSection title="Held for review">
      <p className="max-w-3xl text-sm text-muted">
        {view.label}&apos;s signature does not bind everything a postback says, so what it leaves open waits here: a
        credit whose signature already paid another transaction, or a reversal told only by a field the signature does
        not cover. Approve it once {view.label}&apos;s dashboard shows the conversion or the chargeback; reject a
        replay. Another operator decides what concerns your own account.
      </p>
      {held.length === 0 ? (
        <ConsoleEmpty>Nothing is waiting.</ConsoleEmpty>
      ) : (
        <ul className="max-w-3xl space-y-4">
          {held.map((entry) => (
            <li
              key={entry.id}
              data-testid="held-postback"
              className="rounded-2xl border border-line bg-white p-5 text-sm shadow-sm"
            >
              <p className="font-medium">
                {entry.kind === "credit" ? "Credit of" : "Reversal of"} {formatCoins(entry.coins)}{" "}
                {entry.kind === "credit" ? "to" : "from"}{" "}
                {entry.user_id ? (
                  <Link to={`/admin/people/${encodeURIComponent(entry.user_id)}`} className={LINK}>
                    {entry.email ?? entry.user_id}
                  </Link>
                ) : (
                  "a deleted account"
                )}
              </p>
              <p className="mt-1 text-muted [overflow-wrap:anywhere]">
                Transaction{" "}
                <Link
                  to={logHref(view.name, { refused: false, user: "", tx: entry.transaction_id, before: null })}
                  className={LINK}
                >
                  <code>{entry.transaction_id}</code>
                </Link>
                , received {formatTimestamp(entry.received_at)}
                {entry.offer_name ? <>, offer “{entry.offer_name}”</> : null}. Held because {entry.reason}.
              </p>
              {canDecide && entry.user_id && entry.user_id !== operatorId ? (
                <HeldDecision held={entry} reply={reply} needsPassword={needsPassword} />
              ) : canDecide && entry.user_id === operatorId ? (
                <p className="mt-2 text-muted">It pays your own account: another operator decides.</p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </ConsoleSection>
  );
}

function PostbackLog({
  view,
  filters,
  log,
}: {
  view: WallView;
  filters: PostbackLogFilters;
  log: { entries: readonly PostbackLogEntry[]; olderBefore: number | null; problems: { user?: string; tx?: string } };
}) {
  const filtered = filters.refused || filters.user !== "" || filters.tx !== "";
  const paged = filters.before !== null;
  const problem = log.problems.user ?? log.problems.tx;
  return (
    <ConsoleSection title="Postback log">
      <LogFilters view={view} filters={filters} problems={log.problems} />
      {problem ? null : log.entries.length === 0 ? (
        <ConsoleEmpty>
          {paged
            ? "No older entries."
            : filtered
              ? "No postback matches these filters."
              : `No postback from ${view.label} yet.`}
        </ConsoleEmpty>
      ) : (
        <ConsoleTable
          label={`${view.label} postback log`}
          caption={`${view.label} postbacks, newest first`}
          columns={["Received", "Verdict", "Person", "Transaction", "Coins", "Sender"]}
          minWidth="min-w-[52rem]"
        >
          {log.entries.map((entry) => logEntryRow({ name: view.name, entry, filters }))}
        </ConsoleTable>
      )}
      <ConsolePager
        label="Postback log pages"
        newest={paged ? { to: logHref(view.name, filters), label: "Newest entries" } : null}
        older={
          log.olderBefore !== null ? { to: logHref(view.name, filters, log.olderBefore), label: "Older entries" } : null
        }
      />
    </ConsoleSection>
  );
}

/** A wall's page in the console: configuration, the owner's forms, the postback log. */
export function WallPage({
  view,
  form,
  testTransaction,
  needsPassword,
  filters,
  log,
  held,
  canDecideHeld,
  operatorId,
  reply,
}: {
  view: WallView;
  form: WallForm | null;
  testTransaction: string | null;
  needsPassword: boolean;
  filters: PostbackLogFilters;
  held: readonly HeldPostback[];
  canDecideHeld: boolean;
  operatorId: string;
  log: { entries: readonly PostbackLogEntry[]; olderBefore: number | null; problems: { user?: string; tx?: string } };
  reply: Reply;
}) {
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <Link to="/admin/walls" className={`${LINK} text-sm`}>
          Walls
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold tracking-tight">{view.label}</h1>
          {view.on ? (
            <Badge tone="green">On</Badge>
          ) : view.problems.length > 0 ? (
            <Badge tone="red">Off: settings wrong</Badge>
          ) : (
            <Badge tone="gray">Off</Badge>
          )}
          <span className="text-sm text-muted">
            Turned {view.enabled ? "on" : "off"} {ENABLED_BY[view.enabledSource]}
          </span>
        </div>
        {view.problems.length > 0 ? (
          <Banner tone="error" title="Turned on, but off: its settings are wrong">
            <ul className="list-disc pl-4">
              {view.problems.map((problem) => (
                <li key={problem} className="[overflow-wrap:anywhere]">
                  {problem}
                </li>
              ))}
            </ul>
          </Banner>
        ) : null}
        {view.anySenderWarning ? (
          <Banner tone="warning" title="Postbacks are taken from any address">
            {view.label}&apos;s signature does not cover the transaction and the amount, and WALL_
            {view.name.toUpperCase()}_ANY_SENDER=true turns the sender check off: whoever has seen one postback can send
            more. List {view.label}&apos;s addresses instead.
          </Banner>
        ) : null}
      </header>
      <Configuration view={view} />
      <HeldPostbacks
        view={view}
        held={held}
        canDecide={canDecideHeld}
        operatorId={operatorId}
        reply={reply}
        needsPassword={needsPassword}
      />
      {/* Keyed by the last change: once saved, the form starts again from what was saved, and a
          secret typed into it (kept by the browser while the page stays) is gone. */}
      {form ? (
        <ChangeForm
          key={view.updatedAt ?? "environment"}
          view={view}
          form={form}
          reply={reply}
          needsPassword={needsPassword}
        />
      ) : null}
      {/* Shown while the console sets something, and to answer a reset sent from an older page. */}
      {form && (view.overridden || replyTo(reply, "reset")) ? (
        <ResetForm view={view} reply={reply} needsPassword={needsPassword} />
      ) : null}
      {form && testTransaction ? (
        <TestPostbackForm
          key={testTransaction}
          view={view}
          transaction={testTransaction}
          reply={reply}
          needsPassword={needsPassword}
        />
      ) : null}
      <PostbackLog view={view} filters={filters} log={log} />
    </div>
  );
}

/** A name that is no network the app knows. */
export function NoSuchWall({ name }: { name: string }) {
  return (
    <div className="max-w-2xl space-y-4">
      <h1 className="text-2xl font-bold tracking-tight">No such wall</h1>
      <p className="text-sm text-muted [overflow-wrap:anywhere]">
        The app takes no postbacks from a network named “{name}”.
      </p>
      <Link to="/admin/walls" className={`${LINK} text-sm`}>
        Every wall
      </Link>
    </div>
  );
}
