import { Link } from "@remix-run/react";
import { Badge } from "~/components/operator/Badge";
import { WallSettingList } from "~/components/operator/WallSettingList";
import type { WallView } from "~/domain/operator-walls";
import { CONSOLE_LINK } from "~/components/operator/console-link";

function State({ wall }: { wall: WallView }) {
  if (wall.on) return <Badge tone="green">On</Badge>;
  return wall.problems.length > 0 ? <Badge tone="red">Off: settings wrong</Badge> : <Badge tone="gray">Off</Badge>;
}

/** Every network the app can take postbacks from, a card each: on or off, its settings and where they come from. */
export function WallsList({ walls }: { walls: readonly WallView[] }) {
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-bold tracking-tight">Walls</h1>
      <p className="max-w-3xl text-sm text-muted">
        Each offer wall's configuration. A value set in the console wins over the environment&apos;s (
        <code>WALL_&#123;NAME&#125;_…</code>); a wall given back to the environment uses the environment&apos;s alone.
        Secrets are never shown: only whether they are set, where from, and their last four characters.
      </p>
      <ul className="grid gap-4 xl:grid-cols-2">
        {walls.map((wall) => (
          <li
            key={wall.name}
            data-testid="wall-card"
            className="min-w-0 space-y-3 rounded-2xl border border-line bg-white p-5 shadow-sm"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 className="text-lg font-bold tracking-tight">
                <Link to={`/admin/walls/${wall.name}`} className={CONSOLE_LINK}>
                  {wall.label}
                </Link>
              </h2>
              <State wall={wall} />
            </div>
            <WallSettingList
              rows={wall.rows.filter(
                (row) => !row.variable.endsWith("_POSTBACKS_PER_MINUTE") && !row.variable.endsWith("_SUPPORT_URL"),
              )}
            />
            <div className="text-sm">
              <p className="text-muted">Postback URL</p>
              <code className="mt-1 block rounded-lg bg-gray-50 px-3 py-2 text-xs [overflow-wrap:anywhere]">
                {wall.postbackUrl}
              </code>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
