// @ts-check
// The app server of `npm run dev` (remix dev's --command): remix-serve, started once scripts/dev.mjs
// has the database ready (it prepares the embedded one while remix dev builds).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";

const ready = process.env.DEV_DATABASE_READY_FILE;
while (ready && !existsSync(ready)) await new Promise((resolve) => setTimeout(resolve, 50));

const server = spawn("remix-serve", ["build/index.js"], { stdio: "inherit" });
server.once("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
// In development remix-serve watches the build and never exits on a signal by itself: it gets
// the signal (closing the database), then a moment later the end.
let stopping = false;
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.on(signal, () => {
    if (stopping) return void server.kill("SIGKILL");
    stopping = true;
    server.kill(signal);
    setTimeout(() => server.kill("SIGKILL"), 3_000).unref();
  });
}
