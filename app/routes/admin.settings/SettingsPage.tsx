import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { ConsoleSection } from "~/components/operator/ConsoleTable";
import { Field, SelectField, TextareaField } from "~/components/forms/Field";
import { ErrorList } from "~/components/forms/ErrorList";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { PasswordAgain } from "~/components/operator/PasswordAgain";
import { Banner } from "~/components/ui/Banner";
import {
  formatSettingValue,
  NETWORK_FLAG_LABELS,
  NETWORK_FLAGS,
  SETTING_TOPICS,
  SETTINGS,
  settingInputText,
  SAVE_SETTINGS_INTENT,
  type Setting,
  type SettingChange,
  type SettingValues,
  type WaitingSettingChange,
} from "~/domain/settings";
import { fieldAria, useFormState, type FieldState } from "~/lib/use-form";
import { formatDate } from "~/domain/dates";
import { SettingChanges } from "./SettingChanges";
import { WaitingChanges } from "./WaitingChanges";

export interface SettingsPageData {
  values: SettingValues;
  /** When the rupee rate was set (by an owner or the rates endpoint), and whether it is too old to be used; null while none is. */
  inrRateSet: { at: string; stale: boolean } | null;
  version: string;
  /** An owner's page: the others read the settings, with the form disabled. */
  canChange: boolean;
  needsPassword: boolean;
  /** Changes that loosen policy, waiting for a second owner. */
  waiting: readonly WaitingSettingChange[];
  viewerId: string;
  changes: readonly SettingChange[];
  olderBefore: number | null;
  paged: boolean;
}

const FIELDS = [...SETTINGS.map((setting) => setting.key), "reason", "password"] as const;

const UNIT_LABELS: Partial<Record<Setting["unit"], string>> = {
  coins: "coins",
  dollars: "US$",
  days: "days",
  hours: "hours",
};

/** ", set Nov 28, 2026", and when it is too old to be used (usd_inr_rate_now), that it is not. */
function rateDate({ at, stale }: { at: string; stale: boolean }): string {
  return `, set ${formatDate(at)}${stale ? " (older than 7 days: not used)" : ""}`;
}

/** The settings, grouped by topic, an owner's form to change them, and the changes made so far. */
export function SettingsPage({
  data,
  lastResult,
}: {
  data: SettingsPageData;
  lastResult?: SubmissionResult<string[]>;
}) {
  return (
    <div className="space-y-8">
      <div className="max-w-3xl space-y-2">
        <h1 className="text-2xl font-bold tracking-tight">Settings</h1>
        <p className="text-sm text-muted">
          The rules rewards and cash-outs follow. A change applies at once, on every server; one that loosens a money
          rule (a higher limit or threshold, a review turned off, other holds) waits for a second owner. Each one is
          recorded below with who made it and why.
        </p>
      </div>
      {data.canChange ? null : <Banner tone="info">Only an owner can change settings. You can read them here.</Banner>}
      <WaitingChanges
        waiting={data.waiting}
        canDecide={data.canChange}
        viewerId={data.viewerId}
        needsPassword={data.needsPassword}
        coinsPerDollar={Number(data.values.coins_per_dollar)}
        now={new Date()}
        lastResult={lastResult}
      />
      {/* Once a save changed the settings (a new version), a fresh form with their values; a refused
          save keeps the same form, with what was typed and the focus on the first field it blames. */}
      <SettingsForm key={data.version} data={data} lastResult={lastResult} />
      <ConsoleSection title="Changes">
        <SettingChanges changes={data.changes} olderBefore={data.olderBefore} paged={data.paged} />
      </ConsoleSection>
    </div>
  );
}

