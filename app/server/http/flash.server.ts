import { createCookieSessionStorage, redirect } from "@remix-run/node";
import type { Flash } from "~/domain/flash";
import { getEnv } from "../runtime/env.server";

export type { Flash };

let storage: ReturnType<typeof createFlashStorage> | undefined;

function createFlashStorage() {
  const env = getEnv();
  return createCookieSessionStorage<{ flash: Flash }>({
    cookie: {
      name: "__flash",
      httpOnly: true,
      sameSite: "lax",
      secure: env.isProduction,
      path: "/",
      maxAge: 60,
      secrets: [env.sessionSecret],
    },
  });
}

function flashStorage() {
  storage ??= createFlashStorage();
  return storage;
}

/** The Set-Cookie value that carries `flash` to the next page. */
export async function setFlash(flash: Flash): Promise<string> {
  const session = await flashStorage().getSession();
  session.set("flash", { ...flash, id: crypto.randomUUID() });
  return flashStorage().commitSession(session);
}

/** Reads the pending flash, if any, and the Set-Cookie value that clears it. */
export async function takeFlash(request: Request): Promise<{ flash: Flash | null; setCookie: string | null }> {
  const cookieHeader = request.headers.get("cookie");
  if (!cookieHeader?.includes("__flash=")) return { flash: null, setCookie: null };
  const session = await flashStorage().getSession(cookieHeader);
  const flash = session.get("flash") ?? null;
  return { flash, setCookie: await flashStorage().destroySession(session) };
}

/** Post/redirect/get with a one-time message for the next page. */
export async function redirectWithFlash(to: string, flash: Flash, headers: HeadersInit = {}): Promise<Response> {
  const all = new Headers(headers);
  all.append("Set-Cookie", await setFlash(flash));
  return redirect(to, { headers: all });
}
