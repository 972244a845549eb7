import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, TEST_BROWSER_PATH } from "./scripts/lib/chromium.mjs";

// Debian's Chromium headless shell (Playwright cannot download its own browsers here), or the full
// Chromium where the shell is not installed (scripts/lib/chromium.mjs).
const chromium = {
  browserName: "chromium" as const,
  launchOptions: { executablePath: TEST_BROWSER_PATH, args: CHROMIUM_ARGS },
  viewport: { width: 390, height: 844 },
  baseURL: process.env.APP_URL,
};

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  // Three on two cores: a test waits on the app and the database as much as Chromium works (the
  // whole suite: 298 s with two, 228 with three; docs/testing.md).
  workers: 3,
  // In CI one retry keeps a rare timing flake from blocking a landing; the summary line still
  // reports every flaky test by name (scripts/test.mjs), so none goes unnoticed.
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["json"]],
  use: { trace: "off", screenshot: "only-on-failure" },
  projects: [
    { name: "javascript", testIgnore: /\.no-js\.spec\.ts$/, use: { ...chromium, javaScriptEnabled: true } },
    { name: "no-javascript", testIgnore: /\.js-only\.spec\.ts$/, use: { ...chromium, javaScriptEnabled: false } },
  ],
});
