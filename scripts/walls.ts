// `npm run walls -- <command>`: the operator's offer wall command (docs/offer-walls.md, "Reading the
// postback log" and "Testing a configuration end to end"). Bundled into build/walls.js by
// scripts/build-operator.mjs; reads the same environment as the server. Operator mistakes end as
// one line on stderr and a non-zero exit, never a stack trace.
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { escapeHiddenCharacters } from "~/domain/hidden-characters";
import type { PostbackLogEntry } from "~/domain/operator-walls";
import type { Database } from "~/server/db/core.server";
import { openDatabase } from "~/server/db/database.server";
import { checkEnv, getEnv } from "~/server/runtime/env.server";
import { loadWallStates } from "~/server/walls/configured.server";
import {
  accountByEmail,
  enabledWall,
  knownNetwork,
  listMissingCreditReports,
  listPostbackLog,
  MAX_LOG_ENTRIES,
  type MissingCreditTicket,
  simulatedCoins,
  simulatePostback,
  type SimulationResult,
} from "~/server/walls/operator.server";
import { readWalls } from "~/server/walls/registry.server";
import { runOperatorCommand, say, sayJson, table, UsageError, when } from "./lib/operator-output";

const USAGE = `Usage: npm run walls -- <command> [options]

  log [--network N] [--refused] [--user EMAIL] [--limit N]
                             the postback log, newest first: when, network, verdict, reason,
                             person, transaction, coins, sender (default 50 entries, at most ${MAX_LOG_ENTRIES})
  reports [--all] [--limit N]
                             missing-credit reports people sent from My offers, the longest
                             waiting first: open ones, or --all
  simulate <network> --user EMAIL --coins N [--reverse TX] [--url BASE]
                             send the network's postback, signed as it signs them, to a running
                             app: a credit with a new transaction id (printed), or with --reverse
                             the reversal of TX. Sent to --url, else PUBLIC_URL, else
                             http://localhost:3000; fails unless the app answers as the network
                             expects. It pays the person: use a test account

  --json                     machine-readable output

The wall's settings are read as the server reads them: the environment's WALL_{NAME}_…, and the
operator console's settings over them.`;

const OPTIONS = {
  network: { type: "string" },
  refused: { type: "boolean" },
  all: { type: "boolean" },
  user: { type: "string" },
  limit: { type: "string" },
  coins: { type: "string" },
  reverse: { type: "string" },
  url: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type OptionName = keyof typeof OPTIONS;
type Values = Partial<Record<OptionName, string | boolean>>;

const COMMAND_OPTIONS: Record<string, OptionName[]> = {
  log: ["network", "refused", "user", "limit"],
  reports: ["all", "limit"],
  simulate: ["user", "coins", "reverse", "url"],
};

const DEFAULT_LOG_ENTRIES = 50;
const DEFAULT_APP_URL = "http://localhost:3000";

function parse(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [command, ...rest] = parsed.positionals;
  const values = parsed.values as Values;
  if (command && !Object.hasOwn(COMMAND_OPTIONS, command)) throw new UsageError(`Unknown command "${command}"`);
  if (command) {
    const allowed = new Set<OptionName>([...COMMAND_OPTIONS[command]!, "json", "help"]);
    const stray = (Object.keys(values) as OptionName[]).find((name) => !allowed.has(name));
    if (stray) throw new UsageError(`--${stray} does not go with ${command}`);
  }
  return { command, rest, values };
}

const text = (value: string | boolean | undefined) => (typeof value === "string" ? value : undefined);

function logLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LOG_ENTRIES;
  if (!/^[0-9]{1,4}$/.test(value) || Number(value) < 1 || Number(value) > MAX_LOG_ENTRIES) {
    throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LOG_ENTRIES}`);
  }
  return Number(value);
}

/** An app's address as typed: http(s), no trailing slash. */
function appAddress(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--url must be an http:// or https:// address, got "${value}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`--url must be an http:// or https:// address, got "${value}"`);
  }
  return value.replace(/\/+$/, "");
}

// ------------------------------------------------------------------------------------------------
// Output (through say and complain: scripts/lib/operator-output.ts)

function printLog(entries: PostbackLogEntry[], filters: string[]) {
  const about = filters.length > 0 ? ` (${filters.join(", ")})` : "";
  if (entries.length === 0) return say(`No postback on record${about}.`);
  const noun = entries.length === 1 ? "postback" : "postbacks";
  say(
    `${entries.length} ${noun}${about}, newest first`,
    "",
    ...table(
      ["RECEIVED", "NETWORK", "VERDICT", "REASON", "USER", "TRANSACTION", "COINS", "FROM"],
      entries.map((entry) => [
        when(entry.received_at, "second"),
        entry.network,
        entry.verdict,
        entry.reason ?? "",
        entry.email ?? entry.user_id ?? "",
        entry.transaction_id ?? "",
        entry.coins === null ? "" : String(entry.coins),
        entry.client_address ?? "",
      ]),
    ),
  );
}

