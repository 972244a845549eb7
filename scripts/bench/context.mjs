// @ts-check
// What scripts/bench/run.mjs hands each part of `npm run bench`: the run's context (settings, log,
// part(), figures, details, cleanups, work directory), and the servers and databases the parts share
// (startShared): the Auth emulator with the signed-in person, the Postgres server, the seeded
// 10,000-user databases on PGlite and Postgres, an app server on one of them (withApp), a database
// of its own for a part, and the database at scale that risk, console and the throughput at scale
// read, seeded once for all three.
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openPglite, openPostgres } from "../lib/database.mjs";
import { freePort, startAppServer, startAuthEmulator, startPostgres } from "../lib/services.mjs";
import { createAccount, signIn } from "./account.mjs";
import { seedRisk } from "./risk.mjs";
import { leaderboardPlace, seed } from "./seed.mjs";

/** @typedef {Omit<import("./budgets.ts").Figure, "value">} Unmeasured a figure before it is measured */

/**
 * The sizes and loads of the run, from the command line (scripts/bench/run.mjs).
 * @typedef {object} Settings
 * @property {number} users the 10,000-user databases' people
 * @property {number} ledgerRows ... and their ledger rows
 * @property {number} leaderboardUsers
 * @property {number} riskUsers the database at scale's people
 * @property {number} riskLedgerRows ... and its ledger rows
 * @property {number} lighthouseRuns
 * @property {{ connections: number, seconds: number, rounds: number }} throughput
 * @property {number} scaleThroughputRounds
 * @property {{ connections: number, seconds: number, rounds: number }} pooler
 * @property {{ connections: number, seconds: number }} ingest
 */

/**
 * What every part is handed.
 * @typedef {object} Bench
 * @property {Settings} settings
 * @property {(part: string) => boolean} wants whether the run measures that part (--only)
 * @property {(line: string) => void} log a line with the seconds since the start
 * @property {(name: string, unmeasured: () => Unmeasured[], work: () => Promise<void>) => Promise<void>} part
 *   a part of the run; if `work` throws, `unmeasured()` is recorded unmeasured (and fails) and the rest goes on
 * @property {import("./budgets.ts").Figure[]} figures the table, in order
 * @property {Record<string, any>} details what bench-results.json keeps beside the figures: each part's raw results
 * @property {(() => Promise<unknown>)[]} cleanups what stops the servers at the end or on Ctrl-C
 * @property {string} workDir removed at the end
 */

/** @typedef {Awaited<ReturnType<typeof startAppServer>>} App */
/** @typedef {Awaited<ReturnType<typeof signIn>>} Cookies */
/** @typedef {Awaited<ReturnType<typeof startShared>>} Shared */

/**
 * The figure of `unmeasured`'s list with this label.
 * @param {() => Unmeasured[]} unmeasured
 * @param {string} label
 */
export function figureOf(unmeasured, label) {
  const figure = unmeasured().find((candidate) => candidate.label === label);
  if (!figure) throw new Error(`no figure "${label}"`);
  return figure;
}

/**
 * Starts what the wanted parts share (the Auth emulator when an app server runs, the Postgres
 * server when a part reads Postgres) and seeds the 10,000-user databases; `cleanups` stops them.
 * @param {Bench} bench
 * @param {{ needsApp: boolean }} options whether any part starts the production build
 */
