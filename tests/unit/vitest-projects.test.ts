import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { INTEGRATION_WITH_SERVICES } from "../../vitest.config";

// `npm run test:db` runs the integration files that need only PGlite; a file that opens a Postgres
// server or signs up through the Auth emulator must be listed in vitest.config.ts instead, or
// test:db fails on it with "TEST_DATABASE_URL is not set".
const NEEDS_SERVICES =
  /\b(openTestPostgres|createScratchDatabase|createMigratedDatabase|testPostgresUrl|startPostgresApp|signUpDirect)\b/;

describe("vitest projects", () => {
  it("lists every integration file that needs Postgres or the Auth emulator in INTEGRATION_WITH_SERVICES, and no other", () => {
    const needing = readdirSync("tests/integration")
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => `tests/integration/${name}`)
      .filter((file) => NEEDS_SERVICES.test(readFileSync(file, "utf8")));
    expect([...INTEGRATION_WITH_SERVICES].sort()).toEqual(needing.sort());
  });
});
