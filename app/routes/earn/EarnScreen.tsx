import type { SubmissionResult } from "@conform-to/react";
import { formErrors } from "~/lib/form-replies";
import { Form, Link, useSubmit } from "@remix-run/react";
import { useRef } from "react";
import { coinsToDollars, coinValueLine, formatCoins, formatDollars } from "~/domain/money";
import { TASK_FILTERS, groupTasks, type Task, type TaskFilter } from "~/domain/tasks";
import { earnHref } from "~/domain/urls";
import { Icon } from "~/components/ui/Icon";
import { FormBanner } from "~/components/forms/FormBanner";
import { Banner } from "~/components/ui/Banner";
import { TaskLinkRow } from "~/components/TaskRow";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/Card";
import { PageHeader } from "~/components/ui/PageHeader";
import { PromoCodeForm } from "./PromoCodeForm";
import { FeaturedOffers, OfferWalls, WallOffers, type WallOfferList } from "./WallSections";
import type { OfferView, WallCardView } from "~/domain/featured-offers";

/**
 * docs/product.md, "Earn": search, filter chips, the open tasks with their earning potential, the
 * finished ones under "Done" (decision 069), and the failure and empty states.
 */
/** Said while the account's network pauses its earning (decision 091); the words are the person's. */
const EARNING_PAUSED = {
  title: "Your offers wait for a review",
  detail:
    "You last signed in through a VPN, a proxy or a similar network, so each offer you complete is checked by our team before its coins are paid. To be paid at once again, turn it off, sign out and sign in again.",
} as const;

export function EarnScreen({
  q,
  type,
  tasks,
  failed,
  source,
  potential,
  coinsPerDollar,
  bonusWaits = false,
  earningPaused = false,
  featured,
  walls,
  wallOffers,
  lastResult,
}: {
  q: string;
  type: TaskFilter;
  tasks: Task[];
  failed: boolean;
  /** The tasks pay bonus money that waits for cleared offer earnings (production settings). */
  bonusWaits?: boolean;
  /** Each offer's credit waits for an operator: the account's network is flagged (decision 091). */
  earningPaused?: boolean;
  /** Where the list comes from: it says whether new tasks can come. */
  source: "provider" | "fallback" | "unavailable";
  potential: number;
  coinsPerDollar: number;
  /** The walls' offers that lead the page (none: no section). */
  featured: OfferView[];
  /** The offer walls turned on: a card each (none: no section). */
  walls: WallCardView[];
  /** The offers of the walls with an offers API: a list each, under the walls (none: nothing). */
  wallOffers: WallOfferList[];
  lastResult?: SubmissionResult<string[]>;
}) {
  const submit = useSubmit();
  const debounce = useRef<ReturnType<typeof setTimeout>>(undefined);
  return (
    <div className="space-y-4">
      <PageHeader title="Earn Rewards" />
      {lastResult?.initialValue?.intent === "redeem-code" ? null : <FormBanner errors={formErrors(lastResult)} />}
      {earningPaused ? (
        <Banner tone="warning" title={EARNING_PAUSED.title}>
          {EARNING_PAUSED.detail}
        </Banner>
      ) : null}
      {featured.length > 0 ? <FeaturedOffers offers={featured} coinsPerDollar={coinsPerDollar} /> : null}
      {/* Each offer credit and whether it is still pending; missing-credit reports (issue 19, item 4). */}
      <Link
        to="/earn/offers"
        className="flex min-h-12 items-center gap-3 rounded-2xl border border-line bg-white px-3.5 py-2 text-sm font-semibold shadow-sm transition hover:border-brand-300 active:scale-[0.98]"
      >
        <Icon name="history" className="size-5 text-brand-700" />
        <span className="min-w-0 flex-1">
          <span className="block">My offers</span>
          <span className="block text-xs font-normal text-muted">Credits, pending coins, missing credits</span>
        </span>
        <Icon name="forward" className="size-5 shrink-0 text-gray-400" />
      </Link>
      <PromoCodeForm lastResult={lastResult} />
      {walls.length > 0 ? <OfferWalls walls={walls} coinsPerDollar={coinsPerDollar} /> : null}
      {wallOffers.map((list) => (
        <WallOffers key={list.name} list={list} coinsPerDollar={coinsPerDollar} />
      ))}
      <Form method="get" role="search" className="relative">
        {type !== "all" ? <input type="hidden" name="type" value={type} /> : null}
        <Icon
          name="search"
          className="pointer-events-none absolute left-4 top-1/2 size-5 -translate-y-1/2 text-gray-400"
        />
        <input
          type="search"
          name="q"
          defaultValue={q}
          placeholder="Search for tasks..."
          aria-label="Search for tasks"
          onChange={(event) => {
            const form = event.currentTarget.form;
            clearTimeout(debounce.current);
            debounce.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), 250);
          }}
          className="block h-12 w-full rounded-xl border border-line bg-white pl-11 pr-4 text-base placeholder:text-gray-400 focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-100"
        />
      </Form>
      {/* The chips wrap rather than scroll: all five show at 320 px and no focus ring is clipped. On
          a phone they are three to a row, so no chip is left alone on the second (issue 36). */}
      <nav aria-label="Task types" className="grid grid-cols-3 gap-2 py-1 sm:flex sm:flex-wrap">
        {TASK_FILTERS.map((filter) => (
          <Link
            key={filter.id}
            to={earnHref({ q, type: filter.id })}
            replace
            preventScrollReset
            aria-current={filter.id === type ? "page" : undefined}
            className={`inline-flex min-h-11 shrink-0 items-center justify-center rounded-full px-4 text-sm font-semibold transition focus-visible:outline-brand-700 active:scale-95 ${
              filter.id === type
                ? "bg-brand-600 text-white shadow-sm"
                : "border border-line bg-white text-muted hover:text-ink"
            }`}
          >
            {filter.label}
          </Link>
        ))}
      </nav>

      {failed ? (
        <Card className="text-center">
          <p className="font-semibold">Failed to load tasks</p>
          {/* The "Error fetching tasks" toast (docs/product.md, "Earn"), shown in place since the page itself failed. */}
          <p className="mt-1 text-sm text-muted">Couldn&apos;t load available tasks. Please try again later.</p>
          <div className="mt-3">
            <Link to={earnHref({ q, type })} reloadDocument className={buttonClass({ tone: "secondary", size: "md" })}>
              <Icon name="refresh" className="size-4" />
              Try Again
            </Link>
          </div>
        </Card>
      ) : tasks.length === 0 ? (
        <Card className="text-center">
          <p className="text-sm text-muted">No tasks found matching your criteria</p>
        </Card>
      ) : (
        <TaskGroups
          tasks={tasks}
          href={(task) => earnHref({ q, type, task: task.id })}
          filtered={q.trim() !== "" || type !== "all"}
          source={source}
          potential={potential}
          coinsPerDollar={coinsPerDollar}
          bonusWaits={bonusWaits}
        />
      )}
    </div>
  );
}

