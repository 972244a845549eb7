import { createRequire } from "node:module";

/**
 * Remix's server runtime refuses a document POST whose Origin differs from the host
 * (`throwIfPotentialCSRFAttack`) before any app code runs, and answers it with an empty 500 that it
 * logs as a server error. The app makes the same refusal itself, as a 403 page with its message:
 * every action calls `assertSameOrigin` first (tests/http/cross-site.test.ts posts cross-site to
 * each route that has an action). So the runtime's own check is switched off here, once, when the
 * server starts.
 *
 * remix-serve (the design's server) offers no hook before that check, so this replaces the
 * function on the runtime's CommonJS module, which its request handler calls through the module
 * object. If a Remix upgrade moves it, nothing is replaced and the runtime's check stays (an empty
 * 500, still a refusal); the test above then fails and says so.
 */
export function answerCrossSitePostsInTheApp(): void {
  const require = createRequire(import.meta.url);
  let actions: { throwIfPotentialCSRFAttack?: unknown };
  try {
    actions = require("@remix-run/server-runtime/dist/actions.js") as typeof actions;
  } catch {
    console.warn("cross-site posts: Remix's runtime check was not found; it answers them with an empty 500");
    return;
  }
  if (typeof actions.throwIfPotentialCSRFAttack !== "function") {
    console.warn("cross-site posts: Remix's runtime check was not found; it answers them with an empty 500");
    return;
  }
  actions.throwIfPotentialCSRFAttack = () => {};
}
