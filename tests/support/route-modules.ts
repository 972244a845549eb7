import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** app/routes, where Remix's v2 flat routes look for route modules. */
export const ROUTES_DIR = path.resolve("app/routes");

/**
 * The route modules as Remix's v2 flat routes find them, relative to app/routes: a file directly
 * in app/routes ("healthz.ts"), or a folder's route.tsx / route.ts ("withdraw/route.tsx"). The
 * other files in a route folder are the screen's companions, not routes.
 */
export function routeModules(): string[] {
  return readdirSync(ROUTES_DIR).flatMap((name) => {
    if (!statSync(path.join(ROUTES_DIR, name)).isDirectory()) return /\.tsx?$/.test(name) ? [name] : [];
    const module = ["route.tsx", "route.ts"].find((file) => existsSync(path.join(ROUTES_DIR, name, file)));
    if (!module) throw new Error(`app/routes/${name}/ has no route.tsx or route.ts`);
    return [`${name}/${module}`];
  });
}
