// `npm run operator -- <command>`: who may enter the operator console (docs/operator-console.md).
// Bundled into build/operator.js by scripts/build-operator.mjs; reads the same environment as the
// server. Operator mistakes end as one line on stderr and a non-zero exit, never a stack trace.
import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import { openDatabase } from "~/server/db/database.server";
import { checkEnv } from "~/server/runtime/env.server";
import { readWalls } from "~/server/walls/registry.server";
import {
  grantOperatorRole,
  operatorRole,
  resetOperatorTwoFactor,
  revokeOperatorRole,
  type RoleChange,
} from "~/server/operator/roles.server";
import { accountByEmail } from "~/server/walls/operator.server";
import { runOperatorCommand, say, sayJson, UsageError } from "./lib/operator-output";

const USAGE = `Usage: npm run operator -- <command> [options]

  grant <email> <role>       give the account a console role: owner, finance or support
                             (support < finance < owner); its sessions end, and its next
                             sign-in opens /admin
  revoke <email>             take the role away; its sessions end
  reset-2fa <email>          remove the operator's authenticator and recovery codes (a lost
                             phone); their sessions end, and their next visit to /admin enrols
                             a new one

  --json                     machine-readable output

Each change is written to the audit log with the operator's name: OPERATOR_NAME, else the system
user. Works on Postgres (DATABASE_URL) and Supabase; the embedded PGlite database is refused.`;

// A PGlite data directory is one process's only: a second writer beside the running server could corrupt it.
const PGLITE_REFUSED =
  "roles cannot be changed on the embedded PGlite database (its data directory belongs to the running server, and a second writer could corrupt it): run the app on Postgres (DATABASE_URL) or Supabase";

function parse(argv: string[]) {
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
    return { positionals, json: values.json === true, help: values.help === true };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function summary(change: RoleChange): string {
  if (!change.changed) {
    return change.role
      ? `${change.email} already holds the ${change.role} role (claim set again, sessions ended).`
      : `${change.email} holds no operator role (claim cleared, sessions ended).`;
  }
  if (change.role === null)
    return `${change.email} no longer holds the ${change.previous_role} role; their sessions ended.`;
  const from = change.previous_role ? ` (was ${change.previous_role})` : "";
  return `${change.email} now holds the ${change.role} role${from}; they sign in again to open /admin.`;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, json, help } = parse(argv);
  const [command, ...rest] = positionals;
  if (!command || help) {
    (command || help ? console.log : console.error)(USAGE);
    return command || help ? 0 : 2;
  }
  if (command !== "grant" && command !== "revoke" && command !== "reset-2fa")
    throw new UsageError(`Unknown command "${command}"`);
  if (command === "grant" && rest.length !== 2)
    throw new UsageError("grant takes an email and a role, e.g. grant ana@example.com owner");
  if (command !== "grant" && rest.length !== 1)
    throw new UsageError(`${command} takes an email, e.g. ${command} ana@example.com`);
  const role = command === "grant" ? operatorRole(rest[1]!) : null;

  // The database and Firebase; no session secret.
  process.env.APP_ROLE = "operator";
  const env = checkEnv(readWalls(process.env).problems);
  if (env.database.kind === "pglite") throw new Error(PGLITE_REFUSED);
  const actor = process.env.OPERATOR_NAME?.trim() || userInfo().username;
  const db = await openDatabase(env);
  try {
    const account = await accountByEmail(db, rest[0]!);
    const who = { userId: account.user_id, email: account.email, actor };
    if (command === "reset-2fa") {
      const reset = await resetOperatorTwoFactor(db, who);
      if (json) sayJson(reset);
      else
        say(
          reset.had_authenticator
            ? `${reset.email}'s authenticator and recovery codes were removed; their sessions ended, and their next visit to /admin sets up a new one.`
            : `${reset.email} had no authenticator set up; their next visit to /admin sets one up.`,
        );
      return 0;
    }
    const change: RoleChange = role ? await grantOperatorRole(db, { ...who, role }) : await revokeOperatorRole(db, who);
    if (json) sayJson(change);
    else say(summary(change));
    return 0;
  } finally {
    await db.close();
  }
}

await runOperatorCommand("operator", () => main(process.argv.slice(2)));
