// The one answer for "something the page needs cannot be reached" (the database, Firebase). Thrown
// by the database layer and the auth modules alike, so it lives beside neither: the database layer
// imports nothing of app/server/http (eslint's import-x/no-restricted-paths).

export const SERVICE_UNAVAILABLE_MESSAGE = "We can't reach our servers right now. Please try again in a moment.";

/**
 * Thrown when something the page needs (the database, the sign-in service) cannot be reached:
 * the route's error boundary shows the message with status 503, and Retry-After tells
 * clients and load balancers that this is temporary.
 */
export function serviceUnavailable(): Response {
  return Response.json(
    { message: SERVICE_UNAVAILABLE_MESSAGE },
    { status: 503, headers: { "Retry-After": "10", "Cache-Control": "no-store" } },
  );
}
