import type { SubmissionResult } from "@conform-to/react";
import { Form, useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import {
  NOTIFICATION_MESSAGES,
  NOTIFICATION_SETTINGS,
  PUSH_DEVICE_LINES,
  type NotificationKind,
  type NotificationPreferences,
  type PushDeviceState,
} from "~/domain/notifications";
import { formErrors } from "~/lib/form-replies";
import { pushActiveOnThisDevice, pushBlockedHere, pushSupportedHere } from "~/lib/push-device";
import type { PushConfig } from "~/lib/push.client";
import { showToast } from "~/lib/toasts";
import { useHydrated } from "~/lib/use-hydrated";
import { FormBanner } from "~/components/forms/FormBanner";
import { Card } from "~/components/ui/Card";
import { SwitchTrack } from "~/components/ui/Switch";

/**
 * docs/product.md, "Profile: notification settings": five switches. Each is a form that works without JavaScript;
 * with it, a switch saves on toggle, shows the new state at once and goes back if saving fails.
 */
export function NotificationSettings({
  preferences,
  pushConfig,
  lastResult,
  page = "/profile",
}: {
  preferences: NotificationPreferences | null;
  pushConfig: PushConfig | null;
  /** A refused switch (posted without JavaScript): its message. */
  lastResult?: SubmissionResult<string[]>;
  /** The page that shows the switches (Profile or Settings): they post there, and come back there. */
  page?: "/profile" | "/settings";
}) {
  return (
    <Card id="notification-settings">
      <h2 className="text-base font-bold">Notification Settings</h2>
      <div className="mt-3 empty:hidden">
        <FormBanner errors={formErrors(lastResult, "notification")} />
      </div>
      {preferences === null ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          Your notification settings could not be loaded. Please try again later.
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-line">
          {NOTIFICATION_SETTINGS.map((setting) => (
            <li key={setting.kind}>
              <NotificationSwitch
                kind={setting.kind}
                label={setting.label}
                detail={setting.detail}
                on={preferences[setting.kind]}
                pushConfig={pushConfig}
                page={page}
              />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function NotificationSwitch({
  kind,
  label,
  detail,
  on,
  pushConfig,
  page,
}: {
  kind: NotificationKind;
  label: string;
  detail: string;
  on: boolean;
  pushConfig: PushConfig | null;
  page: string;
}) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<{ intent?: string; error?: unknown }>();
  const [preparing, setPreparing] = useState(false);
  // Optimistic: the value being saved shows at once; when saving fails it falls back to `on`.
  const pending = fetcher.formData?.get("enabled");
  const shown = pending === "on" ? true : pending === "off" ? false : on;
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || reported.current === fetcher.data) return;
    reported.current = fetcher.data;
    showToast(
      fetcher.data.intent === "notification"
        ? { kind: "success", title: NOTIFICATION_MESSAGES.updated }
        : { kind: "error", title: NOTIFICATION_MESSAGES.updateFailed },
    );
  }, [fetcher.state, fetcher.data]);

  const save = (enabled: boolean) =>
    fetcher.submit(
      { intent: "notification", kind, enabled: enabled ? "on" : "off", respond: "data" },
      { method: "post", action: page },
    );

  async function toggle() {
    if (kind !== "push") return save(!shown);
    setPreparing(true);
    try {
      const push = await import("~/lib/push.client");
      if (shown) {
        await push.disablePush(pushConfig).catch(() => {});
        save(false);
      } else {
        await push.enablePush(pushConfig);
        save(true);
      }
    } catch {
      // Permission denied, no push in this browser, or FCM unreachable: the switch stays off.
      showToast({
        kind: "error",
        title: NOTIFICATION_MESSAGES.pushFailed,
        description: NOTIFICATION_MESSAGES.pushFailedDetail,
      });
    } finally {
      // Re-renders the device's line, which reads the browser again (a refusal shows as blocked).
      setPreparing(false);
    }
  }

  const row = (
    <>
      <span className="min-w-0 flex-1 text-left">
        <span className="block text-sm font-semibold text-ink">{label}</span>
        <span className="block text-xs text-muted">{detail}</span>
      </span>
      <SwitchTrack on={shown} />
    </>
  );
  const rowClass = "flex w-full items-center gap-3 py-3 disabled:opacity-60";
  if (!hydrated) {
    // Without JavaScript: a form per switch, posting the other state.
    return (
      <Form method="post" action={page}>
        <input type="hidden" name="intent" value="notification" />
        <input type="hidden" name="kind" value={kind} />
        <input type="hidden" name="enabled" value={shown ? "off" : "on"} />
        <button type="submit" role="switch" aria-checked={shown} className={rowClass}>
          {row}
        </button>
        {kind === "push" ? (
          <p className="-mt-1 pb-3 text-xs text-muted">{NOTIFICATION_MESSAGES.pushNeedsJavaScript}</p>
        ) : null}
      </Form>
    );
  }
  return (
    <>
      <button
        type="button"
        role="switch"
        aria-checked={shown}
        disabled={preparing || fetcher.state !== "idle"}
        onClick={() => void toggle()}
        className={rowClass}
      >
        {row}
      </button>
      {kind === "push" ? <PushDeviceLine accountOn={shown} pushConfig={pushConfig} /> : null}
    </>
  );
}

/**
 * The switch is the account's preference; this line is this device's own state, in words that
 * cannot contradict it (docs/decisions/071-settings-is-a-real-page.md): enabled, not enabled yet
 * (with a way to do it), blocked in the browser's settings, not available, or off with the
 * account. It also renews a registered device's token when it is 7 days old (docs/product.md,
 * "Profile: notification settings").
 */
function PushDeviceLine({ accountOn, pushConfig }: { accountOn: boolean; pushConfig: PushConfig | null }) {
  const [enabledHere, setEnabledHere] = useState(false);
  // Set when the server no longer holds this device's token for the account (see refreshPushTokenIfDue).
  const [lostHere, setLostHere] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    // The Firebase SDK only comes for a device with a token to renew.
    if (!pushActiveOnThisDevice()) return;
    void import("~/lib/push.client")
      .then((push) => push.refreshPushTokenIfDue(pushConfig))
      .then((active) => setLostHere(!active))
      .catch(() => {});
  }, [pushConfig]);
  const state: PushDeviceState = !pushSupportedHere()
    ? "unsupported"
    : pushBlockedHere()
      ? "blocked"
      : !accountOn
        ? "off"
        : enabledHere || (!lostHere && pushActiveOnThisDevice())
          ? "enabled"
          : "not-enabled";
  async function enableHere() {
    setBusy(true);
    try {
      await (await import("~/lib/push.client")).enablePush(pushConfig);
      setEnabledHere(true);
      showToast({ kind: "success", title: NOTIFICATION_MESSAGES.updated });
    } catch {
      showToast({
        kind: "error",
        title: NOTIFICATION_MESSAGES.pushFailed,
        description: NOTIFICATION_MESSAGES.pushFailedDetail,
      });
    } finally {
      setBusy(false);
    }
  }
  return (
    <div
      data-testid="push-device-state"
      data-state={state}
      className="-mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 pb-3 text-xs text-muted"
    >
      <span>{PUSH_DEVICE_LINES[state]}</span>
      {state === "not-enabled" ? (
        <button
          type="button"
          disabled={busy}
          onClick={() => void enableHere()}
          className="-my-3 inline-flex min-h-11 items-center rounded-md font-semibold text-brand-700 hover:underline disabled:opacity-60"
        >
          Enable on this device
        </button>
      ) : null}
    </div>
  );
}