/** Said beside the app's own tasks where their coins are bonus money that waits (issue 36). */
const TASK_BONUS_WAITS = "These coins are bonus money: they unlock for cash-out as your offer earnings clear.";

/** The open tasks (or, with none left, that they are all done and whether more come), then the "Done" group. */
function TaskGroups({
  tasks,
  href,
  filtered,
  source,
  potential,
  coinsPerDollar,
  bonusWaits,
}: {
  tasks: Task[];
  href: (task: Task) => string;
  filtered: boolean;
  bonusWaits: boolean;
  source: "provider" | "fallback" | "unavailable";
  potential: number;
  coinsPerDollar: number;
}) {
  const { open, done } = groupTasks(tasks);
  return (
    <>
      {open.length > 0 ? (
        <>
          <p className="flex items-center gap-2 rounded-2xl bg-emerald-50 px-4 py-3 text-sm text-emerald-800">
            <Icon name="coins" className="size-5 shrink-0" />
            <span>
              Earning Potential: <strong data-testid="earning-potential">{formatCoins(potential)}</strong> (
              {formatDollars(coinsToDollars(potential, coinsPerDollar))}) from the tasks below
              <span className="block text-xs text-emerald-700" data-testid="coin-value">
                {coinValueLine(coinsPerDollar)}
              </span>
              {bonusWaits ? (
                <span className="mt-1 block text-xs text-emerald-800" data-testid="bonus-waits">
                  {TASK_BONUS_WAITS}
                </span>
              ) : null}
            </span>
          </p>
          <ul aria-label="Tasks" className="space-y-2.5">
            {open.map((task) => (
              <li key={task.id}>
                <TaskLinkRow task={task} href={href(task)} />
              </li>
            ))}
          </ul>
        </>
      ) : (
        <Card className="text-center">
          <p className="font-semibold">
            {filtered ? "You've finished every task that matches your criteria." : "You've finished every task."}
          </p>
          <p className="mt-1 text-sm text-muted">
            {/* Only a provider's list grows; the app's own eleven tasks are all there are (decision 069). */}
            {source === "provider"
              ? "New offers appear here as partners add them; there is no fixed schedule."
              : "There are no other tasks for now. Any new ones will appear here."}
          </p>
        </Card>
      )}
      {done.length > 0 ? (
        <section aria-labelledby="done-tasks" className="space-y-2.5">
          <h2 id="done-tasks" className="pt-2 text-sm font-semibold text-muted">
            Done
          </h2>
          <ul aria-label="Done tasks" className="space-y-2.5">
            {done.map((task) => (
              <li key={task.id}>
                <TaskLinkRow task={task} href={href(task)} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
