import type { MissingCreditReport, OfferCredit } from "~/domain/offer-credits";
import { dbCall } from "../db/core.server";
import { getDatabase } from "../db/database.server";
import { getEnv } from "../runtime/env.server";
import { currentWalls } from "./configured.server";

/** A network people can report a missing credit for: a wall turned on, or the offer provider. */
export interface ReportableNetwork {
  name: string;
  label: string;
  /** The wall inside the app, where the network's own help lives; null for the offer provider. */
  wallPath: string | null;
  /** The network's support page, when the operator gave one (WALL_{NAME}_SUPPORT_URL). */
  supportUrl: string | null;
}

export async function reportableNetworks(): Promise<ReportableNetwork[]> {
  const env = getEnv();
  const walls = (await currentWalls()).map(({ network, supportUrl }) => ({
    name: network.name,
    label: network.label,
    wallPath: network.wallUrl ? `/earn/walls/${network.name}` : null,
    supportUrl,
  }));
  const provider = env.offerProvider;
  return provider && !walls.some((wall) => wall.name === provider.name)
    ? [...walls, { name: provider.name, label: provider.name, wallPath: null, supportUrl: null }]
    : walls;
}

/** The network's own name for a credit's provider (one turned off since keeps its stored name). */
export function networkLabels(networks: readonly ReportableNetwork[]): Record<string, string> {
  return Object.fromEntries(networks.map((network) => [network.name, network.label]));
}

/** The person's offer credits, newest first (at most 100). */
export function offerCreditsCall(userId: string) {
  return dbCall<OfferCredit[]>("get_offer_credits", { p_user_id: userId, p_limit: 100 });
}

export function missingCreditReportsCall(userId: string) {
  return dbCall<MissingCreditReport[]>("get_missing_credit_reports", { p_user_id: userId });
}

/** A ticket for the operator (report_missing_credit checks it; rules in app/domain/rules.ts). */
export async function reportMissingCredit(
  userId: string,
  report: { network: string; offerName: string; completedOn: string; details: string },
) {
  return (await getDatabase()).rpc<{ id: number }>("report_missing_credit", {
    p_user_id: userId,
    p_network: report.network,
    p_offer_name: report.offerName,
    p_completed_on: report.completedOn,
    p_details: report.details,
  });
}
