import path from "node:path";
import { defineConfig } from "vitest/config";

// Integration files that need the running services of `npm test`: a Postgres server
// (TEST_DATABASE_URL) or the Auth emulator. The other integration files need only PGlite and
// the local stand-ins, so `npm run test:db` runs them with nothing started. A file left off this
// list that needs Postgres fails in `test:db` with "TEST_DATABASE_URL is not set".
export const INTEGRATION_WITH_SERVICES = [
  "checkin-streak",
  "concurrency",
  "dashboard-counts",
  "featured-offers",
  "database",
  "identity",
  "live-events",
  "money-races",
  "notification-delivery",
  "postgres-pool",
  "postgrest-stand-in",
  "privileges",
  "profile",
  "query-plans",
  "rate-limit",
  "read-together",
  "referral-cleared",
  "referrals",
  "risk-review",
  "supabase-transport",
].map((name) => `tests/integration/${name}.test.ts`);

export default defineConfig({
  resolve: { alias: { "~": path.resolve("app") } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are large; two workers fit the machine's two cores. `npm test` runs three
    // (scripts/test.mjs sets VITEST_MAX_WORKERS): its HTTP files partly wait on the running server.
    // Set here, not by `--maxWorkers` on the command line: the projects below take the count of
    // this config, and the flag left them at two (no more than two files ever ran at once).
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
    // Together the projects hold every file of tests/{unit,integration,http,image,resilience}, each
    // file in one project; `npm test` (scripts/test.mjs) runs them by folder or file.
    projects: [
      // No service, no database: `npm run test:unit`, `npm run test:watch`.
      // Files share their worker's modules (isolate: false): unit tests hold no state between files,
      // and importing the app's modules once per worker rather than once per file cuts the run from
      // about 12 s to 5 s.
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.{ts,tsx}"], isolate: false } },
      // PGlite and local stand-ins only: `npm run test:db`.
      {
        extends: true,
        test: {
          name: "db",
          include: ["tests/integration/**/*.test.{ts,tsx}"],
          exclude: INTEGRATION_WITH_SERVICES,
        },
      },
      // The running services of `npm test` (the Auth emulator, Postgres, the production server).
      {
        extends: true,
        test: {
          name: "services",
          include: [...INTEGRATION_WITH_SERVICES, "tests/{http,image,resilience}/**/*.test.{ts,tsx}"],
        },
      },
    ],
  },
});
