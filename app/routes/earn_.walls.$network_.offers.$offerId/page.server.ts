import { redirect } from "@remix-run/node";
import { requireUser } from "~/server/auth/session.server";
import { wallOfferClickUrl } from "~/server/walls/pages.server";

/**
 * /earn/walls/{network}/offers/{offerId}: an offer Earn lists, opened for the signed-in person at
 * the network's click URL with their wall id; an offer no wall lists now is a 404. Nothing is paid
 * or recorded here: the network's postback pays a completed offer.
 */
export async function openWallOffer(request: Request, network: string | undefined, offerId: string | undefined) {
  const user = await requireUser(request);
  const url = await wallOfferClickUrl(network, offerId, user.uid);
  if (!url) throw new Response("Not Found", { status: 404 });
  return redirect(url);
}
