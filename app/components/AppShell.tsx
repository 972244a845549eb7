import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { BOTTOM_NAV_ITEMS, isNavItemActive } from "~/domain/navigation";
import { Icon } from "./ui/Icon";

/** The phone-width frame: page content, the bottom bar and the floating profile button. */
export function AppShell({
  children,
  showNav,
  signedIn,
}: {
  children: ReactNode;
  showNav: boolean;
  signedIn: boolean;
}) {
  const { pathname } = useLocation();
  const showProfileButton = showNav && signedIn && pathname !== "/profile";
  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-md flex-col bg-canvas sm:border-x sm:border-line">
      <main className={`flex-1 px-5 pt-6 ${showNav ? "pb-28" : "pb-8"}`}>{children}</main>
      {showProfileButton ? (
        <Link
          to="/profile"
          aria-label="Profile"
          className="fixed bottom-24 right-[max(1.25rem,calc(50vw-14rem+1.25rem))] z-20 inline-flex size-14 items-center justify-center rounded-full bg-brand-600 text-white shadow-lg shadow-brand-700/30 transition hover:bg-brand-700 active:scale-95"
        >
          <Icon name="profile" className="size-6" />
        </Link>
      ) : null}
      {showNav ? <BottomNav pathname={pathname} /> : null}
    </div>
  );
}

function BottomNav({ pathname }: { pathname: string }) {
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-10 mx-auto w-full max-w-md border-t border-line bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur"
    >
      <ul className="grid grid-cols-5">
        {BOTTOM_NAV_ITEMS.map((item) => {
          const active = isNavItemActive(item, pathname);
          return (
            <li key={item.to}>
              <Link
                to={item.to}
                aria-current={active ? "page" : undefined}
                className={`flex h-16 flex-col items-center justify-center gap-1 text-xs font-medium transition active:bg-gray-50 ${
                  active ? "text-brand-600" : "text-muted hover:text-ink"
                }`}
              >
                <span
                  className={`inline-flex h-7 w-12 items-center justify-center rounded-full ${active ? "bg-brand-50" : ""}`}
                >
                  <Icon name={item.icon} className="size-5" />
                </span>
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
