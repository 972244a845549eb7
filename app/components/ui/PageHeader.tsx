import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Icon } from "./Icon";

/** Top bar of an inner screen: a back link and a title. */
export function PageHeader({
  title,
  truncateBefore,
  backTo = "/",
  action,
}: {
  title: string;
  /** A suffix of the title that must stay visible while a long beginning is shortened ("'s Profile"). */
  truncateBefore?: string;
  backTo?: string;
  action?: ReactNode;
}) {
  const head = truncateBefore && title.endsWith(truncateBefore) ? title.slice(0, -truncateBefore.length) : null;
  return (
    <header className="flex items-center gap-2 pb-4">
      <Link
        to={backTo}
        aria-label="Back"
        className="-ml-2 inline-flex size-10 items-center justify-center rounded-full text-ink hover:bg-black/5 active:bg-black/10"
      >
        <Icon name="back" className="size-6" />
      </Link>
      {head === null ? (
        <h1 className="min-w-0 flex-1 truncate text-lg font-bold tracking-tight min-[375px]:text-xl">{title}</h1>
      ) : (
        // The label keeps the whole title for assistive technology; the parts are only visual.
        <h1 aria-label={title} className="flex min-w-0 flex-1 text-lg font-bold tracking-tight min-[375px]:text-xl">
          <span aria-hidden="true" className="truncate">
            {head}
          </span>
          <span aria-hidden="true" className="shrink-0">
            {truncateBefore}
          </span>
        </h1>
      )}
      {action}
    </header>
  );
}
