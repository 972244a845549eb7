import { Form, Link, useNavigation } from "@remix-run/react";
import { INPUT_CLASS } from "~/components/forms/Field";
import { buttonClass } from "~/components/ui/button";
import { ConsoleEmpty, ConsoleTable } from "~/components/operator/ConsoleTable";
import { formatTimestamp } from "~/domain/dates";
import { formatDollars } from "~/domain/money";
import type { FoundPerson } from "~/domain/operator-people";
import { CONSOLE_LINK } from "~/components/operator/console-link";

/** Banned, cash-outs paused, or nothing to say. */
function standing(person: Pick<FoundPerson, "banned" | "payouts_paused">): string {
  if (person.banned) return "Banned";
  return person.payouts_paused ? "Cash-outs paused" : "—";
}

/** The people search: one box, every key an account can be found by (a GET form: the URL is the search). */
export function PeopleSearch({
  term,
  people,
  problem,
}: {
  term: string;
  people: readonly FoundPerson[] | null;
  problem: string | null;
}) {
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/admin/people";
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-bold tracking-tight">People</h1>
      <Form method="get" className="max-w-2xl space-y-2" role="search">
        <label htmlFor="people-search" className="block text-sm font-semibold">
          Find an account
        </label>
        <div className="flex gap-2">
          <input
            id="people-search"
            name="q"
            type="search"
            defaultValue={term}
            maxLength={320}
            autoComplete="off"
            aria-describedby="people-search-help"
            aria-invalid={problem ? true : undefined}
            className={`${INPUT_CLASS} min-w-0 flex-1`}
          />
          <button type="submit" disabled={searching} className={buttonClass()}>
            {searching ? "Searching…" : "Search"}
          </button>
        </div>
        <p id="people-search-help" className="text-sm text-muted">
          An email (any alias of the same inbox finds them all), account id, referral code, wall id, or a PayPal email,
          UPI ID or bank details they cashed out to. Exact matches only.
        </p>
        {problem ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {problem}
          </p>
        ) : null}
      </Form>
      {people === null ? null : people.length === 0 ? (
        <ConsoleEmpty>{`No account matches “${term}”.`}</ConsoleEmpty>
      ) : (
        <ConsoleTable
          label="Accounts found"
          caption={`Accounts matching ${term}`}
          columns={["Account", "Matched by", "Joined", "Balance", "Standing"]}
        >
          {people.map((person) => (
            <tr key={person.id} data-testid="person-found" className="align-top">
              <td className="px-4 py-3 [overflow-wrap:anywhere]">
                <Link to={`/admin/people/${encodeURIComponent(person.id)}`} className={CONSOLE_LINK}>
                  {person.email ?? person.display_name}
                </Link>
                <span className="block text-xs text-muted">{person.id}</span>
              </td>
              <td className="px-4 py-3">{person.matched_by}</td>
              <td className="px-4 py-3 whitespace-nowrap tabular-nums">{formatTimestamp(person.created_at)}</td>
              <td className="px-4 py-3 tabular-nums">{formatDollars(person.balance)}</td>
              <td className="px-4 py-3">{standing(person)}</td>
            </tr>
          ))}
        </ConsoleTable>
      )}
    </div>
  );
}
