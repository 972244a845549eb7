import { PageHeader } from "~/components/ui/PageHeader";
import { Icon } from "~/components/ui/Icon";

/**
 * A network's offer wall inside the app: its page in a frame the height of the screen, and a link
 * that opens it in a new tab (some offers open their own windows, which a frame may block).
 */
export function WallScreen({ wall }: { wall: { label: string; url: string } }) {
  return (
    <div className="space-y-3">
      <PageHeader title={`${wall.label} offers`} backTo="/earn" />
      <p className="text-sm text-muted">
        Offers on {wall.label} pay in coins once {wall.label} confirms them; they show as pending until then.
      </p>
      <a
        href={wall.url}
        target="_blank"
        rel="noopener noreferrer"
        className="inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-brand-700 hover:underline"
      >
        Open {wall.label} in a new tab
        <Icon name="forward" className="size-4" aria-hidden="true" />
      </a>
      <iframe
        src={wall.url}
        title={`${wall.label} offer wall`}
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox"
        className="block h-[calc(100dvh-16rem)] min-h-96 w-full rounded-2xl border border-line bg-white"
      />
    </div>
  );
}
