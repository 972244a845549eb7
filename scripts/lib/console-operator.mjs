// @ts-check
// The browser suites' operator (tests/e2e/viewers.ts, "operator"): an account holding the `owner`
// role, made before the test app starts. The app's embedded PGlite directory belongs to the running
// server once it starts (`npm run operator` refuses it, docs/operator-console.md), so the account is
// made as the command would make it, in the two places it lives, while nothing else has them open:
// the Firebase account and its `role` claim in the Auth emulator, its profile and its `operators`
// row (with the audit entry, grant_operator_role) in the database.

const PROJECT_ID = "demo-rewards";

/**
 * @param {string} emulatorHost
 * @param {string} path
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
async function emulator(emulatorHost, path, body, headers = {}) {
  const response = await fetch(`http://${emulatorHost}/identitytoolkit.googleapis.com/v1/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`Auth emulator ${path}: HTTP ${response.status} ${await response.text()}`);
  return /** @type {Record<string, unknown>} */ (await response.json());
}

/**
 * Makes the console operator and a withdrawal waiting for review; returns the credentials the
 * browser suites sign in with, and the withdrawal's id.
 * @param {{ emulatorHost: string, database: { query: (sql: string, values?: unknown[]) => Promise<unknown> } }} parts
 */
export async function makeConsoleOperator({ emulatorHost, database }) {
  const email = `console-owner-${Date.now().toString(36)}@example.com`;
  const password = "console-owner-pass";
  const account = await emulator(emulatorHost, "accounts:signUp?key=demo-api-key", {
    email,
    password,
    displayName: "Console Owner",
    returnSecureToken: true,
  });
  const uid = String(account.localId);
  await emulator(
    emulatorHost,
    `projects/${PROJECT_ID}/accounts:update`,
    { localId: uid, customAttributes: JSON.stringify({ role: "owner" }), emailVerified: true },
    { authorization: "Bearer owner" },
  );
  await database.query("select provision_user($1, $2, 'Console Owner', null, true, null)", [uid, email]);
  await database.query("select grant_operator_role('npm test', $1, 'owner')", [uid]);
  // A person whose first cash-out waits for review, for the console's withdrawal pages.
  const person = `console-person-${Date.now().toString(36)}`;
  await database.query("select provision_user($1, $2, 'Console Person', null, true, null)", [
    person,
    `${person}@example.com`,
  ]);
  await database.query("select add_user_coins($1, 700)", [person]);
  const settings = /** @type {{ review_first_withdrawal: boolean }[]} */ (
    await database.query("select review_first_withdrawal from app_config")
  );
  const reviewFirst = settings[0]?.review_first_withdrawal ?? false;
  await database.query("update app_config set review_first_withdrawal = true");
  const [withdrawal] = /** @type {{ id: string }[]} */ (
    await database.query(
      "select (create_withdrawal($1, 6, 'upi', null, 'console.person@okaxis', null, null)) ->> 'id' as id",
      [person],
    )
  );
  await database.query("update app_config set review_first_withdrawal = $1", [reviewFirst]);
  // Their feedback, a ticket for the console's support pages.
  const [ticket] = /** @type {{ id: string }[]} */ (
    await database.query(
      "select (submit_feedback($1, 'Console Person', $2, 'My survey never paid out.')) ->> 'id' as id",
      [person, `${person}@example.com`],
    )
  );
  return {
    email,
    password,
    uid,
    personId: person,
    withdrawalId: /** @type {{ id: string }} */ (withdrawal).id,
    ticketId: /** @type {{ id: string }} */ (ticket).id,
  };
}
