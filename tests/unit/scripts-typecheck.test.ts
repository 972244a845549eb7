import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The scripts run the tests, the benchmark and `npm run dev`; `npx tsc` checks them like the app.
function mjsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return mjsFiles(file);
    return name.endsWith(".mjs") ? [file] : [];
  });
}

const tsconfig = JSON.parse(readFileSync("tsconfig.json", "utf8")) as {
  include: string[];
  compilerOptions: { allowJs?: boolean; checkJs?: boolean };
};
const knip = JSON.parse(readFileSync("knip.json", "utf8")) as { entry: string[] };

describe("the .mjs scripts are type-checked", () => {
  const scripts = mjsFiles("scripts");

  it("finds the scripts", () => {
    expect(scripts).toContain(path.join("scripts", "test.mjs"));
  });

  it("every scripts/**/*.mjs starts with // @ts-check", () => {
    expect(scripts.filter((file) => !readFileSync(file, "utf8").startsWith("// @ts-check\n"))).toEqual([]);
  });

  it("tsconfig.json includes scripts/**/*.mjs and checks JavaScript", () => {
    expect(tsconfig.include).toContain("scripts/**/*.mjs");
    expect(tsconfig.compilerOptions).toMatchObject({ allowJs: true, checkJs: true });
  });

  it("knip's entries are files that exist, named one by one (no glob)", () => {
    expect(knip.entry.filter((entry) => /[*?{]/.test(entry) || !existsSync(entry))).toEqual([]);
  });
});
