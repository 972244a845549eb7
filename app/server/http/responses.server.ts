/** A JSON error for resource routes: `{ success: false, error }`, never cached. */
export function jsonError(status: number, error: string) {
  return Response.json({ success: false, error }, { status, headers: { "Cache-Control": "no-store" } });
}

/** 405 for a resource route asked with another method than the one it takes, saying which. */
export function methodNotAllowed(allowed: "GET" | "POST") {
  const response = jsonError(405, `Use ${allowed}`);
  response.headers.set("Allow", allowed === "GET" ? "GET, HEAD" : "POST");
  return response;
}

/**
 * A plain-text answer for machine clients (postbacks), never cached, as data: an early route
 * (incoming.server.ts) writes it to the socket as it is, without the Response that costs more to
 * build and read back than the answer is worth; a Remix route turns it into one (textResponse).
 */
export interface TextAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export function textAnswer(status: number, body: string, headers: Record<string, string> = {}): TextAnswer {
  return {
    status,
    body,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers },
  };
}

export function textResponse(answer: TextAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/**
 * 429 for a resource route's machine client: `{ success: false, error }` and Retry-After, the
 * whole seconds until the limit lets the next request in, so a well-behaved client waits that long.
 */
export function tooManyRequests(retryAfterSeconds: number, error = "Too many requests") {
  const response = jsonError(429, error);
  response.headers.set("Retry-After", String(Math.max(1, Math.ceil(retryAfterSeconds))));
  return response;
}
