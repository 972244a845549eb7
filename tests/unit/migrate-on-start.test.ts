import { describe, expect, it } from "vitest";
import { parseEnv } from "~/server/runtime/env.server";

describe("MIGRATE_ON_START", () => {
  const base = {
    NODE_ENV: "development",
    FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
    DATABASE_URL: "postgres://db.example/app",
  };

  it("is on unless set: a server applies the migrations when it starts, as before", () => {
    expect(parseEnv(base).migrateOnStart).toBe(true);
    expect(parseEnv({ ...base, MIGRATE_ON_START: "" }).migrateOnStart).toBe(true);
    expect(parseEnv({ ...base, MIGRATE_ON_START: "true" }).migrateOnStart).toBe(true);
    expect(parseEnv({ ...base, MIGRATE_ON_START: "1" }).migrateOnStart).toBe(true);
  });

  it("false or 0 leaves the migrations to npm run migrate", () => {
    expect(parseEnv({ ...base, MIGRATE_ON_START: "false" }).migrateOnStart).toBe(false);
    expect(parseEnv({ ...base, MIGRATE_ON_START: " 0 " }).migrateOnStart).toBe(false);
  });

  it("refuses any other value, naming the variable", () => {
    expect(() => parseEnv({ ...base, MIGRATE_ON_START: "no" })).toThrow(/MIGRATE_ON_START: must be true or false/);
  });
});
