import { data } from "@remix-run/node";
import { NotFound } from "~/components/shared";
import { BARE_SCREEN } from "~/lib/shell";

// Every unknown path, /settings included (docs/product.md, "Routes").
export const loader = () => data(null, { status: 404 });

export const handle = BARE_SCREEN;

export default function NotFoundRoute() {
  return <NotFound />;
}
