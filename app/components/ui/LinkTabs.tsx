import { Link } from "@remix-run/react";

/** A segmented control whose tabs are links (`?tab=`), so the server renders the chosen one. */
export function LinkTabs({
  label,
  items,
  current,
}: {
  label: string;
  items: readonly { id: string; label: string; to: string }[];
  current: string;
}) {
  return (
    <nav aria-label={label} className="flex gap-1 rounded-xl bg-gray-100 p-1">
      {items.map((item) => (
        <Link
          key={item.id}
          to={item.to}
          replace
          preventScrollReset
          aria-current={item.id === current ? "page" : undefined}
          className={`flex min-h-11 flex-auto items-center justify-center rounded-lg px-2 py-1 text-center text-[13px] leading-tight font-semibold transition min-[375px]:whitespace-nowrap ${
            item.id === current ? "bg-white text-ink shadow-sm" : "text-muted hover:text-ink"
          }`}
        >
          {item.label}
        </Link>
      ))}
    </nav>
  );
}
