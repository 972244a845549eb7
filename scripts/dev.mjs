// @ts-check
// `npm run dev`: the app on embedded defaults, on http://localhost:3000, rebuilt on change.
// Three things start side by side, since none needs another to begin: the Firebase Auth emulator
// (unless FIREBASE_AUTH_EMULATOR_HOST names one; about 15 s, at a lower CPU priority), the embedded database (PGlite
// opened and migrated here, then closed; a few seconds on a new checkout) and `remix dev` (the
// build). remix dev's app server (scripts/dev-serve.mjs) waits for the database, whose data
// directory belongs to one process at a time, then serves; pages that need no sign-in answer
// while the emulator is still starting.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPglite } from "./lib/database.mjs";
import { startAuthEmulator } from "./lib/services.mjs";

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const port = process.env.PORT ?? "3000";

const emulatorPort = Number(process.env.DEV_AUTH_EMULATOR_PORT ?? 9099);
const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST || `127.0.0.1:${emulatorPort}`;
const emulator = process.env.FIREBASE_AUTH_EMULATOR_HOST
  ? Promise.resolve({ host: emulatorHost, stop: async () => {} })
  : startAuthEmulator({ port: emulatorPort, priority: 10 });

// The app's own choice of database (app/server/runtime/env.server.ts): PGlite unless a server is named.
const pgliteDir =
  process.env.DATABASE_URL || process.env.SUPABASE_URL ? null : process.env.PGLITE_DATA_DIR || ".data/pglite";
const signals = mkdtempSync(path.join(os.tmpdir(), "rewards-dev-"));
const databaseReady = path.join(signals, "database-ready");
const database = (async () => {
  if (pgliteDir && !pgliteDir.startsWith("memory://")) {
    const db = await openPglite(pgliteDir);
    // Demo settings (docs/money-policy.md): no hold, bonus money unlocked, first cash-outs not
    // reviewed, so every flow works without an offer network. DEMO_SETTINGS=off puts the strict
    // production defaults back.
    const settings = process.env.DEMO_SETTINGS === "off" ? "apply_production_settings" : "apply_demo_settings";
    await db.query(`select ${settings}()`);
    await db.close();
  }
  writeFileSync(databaseReady, "");
})();

const remix = spawn("remix", ["dev", "--manual", "--command", "node scripts/dev-serve.mjs"], {
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "development",
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    PORT: port,
    VITE_CJS_IGNORE_WARNING: "true",
    DEV_DATABASE_READY_FILE: databaseReady,
  },
});

let stopping = false;
/** @param {number} code */
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  remix.kill("SIGTERM");
  await (await emulator.catch(() => null))?.stop();
  rmSync(signals, { recursive: true, force: true });
  process.exit(code);
}
remix.once("exit", (code) => shutdown(code ?? 0));
process.once("SIGINT", () => shutdown(0));
process.once("SIGTERM", () => shutdown(0));

try {
  await Promise.all([
    database.then(() => console.log(`database ready (${elapsed()})`)),
    emulator.then(() => console.log(`Auth emulator ready on ${emulatorHost} (${elapsed()})`)),
  ]);
  console.log(`Everything is up: http://localhost:${port} (${elapsed()})`);
} catch (error) {
  console.error("npm run dev could not start:", error);
  await shutdown(1);
}
