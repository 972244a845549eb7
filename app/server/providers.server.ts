import { getEnv } from "./env.server";

/** The configured offer provider when `name` is it (the {provider} of /api/{provider}/...), else null. */
export function configuredProvider(name: string | undefined) {
  const provider = getEnv().offerProvider;
  return provider && provider.name === name ? provider : null;
}

export function jsonError(status: number, error: string) {
  return Response.json({ success: false, error }, { status, headers: { "Cache-Control": "no-store" } });
}
