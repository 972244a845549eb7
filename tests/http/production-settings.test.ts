import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/services.mjs";
import { emulatorHost } from "../support/emulator";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "production-settings-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/**
 * Starts the production build as `npm start` does (remix-serve) with exactly `env`, and returns
 * how it exited. A server that is still running after `ms` is stopped, and reported as running.
 */
async function startProduction(env: Record<string, string>, ms = 20_000) {
  // Only these variables: NODE_ENV may be left out on purpose.
  const variables: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    PORT: String(await freePort()),
    PGLITE_DATA_DIR: path.join(dataDir, "pglite"),
    ...env,
  };
  const child = spawn(path.resolve("node_modules/.bin/remix-serve"), ["build/index.js"], {
    detached: true,
    env: variables as NodeJS.ProcessEnv,
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise<number | "running">((resolve) => {
    const timer = setTimeout(() => {
      process.kill(-child.pid!, "SIGKILL");
      resolve("running");
    }, ms);
    child.once("exit", (exitCode) => (clearTimeout(timer), resolve(exitCode ?? 1)));
  });
  return { code, stderr };
}

describe("the production server's settings", () => {
  const production = {
    SESSION_SECRET: "production-settings-secret-32-chars",
    FIREBASE_PROJECT_ID: "demo-rewards",
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
  };

  it.each([
    ["NODE_ENV=production", { NODE_ENV: "production" }],
    ["NODE_ENV unset (remix-serve makes it production)", {}],
    ["ALLOW_AUTH_EMULATOR_IN_PRODUCTION=false", { NODE_ENV: "production", ALLOW_AUTH_EMULATOR_IN_PRODUCTION: "false" }],
  ])(
    "refuses to start with FIREBASE_AUTH_EMULATOR_HOST and %s, with a message naming the variable and the opt-in for tests",
    async (_case, settings) => {
      const { code, stderr } = await startProduction({ ...production, ...settings });
      expect(code).toBe(1);
      expect(stderr).toContain("FIREBASE_AUTH_EMULATOR_HOST: must not be set in production");
      expect(stderr).toContain("ALLOW_AUTH_EMULATOR_IN_PRODUCTION=true");
      expect(stderr).not.toMatch(/\n\s+at /);
    },
    30_000,
  );
});
