import type { OperatorRole } from "~/domain/operator-roles";
import { emulatorHost, setCustomClaims } from "./emulator";
import { HttpClient } from "./http";
import type { PostgresApp } from "./postgres-app";

const PASSWORD = "s3cret-pass";

/** A browser signed in to `app` as `email` (a new session: it carries the account's claims as they are now). */
export async function signInAs(app: PostgresApp, email: string): Promise<HttpClient> {
  const client = new HttpClient(app.url);
  client.cookies.set("hasSeenOnboarding", "true");
  const response = await client.post("/auth", { intent: "signin", email, password: PASSWORD });
  if (response.status !== 302) throw new Error(`sign-in of ${email}: HTTP ${response.status}`);
  return client;
}

/** A new account signed in on `app`, with its id. */
export async function newMember(app: PostgresApp, fields: Record<string, string> = {}) {
  const { client, email, response } = await app.signUp(fields);
  if (response.status !== 302) throw new Error(`sign-up of ${email}: HTTP ${response.status}`);
  const [row] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
  return { client, email, uid: row!.id };
}

/**
 * `person` (a new member unless given) with a verified email and `dollars` of bonus coins asks to be
 * paid `fields` (the Withdraw form's method and recipient): the account, with the withdrawal's id
 * and review state.
 */
export async function cashOutOf(
  app: PostgresApp,
  dollars: number,
  fields: Record<string, string>,
  person?: Awaited<ReturnType<typeof newMember>>,
) {
  const owner = person ?? (await newMember(app));
  await app.sql("select record_email_verified($1)", [owner.uid]);
  await app.sql("select add_user_coins($1, $2)", [owner.uid, dollars * 100]);
  const response = await owner.client.post("/withdraw", { intent: "withdraw", amount: String(dollars), ...fields });
  if (response.status !== 302) throw new Error(`the withdrawal of ${owner.email}: HTTP ${response.status}`);
  const [row] = await app.sql<{ id: string; review_state: string }>(
    "select id, review_state from withdrawals where user_id = $1 order by created_at desc limit 1",
    [owner.uid],
  );
  return { ...owner, id: row!.id, reviewState: row!.review_state };
}

/**
 * A new account holding `role` in both places the console checks (the Firebase claim and the
 * operators row, as `npm run operator -- grant` leaves them), signed in afresh so its session has the claim.
 */
export async function newOperator(app: PostgresApp, role: OperatorRole) {
  const { email, uid } = await newMember(app);
  await setCustomClaims(uid, { role });
  await app.sql("select grant_operator_role('console-test', $1, $2)", [uid, role]);
  return { client: await signInAs(app, email), email, uid };
}

/**
 * Makes `client`'s session look signed in `seconds` ago, as a console left open that long: the
 * emulator's session cookies are unsigned JWTs (firebase-admin checks no signature against it), so
 * their `auth_time` is set back, and the account's `validSince` with it (a session signed in
 * before validSince counts as revoked).
 */
export async function ageSession(client: HttpClient, uid: string, seconds: number) {
  const raw = client.cookies.get("__session");
  if (!raw) throw new Error("no session cookie to age");
  const jwt = JSON.parse(Buffer.from(decodeURIComponent(raw), "base64").toString("utf8")) as string;
  const [header, payload] = jwt.split(".");
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as { auth_time: number };
  claims.auth_time -= seconds;
  const aged = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;
  client.cookies.set("__session", encodeURIComponent(Buffer.from(JSON.stringify(aged)).toString("base64")));
  const response = await fetch(
    `http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/projects/${process.env.FIREBASE_PROJECT_ID ?? "demo-rewards"}/accounts:update`,
    {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer owner" },
      body: JSON.stringify({ localId: uid, validSince: String(claims.auth_time - 60) }),
    },
  );
  if (!response.ok) throw new Error(`validSince: HTTP ${response.status} ${await response.text()}`);
}

/**
 * The body cells of the console's tables in `html`, and how many of them lack the column name that a
 * card shows above the cell below 768px (`data-label`, ConsoleTable).
 */
export function consoleTableCells(html: string): { cells: number; unlabelled: number } {
  const tables = html.match(/<table class="console-table[\s\S]*?<\/table>/g) ?? [];
  const cells = tables.flatMap((table) => table.match(/<td\b[^>]*>/g) ?? []);
  return { cells: cells.length, unlabelled: cells.filter((cell) => !cell.includes("data-label=")).length };
}
