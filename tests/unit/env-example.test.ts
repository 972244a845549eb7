import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLE_NAMES } from "~/server/runtime/env.server";

// .env.example is where a newcomer finds every variable: it must name exactly what the app reads.
const READ_BY_REMIX_SERVE = ["PORT", "HOST"];

describe(".env.example", () => {
  const listed = [...readFileSync(".env.example", "utf8").matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map(
    (match) => match[1]!,
  );

  it("lists every variable of the app's environment schema once, and no other", () => {
    expect([...listed].sort()).toEqual([...ENV_VARIABLE_NAMES, ...READ_BY_REMIX_SERVE].sort());
  });

  it("marks the variables that are for tests only", () => {
    const text = readFileSync(".env.example", "utf8");
    for (const name of ["ALLOW_AUTH_EMULATOR_IN_PRODUCTION", "PAYPAL_API_URL", "FCM_API_URL"]) {
      const before = text.slice(0, text.indexOf(`# ${name}=`));
      expect(before.slice(before.lastIndexOf("\n# ---")), name).toMatch(/tests only/);
    }
  });
});
