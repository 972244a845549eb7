import { requireUser } from "~/server/auth/session.server";
import { wallPage } from "~/server/walls/pages.server";

/** /earn/walls/{network}: a wall the operator turned on, opened for the signed-in person; else 404. */
export async function loadWallPage(request: Request, network: string | undefined) {
  const user = await requireUser(request);
  const page = await wallPage(network, user.uid);
  if (!page) throw new Response("Not Found", { status: 404 });
  return page;
}
