// @ts-check
// Debian's Chromium, as the tests and benchmarks launch it (Playwright cannot download its own
// browsers here). Without the background-networking flags Chromium floods the closed network.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

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
