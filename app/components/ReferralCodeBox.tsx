import { shareLinks } from "~/domain/referrals";
import { copyReferralCode } from "~/lib/share-referral";
import { Icon } from "./ui/Icon";

/**
 * The referral code (selectable, so it can be copied without JavaScript), its share link, and a
 * copy button that needs JavaScript. Drawn on the brand colour (Refer & Earn, Profile).
 */
export function ReferralCodeBox({
  code,
  shareUrl,
  loading = false,
  disabled,
}: {
  code: string | null;
  shareUrl: string | null;
  loading?: boolean;
  disabled: boolean;
}) {
  return (
    <div className="rounded-2xl bg-white/10 p-4 ring-1 ring-white/20">
      <div className="flex items-center gap-3">
        <div className="min-w-0 flex-1">
          <p className="text-xs font-medium uppercase tracking-wider text-white/70">Your referral code</p>
          {loading ? (
            <div className="mt-2 h-9 w-40 animate-pulse rounded-lg bg-white/20" aria-hidden="true" />
          ) : (
            <p className="mt-1 select-all font-mono text-3xl font-bold tracking-[0.2em]" data-testid="referral-code">
              {code ?? "—"}
            </p>
          )}
        </div>
        <button
          type="button"
          disabled={disabled}
          onClick={() => void copyReferralCode(code)}
          aria-label="Copy Code"
          title="Copy Code"
          className="inline-flex size-12 shrink-0 items-center justify-center rounded-xl bg-white/15 text-white ring-1 ring-white/30 transition hover:bg-white/25 active:scale-95 disabled:cursor-not-allowed disabled:opacity-60"
        >
          <Icon name="copy" className="size-5" />
        </button>
      </div>
      {/* Without JavaScript the copy (and share) buttons cannot work: say so, and what to do. */}
      <noscript>
        <p className="mt-2 text-xs text-white/80">
          Copying and sharing with a button need JavaScript: select the code or the link to copy it.
        </p>
      </noscript>
      {shareUrl && code ? (
        <>
          {/* The whole link, selectable and copyable by hand (no script needed); it breaks only
              before its code, never inside it (issue 36). */}
          <p className="mt-3 text-xs font-medium text-white/70">Your link</p>
          <p
            className="mt-1 rounded-lg bg-white/15 px-3 py-2 font-mono text-xs leading-relaxed text-white ring-1 ring-white/25 select-all"
            data-testid="share-link"
          >
            <ShareLink url={shareUrl} />
          </p>
          <p className="mt-3 text-xs text-white/70">Or send it by</p>
          <div className="mt-2 grid grid-cols-3 gap-2">
            {shareLinks(code, shareUrl).map((link) => (
              <a
                key={link.label}
                href={link.href}
                className="inline-flex min-h-11 items-center justify-center rounded-full bg-white/15 px-2 text-sm font-semibold text-white ring-1 ring-white/25 hover:bg-white/25 active:bg-white/30"
              >
                {link.label}
              </a>
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}

/** "https://host/join/ABCD234": may break before the code, never inside it. */
function ShareLink({ url }: { url: string }) {
  const at = url.lastIndexOf("/");
  if (at === -1) return <span className="[overflow-wrap:anywhere]">{url}</span>;
  return (
    <>
      <span className="[overflow-wrap:anywhere]">{url.slice(0, at + 1)}</span>
      <wbr />
      <span className="whitespace-nowrap">{url.slice(at + 1)}</span>
    </>
  );
}
