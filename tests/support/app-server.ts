import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startAppServer } from "../../scripts/lib/services.mjs";
import { emulatorHost } from "./emulator";

/**
 * Another production app server beside the one `npm test` starts, for tests that need their own
 * configuration (an offer provider, Postgres, a proxy in front of a service, TRUST_PROXY).
 * Embedded PGlite in a fresh directory unless `env` names a database (or `place.dataDir` an
 * existing one, which is then kept); `place.port` starts it on that port (a restart).
 */
export async function startTestApp(
  env: Record<string, string>,
  /** When the server counts as started (default: /healthz answers 200). */
  ready?: (health: Response) => boolean,
  place: { port?: number; dataDir?: string; captureStdout?: boolean } = {},
) {
  const dataDir = place.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "test-app-"));
  const app = await startAppServer({
    port: place.port ?? (await freePort()),
    env: {
      NODE_ENV: "production",
      SESSION_SECRET: "second-app-secret-of-at-least-32-chars",
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
      FIREBASE_PROJECT_ID: "demo-rewards",
      PGLITE_DATA_DIR: path.join(dataDir, "pglite"),
      LEADERBOARD_REFRESH_SECONDS: "0",
      ...env,
    },
    ready,
    captureStdout: place.captureStdout ?? false,
  });
  return {
    url: app.url,
    stderr: app.stderr,
    stdout: app.stdout,
    /** Sends a signal to the server process ("SIGKILL": a crash; "SIGTERM": a shutdown). */
    kill: app.kill,
    /** How the server process ended. */
    exit: app.exit,
    async stop() {
      await app.stop();
      if (!place.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
