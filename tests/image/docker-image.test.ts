import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startAppServer } from "../../scripts/lib/services.mjs";
import { createScratchDatabase } from "../support/db";
import { emulatorHost } from "../support/emulator";

// There is no Docker engine here, so this test performs what the Dockerfile's stages do:
// a production-only install, the runtime stage's files, started as a non-root user with
// production settings against a Postgres server and the Auth emulator.
const dockerfile = readFileSync("Dockerfile", "utf8");
const runtimeStage = dockerfile.slice(dockerfile.indexOf("AS runtime"));

/**
 * Whether Docker leaves `file` out of the build context under `.dockerignore`'s patterns (Docker's
 * rules: `**` any number of directories, `*` and `?` within one name, `!` keeps, the last match wins,
 * and a pattern that matches a directory leaves out what is in it).
 */
function leftOutOfContext(file: string, patterns: string[]): boolean {
  const toRegExp = (pattern: string) => {
    let source = "";
    const text = pattern.replace(/^\/+|\/+$/g, "");
    for (let index = 0; index < text.length; index++) {
      const char = text[index]!;
      if (char === "*" && text[index + 1] === "*") {
        index += 1;
        if (text[index + 1] === "/") {
          index += 1;
          source += "(?:.*/)?";
        } else source += ".*";
      } else if (char === "*") source += "[^/]*";
      else if (char === "?") source += "[^/]";
      else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
    return new RegExp(`^${source}$`);
  };
  const parts = file.split("/");
  let out = false;
  for (const line of patterns) {
    const keep = line.startsWith("!");
    const pattern = toRegExp(keep ? line.slice(1) : line);
    if (parts.some((_, depth) => pattern.test(parts.slice(0, depth + 1).join("/")))) out = !keep;
  }
  return out;
}

const dockerignore = readFileSync(".dockerignore", "utf8")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"));

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${result.stderr}`);
}

describe("the Docker image, performed without Docker", () => {
  let dir: string;
  let server: { url: string; stop(): Promise<void> } | undefined;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let port: number;

  beforeAll(async () => {
    expect(existsSync("build/index.js"), "npm run build first").toBe(true);
    dir = mkdtempSync(path.join(os.tmpdir(), "image-"));
    // Stage prod-deps: a production-only install from the lockfile.
    cpSync("package.json", path.join(dir, "package.json"));
    cpSync("package-lock.json", path.join(dir, "package-lock.json"));
    run("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"], dir);
    // Stage runtime: each COPY --from=build of the Dockerfile.
    for (const [, source] of runtimeStage.matchAll(/^COPY --from=build \/app\/(\S+) /gm)) {
      cpSync(source!, path.join(dir, source!), { recursive: true });
    }
    if (process.getuid?.() === 0) spawnSync("chmod", ["-R", "a+rX", dir]);
    scratch = await createScratchDatabase();
    port = await freePort();
    server = await startAppServer({
      cwd: dir,
      port,
      // USER node: never root. Here the unprivileged `nobody` stands in when the tests run as root.
      command: process.getuid?.() === 0 ? ["/usr/sbin/runuser", "-u", "nobody", "--"] : [],
      env: {
        NODE_ENV: "production",
        DATABASE_URL: scratch.url,
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
        FIREBASE_PROJECT_ID: "demo-rewards",
        SESSION_SECRET: "image-test-secret-at-least-32-characters",
        PATH: `${path.join(dir, "node_modules/.bin")}:${path.dirname(process.execPath)}:/usr/bin:/bin`,
      },
    });
  }, 240_000);

  // Stopping the server (up to 8 s), dropping its database (up to three 5 s waits) and removing a
  // production install (thousands of files) outlast Vitest's default 60 s when CI's machine is busy.
  afterAll(async () => {
    await server?.stop();
    await Promise.all([scratch?.drop(), dir ? rm(dir, { recursive: true, force: true, maxRetries: 3 }) : undefined]);
  }, 240_000);

  it("is built the way the design says: Node 22 slim, production dependencies, non-root, remix-serve, a health check", () => {
    expect(dockerfile).toMatch(/^FROM node:22\.\d+\.\d+-slim(@sha256:[0-9a-f]{64})? AS base$/m);
    expect(runtimeStage).toMatch(/^COPY --from=prod-deps \/app\/node_modules/m);
    expect(dockerfile).toMatch(/^RUN npm install --omit=dev/m);
    expect(runtimeStage).toMatch(/^USER node$/m);
    expect(runtimeStage).toMatch(/^HEALTHCHECK .*\n?.*\/healthz/m);
    expect(runtimeStage).toMatch(/^CMD \["node_modules\/\.bin\/remix-serve", "build\/index\.js"\]$/m);
    // The operator command is bundled into build/ by `npm run build`, which the build stage runs.
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    expect(runtimeStage).toMatch(/^COPY --from=build \/app\/build \.\/build$/m);
    for (const entry of ["node_modules", ".data", "build"]) expect(dockerignore).toContain(entry);
  });

  it("pins the base image to the exact Node release the tests run on (a digest, when the release step added one, is 64 hex digits)", () => {
    const from = dockerfile.match(/^FROM (\S+) AS base$/m)![1]!;
    const [tag, digest] = from.split("@");
    const devNode = (JSON.parse(readFileSync("package.json", "utf8")) as { devDependencies: Record<string, string> })
      .devDependencies.node!;
    expect(devNode).toMatch(/^22\.\d+\.\d+$/);
    expect(tag).toBe(`node:${devNode}-slim`);
    // Every FROM is that base or a stage of this file: no other image comes in unpinned.
    for (const [, image] of dockerfile.matchAll(/^FROM (\S+)/gm)) expect([from, "base"]).toContain(image);
    if (digest !== undefined) expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("leaves secrets out of the build context at any depth (.env files, private keys, service-account keys) and keeps every committed file", () => {
    for (const entry of ["**/.env*", "**/*.pem", "**/*service-account*.json", "**/*-firebase-adminsdk-*.json"]) {
      expect(dockerignore).toContain(entry);
    }
    for (const secret of [
      ".env",
      ".env.local",
      ".env.production",
      "deploy/.env",
      "key.pem",
      "certs/tls/server.pem",
      "service-account.json",
      "secrets/rewards-service-account-prod.json",
      "rewards-firebase-adminsdk-ab1cd-0123456789.json",
      "config/rewards-firebase-adminsdk-x.json",
      "node_modules/x/index.js",
      ".data/pglite/PG_VERSION",
    ]) {
      expect(leftOutOfContext(secret, dockerignore), secret).toBe(true);
    }
    // What the build needs is all committed (a committed .env.example would be kept by a `!` line).
    const committed = spawnSync("git", ["ls-files"], { encoding: "utf8" }).stdout.trim().split("\n");
    expect(committed).toContain("supabase/migrations/20261122000000_initial_schema.sql");
    expect(committed.filter((file) => leftOutOfContext(file, dockerignore))).toEqual([]);
  });

  it("installs no development dependency", () => {
    for (const devOnly of [
      "@remix-run/dev",
      "vitest",
      "firebase-tools",
      "@playwright/test",
      "tailwindcss",
      "node",
      "esbuild",
    ]) {
      expect(existsSync(path.join(dir, "node_modules", devOnly)), devOnly).toBe(false);
    }
    expect(existsSync(path.join(dir, "node_modules/@remix-run/serve"))).toBe(true);
  });

  it("answers /healthz from Postgres and serves /auth", async () => {
    const health = await fetch(`${server!.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", database: "ok" });
    const auth = await fetch(`${server!.url}/auth`);
    expect(auth.status).toBe(200);
    expect(await auth.text()).toContain("Welcome to Rewards");
  });

  it("passes its own HEALTHCHECK command", () => {
    const command = JSON.parse(runtimeStage.match(/CMD (\["node", "-e", .*\])/)![1]!) as string[];
    const result = spawnSync(command[0]!, command.slice(1), { env: { ...process.env, PORT: String(port) } });
    expect(result.status).toBe(0);
  });

  it("runs the operator command from the image: node build/payouts.js list, and send without PayPal says so", () => {
    // `docker exec <container> node build/payouts.js ...`: the image's files, user and environment.
    const operator = (...args: string[]) =>
      spawnSync(
        ...((process.getuid?.() === 0
          ? ["/usr/sbin/runuser", ["-u", "nobody", "--", process.execPath, "build/payouts.js", ...args]]
          : [process.execPath, ["build/payouts.js", ...args]]) as [string, string[]]),
        {
          cwd: dir,
          encoding: "utf8",
          env: {
            PATH: process.env.PATH,
            NODE_ENV: "production",
            DATABASE_URL: scratch.url,
            FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
            SESSION_SECRET: "image-test-secret-at-least-32-characters",
          },
        },
      );
    const list = operator("list", "--json");
    expect(list.stderr).toBe("");
    expect(list.status).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
    const send = operator("send", "--all");
    expect(send.status).toBe(1);
    expect(send.stderr).toBe("error: PayPal is not configured: set PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET\n");
  });

  it("applies the migrations as a step of its own: node build/migrate.js, as the image's user with only DATABASE_URL, lists what it applied and then has nothing to do", async () => {
    const fresh = await createScratchDatabase();
    try {
      // `docker run --rm -e DATABASE_URL=... <image> node build/migrate.js`: no session secret, no Firebase.
      const migrate = () =>
        spawnSync(
          ...((process.getuid?.() === 0
            ? ["/usr/sbin/runuser", ["-u", "nobody", "--", process.execPath, "build/migrate.js"]]
            : [process.execPath, ["build/migrate.js"]]) as [string, string[]]),
          {
            cwd: dir,
            encoding: "utf8",
            env: { PATH: process.env.PATH, NODE_ENV: "production", DATABASE_URL: fresh.url },
          },
        );
      const files = readdirSync(path.join(dir, "supabase/migrations")).filter((file) => file.endsWith(".sql"));
      const first = migrate();
      expect(first.stderr).toBe("");
      expect(first.status).toBe(0);
      const [heading, ...listed] = first.stdout.trim().split("\n");
      expect(heading).toMatch(new RegExp(`^Applied ${files.length} of ${files.length} migrations to Postgres at `));
      expect(listed.map((line) => `${line.trim()}.sql`)).toEqual(files.sort());
      const second = migrate();
      expect(second.status).toBe(0);
      expect(second.stdout).toMatch(new RegExp(`^Nothing to apply: .* has all ${files.length} migrations\\.\n$`));
    } finally {
      await fresh.drop();
    }
  });

  it("stops at start with a message naming a missing variable", async () => {
    const child = spawn(path.join(dir, "node_modules/.bin/remix-serve"), ["build/index.js"], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
        PORT: String(await freePort()),
      },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).not.toBe(0);
    expect(stderr).toContain("SESSION_SECRET");
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
