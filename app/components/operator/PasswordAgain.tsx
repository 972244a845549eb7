import { useRouteLoaderData } from "@remix-run/react";
import { ErrorList } from "../forms/ErrorList";

/**
 * The password field a money action's form carries while the session's sign-in is older than 15
 * minutes (app/server/operator/recent-sign-in.server.ts): checked in the same post, so nothing typed
 * in the form is lost.
 */
export function PasswordAgain({
  id,
  errors,
  because = "moving money and changing policy or access need your password again.",
}: {
  id: string;
  errors: readonly string[] | undefined;
  /** What needs it, to end "You signed in more than 15 minutes ago: …". */
  because?: string;
}) {
  // Where the console asks for its authenticator (docs/decisions/093), the step-up takes a code too.
  const withCode = useRouteLoaderData<{ twoFactor?: boolean }>("routes/admin")?.twoFactor === true;
  return (
    <div className="rounded-xl border border-amber-200 bg-amber-50 p-3">
      <label htmlFor={id} className="block text-sm font-semibold text-amber-900">
        Your password
      </label>
      <p id={`${id}-hint`} className="mt-0.5 text-xs text-amber-900">
        You signed in more than 15 minutes ago: {because}
        {withCode ? " Type the code your authenticator app shows too." : null}
      </p>
      <input
        id={id}
        name="password"
        type="password"
        autoComplete="current-password"
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error ${id}-hint` : `${id}-hint`}
        className="mt-2 block h-11 w-full max-w-xs rounded-xl border border-line bg-white px-3 text-base focus:border-brand-500 focus:ring-4 focus:ring-brand-100 focus:outline-none aria-[invalid=true]:border-red-400"
      />
      {withCode ? (
        <>
          <label htmlFor={`${id}-code`} className="mt-3 block text-sm font-semibold text-amber-900">
            Authenticator code
          </label>
          <input
            id={`${id}-code`}
            name="totpCode"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            aria-invalid={errors?.length ? true : undefined}
            aria-describedby={errors?.length ? `${id}-error` : undefined}
            className="mt-2 block h-11 w-full max-w-xs rounded-xl border border-line bg-white px-3 text-base focus:border-brand-500 focus:ring-4 focus:ring-brand-100 focus:outline-none aria-[invalid=true]:border-red-400"
          />
        </>
      ) : null}
      <ErrorList id={`${id}-error`} errors={errors} />
    </div>
  );
}
