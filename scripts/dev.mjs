// `npm run dev`: the app on embedded defaults. Starts the Firebase Auth emulator (unless one is
// already listening), then `remix dev`, which rebuilds on change and serves on http://localhost:3000.
import { spawn } from "node:child_process";
import { startAuthEmulator } from "./lib/services.mjs";

const emulator = process.env.FIREBASE_AUTH_EMULATOR_HOST
  ? { host: process.env.FIREBASE_AUTH_EMULATOR_HOST, stop: async () => {} }
  : await startAuthEmulator({ port: 9099 });

const remix = spawn("remix", ["dev", "--manual"], {
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "development",
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    PORT: process.env.PORT ?? "3000",
    VITE_CJS_IGNORE_WARNING: "true",
  },
});

let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  remix.kill("SIGTERM");
  await emulator.stop();
  process.exit(code);
}
remix.once("exit", (code) => shutdown(code ?? 0));
process.once("SIGINT", () => shutdown(0));
process.once("SIGTERM", () => shutdown(0));
