import { Link } from "@remix-run/react";

export interface ViewTab {
  value: string;
  label: string;
  /** The list's URL with this view chosen (and the other filters kept). */
  to: string;
  current: boolean;
  /** A count shown beside the label (how many wait in that view). */
  badge?: number;
}

/**
 * Each of a list's views as a tab: its link is the list at `basePath` with `queryOf(view)`, the
 * list's query with that view chosen and the other filters kept; `badges` gives some views a count.
 */
export function viewTabsOf<View extends string>(
  views: readonly { value: View; label: string }[],
  current: View,
  basePath: string,
  queryOf: (view: View) => URLSearchParams,
  badges: Partial<Record<View, number>> = {},
): ViewTab[] {
  return views.map((view) => {
    const query = queryOf(view.value).toString();
    return {
      value: view.value,
      label: view.label,
      to: `${basePath}${query ? `?${query}` : ""}`,
      current: view.value === current,
      badge: badges[view.value],
    };
  });
}

/** A console list's views as links (the URL is the view, so they work without JavaScript). */
export function ViewTabs({ label, tabs }: { label: string; tabs: ViewTab[] }) {
  return (
    <nav aria-label={label} className="-mx-1 flex gap-1 overflow-x-auto pb-1">
      {tabs.map((tab) => (
        <Link
          key={tab.value}
          to={tab.to}
          aria-current={tab.current ? "page" : undefined}
          className={`inline-flex h-11 shrink-0 items-center gap-2 rounded-xl px-3.5 text-sm font-medium whitespace-nowrap ${
            tab.current ? "bg-brand-600 text-white" : "border border-line bg-white text-ink hover:bg-gray-50"
          }`}
        >
          {tab.label}
          {tab.badge !== undefined ? (
            <span
              className={`rounded-full px-2 text-xs font-semibold tabular-nums ${tab.current ? "bg-brand-800" : "bg-gray-100 text-muted"}`}
            >
              {tab.badge}
            </span>
          ) : null}
        </Link>
      ))}
    </nav>
  );
}
