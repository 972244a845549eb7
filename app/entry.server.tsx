import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { StylesheetTextContext } from "./components/InlineStylesheet";
import { pageFeatures } from "./domain/document-policy";
import { NonceContext } from "./lib/nonce";
import { closeDatabase, getDatabase } from "./server/db/database.server";
import { checkEnv, EnvError, getEnv } from "./server/runtime/env.server";
import { answerCrossSitePostsInTheApp } from "./server/http/cross-site.server";
import { answerEarly, guardIncomingRequests } from "./server/http/incoming.server";
import { precompressedAssetRoute } from "./server/http/precompressed-assets.server";
import { createNonce, documentSecurityHeaders } from "./server/http/security-headers.server";
import { DocumentStream } from "./server/http/document-stream.server";
import { deviceId } from "./server/auth/device-id.server";
import { shutDownGracefully } from "./server/http/shutdown.server";
import { readStylesheet, stylesheetHashSource } from "./server/http/stylesheet.server";
import stylesHref from "./styles/app.css";
import { backfillIdentities } from "./server/account/identity-backfill.server";
import { closeAllStreams } from "./server/earning/live-events.server";
import { logValue } from "./server/runtime/log.server";
import { postbackRoute } from "./server/walls/postback-route.server";
import { startConfiguredNoticeDelivery } from "./server/notifications/delivery.server";
import { startClearedEarningsNotices } from "./server/earning/cleared-earnings.server";
import { startPrizeClose } from "./server/earning/prizes.server";
import { startInrRateRefresh } from "./server/withdrawals/inr-rate.server";
import { startRazorpayXPayouts } from "./server/withdrawals/payouts/razorpayx-rail.server";
import { startTremendousGiftCards } from "./server/withdrawals/payouts/tremendous-rail.server";
import { startReferralSettlement } from "./server/earning/referrals.server";
import { startDashboardFold } from "./server/operator/dashboard.server";
import { wallFrameOrigins } from "./server/walls/pages.server";
import { readWalls } from "./server/walls/registry.server";

