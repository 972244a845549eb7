import { Link } from "@remix-run/react";
import { formatDate } from "~/domain/dates";
import type { Flash } from "~/domain/flash";
import type { ListedNotice } from "~/domain/notices";
import { Card } from "~/components/ui/Card";
import { Icon, type IconName } from "~/components/ui/Icon";
import { PageHeader } from "~/components/ui/PageHeader";
import { SectionError } from "~/components/ui/SectionError";
import { useTimeZone } from "~/lib/time-zone";

const KIND_LOOK: Record<Flash["kind"], { icon: IconName; tone: string }> = {
  success: { icon: "check", tone: "bg-emerald-50 text-emerald-700" },
  error: { icon: "alert", tone: "bg-red-50 text-red-700" },
  info: { icon: "info", tone: "bg-brand-50 text-brand-700" },
};

/**
 * The notices page: each notice the person received (money, support replies, referrals,
 * refusals), in the words of its toast, its date, and the page it is about; the ones new since
 * the last visit marked "New". A plain list of links: nothing needs JavaScript.
 */
export function NoticesScreen({ notices }: { notices: ListedNotice[] | null }) {
  const zone = useTimeZone();
  return (
    <div className="space-y-4">
      <PageHeader title="Notices" bell={false} />
      {notices === null ? (
        <SectionError title="Couldn't load your notices" description="Please try again later" />
      ) : notices.length === 0 ? (
        <Card>
          <p className="py-6 text-center text-sm text-muted">
            No notices yet. When money arrives, a cash-out is paid or support answers you, it is listed here.
          </p>
        </Card>
      ) : (
        <ul className="space-y-3" aria-label="Notices">
          {notices.map((notice) => (
            <li key={notice.id}>
              <Link
                to={notice.href}
                className={`flex gap-3 rounded-2xl border bg-white p-4 shadow-sm transition hover:bg-gray-50 active:bg-gray-100 ${
                  notice.unread ? "border-brand-200" : "border-line"
                }`}
              >
                <span
                  className={`inline-flex size-9 shrink-0 items-center justify-center rounded-full ${KIND_LOOK[notice.kind].tone}`}
                >
                  <Icon name={KIND_LOOK[notice.kind].icon} className="size-4" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <span className="text-sm font-semibold text-ink">{notice.title}</span>
                    {notice.unread ? (
                      <span className="rounded-full bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">
                        New
                      </span>
                    ) : null}
                  </span>
                  {notice.description ? (
                    <span className="mt-0.5 block text-sm text-muted">{notice.description}</span>
                  ) : null}
                  <span className="mt-1 block text-xs text-muted">{formatDate(notice.created_at, zone)}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
