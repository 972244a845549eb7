import { OWN_TEST_POSTBACK_HEADER, ownTestPostbackTag } from "../account/account-hash.server";
import type { PostbackLogEntry } from "~/domain/operator-walls";
import { MAX_REWARD_COINS } from "~/domain/tasks";
import type { Database } from "../db/core.server";
import type { OutgoingPostback } from "./network.server";
import type { WallState } from "./overrides.server";
import type { ConfiguredWall } from "./registry.server";
import { WALL_NETWORKS } from "./registry.server";

/**
 * What an operator does with offer walls (`npm run walls`, docs/offer-walls.md): read the postback
 * log, and send a wall's postback to a running app to prove its configuration end to end. Every
 * mistake is a WallOperatorError whose message is the one line the operator reads.
 */
export class WallOperatorError extends Error {
  name = "WallOperatorError";
}

export const MAX_LOG_ENTRIES = 1000;

/** One missing-credit report (My offers), as list_missing_credit_reports gives it. */
export interface MissingCreditTicket {
  id: number;
  created_at: string;
  network: string;
  offer_name: string;
  completed_on: string;
  details: string;
  status: "open" | "waiting" | "resolved";
  user_id: string | null;
  email: string | null;
}

/** Reports oldest first (the longest waiting at the top), open ones only unless `all`. */
export function listMissingCreditReports(
  db: Database,
  filter: { openOnly: boolean; limit: number },
): Promise<MissingCreditTicket[]> {
  return db.rpc<MissingCreditTicket[]>("list_missing_credit_reports", {
    p_open_only: filter.openOnly,
    p_limit: filter.limit,
  });
}

/** The newest entries first, at most `limit`, of one network, refused ones only, or one person's, as asked. */
export function listPostbackLog(
  db: Database,
  filter: { network: string | null; refusedOnly: boolean; userId: string | null; limit: number },
): Promise<PostbackLogEntry[]> {
  return db.rpc<PostbackLogEntry[]>("list_postback_log", {
    p_network: filter.network,
    p_refused_only: filter.refusedOnly,
    p_user_id: filter.userId,
    p_limit: filter.limit,
  });
}

export interface WallAccount {
  user_id: string;
  email: string;
  wall_id: string;
}

/** The one account with this email address (any case); a mistake when there is none, or several. */
export async function accountByEmail(db: Database, email: string): Promise<WallAccount> {
  const accounts = await db.rpc<WallAccount[]>("accounts_by_email", { p_email: email });
  if (accounts.length === 0) throw new WallOperatorError(`no account has the email ${email}`);
  if (accounts.length > 1) {
    const ids = accounts.map((account) => account.user_id).join(", ");
    throw new WallOperatorError(`${accounts.length} accounts have the email ${email} (${ids}): cannot tell which`);
  }
  return accounts[0]!;
}

/** A network's name as the operator types it, checked against those the app knows (and `others`: the offer provider's). */
export function knownNetwork(name: string, others: readonly string[] = []): string {
  const names = [...WALL_NETWORKS.map((candidate) => candidate.name), ...others];
  const network = names.find((candidate) => candidate === name.toLowerCase());
  if (!network) throw new WallOperatorError(`unknown network "${name}" (one of ${names.join(", ")})`);
  return network;
}

/** The wall as the server runs it: the environment's WALL_{NAME}_… and the console's settings over them. */
export function enabledWall(states: readonly WallState[], name: string): ConfiguredWall {
  const network = knownNetwork(name);
  const state = states.find((candidate) => candidate.network.name === network);
  if (state?.wall) return state.wall;
  if (state?.enabled) {
    const problems = state.problems.map((problem) => `${problem.variable} ${problem.message}`).join("; ");
    throw new WallOperatorError(`the ${network} wall is turned on but cannot run: ${problems}`);
  }
  throw new WallOperatorError(
    `the ${network} wall is not enabled here: turn it on in the console (/admin/walls/${network}) or set WALL_${network.toUpperCase()}_ENABLED=true and its settings (docs/offer-walls.md)`,
  );
}

/** Coins as the operator types them: a whole number from 1 to MAX_REWARD_COINS. */
export function simulatedCoins(value: string): number {
  if (!/^[0-9]{1,9}$/.test(value) || Number(value) < 1 || Number(value) > MAX_REWARD_COINS) {
    throw new WallOperatorError(`--coins must be a whole number from 1 to ${MAX_REWARD_COINS}`);
  }
  return Number(value);
}

// A simulated postback's offer, as the network names it: the person's history says it was a test.
const SIMULATED_OFFER = { offerId: "simulated", offerName: "Test postback (npm run walls -- simulate)" };

/** The offer a test postback sent from the operator console names. */
export const CONSOLE_TEST_OFFER = { offerId: "simulated", offerName: "Test postback (operator console)" };

export interface SimulationResult {
  network: string;
  kind: "credit" | "reversal";
  transactionId: string;
  coins: number;
  account: WallAccount;
  method: string;
  /** Where it went, without the query (AdGate's carries the wall's token). */
  postbackUrl: string;
  status: number;
  body: string;
  /** Whether the app answered with the network's own success answer. */
  accepted: boolean;
}

/**
 * Sends `wall`'s postback for `account` to the app at `targetUrl`, signed for `appUrl` (the
 * address the app rebuilds the URL on: its PUBLIC_URL, else the address it was called at).
 */
export async function simulatePostback(parts: {
  wall: ConfiguredWall;
  account: WallAccount;
  kind: "credit" | "reversal";
  transactionId: string;
  coins: number;
  appUrl: string;
  targetUrl: string;
  /** The offer it names (default: the command's). */
  offer?: { offerId: string; offerName: string };
  /** Sent by the console to the app itself: tagged so that the sender allowlist lets it through (account/account-hash.server.ts). */
  fromConsole?: boolean;
}): Promise<SimulationResult> {
  const { network, config } = parts.wall;
  const outgoing: OutgoingPostback | null = network.simulatedPostback(config, {
    kind: parts.kind,
    transactionId: parts.transactionId,
    wallUserId: parts.account.wall_id,
    coins: parts.coins,
    appUrl: parts.appUrl,
    ...(parts.offer ?? SIMULATED_OFFER),
  });
  if (!outgoing) {
    throw new WallOperatorError(
      `${network.name} documents no reversal postback, so there is none to send: reversals come through its dashboard`,
    );
  }
  const url = `${parts.targetUrl}${outgoing.pathAndQuery}`;
  let response: Response;
  try {
    const tag: Record<string, string> = parts.fromConsole
      ? { [OWN_TEST_POSTBACK_HEADER]: ownTestPostbackTag(outgoing.method, outgoing.pathAndQuery) }
      : {};
    response = await fetch(url, {
      method: outgoing.method,
      headers: { ...outgoing.headers, ...tag },
      body: outgoing.body,
      redirect: "manual",
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new WallOperatorError(`could not reach ${parts.targetUrl}: ${cause}`);
  }
  const body = await response.text();
  return {
    network: network.name,
    kind: parts.kind,
    transactionId: parts.transactionId,
    coins: parts.coins,
    account: parts.account,
    method: outgoing.method,
    postbackUrl: url.split("?")[0]!,
    status: response.status,
    body,
    accepted: response.status === network.accepted.status && body === network.accepted.body,
  };
}
