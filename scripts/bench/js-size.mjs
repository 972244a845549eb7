// @ts-check
// The JavaScript a page downloads before anyone touches it: each page loaded fresh (a new browser
// context, so nothing comes from the cache) until the network is idle, its scripts summed as
// transferred (Brotli, the build's precompressed copies), decoded, and as gzip alone would send them. `npm run bench` runs benchJavascript (its `js` part); run on its own
// (`npm run build && npm run bench:js`) this also shows what pressing "Continue with Google" on
// /auth adds (the Firebase web SDK, loaded only then).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../lib/chromium.mjs";
import { freePort, startAppServer, startAuthEmulator } from "../lib/services.mjs";
import { BUDGETS, JAVASCRIPT_PAGES } from "./budgets.ts";
import { figureOf } from "./context.mjs";

/** @typedef {{ url: string, transferred: number, decoded: number, gzip: number, kind: string }} Script */

/**
 * What a built file holds, where its hashed name does not say: the framework (React DOM, the
 * Remix router) and the Firebase SDK are told by strings their minified code keeps.
 * @param {string} text
 */
function scriptKind(text) {
  if (text.includes("Minified React error")) return "framework: React DOM, the Remix router";
  if (text.includes("@firebase/")) return "Firebase";
  return "";
}

/**
 * Records the scripts a page requests; `summary()` adds them up.
 * @param {import("@playwright/test").Page} page
 */
function recordScripts(page) {
  /** @type {Promise<Script>[]} */
  const pending = [];
  page.on("requestfinished", (request) => {
    if (request.resourceType() !== "script") return;
    pending.push(
      (async () => {
        const sizes = await request.sizes();
        const body = await (await request.response())?.body().catch(() => null);
        return {
          url: request.url(),
          transferred: sizes.responseBodySize,
          decoded: body?.length ?? 0,
          // What gzip alone would have sent (figures before issue 35 were gzip), for comparison.
          gzip: body ? gzipSync(body, { level: 9 }).length : 0,
          kind: body ? scriptKind(body.toString("utf8")) : "",
        };
      })(),
    );
  });
  return {
    async summary(/** @type {(script: Script) => boolean} */ filter = () => true) {
      const scripts = (await Promise.all(pending)).filter(filter);
      return {
        count: scripts.length,
        transferred: scripts.reduce((sum, script) => sum + script.transferred, 0),
        decoded: scripts.reduce((sum, script) => sum + script.decoded, 0),
        gzip: scripts.reduce((sum, script) => sum + script.gzip, 0),
        scripts,
      };
    },
  };
}

/**
 * Loads each page in a fresh context of `browser` (with `cookies`, for the signed-in ones) and
 * sums the scripts it downloaded by the time the network was idle.
 * @param {import("@playwright/test").Browser} browser
 * @param {{ baseUrl: string, pages: { path: string, cookies?: Parameters<import("@playwright/test").BrowserContext["addCookies"]>[0] }[] }} options
 */
export async function measurePageScripts(browser, { baseUrl, pages }) {
  const results = [];
  for (const { path: pathname, cookies = [] } of pages) {
    const context = await browser.newContext();
    try {
      await context.addCookies(cookies);
      const page = await context.newPage();
      const recorder = recordScripts(page);
      const response = await page.goto(baseUrl + pathname, { waitUntil: "networkidle" });
      if (new URL(page.url()).pathname !== pathname || response?.status() !== 200) {
        throw new Error(`${pathname} ended on ${page.url()} with ${response?.status()} (not signed in?)`);
      }
      const { scripts, ...total } = await recorder.summary();
      results.push({
        path: pathname,
        ...total,
        files: scripts
          .map((script) => ({ file: new URL(script.url).pathname, kb: script.transferred / 1024, kind: script.kind }))
          .sort((a, b) => b.kb - a.kb),
      });
    } finally {
      await context.close();
    }
  }
  return results;
}

/** @param {number} bytes */
export function kb(bytes) {
  return (bytes / 1024).toFixed(1);
}

