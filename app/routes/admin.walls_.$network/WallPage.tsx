import { Form, Link } from "@remix-run/react";
import { Badge } from "~/components/operator/Badge";
import { ConsoleEmpty, ConsoleSection } from "~/components/operator/ConsoleTable";
import { WallSettingList } from "~/components/operator/WallSettingList";
import { ErrorList } from "~/components/forms/ErrorList";
import { Field, TextareaField } from "~/components/forms/Field";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { Banner } from "~/components/ui/Banner";
import { formatTimestamp } from "~/domain/dates";
import { formatNumber } from "~/domain/numbers";
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
import { useFormState } from "~/lib/use-form";
import { HeldPostbacks, PostbackLog } from "./PostbackLog";
import { ENABLED_BY, LINK, Password, replyTo, sentence, type Reply } from "./wall-page-shared";

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
            hint={`1 to ${formatNumber(TEST_POSTBACK_MAX_COINS)} test coins.`}
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
