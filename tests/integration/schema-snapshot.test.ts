import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase } from "~/server/db/migrations.server";
import { schemaSnapshot } from "~/server/db/schema-snapshot.server";
import { MIGRATIONS_DIR } from "../support/db";

// supabase/schema/ is what people read to find a rule's current SQL: it must be what the migrations
// make today. After a new migration, `npm run db:snapshot` writes it again.
const SCHEMA_DIR = path.resolve("supabase/schema");

function committedFiles(dir = SCHEMA_DIR): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      for (const [inner, text] of committedFiles(file)) files.set(`${name}/${inner}`, text);
    } else files.set(name, readFileSync(file, "utf8"));
  }
  return files;
}

describe("supabase/schema/, the current SQL in one place", () => {
  let pglite: PGlite;
  let snapshot: Map<string, string>;
  beforeAll(async () => {
    pglite = await PGlite.create();
    await migrateDatabase({ pglite }, MIGRATIONS_DIR);
    snapshot = await schemaSnapshot(pglite);
  });
  afterAll(async () => {
    await pglite?.close();
  });

  it("has one file for every function and table the migrations make, and no other (else: npm run db:snapshot)", () => {
    expect([...committedFiles().keys()].sort()).toEqual([...snapshot.keys()].sort());
    expect(snapshot.has("functions/create_withdrawal.sql")).toBe(true);
    expect(snapshot.has("tables/withdrawals.sql")).toBe(true);
  });

  it("holds each one as the migrations define it today (else: npm run db:snapshot)", () => {
    const committed = committedFiles();
    const stale = [...snapshot].filter(([file, text]) => committed.get(file) !== text).map(([file]) => file);
    expect(stale).toEqual([]);
  });

  it("shows the newest definition of a function that migrations replaced", () => {
    // complete_task was written in four migrations; the last one added p_pay_own_tasks.
    expect(snapshot.get("functions/complete_task.sql")).toContain("p_pay_own_tasks boolean DEFAULT true");
  });
});
