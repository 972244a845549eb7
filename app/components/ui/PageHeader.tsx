import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Icon } from "./Icon";
import { NoticesBell } from "../NoticesBell";

/** Top bar of an inner screen: a back link and a title. */
export function PageHeader({
  title,
  wrap = false,
  backTo = "/",
  action,
  bell = true,
}: {
  title: string;
  /**
   * Let a long title wrap onto more lines instead of ending in "…" (a person's name in
   * "{name}'s Profile": cut, it left a gap before "'s Profile" and hid the name).
   */
  wrap?: boolean;
  backTo?: string;
  action?: ReactNode;
  /** The notices bell (signed in only); not on the notices page itself. */
  bell?: boolean;
}) {
  return (
    <header className="flex items-center gap-2 pb-4">
      <Link
        to={backTo}
        aria-label="Back"
        className="-ml-2 inline-flex size-11 shrink-0 items-center justify-center rounded-full text-ink hover:bg-black/5 active:bg-black/10"
      >
        <Icon name="back" className="size-6" />
      </Link>
      <h1
        className={`min-w-0 flex-1 text-lg font-bold tracking-tight min-[375px]:text-xl ${
          // Below 360 px (with the bell and an action beside it) a title wraps rather than ending in "…".
          wrap
            ? "leading-snug [overflow-wrap:anywhere]"
            : "truncate max-[359px]:overflow-visible max-[359px]:leading-snug max-[359px]:whitespace-normal"
        }`}
      >
        {title}
      </h1>
      {bell ? <NoticesBell /> : null}
      {action}
    </header>
  );
}
