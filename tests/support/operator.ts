import { spawn } from "node:child_process";
import { emulatorHost } from "./emulator";

export interface OperatorRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a built operator command (`node build/payouts.js ...args`, what `npm run payouts --` runs,
 * unless `command` names another: build/walls.js) against `databaseUrl`, with `env` added (a local
 * PayPal's settings, OPERATOR_NAME, a wall's settings).
 */
export function runOperator(
  /** DATABASE_URL, or the variables of another transport (a PostgresApp's databaseEnv). */
  database: string | Record<string, string>,
  args: string[],
  env: Record<string, string> = {},
  command = "build/payouts.js",
) {
  return new Promise<OperatorRun>((resolve) => {
    const child = spawn(process.execPath, [command, ...args], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        SESSION_SECRET: "operator-test-secret-of-32-characters",
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
        ...(typeof database === "string" ? { DATABASE_URL: database } : database),
        ...env,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}