/**
 * The `js` part: each of JAVASCRIPT_PAGES on `app`, /auth signed out and the others signed in.
 * @param {import("./context.mjs").Bench} bench
 * @param {import("./context.mjs").App} app
 * @param {import("./context.mjs").Cookies} cookies
 */
export async function benchJavascript({ part, figures, details, log }, app, cookies) {
  const group = "JavaScript before any interaction (transferred: Brotli, which the browser takes)";
  /** @returns {import("./context.mjs").Unmeasured[]} */
  const unmeasured = () =>
    JAVASCRIPT_PAGES.map((page) => ({
      group,
      label: page,
      unit: "KB",
      budget: { limit: BUDGETS.javascriptKb, kind: "max" },
    }));
  await part("JavaScript per page", unmeasured, async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const pages = JAVASCRIPT_PAGES.map((page) => ({
        path: page,
        // /auth as a visitor who is not signed in; every other page signed in.
        cookies: page === "/auth" ? [] : cookies.list,
      }));
      const results = await measurePageScripts(browser, { baseUrl: app.url, pages });
      details.javascript = results;
      for (const result of results) {
        // Each page's scripts, largest first: what a change added shows at once.
        log(`  ${result.path}: ${result.count} scripts, ${kb(result.transferred)} KB`);
        for (const file of result.files)
          log(`    ${file.kb.toFixed(2).padStart(6)} KB  ${file.file}${file.kind ? `  (${file.kind})` : ""}`);
        figures.push({
          ...figureOf(unmeasured, result.path),
          value: result.transferred / 1024,
          detail: `${result.count} scripts, ${kb(result.decoded)} KB decoded, ${kb(result.gzip)} KB as gzip`,
        });
      }
    } finally {
      await browser.close();
    }
  });
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-"));
  const emulator = await startAuthEmulator({ port: await freePort(), quiet: true });
  const app = await startAppServer({
    port: await freePort(),
    env: {
      NODE_ENV: "production",
      SESSION_SECRET: "benchmark-secret-of-at-least-32-chars",
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      PGLITE_DATA_DIR: path.join(dataDir, "pglite"),
    },
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const recorder = recordScripts(page);
    await page.goto(`${app.url}/auth`, { waitUntil: "networkidle" });
    const before = await recorder.summary();
    const popup = page.waitForEvent("popup", { timeout: 15_000 }).catch(() => null);
    await page.getByRole("button", { name: "Continue with Google" }).click();
    (await popup)?.close();
    await page.waitForLoadState("networkidle");
    const after = await recorder.summary((script) => script.url.startsWith(app.url));
    console.log(
      `/auth on load:          ${before.count} scripts, ${kb(before.transferred)} KB transferred, ${kb(before.decoded)} KB decoded`,
    );
    console.log(
      `after Google is pressed: ${after.count} scripts, ${kb(after.transferred)} KB transferred, ${kb(after.decoded)} KB decoded`,
    );
    console.log(
      `Google sign-in adds:     ${kb(after.transferred - before.transferred)} KB transferred, ${kb(after.decoded - before.decoded)} KB decoded`,
    );

    const context = await browser.newContext();
    await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: app.url }]);
    const signUp = await context.newPage();
    await signUp.goto(`${app.url}/auth?tab=signup`);
    await signUp.getByPlaceholder("Enter your email").fill(`bench.${Date.now()}@example.com`);
    await signUp.getByPlaceholder("Enter your password").fill("bench-pass-1");
    await signUp.getByRole("button", { name: "Create Account" }).click();
    await signUp.waitForURL(`${app.url}/`);
    const cookies = await context.cookies();
    await context.close();
    const pages = ["/", "/earn", "/leaderboard", "/withdraw", "/referral", "/profile", "/levels"].map((pathname) => ({
      path: pathname,
      cookies,
    }));
    for (const total of await measurePageScripts(browser, { baseUrl: app.url, pages })) {
      console.log(
        `${total.path.padEnd(23)} ${total.count} scripts, ${kb(total.transferred)} KB transferred, ${kb(total.decoded)} KB decoded`,
      );
    }
  } finally {
    await browser.close();
    await app.stop();
    await emulator.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
