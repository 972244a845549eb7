import { requireOperator } from "~/server/operator/access.server";
import { wallViews } from "~/server/operator/walls.server";

/**
 * The walls (docs/operator-console.md, "Walls"): every network the app can take postbacks from, on
 * or off, where each setting comes from, its secrets masked, and the postback URL to paste in its
 * dashboard. Every role reads it; the owner changes a wall on its own page.
 */
export async function loadWalls(request: Request) {
  const operator = await requireOperator(request, "support");
  return { walls: await wallViews(operator.uid, new URL(request.url).origin) };
}
