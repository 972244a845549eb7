/** A JSON error for resource routes: `{ success: false, error }`, never cached. */
export function jsonError(status: number, error: string) {
  return Response.json({ success: false, error }, { status, headers: { "Cache-Control": "no-store" } });
}

/** A plain-text answer for machine clients (postbacks), never cached. */
export function plainText(status: number, body: string) {
  return new Response(body, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