function SettingsForm({ data, lastResult }: { data: SettingsPageData; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useFormState({
    id: "settings",
    fields: FIELDS,
    lastResult,
    defaultValue: Object.fromEntries(
      SETTINGS.map((setting) => [setting.key, settingInputText(setting, data.values[setting.key])]),
    ),
  });
  const coinsPerDollar = Number(data.values.coins_per_dollar);
  return (
    <Form method="post" {...form.props}>
      {/* The version of the values this form shows: a save that comes after another is refused, not merged. */}
      <input type="hidden" name="version" value={data.version} />
      <fieldset disabled={!data.canChange} className="min-w-0 space-y-6">
        <FormBanner id={form.errorId} title="Nothing was saved" errors={form.errors} />
        {SETTING_TOPICS.map((topic, index) => (
          <section
            key={topic}
            aria-labelledby={`settings-topic-${index}`}
            className="rounded-2xl border border-line bg-white p-5 shadow-sm sm:p-6"
          >
            <h2 id={`settings-topic-${index}`} className="text-lg font-bold tracking-tight">
              {topic}
            </h2>
            <div className="mt-4 grid gap-x-10 gap-y-6 lg:grid-cols-2">
              {SETTINGS.filter((setting) => setting.topic === topic).map((setting) => (
                <SettingField
                  key={setting.key}
                  setting={setting}
                  field={fields[setting.key]}
                  hint={
                    <>
                      {setting.help}
                      <span className="mt-1 block font-semibold text-ink">
                        {`Now: ${formatSettingValue(setting, data.values[setting.key], coinsPerDollar)}`}
                        {setting.key === "usd_inr_rate" && data.inrRateSet ? rateDate(data.inrRateSet) : null}
                      </span>
                    </>
                  }
                />
              ))}
            </div>
          </section>
        ))}
        {data.canChange ? (
          <section
            aria-labelledby="settings-save"
            className="space-y-5 rounded-2xl border border-line bg-white p-5 shadow-sm sm:p-6"
          >
            <h2 id="settings-save" className="text-lg font-bold tracking-tight">
              Save
            </h2>
            <div className="max-w-2xl">
              <Field
                field={fields.reason}
                label="Reason for the change"
                hint="Recorded with every setting this save changes, in the audit log."
                inputProps={{ autoComplete: "off" }}
              />
            </div>
            {data.needsPassword || fields.password.errors ? (
              <PasswordAgain
                id="settings-password"
                errors={fields.password.errors}
                because="changing settings needs your password again."
              />
            ) : null}
            <SubmitButton intent={SAVE_SETTINGS_INTENT} pendingText="Saving…">
              Save settings
            </SubmitButton>
          </section>
        ) : null}
      </fieldset>
    </Form>
  );
}

/**
 * A setting's control: yes or no, the JSON of network holds or of the levels and daily goals, the network
 * flags, or a number in its unit.
 */
function SettingField({ setting, field, hint }: { setting: Setting; field: FieldState; hint: ReactNode }) {
  const unit = UNIT_LABELS[setting.unit];
  const label = unit ? `${setting.label} (${unit})` : setting.label;
  if (setting.unit === "flags") return <FlagsField field={field} label={label} hint={hint} />;
  if (setting.unit === "boolean") {
    return (
      <SelectField
        field={field}
        label={label}
        hint={hint}
        options={[
          { value: "yes", label: "Yes" },
          { value: "no", label: "No" },
        ]}
      />
    );
  }
  if (setting.unit === "json" || setting.unit === "levels" || setting.unit === "goals" || setting.unit === "prizes") {
    // The holds and the prizes fit a line or two; the lists of levels and goals are one item a line.
    const list = setting.unit === "levels" || setting.unit === "goals";
    return (
      <TextareaField
        field={field}
        label={label}
        hint={hint}
        textareaProps={{
          rows: list ? 8 : 2,
          spellCheck: false,
          autoCapitalize: "none",
          placeholder: list ? "[ ... ]" : setting.unit === "prizes" ? "2500, 1500, 1000" : '{"bitlabs": 14}',
        }}
      />
    );
  }
  const whole = setting.unit !== "dollars" && setting.unit !== "ratio" && setting.unit !== "rupees";
  return (
    <Field
      field={field}
      label={label}
      hint={hint}
      inputProps={{ inputMode: whole ? "numeric" : "decimal", autoComplete: "off" }}
    />
  );
}

/** One checkbox per network flag, under the setting's name (none ticked posts nothing: none chosen). */
function FlagsField({ field, label, hint }: { field: FieldState; label: string; hint: ReactNode }) {
  return (
    <fieldset {...fieldAria(field, `${field.id}-hint`)}>
      <legend className="mb-1.5 block text-sm font-medium text-ink">{label}</legend>
      <div className="flex flex-wrap gap-x-5 gap-y-1">
        {NETWORK_FLAGS.map((flag) => (
          <label key={flag} className="flex min-h-11 cursor-pointer items-center gap-2.5 text-sm text-ink">
            <input
              type="checkbox"
              name={field.name}
              value={flag}
              defaultChecked={field.initialValues.includes(flag)}
              className="size-5 shrink-0 rounded border-line text-brand-600 focus:ring-brand-200"
            />
            {NETWORK_FLAG_LABELS[flag]}
          </label>
        ))}
      </div>
      <p id={`${field.id}-hint`} className="mt-1.5 text-xs text-muted">
        {hint}
      </p>
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}
