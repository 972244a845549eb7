import type { LoaderFunctionArgs } from "@remix-run/node";
import { getSessionUser } from "~/server/auth/session.server";
import { methodNotAllowed } from "~/server/http/responses.server";
import { completionEventStream } from "~/server/earning/live-events.server";

/** Server-sent events for the signed-in user's open Home, Earn and Withdraw pages ("task-completed", "cashout-feed"). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  if (!user) return new Response("Sign in to receive updates", { status: 401 });
  // The stream re-checks request.signal: a client that left while the session was verified gets a
  // stream that is closed at once, holding nothing.
  // ?feed=1: the page shows the feed of recent cash-outs and is sent each new list.
  const feed = new URL(request.url).searchParams.get("feed") === "1";
  return new Response(completionEventStream(user.uid, request.signal, { feed }), {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform keeps remix-serve's compression from buffering the stream.
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}

// Any other method: a 405 that says which to use (without an action, Remix answers "Unexpected Server Error" and logs a stack).
export const action = () => methodNotAllowed("GET");
