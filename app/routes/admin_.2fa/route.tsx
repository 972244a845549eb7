import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { Field } from "~/components/forms/Field";
import { FormBanner } from "~/components/forms/FormBanner";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { buttonClass } from "~/components/ui/button";
import { ScreenHero } from "~/components/ui/ScreenHero";
import { useFormState } from "~/lib/use-form";
import { pageMeta } from "~/lib/meta";
import { BARE_SCREEN } from "~/lib/shell";
import { assertSameOrigin } from "~/server/http/same-origin.server";
import { loadTwoFactor, twoFactorAction } from "./page.server";
import { TWO_FACTOR_TEXTS } from "./texts";

export const meta: MetaFunction = () => pageMeta("Authenticator");
export const handle = BARE_SCREEN;

export const loader = ({ request }: LoaderFunctionArgs) => loadTwoFactor(request);

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return twoFactorAction(request);
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shared";

export default function TwoFactorRoute() {
  const { enrolling, redirectTo } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const saved = answer && "recoveryCodes" in answer ? answer : null;
  const lastResult = answer && !("recoveryCodes" in answer) ? (answer as SubmissionResult<string[]>) : undefined;
  return (
    <div className="flex min-h-[calc(100dvh-3.5rem)] flex-col justify-center gap-6 py-6">
      <ScreenHero
        icon="lock"
        badge="soft"
        eyebrow="Operator console"
        title={
          saved ? TWO_FACTOR_TEXTS.savedTitle : enrolling ? TWO_FACTOR_TEXTS.enrolTitle : TWO_FACTOR_TEXTS.verifyTitle
        }
      >
        {saved ? TWO_FACTOR_TEXTS.savedWhy : enrolling ? TWO_FACTOR_TEXTS.enrolWhy : TWO_FACTOR_TEXTS.verifyWhy}
      </ScreenHero>
      {saved ? (
        <section className="rounded-2xl border border-line bg-white p-5 shadow-sm">
          <ol data-testid="recovery-codes" className="grid grid-cols-2 gap-2 font-mono text-base">
            {saved.recoveryCodes.map((code) => (
              <li
                key={code}
                className="whitespace-nowrap rounded-lg bg-canvas px-2 py-2 text-center text-sm tracking-wide"
              >
                {code}
              </li>
            ))}
          </ol>
          <Link to={saved.redirectTo} className={`${buttonClass({ block: true })} mt-5`}>
            I saved them, continue
          </Link>
        </section>
      ) : (
        <section className="space-y-5 rounded-2xl border border-line bg-white p-5 shadow-sm">
          {enrolling ? (
            <div className="space-y-3">
              <p className="text-sm font-medium text-ink">{TWO_FACTOR_TEXTS.scan}</p>
              <div
                role="img"
                aria-label="QR code to scan with your authenticator app"
                className="mx-auto w-48 max-w-full [&>svg]:h-auto [&>svg]:w-full"
                // The SVG is drawn on the server by the qrcode package from the Key Uri: no input of anyone's.
                dangerouslySetInnerHTML={{ __html: enrolling.qrSvg }}
              />
              <p className="text-sm font-medium text-ink">{TWO_FACTOR_TEXTS.typeKey}</p>
              <p
                data-testid="totp-secret"
                className="rounded-lg bg-canvas px-3 py-2 text-center font-mono text-base tracking-wider"
              >
                {enrolling.secret}
              </p>
            </div>
          ) : null}
          <CodeForm lastResult={lastResult} redirectTo={redirectTo} enrolling={enrolling !== null} />
          {enrolling ? null : <RecoveryForm lastResult={lastResult} redirectTo={redirectTo} />}
        </section>
      )}
    </div>
  );
}

const actionOf = (redirectTo: string) => `/admin/2fa?${new URLSearchParams({ redirectTo })}`;

function CodeForm({
  lastResult,
  redirectTo,
  enrolling,
}: {
  lastResult?: SubmissionResult<string[]>;
  redirectTo: string;
  enrolling: boolean;
}) {
  const [form, fields] = useFormState({
    id: "totp-code",
    fields: ["code"],
    lastResult: lastResult?.initialValue?.intent === "totp-code" ? lastResult : undefined,
  });
  return (
    <Form method="post" action={actionOf(redirectTo)} {...form.props} className="space-y-4">
      <FormBanner id={form.errorId} errors={form.errors} />
      <Field
        field={fields.code}
        label={TWO_FACTOR_TEXTS.codeLabel}
        icon="lock"
        inputProps={{ inputMode: "numeric", autoComplete: "one-time-code", placeholder: "123456", maxLength: 7 }}
      />
      <SubmitButton intent="totp-code" pendingText="Checking…" look={{ block: true }}>
        {enrolling ? "Turn on the authenticator" : "Verify"}
      </SubmitButton>
    </Form>
  );
}

function RecoveryForm({ lastResult, redirectTo }: { lastResult?: SubmissionResult<string[]>; redirectTo: string }) {
  const refused = lastResult?.initialValue?.intent === "totp-recovery" ? lastResult : undefined;
  const [form, fields] = useFormState({ id: "totp-recovery", fields: ["recoveryCode"], lastResult: refused });
  return (
    <details open={refused ? true : undefined} className="rounded-xl border border-line bg-canvas px-4 py-1">
      <summary className="flex min-h-11 cursor-pointer items-center text-sm font-semibold text-ink">
        {TWO_FACTOR_TEXTS.recoveryTitle}
      </summary>
      <Form method="post" action={actionOf(redirectTo)} {...form.props} className="mb-4 mt-2 space-y-4">
        <FormBanner id={form.errorId} errors={form.errors} />
        <Field
          field={fields.recoveryCode}
          label={TWO_FACTOR_TEXTS.recoveryLabel}
          inputProps={{ autoComplete: "off", autoCapitalize: "characters", placeholder: "ABCD-EF23", maxLength: 12 }}
        />
        <SubmitButton intent="totp-recovery" pendingText="Checking…" look={{ tone: "secondary", block: true }}>
          Use the recovery code
        </SubmitButton>
      </Form>
    </details>
  );
}
