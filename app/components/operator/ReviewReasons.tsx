import { Link } from "@remix-run/react";
import type { ReviewReason } from "~/domain/operator-withdrawals";
import { CONSOLE_LINK } from "~/components/operator/console-link";

/** A withdrawal's risk score and each of its reasons, with the linked accounts as links to their pages. */
export function ReviewReasons({ score, reasons }: { score: number | null; reasons: readonly ReviewReason[] }) {
  return (
    <div className="space-y-1.5">
      <p className="font-semibold tabular-nums">
        {score === null ? "Not scored" : `Score ${score}`}
        {score !== null && score >= 50 ? <span className="ml-2 text-xs font-semibold text-red-700">high</span> : null}
      </p>
      {reasons.length === 0 ? null : (
        <ul className="space-y-1 text-xs">
          {reasons.map((reason) => (
            <li key={reason.code} data-testid="risk-reason">
              <span className="font-semibold tabular-nums">+{reason.points}</span> {reason.detail}
              {reason.linked.length > 0 ? (
                <span className="block pl-6">
                  {reason.linked.map((account, index) => (
                    <span key={account.id}>
                      {index > 0 ? ", " : null}
                      {account.email ? (
                        <Link to={`/admin/people/${encodeURIComponent(account.id)}`} className={CONSOLE_LINK}>
                          {account.email}
                        </Link>
                      ) : (
                        <span className="text-muted">a deleted account</span>
                      )}
                    </span>
                  ))}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
