// @ts-check
// Bundles the operator commands (scripts/payouts.ts, scripts/walls.ts, scripts/operator.ts,
// scripts/migrate.ts, scripts/db-snapshot.ts and the server modules they import) into
// build/payouts.js, build/walls.js, build/operator.js, build/migrate.js and build/db-snapshot.js,
// next to the server build, so the Docker image has them. Packages stay imports from node_modules
// (the image installs the production dependencies); `~/` resolves through tsconfig.json's paths, as
// in the app.
import { build } from "esbuild";

// esbuild's own `packages: "external"` (0.17) takes `~/server/...` for a package before it reads
// tsconfig paths, so bare imports are marked external here instead.
/** @type {import("esbuild").Plugin} */
const packagesExternal = {
  name: "packages-external",
  setup(builder) {
    builder.onResolve({ filter: /^[^./~]/ }, (args) =>
      args.kind === "entry-point" ? undefined : { path: args.path, external: true },
    );
  },
};

const started = Date.now();
await build({
  entryPoints: [
    "scripts/payouts.ts",
    "scripts/walls.ts",
    "scripts/operator.ts",
    "scripts/migrate.ts",
    "scripts/db-snapshot.ts",
  ],
  outdir: "build",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  plugins: [packagesExternal],
  tsconfig: "tsconfig.json",
  sourcemap: true,
  logLevel: "warning",
});
console.log(
  `operator commands built: build/payouts.js, build/walls.js, build/operator.js, build/migrate.js, build/db-snapshot.js (${Date.now() - started} ms)`,
);
