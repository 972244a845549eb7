import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve("app") } },
  test: {
    include: ["tests/{unit,integration,http,image,resilience}/**/*.test.{ts,tsx}"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are large; two workers fit the machine's two cores.
    maxWorkers: 2,
  },
});
