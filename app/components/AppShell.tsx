import { Link, useLocation } from "@remix-run/react";
import { useMemo, type ReactNode } from "react";
import type { Flash } from "~/domain/flash";
import { BOTTOM_NAV_ITEMS, isNavItemActive } from "~/domain/navigation";
import { ShellContext } from "./NoticesBell";
import { ToastStack } from "./ToastStack";
import { Icon } from "./ui/Icon";

/**
 * The frame of every page. On a phone: a column and, fixed at the bottom, the bar, whose Profile
 * cell is drawn as the round profile button on the pages that show it; toasts sit on the bar, one
 * at a time. From `lg` up: the same bar as a side bar with the toasts at its foot, the column
 * beside it, and the round button in the margin to the column's right. Nothing fixed ever sits
 * over the page's content: the column's bottom padding reserves the bar's height and a toast's
 * (docs/decisions/073-nothing-covers-the-page.md, docs/decisions/083-nothing-floats-over-a-control.md).
 * `wide` (the operator console, which draws its own navigation): the whole width, no column.
 */
export function AppShell({
  children,
  showNav,
  wide = false,
  signedIn,
  unreadNotices = 0,
  messages,
}: {
  children: ReactNode;
  showNav: boolean;
  wide?: boolean;
  signedIn: boolean;
  /** The bell's count in the headers (NoticesBell). */
  unreadNotices?: number;
  messages: readonly Flash[];
}) {
  const { pathname } = useLocation();
  const showProfileButton = showNav && signedIn && pathname !== "/profile";
  const reserve = showNav ? "pb-[calc(6rem+env(safe-area-inset-bottom))]" : "pb-8";
  const shell = useMemo(() => ({ signedIn, unreadNotices }), [signedIn, unreadNotices]);
  return (
    <ShellContext.Provider value={shell}>
      <div className={`app-frame min-h-dvh bg-canvas ${showNav ? "lg:pl-60" : ""}`}>
        {wide ? (
          <main className="toast-reserve min-h-dvh">{children}</main>
        ) : (
          <div className="mx-auto flex min-h-dvh w-full max-w-md flex-col bg-canvas sm:border-x sm:border-line lg:max-w-xl">
            <main className={`toast-reserve flex-1 px-5 pt-6 ${reserve} ${showNav ? "lg:px-8 lg:pb-12" : ""}`}>
              {children}
            </main>
          </div>
        )}
        {showProfileButton ? (
          // From `lg` up, in the margin beside the column; on a phone the bar's Profile cell is the button.
          <Link
            to="/profile"
            aria-label="Profile"
            className="fixed right-[calc(50vw-30.5rem)] bottom-8 z-20 hidden size-14 items-center justify-center rounded-full bg-brand-600 text-white shadow-lg shadow-brand-700/30 transition hover:bg-brand-700 active:scale-95 lg:inline-flex"
          >
            <Icon name="profile" className="size-6" />
          </Link>
        ) : null}
        {showNav ? <MainNav pathname={pathname} profileButton={showProfileButton} /> : null}
        <ToastStack messages={messages} above={showNav ? "bar" : "edge"} />
      </div>
    </ShellContext.Provider>
  );
}

/**
 * One navigation landmark: the bottom bar on a phone, a side bar from `lg` up. `profileButton`:
 * on a phone, the Profile cell is the round profile button (raised, in the brand colour) rather
 * than a plain item, so it floats over no content.
 */
function MainNav({ pathname, profileButton }: { pathname: string; profileButton: boolean }) {
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-10 mx-auto w-full max-w-md border-t border-line bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur lg:inset-x-auto lg:inset-y-0 lg:left-0 lg:mx-0 lg:w-60 lg:max-w-none lg:border-t-0 lg:border-r lg:bg-white lg:px-4 lg:pt-6 lg:pb-6"
    >
      <p className="hidden px-3 pb-6 text-lg font-bold tracking-tight text-brand-700 lg:block">Rewards</p>
      <ul className="grid grid-cols-5 lg:flex lg:flex-col lg:gap-1">
        {BOTTOM_NAV_ITEMS.map((item) => {
          const active = isNavItemActive(item, pathname);
          const round = profileButton && item.to === "/profile";
          return (
            <li key={item.to}>
              <Link
                to={item.to}
                aria-current={active ? "page" : undefined}
                className={`flex h-16 flex-col items-center justify-center gap-1 text-xs font-medium transition active:bg-gray-50 lg:h-11 lg:flex-row lg:justify-start lg:gap-3 lg:rounded-xl lg:px-3 lg:text-sm ${
                  active ? "text-brand-600 lg:bg-brand-50" : "text-muted hover:text-ink lg:hover:bg-gray-50"
                }`}
              >
                {round ? (
                  <span className="inline-flex size-13 items-center justify-center rounded-full bg-brand-600 text-white shadow-lg shadow-brand-700/30 transition active:scale-95 lg:size-auto lg:bg-transparent lg:text-current lg:shadow-none">
                    <Icon name={item.icon} className="size-6 lg:size-5" />
                  </span>
                ) : (
                  <span
                    className={`inline-flex h-7 w-12 items-center justify-center rounded-full lg:w-auto lg:bg-transparent ${active ? "bg-brand-50" : ""}`}
                  >
                    <Icon name={item.icon} className="size-5" />
                  </span>
                )}
                <span className={round ? "max-lg:sr-only" : undefined}>{item.label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
