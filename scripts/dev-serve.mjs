// The app server of `npm run dev` (remix dev's --command): remix-serve, started once scripts/dev.mjs
// has the database ready (it prepares the embedded one while remix dev builds).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";

const ready = process.env.DEV_DATABASE_READY_FILE;
while (ready && !existsSync(ready)) await new Promise((resolve) => setTimeout(resolve, 50));

const server = spawn("remix-serve", ["build/index.js"], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.once("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
