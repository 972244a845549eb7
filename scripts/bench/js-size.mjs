// Measures the JavaScript shipped on /auth (on load, and after "Continue with Google" is pressed,
// which downloads the Firebase web SDK), then on / (Home) and /earn for a signed-in person, each
// loaded fresh, then the other signed-in pages. Prints transferred (compressed) and decoded sizes.
// Usage: npm run build && npm run bench:js
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../lib/chromium.mjs";
import { freePort, startAppServer, startAuthEmulator } from "../lib/services.mjs";

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
  const scripts = [];
  page.on("requestfinished", async (request) => {
    if (request.resourceType() !== "script") return;
    const response = await request.response();
    const sizes = await request.sizes();
    const body = await response?.body().catch(() => null);
    scripts.push({ url: request.url(), transferred: sizes.responseBodySize, decoded: body?.length ?? 0 });
  });
  await page.goto(`${app.url}/auth`, { waitUntil: "networkidle" });
  const before = summarize(scripts);
  const popup = page.waitForEvent("popup", { timeout: 15_000 }).catch(() => null);
  await page.getByRole("button", { name: "Continue with Google" }).click();
  (await popup)?.close();
  await page.waitForLoadState("networkidle");
  const after = summarize(scripts.filter((script) => script.url.startsWith(app.url)));
  console.log(
    `/auth on load:          ${before.count} scripts, ${kb(before.transferred)} KB transferred (gzip), ${kb(before.decoded)} KB decoded`,
  );
  console.log(
    `after Google is pressed: ${after.count} scripts, ${kb(after.transferred)} KB transferred (gzip), ${kb(after.decoded)} KB decoded`,
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
  await signUp.close();
  const cookies = await context.cookies();
  for (const pathname of ["/", "/earn", "/leaderboard", "/withdraw", "/referral", "/profile"]) {
    // A new context per page: nothing comes from the browser cache.
    const freshContext = await browser.newContext();
    await freshContext.addCookies(cookies);
    const fresh = await freshContext.newPage();
    const list = [];
    fresh.on("requestfinished", async (request) => {
      if (request.resourceType() !== "script") return;
      const sizes = await request.sizes();
      const body = await (await request.response())?.body().catch(() => null);
      list.push({ url: request.url(), transferred: sizes.responseBodySize, decoded: body?.length ?? 0 });
    });
    await fresh.goto(`${app.url}${pathname}`, { waitUntil: "networkidle" });
    const total = summarize(list);
    console.log(
      `${pathname.padEnd(23)} ${total.count} scripts, ${kb(total.transferred)} KB transferred (gzip), ${kb(total.decoded)} KB decoded`,
    );
    await freshContext.close();
  }
} finally {
  await browser.close();
  await app.stop();
  await emulator.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

function summarize(list) {
  return list.reduce(
    (sum, script) => ({
      count: sum.count + 1,
      transferred: sum.transferred + script.transferred,
      decoded: sum.decoded + script.decoded,
    }),
    { count: 0, transferred: 0, decoded: 0 },
  );
}
function kb(bytes) {
  return (bytes / 1024).toFixed(1);
}
