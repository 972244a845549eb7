import { formatDate } from "~/domain/dates";
import type { SupportReply } from "~/domain/support";

/** What support wrote back on one of the person's messages or reports, oldest first (the console's replies). */
export function SupportReplies({ replies }: { replies: readonly SupportReply[] }) {
  if (replies.length === 0) return null;
  return (
    <ul className="mt-2 space-y-2" aria-label="Replies from support">
      {replies.map((reply) => (
        <li
          key={reply.created_at}
          className="rounded-xl bg-brand-50 px-3 py-2 text-sm text-ink"
          data-testid="support-reply"
        >
          <p className="text-xs font-semibold text-brand-700">Support replied · {formatDate(reply.created_at)}</p>
          <p className="mt-0.5 break-words whitespace-pre-line">{reply.body}</p>
        </li>
      ))}
    </ul>
  );
}