// Validate the environment when the server starts, the offer walls' WALL_{NAME}_… with the rest: a
// bad variable stops it with its name.
try {
  checkEnv(readWalls(process.env).problems);
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// nosniff on every response; a path too long to route cheaply is answered 414 before Remix sees it.
guardIncomingRequests();

// Offer networks' postbacks skip Express and Remix's per-request work (docs/benchmarks.md).
answerEarly("postbacks", postbackRoute);
// The build's scripts from the gzip copies the build made (scripts/precompress-assets.mjs).
answerEarly("precompressed assets", precompressedAssetRoute);

// A form posted from another site gets the app's 403 page rather than the runtime's empty 500.
answerCrossSitePostsInTheApp();

// Open (and migrate) the database now rather than on the first request; /healthz reports failures.
// (An unreachable database, or one lacking migrations, has been logged in words already.)
getDatabase().then(
  // Profiles made before identities get theirs (docs/decisions/064), in the background.
  () => backfillIdentities().catch((error: unknown) => console.error("identity backfill failed:", error)),
  (error: unknown) => {
    if (!(error instanceof Response)) console.error("database not ready:", error);
  },
);

// Notices go out by push and email from every instance where either is configured.
startConfiguredNoticeDelivery();

// Referrals whose friend's earnings have cleared since are credited on an interval (docs/decisions/067).
startReferralSettlement();
// And their owners are told that held earnings cleared (docs/decisions/086), on the same interval.
startClearedEarningsNotices();
// Last month's leaderboard prizes, settled once by whichever server asks first (docs/decisions/097).
startPrizeClose();
// The rupee rate of UPI cash-outs, from a rates endpoint when one is set (docs/decisions/087).
startInrRateRefresh();
// UPI cash-outs paid by RazorpayX when it is configured (docs/decisions/088).
startRazorpayXPayouts();
// Gift cards through Tremendous when it is configured (docs/decisions/089): the catalogue and the orders.
startTremendousGiftCards();

// The dashboard's counters, merged now and then so that reading them stays cheap (docs/operator-console.md).
startDashboardFold();

// remix-serve stops taking connections on SIGTERM/SIGINT; the requests already sent are answered,
// then the database's connections (and LISTEN), which would keep the process alive, are closed.
shutDownGracefully({ beforeDrain: closeAllStreams, close: closeDatabase });

export const streamTimeout = 5_000;

export const handleError: HandleErrorFunction = (error, { request }) => {
  // Aborted requests are the client going away, not a fault of ours.
  if (request.signal.aborted) return;
  const where = `${request.method} ${logValue(new URL(request.url).pathname)}`;
  const refused = refusedRequest(error);
  if (refused === "quiet") return;
  // A request Remix refused (a data request naming a route that is not there, say): one line, no stack.
  if (refused) console.warn(`${where}: ${refused}`);
  else console.error(`${where}:`, error);
};

/**
 * What to log of an error that is a visitor's bad request rather than a fault of the app: "quiet"
 * for Remix's warning that a `?_data=` request was made (anyone can send one; what Remix then
 * answers is logged on its own), a one-line summary for a refusal with a 4xx status, else null.
 */
function refusedRequest(error: unknown): string | "quiet" | null {
  if (
    error instanceof Error &&
    error.message.startsWith("Warning: Single fetch-enabled apps should not be making ?_data")
  ) {
    return "quiet";
  }
  if (typeof error !== "object" || error === null || !("status" in error) || !("internal" in error)) return null;
  const { status, statusText } = error as { status: unknown; statusText?: unknown };
  if (typeof status !== "number" || status < 400 || status >= 500) return null;
  const inner = (error as { error?: unknown }).error;
  const detail = inner instanceof Error ? ` (${logValue(inner.message)})` : "";
  return `${status} ${typeof statusText === "string" ? statusText : ""}${detail}`.trim();
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  // Every inline script of this document (Remix's, React's streaming ones) and its inline stylesheet carry this nonce; the
  // policy allows what this page needs (domain/document-policy.ts), its error pages included.
  const nonce = createNonce();
  const features = new Set(pageFeatures(new URL(request.url).pathname));
  // An offer wall's page frames that wall's origin (the walls as configured now; none elsewhere).
  const frameOrigins = await wallFrameOrigins(new URL(request.url).pathname).catch(() => []);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Rendered to the end (or failed): nothing is left to abort. A timer still pending would keep
    // this render's state in memory for six seconds after every request.
    let finished = false;
    let timeout: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      finished = true;
      clearTimeout(timeout);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <StylesheetTextContext.Provider value={readStylesheet}>
          <RemixServer context={remixContext} url={request.url} nonce={nonce} />
        </StylesheetTextContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          finish();
          if (waitForAll) ready();
        },
        onShellReady() {
          if (!waitForAll) ready();
        },
        onShellError(error: unknown) {
          finish();
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    function ready() {
      shellRendered = true;
      const body = new DocumentStream(getEnv().isProduction);
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      for (const [name, value] of Object.entries(
        documentSecurityHeaders(nonce, features, getEnv(), stylesheetHashSource(stylesHref), frameOrigins),
      )) {
        responseHeaders.set(name, value);
      }
      // A browser's first page gives it its device id (docs/decisions/064).
      const device = deviceId(request);
      if (device.setCookie) responseHeaders.append("Set-Cookie", device.setCookie);
      // A page that could not reach the database or Firebase: it is temporary, try again soon.
      if (responseStatusCode === 503) responseHeaders.set("Retry-After", "10");
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
      pipe(body);
    }
    // Unref'd: the response's socket keeps the process alive while it renders, and a finished
    // page's timer must not hold a stopping server for six seconds.
    if (!finished) timeout = setTimeout(abort, streamTimeout + 1_000).unref();
  });
}