function printReports(reports: MissingCreditTicket[], all: boolean) {
  if (reports.length === 0) return say(all ? "No missing-credit report on record." : "No open missing-credit report.");
  const noun = reports.length === 1 ? "report" : "reports";
  say(`${reports.length} ${all ? "" : "open "}${noun}, the longest waiting first`, "");
  for (const report of reports) {
    say(
      `#${report.id}  ${when(report.created_at)}  ${report.network}  ${report.status}  ${report.email ?? report.user_id ?? "(account deleted)"}`,
      // What a person typed: terminal control characters shown, never run (hidden-characters.ts).
      `  offer: ${escapeHiddenCharacters(report.offer_name)} (completed ${report.completed_on})`,
      ...report.details.split("\n").map((line) => `  ${escapeHiddenCharacters(line)}`),
      "",
    );
  }
}

function printSimulation(result: SimulationResult, undo: string | null) {
  const what = result.kind === "credit" ? "credit" : "reversal";
  say(
    `${result.network} ${what} of ${result.coins} coins for ${result.account.email} (wall id ${result.account.wall_id})`,
    `transaction ${result.transactionId}`,
    `${result.method} ${result.postbackUrl}`,
    `answer: ${result.status} ${result.body.slice(0, 500)}`,
    result.accepted
      ? "Taken: the app answered as the network expects."
      : "Not taken: the app did not answer as the network expects (npm run walls -- log --refused says why).",
  );
  if (result.accepted && undo) say(`Take it back with: ${undo}`);
}

// ------------------------------------------------------------------------------------------------
// Commands

/** Runs `work` with the database the environment names, closed afterwards. */
async function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(getEnv());
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

async function log(rest: string[], values: Values, json: boolean) {
  if (rest.length > 0) throw new UsageError(`log takes no arguments, got "${rest[0]}"`);
  const provider = getEnv().offerProvider?.name;
  const network =
    text(values.network) === undefined ? null : knownNetwork(text(values.network)!, provider ? [provider] : []);
  const limit = logLimit(text(values.limit));
  const refusedOnly = values.refused === true;
  const email = text(values.user);
  const { entries, account } = await withDatabase(async (db) => {
    const account = email === undefined ? null : await accountByEmail(db, email);
    const entries = await listPostbackLog(db, { network, refusedOnly, userId: account?.user_id ?? null, limit });
    return { entries, account };
  });
  if (json) sayJson(entries);
  else {
    const filters = [network, refusedOnly ? "refused" : null, account ? account.email : null];
    printLog(
      entries,
      filters.filter((filter): filter is string => filter !== null),
    );
  }
  return 0;
}

async function reports(rest: string[], values: Values, json: boolean) {
  if (rest.length > 0) throw new UsageError(`reports takes no arguments, got "${rest[0]}"`);
  const limit = logLimit(text(values.limit));
  const all = values.all === true;
  const found = await withDatabase((db) => listMissingCreditReports(db, { openOnly: !all, limit }));
  if (json) sayJson(found);
  else printReports(found, all);
  return 0;
}

async function simulate(rest: string[], values: Values, json: boolean) {
  if (rest.length !== 1) throw new UsageError("simulate takes one network, e.g. simulate bitlabs");
  const email = text(values.user);
  const coins = text(values.coins);
  if (email === undefined) throw new UsageError("simulate needs --user EMAIL");
  if (coins === undefined) throw new UsageError("simulate needs --coins N");
  const amount = simulatedCoins(coins);
  const env = getEnv();
  // The app must be running, and an embedded PGlite data directory is one process's only.
  if (env.database.kind === "pglite") {
    throw new UsageError(
      "simulate needs the running app's database at the same time, which the embedded PGlite cannot share: run the app on Postgres (DATABASE_URL) or Supabase",
    );
  }
  const network = knownNetwork(rest[0]!);
  const targetUrl = appAddress(text(values.url) ?? env.publicUrl ?? DEFAULT_APP_URL);
  const reversed = text(values.reverse);
  // The wall as the server runs it: the environment's settings and the console's over them.
  const { wall, account } = await withDatabase(async (db) => ({
    wall: enabledWall(await loadWallStates(db, process.env, env.accountHashSecret), network),
    account: await accountByEmail(db, email),
  }));
  const result = await simulatePostback({
    wall,
    account,
    kind: reversed === undefined ? "credit" : "reversal",
    transactionId: reversed ?? `sim-${randomUUID()}`,
    coins: amount,
    // The app checks signatures against its PUBLIC_URL when it has one, whatever address it was called at.
    appUrl: env.publicUrl ?? targetUrl,
    targetUrl,
  });
  const undo =
    result.kind === "credit"
      ? `npm run walls -- simulate ${result.network} --user ${email} --coins ${result.coins} --reverse ${result.transactionId}`
      : null;
  if (json) sayJson(result);
  else printSimulation(result, undo);
  return result.accepted ? 0 : 1;
}

async function main(argv: string[]): Promise<number> {
  const { command, rest, values } = parse(argv);
  if (!command || values.help) {
    (command || values.help ? console.log : console.error)(USAGE);
    return command || values.help ? 0 : 2;
  }
  // The database and the walls' settings only: no session secret, no Firebase.
  process.env.APP_ROLE = "operator";
  checkEnv(readWalls(process.env).problems);
  const json = values.json === true;
  if (command === "log") return log(rest, values, json);
  return command === "reports" ? reports(rest, values, json) : simulate(rest, values, json);
}

await runOperatorCommand("walls", () => main(process.argv.slice(2)));
