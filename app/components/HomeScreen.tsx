import { Form, Link } from "@remix-run/react";
import { formatDollars } from "~/domain/money";
import { Icon } from "./Icon";
import { buttonClass } from "./ui";

/** Home, first cut: greeting and balance. Tasks, check-in and leaderboard arrive with their issues. */
export function HomeScreen({ displayName, balance }: { displayName: string; balance: number }) {
  return (
    <div className="space-y-6">
      <header className="flex items-center justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm text-muted">Welcome back</p>
          <h1 className="truncate text-2xl font-bold tracking-tight">Hi, {displayName}</h1>
        </div>
        <Form method="post" action="/logout" className="shrink-0">
          <button className={buttonClass("secondary", "h-10 shrink-0 whitespace-nowrap px-3 text-sm")}>
            <Icon name="logout" className="size-4" />
            Log out
          </button>
        </Form>
      </header>
      <section
        aria-labelledby="balance-heading"
        className="rounded-3xl bg-gradient-to-br from-brand-600 to-brand-800 p-6 text-white shadow-xl shadow-brand-700/25"
      >
        <h2 id="balance-heading" className="text-sm font-medium text-white/80">
          Available Balance
        </h2>
        <p className="mt-1 text-4xl font-extrabold tracking-tight" data-testid="balance">
          {formatDollars(balance)}
        </p>
        <div className="mt-6 grid grid-cols-2 gap-3">
          <Link to="/earn" className={buttonClass("light")}>
            Earn More
          </Link>
          <Link to="/withdraw" className={buttonClass("onBrand")}>
            Withdraw
          </Link>
        </div>
      </section>
    </div>
  );
}
