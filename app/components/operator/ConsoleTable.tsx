import { Link } from "@remix-run/react";
import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";

/**
 * A table of the operator console, with its caption for screen readers. From 768px it is a table
 * (in a box that scrolls sideways if a column cannot wrap; focusable, so a keyboard can scroll it
 * too); below, each row is a card and each cell shows its column's name (app.css, .console-table).
 */
export function ConsoleTable({
  label,
  caption,
  columns,
  minWidth = "min-w-[48rem]",
  children,
}: {
  label: string;
  caption: string;
  columns: readonly string[];
  minWidth?: string;
  children: ReactNode;
}) {
  return (
    <div
      className="overflow-x-auto rounded-2xl border border-line bg-white shadow-sm"
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      <table className={`console-table w-full ${minWidth} text-left text-sm`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-line bg-gray-50 text-xs font-semibold tracking-wide text-muted uppercase">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-4 py-3">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">{labelledCells(children, columns)}</tbody>
      </table>
    </div>
  );
}

type Element = ReactElement<{ children?: ReactNode }>;

/** The rows with each cell's column name as data-label (a row drawn by a component of its own keeps its cells). */
function labelledCells(rows: ReactNode, columns: readonly string[]): ReactNode {
  return Children.map(rows, (row) => {
    if (!isValidElement(row) || row.type !== "tr") return row;
    let index = 0;
    const cells = Children.map((row as Element).props.children, (cell) => {
      if (!isValidElement(cell) || cell.type !== "td") return cell;
      const label = columns[index++];
      return label ? cloneElement(cell as ReactElement<{ "data-label"?: string }>, { "data-label": label }) : cell;
    });
    return cloneElement(row as Element, {}, cells);
  });
}

/** A section of a console page: a white card with its heading. */
export function ConsoleSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-3">
      <h2 className="text-lg font-bold tracking-tight">{title}</h2>
      {children}
    </section>
  );
}

/** What a list says when it has nothing to show. */
export function ConsoleEmpty({ children }: { children: ReactNode }) {
  return <p className="rounded-2xl border border-line bg-white p-5 text-sm text-muted">{children}</p>;
}

/**
 * The links between the pages of a list paged by URL: back to the newest page (when on an older
 * one) and on to the older one (when there is one). Nothing when there is only one page.
 */
export function ConsolePager({
  label,
  newest,
  older,
}: {
  /** What the navigation is named for screen readers: "Audit log pages". */
  label: string;
  newest: { to: string; label: string } | null;
  older: { to: string; label: string } | null;
}) {
  if (!newest && !older) return null;
  return (
    <nav aria-label={label} className="flex gap-4 text-sm font-medium">
      {[newest, older].map((link) =>
        link ? (
          <Link key={link.to} to={link.to} className="inline-flex min-h-11 items-center text-brand-700 underline">
            {link.label}
          </Link>
        ) : null,
      )}
    </nav>
  );
}
