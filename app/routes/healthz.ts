import { getDatabase, migrationsPending } from "~/server/db/database.server";
import { methodNotAllowed } from "~/server/http/responses.server";

/**
 * Liveness and readiness for load balancers and the Docker HEALTHCHECK: the database answers, and
 * (with MIGRATE_ON_START=false) has every migration of this version.
 */
export async function loader() {
  const headers = { "Cache-Control": "no-store" };
  try {
    const db = await getDatabase();
    await db.rpc("app_health");
    // Which transport serves the database is nobody's business outside (the start-up log says it).
    return Response.json({ status: "ok", database: "ok" }, { headers });
  } catch (error) {
    console.error("health check failed:", error);
    const database = migrationsPending() ? "migrations pending" : "unreachable";
    return Response.json({ status: "error", database }, { status: 503, headers });
  }
}

// Any other method: a 405 that says which to use (without an action, Remix answers "Unexpected Server Error" and logs a stack).
export const action = () => methodNotAllowed("GET");
