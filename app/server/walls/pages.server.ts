import type { OfferKind } from "~/domain/offer-kinds";
import { offerWallOf } from "~/domain/document-policy";
import { getDatabase } from "../db/database.server";
import { currentWalls } from "./configured.server";
import { findWallOffer } from "./offers.server";
import type { ConfiguredWall } from "./registry.server";

/** The walls people can open (turned on, with a wall page), as Earn lists them. */
export async function wallCards(): Promise<{ name: string; label: string; bestFor: readonly OfferKind[] }[]> {
  return (await currentWalls())
    .filter((wall) => wall.network.wallUrl !== undefined)
    .map(({ network }) => ({ name: network.name, label: network.label, bestFor: network.bestFor }));
}

async function openableWall(name: string | undefined): Promise<ConfiguredWall | null> {
  return (
    (await currentWalls()).find((wall) => wall.network.name === name && wall.network.wallUrl !== undefined) ?? null
  );
}

/**
 * The origins /earn/walls/{network} may frame: that network's wall only (entry.server.tsx puts
 * them in the page's frame-src). Every other page frames nothing.
 */
export async function wallFrameOrigins(pathname: string): Promise<string[]> {
  const name = offerWallOf(pathname);
  // Every other page frames nothing, and asks nothing of the walls.
  if (name === null) return [];
  const wall = await openableWall(name);
  const url = wall?.network.wallUrl?.(wall.config, "w");
  return url ? [new URL(url).origin] : [];
}

/** The person's wall id: what networks know them by, never the account's id or email. */
async function wallIdOf(userId: string) {
  return (await getDatabase()).rpc<string | null>("get_wall_id", { p_user_id: userId });
}

/** The wall's page for the signed-in person (by their wall id), or null when no such wall is on. */
export async function wallPage(name: string | undefined, userId: string) {
  const wall = await openableWall(name);
  if (!wall?.network.wallUrl) return null;
  const wallId = await wallIdOf(userId);
  if (!wallId) return null;
  return { name: wall.network.name, label: wall.network.label, url: wall.network.wallUrl(wall.config, wallId) };
}

/**
 * Where a listed offer takes the signed-in person: its network's click URL with their wall id put
 * in; null when no wall lists that offer now. Nothing is recorded: the network's postback pays it.
 */
export async function wallOfferClickUrl(network: string | undefined, offerId: string | undefined, userId: string) {
  const found = await findWallOffer(network, offerId);
  if (!found) return null;
  const wallId = await wallIdOf(userId);
  return wallId ? found.clickUrl(wallId) : null;
}