export async function startShared({ settings, wants, log, details, cleanups, workDir }, { needsApp }) {
  log("▶ starting the Auth emulator and a Postgres server");
  const [emulator, postgres] = await Promise.all([
    needsApp ? startAuthEmulator({ port: await freePort(), quiet: true }) : null,
    wants("throughput") ||
    wants("leaderboard") ||
    wants("risk") ||
    wants("rewards") ||
    wants("console") ||
    wants("ingest") ||
    wants("pooler") ||
    wants("payouts")
      ? startPostgres()
      : null,
  ]);
  if (emulator) cleanups.push(emulator.stop);
  if (postgres) cleanups.push(postgres.stop);

  const { users, ledgerRows } = settings;
  const person = emulator ? await createAccount(emulator.host) : null;
  /** The signed-in person, made whenever an app server runs. */
  const account = () => {
    if (!person) throw new Error("no account: the Auth emulator was not started");
    return person;
  };
  /** The Postgres server, started for the parts that use it. */
  const server = () => {
    if (!postgres) throw new Error("no Postgres server was started");
    return postgres;
  };
  /** A new database `name` on the Postgres server, for a part that wants its data apart: its URL. */
  const databaseOfItsOwn = async (/** @type {string} */ name) => {
    const admin = new pg.Client({ connectionString: server().url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(server().url);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const pgliteDir = path.join(workDir, "pglite");
  if (wants("js") || wants("throughput") || wants("lighthouse") || wants("pooler")) {
    log(`▶ seeding ${users.toLocaleString("en")} users and ${ledgerRows.toLocaleString("en")} ledger rows`);
    /** @param {() => Promise<import("../lib/database.mjs").BenchDatabase>} open */
    const seedInto = async (open) => {
      const db = await open();
      try {
        const counts = await seed(db, { users, ledgerRows, person: account() });
        const place = await leaderboardPlace(db, account());
        log(`  ${db.name}: seeded in ${counts.seconds.toFixed(1)} s, ledger audit clean, the person ranked ${place}`);
        return { database: db.name, ...counts, place };
      } finally {
        await db.close();
      }
    };
    details.seed = await Promise.all([
      seedInto(() => openPglite(pgliteDir)),
      wants("throughput") || wants("pooler") ? seedInto(() => openPostgres(server().url)) : null,
    ]);
  }

  const appEnv = {
    NODE_ENV: "production",
    SESSION_SECRET: "benchmark-secret-of-at-least-32-chars",
    FIREBASE_AUTH_EMULATOR_HOST: emulator?.host ?? "",
    // Sized as docs/configuration.md says, about twice the database server's cores: that server
    // is this machine's (PGlite has one connection and ignores it).
    DATABASE_POOL_SIZE: String(2 * os.availableParallelism()),
  };
  /**
   * Runs `work` against a production server on `env`'s database, signed in as the person; what the
   * server wrote to stderr is shown afterwards (but its "notifications: no push/email" warnings).
   * @param {string} database
   * @param {Record<string, string>} env
   * @param {(app: App, cookies: Cookies) => Promise<void>} work
   */
  const withApp = async (database, env, work) => {
    const app = await startAppServer({ port: await freePort(), env: { ...appEnv, ...env } });
    cleanups.push(app.stop);
    try {
      const cookies = await signIn(app.url, account());
      await work(app, cookies);
    } finally {
      cleanups.splice(cleanups.indexOf(app.stop), 1);
      await app.stop();
      const errors = app
        .stderr()
        .split("\n")
        .filter((line) => line && !line.startsWith("notifications: no "));
      if (errors.length > 0) log(`  the ${database} server wrote to stderr:\n${errors.slice(0, 20).join("\n")}`);
    }
  };

  const { riskUsers, riskLedgerRows } = settings;
  const scale = `${riskUsers.toLocaleString("en")} users and ${riskLedgerRows.toLocaleString("en")} ledger rows`;
  /** @type {{ url: string, seeded: Awaited<ReturnType<typeof seedRisk>> } | null} */
  let bigDatabase = null;
  /** The risk, console and throughput at scale parts' database, seeded once for all (scripts/bench/risk.mjs). */
  const seededAtScale = async () => {
    if (!bigDatabase) {
      const url = await databaseOfItsOwn("scale");
      const db = await openPostgres(url);
      try {
        log(`  seeding ${scale}`);
        bigDatabase = { url, seeded: await seedRisk(db, riskUsers, riskLedgerRows) };
        log(`  seeded in ${bigDatabase.seeded.seedSeconds.toFixed(0)} s`);
      } finally {
        await db.close();
      }
    }
    return bigDatabase;
  };

  return { account, server, databaseOfItsOwn, pgliteDir, appEnv, withApp, scale, seededAtScale };
}
