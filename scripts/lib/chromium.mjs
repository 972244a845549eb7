// @ts-check
// Debian's Chromium, as the tests and benchmarks launch it (Playwright cannot download its own
// browsers here). Without the background-networking flags Chromium floods the closed network.
import { existsSync } from "node:fs";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`: the same engine and version
 * without the browser around it, what Playwright itself runs headless tests in), where the browser
 * tests run: a context, a sign-up and two pages took 1.5 s there against 3 to 4 s in the full
 * browser's headless mode. Web push needs the full browser (the push specs choose it:
 * tests/e2e/full-browser.ts); without the shell installed, every test runs in the full browser.
 */
const HEADLESS_SHELL_PATH = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell";
export const TEST_BROWSER_PATH = existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH;

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
