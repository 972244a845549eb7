import { Link, NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import { OPERATOR_ROLE_LABELS, type OperatorRole } from "~/domain/operator-roles";

/** The console's sections: only those that work (docs/operator-console.md). */
const SECTIONS = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/withdrawals", label: "Withdrawals", end: false },
  { to: "/admin/people", label: "People", end: false },
  { to: "/admin/support", label: "Support", end: false },
  { to: "/admin/settings", label: "Settings", end: false },
  { to: "/admin/walls", label: "Walls", end: false },
  { to: "/admin/codes", label: "Codes", end: false },
  { to: "/admin/prizes", label: "Prizes", end: false },
  { to: "/admin/audit", label: "Audit log", end: false },
] as const;

/**
 * The operator console's frame: desktop first, a side navigation beside wide pages; on a phone the
 * navigation sits above the page, wrapping onto a second row rather than hiding sections off the edge.
 */
export function AdminScreen({
  operator,
  children,
}: {
  operator: { name: string; role: OperatorRole };
  children: ReactNode;
}) {
  return (
    <div className="min-h-dvh bg-canvas lg:pl-64">
      <nav
        aria-label="Console"
        className="border-b border-line bg-white px-4 py-3 lg:fixed lg:inset-y-0 lg:left-0 lg:flex lg:w-64 lg:flex-col lg:border-r lg:border-b-0 lg:px-4 lg:py-6"
      >
        <p className="px-3 text-lg font-bold tracking-tight text-brand-700">Operator console</p>
        <ul className="mt-2 flex flex-wrap gap-1 lg:mt-6 lg:flex-col lg:flex-nowrap">
          {SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink
                to={section.to}
                end={section.end}
                className={({ isActive }) =>
                  `flex h-11 items-center rounded-xl px-3 text-sm font-medium whitespace-nowrap transition ${
                    isActive ? "bg-brand-50 text-brand-700" : "text-muted hover:bg-gray-50 hover:text-ink"
                  }`
                }
              >
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="mt-3 flex flex-wrap items-center justify-between gap-2 px-3 text-sm lg:mt-auto lg:block">
          <p className="min-w-0 [overflow-wrap:anywhere]">
            <span className="font-semibold">{operator.name}</span>
            <span className="text-muted"> · {OPERATOR_ROLE_LABELS[operator.role]}</span>
          </p>
          <Link
            to="/"
            className="inline-flex min-h-11 items-center font-medium text-brand-700 underline-offset-2 hover:underline lg:mt-2"
          >
            Back to the app
          </Link>
        </div>
      </nav>
      <div className="px-4 py-6 sm:px-6 lg:px-10 lg:py-8">{children}</div>
    </div>
  );
}
