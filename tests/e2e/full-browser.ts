import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../scripts/lib/chromium.mjs";

/**
 * Launch options for the full Chromium, for the specs of web push: the headless shell the other
 * specs run in (playwright.config.ts) has no notification permission to grant, so the Profile and
 * Settings screens see push as blocked there. A spec takes it with `test.use({ launchOptions:
 * FULL_BROWSER })` at its top (a browser option applies to a whole file's workers).
 */
export const FULL_BROWSER = { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS };
