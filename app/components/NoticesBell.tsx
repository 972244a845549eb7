import { Link } from "@remix-run/react";
import { createContext, useContext } from "react";
import { Icon } from "./ui/Icon";

/** What the shell knows of the person for the headers it draws around: signed in, and their unread notices. */
export const ShellContext = createContext<{ signedIn: boolean; unreadNotices: number }>({
  signedIn: false,
  unreadNotices: 0,
});

/**
 * The header's bell (issue 36): a link to the notices page, with how many are unread; a plain
 * link, so it works without JavaScript. Nothing for a visitor.
 */
export function NoticesBell() {
  const { signedIn, unreadNotices } = useContext(ShellContext);
  if (!signedIn) return null;
  const label = unreadNotices > 0 ? `Notices, ${unreadNotices} unread` : "Notices";
  return (
    <Link
      to="/notices"
      aria-label={label}
      className="relative inline-flex size-11 shrink-0 items-center justify-center rounded-full text-ink hover:bg-black/5 active:bg-black/10"
    >
      <Icon name="bell" className="size-5" />
      {unreadNotices > 0 ? (
        <span
          aria-hidden="true"
          data-testid="unread-notices"
          className="absolute top-1 right-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] leading-none font-bold text-white"
        >
          {unreadNotices > 9 ? "9+" : unreadNotices}
        </span>
      ) : null}
    </Link>
  );
}
