import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/http/responses.server";
import { offerImage } from "~/server/walls/offer-images.server";

// An offer wall's image, served from the app's origin (docs/decisions/099): only one a catalogue
// lists, by the id the app gave it; the request names nothing else.
const PLACEHOLDER =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" rx="12" fill="#ede9fe"/>' +
  '<circle cx="24" cy="24" r="9" fill="none" stroke="#7c3aed" stroke-width="3"/></svg>';

const SAFE = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  "Cross-Origin-Resource-Policy": "same-origin",
};

export async function loader({ params }: LoaderFunctionArgs) {
  const image = await offerImage(params.id ?? "");
  if (image.state === "unknown") {
    return new Response("Not found", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", ...SAFE },
    });
  }
  // Not fetched as an image the app serves: the app's own drawing, kept briefly.
  if (image.state === "unavailable") {
    return new Response(PLACEHOLDER, {
      headers: { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=300", ...SAFE },
    });
  }
  return new Response(Buffer.from(image.bytes), {
    headers: { "Content-Type": image.type, "Cache-Control": "public, max-age=86400", ...SAFE },
  });
}

// Any other method: a 405 that says which to use.
export const action = () => methodNotAllowed("GET");
