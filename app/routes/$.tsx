import { data } from "@remix-run/node";
import { NotFound } from "~/components/NotFound";
import type { ShellHandle } from "~/root";

// Every unknown path, /settings included (spec §2 route table).
export const loader = () => data(null, { status: 404 });

export const handle: ShellHandle = { bareScreen: true };

export default function NotFoundRoute() {
  return <NotFound />;
}
