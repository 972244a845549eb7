// @ts-check
// Screenshots of the operator console, to look at before calling a console page done (the
// developers' guide asks for 320, 390 and 1280 px). Builds nothing: run `npm run build` first.
//
//   node scripts/console-screens.mjs [out-dir] [path ...]
//
// Starts the Auth emulator, a throwaway Postgres and the production server on it, seeds an owner
// and a few people with money, withdrawals in review, linked accounts and tickets, then saves
// <out-dir>/<name>-<width>.png for each console page (every page when no path is given). Paths may
// name a seeded person as {person}, their withdrawal in review as {withdrawal} and their
// missing-credit report as {ticket}: `/admin/people/{person}`, `/admin/support/{ticket}`.
// With JAVASCRIPT=off, the pages are taken with JavaScript disabled too (<name>-<width>-nojs.png).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./lib/chromium.mjs";
import { openPostgres } from "./lib/database.mjs";
import { freePort, PROJECT_ID, startAppServer, startAuthEmulator, startPostgres } from "./lib/services.mjs";

const PAGES = [
  "/admin",
  "/admin/people",
  "/admin/people?q=farmer%40gmail.com",
  "/admin/people/{person}",
  "/admin/people/no-such-person",
  "/admin/withdrawals",
  "/admin/withdrawals?view=all",
  "/admin/withdrawals/{withdrawal}",
  "/admin/support",
  "/admin/support/{ticket}",
  "/admin/settings",
  "/admin/audit",
  "/admin/walls",
  "/admin/walls/bitlabs",
  "/admin/walls/bitlabs?refused=1",
  "/admin/walls/torox",
];
const WIDTHS = [320, 390, 1280];
const PASSWORD = "console-screens-pass";

const [outDir = "/tmp/console-screens", ...asked] = process.argv.slice(2);
const pages = asked.length > 0 ? asked : PAGES;

/**
 * @param {string} emulatorHost
 * @param {string} email
 * @param {Record<string, unknown>} [claims]
 */
async function emulatorAccount(emulatorHost, email, claims) {
  const base = `http://${emulatorHost}/identitytoolkit.googleapis.com/v1`;
  const made = await fetch(`${base}/accounts:signUp?key=demo-api-key`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
  });
  const uid = String(/** @type {{ localId: string }} */ (await made.json()).localId);
  await fetch(`${base}/projects/${PROJECT_ID}/accounts:update`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer owner" },
    body: JSON.stringify({
      localId: uid,
      emailVerified: true,
      ...(claims && { customAttributes: JSON.stringify(claims) }),
    }),
  });
  return uid;
}

/**
 * People with something to show: money, a withdrawal in review, a second account on the same
 * device, feedback and a missing-credit report. Returns the first person's id and their withdrawal's.
 * @param {{ query: (sql: string, values?: unknown[]) => Promise<unknown> }} db
 * @param {string} emulatorHost
 */
async function seed(db, emulatorHost) {
  const device = "a".repeat(64);
  // The demo settings (bonus money withdrawable), and every first cash-out reviewed.
  const people = [];
  for (const [index, email] of ["farmer@gmail.com", "f.armer+2@gmail.com", "ana.lopez@example.com"].entries()) {
    const uid = await emulatorAccount(emulatorHost, email);
    // The second is an alias of the first inbox: made before the identity rule would refuse it.
    await db.query("select provision_user($1, $2, $3, null, true, null)", [uid, email, email.split("@")[0]]);
    await db.query("select add_user_coins($1, $2)", [uid, 1200 + index * 350]);
    await db.query("select record_account_signals($1, $2)", [uid, JSON.stringify([{ kind: "device", hash: device }])]);
    people.push(uid);
  }
  const [farmer, alias] = people;
  await db.query("select apply_demo_settings()");
  await db.query("update app_config set review_first_withdrawal = true");
  const [withdrawal] = /** @type {{ id: string }[]} */ (
    await db.query("select create_withdrawal($1, 6, 'upi', null, 'farmer@okaxis', null, null) ->> 'id' as id", [farmer])
  );
  await db.query("select create_withdrawal($1, 5, 'paypal', 'f.armer@gmail.com', null, null, null)", [alias]);
  await db.query("select submit_feedback($1, 'Farmer', 'farmer@gmail.com', 'My survey from BitLabs never paid out.')", [
    farmer,
  ]);
  const [report] = /** @type {{ id: string }[]} */ (
    await db.query(
      "select report_missing_credit($1, 'bitlabs', 'Survey: shopping habits', current_date - 2, 'Finished all 20 questions.') ->> 'id' as id",
      [farmer],
    )
  );
  await db.query(HISTORY);
  return {
    person: /** @type {string} */ (farmer),
    withdrawal: /** @type {{ id: string }} */ (withdrawal).id,
    ticket: `missing-credit/${/** @type {{ id: string }} */ (report).id}`,
  };
}

/**
 * The Walls pages with something to show: BitLabs' hold set in the console, Revlum turned on in the
 * console without its secret (a wall that cannot run), and BitLabs' postback log.
 * @param {{ query: (sql: string, values?: unknown[]) => Promise<unknown> }} db
 * @param {string} owner
 * @param {string} person
 */
async function seedWalls(db, owner, person) {
  await db.query(
    "select operator_set_wall($1, 'bitlabs', null, 3, null, '{}'::jsonb, '{}'::jsonb, '[]'::jsonb, 'Three days, as BitLabs reverses within them')",
    [owner],
  );
  await db.query(
    "select operator_set_wall($1, 'revlum', true, null, null, '{}'::jsonb, '{}'::jsonb, '[]'::jsonb, 'Trying Revlum')",
    [owner],
  );
  const entries = [
    ["credited", null, person, "a1f0c2d9-5b7e-4c61-9d3a", 150],
    ["duplicate", null, person, "a1f0c2d9-5b7e-4c61-9d3a", 150],
    ["refused", "the hash does not match the URL", null, null, null],
    ["ignored", "a test callback", null, "debug-7", null],
    ["refused", 'no one has wall id "w00000000000000000000000000000000"', null, "b77c", null],
  ];
  // Torox: a credit whose sig had paid another conversion, and an unsigned reversal, both waiting.
  await db.query(
    `insert into provider_postbacks (provider, transaction_id, kind, user_id, coins, amount, available_at)
     values ('torox', '88412907', 'credit', $1, 120, 1.20, now())`,
    [person],
  );
  await db.query(
    `insert into held_postbacks (network, transaction_id, kind, user_id, coins, description, offer_name, reason, signature_seen_on)
     values ('torox', '88412955', 'credit', $1, 4500, 'Offer completed via Torox: Tower Builder', 'Tower Builder',
             'its signature already paid transaction 88412907', '88412907'),
            ('torox', '88412907', 'reversal', $1, 120, 'Offer reversed by Torox', null,
             'Torox''s negative amount is not covered by the signature', null)`,
    [person],
  );
  await db.query("select log_postback('torox', '54.175.173.245', 'GET', $1, '', 'held', $2, $3, '88412955', 4500)", [
    "id=88412955&oid=9001&amount=4500&user_id=w3f2&sig=[removed]",
    "signature already paid transaction 88412907: held for review",
    person,
  ]);
  for (const [verdict, reason, user, transaction, coins] of entries) {
    await db.query("select log_postback('bitlabs', '203.0.113.7', 'GET', $1, '', $2, $3, $4, $5, $6)", [
      `uid=w3f2&tx=${transaction ?? ""}&val=${coins ?? 0}&hash=9c1e…`,
      verdict,
      reason,
      user,
      transaction,
      coins,
    ]);
  }
}

// A month of history for the dashboard's charts: people who signed up on each of the last 30 days,
// their check-ins, tasks, offers (some reversed), referral rewards and paid withdrawals, written as
// they happened (each balance equal to its ledger); the database's triggers count them as they go.
const HISTORY = `
  insert into user_profiles (id, display_name, referral_code, email, email_verified, created_at)
  select 'history-' || i, 'History ' || i,
         'HST' || substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', i % 32 + 1, 1)
               || substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', i / 32 % 32 + 1, 1) || 'QZ',
         'history' || i || '@example.com', true, now() - make_interval(days => (i * 7) % 30, hours => i % 5)
    from generate_series(1, 90) i;
  insert into transaction_history (user_id, created_at, available_at, description, transaction_type, amount, coins, status)
  select 'history-' || i, at, case when type in ('postback', 'postback_reversal') then at + interval '7 days' else at end,
         type, type,
         case type when 'checkin' then 0.10 when 'task' then 0.50 when 'postback' then 0.25 * (1 + (i + d) % 12)
                   when 'postback_reversal' then -0.25 * (1 + (i + d) % 12) else 5.00 end,
         case type when 'checkin' then 10 when 'task' then 50 when 'postback' then 25 * (1 + (i + d) % 12)
                   when 'postback_reversal' then -25 * (1 + (i + d) % 12) end,
         'completed'
    from generate_series(1, 90) i, generate_series(0, 29) d,
         lateral (select now() - make_interval(days => d, hours => i % 9) as at) t,
         lateral unnest(array['checkin'] || case when (i + d) % 3 = 0 then array['task'] else '{}' end
                        || case when (i + d) % 4 = 0 then array['postback'] else '{}' end
                        || case when (i + d) % 44 = 0 then array['postback_reversal'] else '{}' end
                        || case when (i + d) % 57 = 0 then array['referral'] else '{}' end) type
   where d <= (i * 7) % 30;
  insert into withdrawals (user_id, created_at, amount, payment_method, recipient_upi, status, settled_at, review_state)
  select 'history-' || i, now() - make_interval(days => i % 25 + 1), 1 + i % 4, 'upi', 'history' || i || '@okaxis',
         'completed', now() - make_interval(days => i % 25), 'approved'
    from generate_series(1, 90) i where i % 3 = 0;
  insert into transaction_history (user_id, created_at, description, transaction_type, amount, status, withdrawal_id)
  select user_id, created_at, 'Withdrawal via UPI', 'withdrawal', -amount, 'completed', id
    from withdrawals where user_id like 'history-%';
  insert into user_balance (user_id, balance, total_earned, earned_total)
  select 'history-' || i,
         coalesce(sum(t.amount) filter (where t.status <> 'failed'), 0),
         coalesce(sum(t.amount) filter (where t.transaction_type <> 'withdrawal'), 0),
         coalesce(sum(t.amount) filter (where t.kind = 'earned'), 0)
    from generate_series(1, 90) i left join transaction_history t on t.user_id = 'history-' || i
   group by i;
`;

const [emulator, postgres] = await Promise.all([
  startAuthEmulator({ port: await freePort(), quiet: true }),
  startPostgres(),
]);
/** @type {Awaited<ReturnType<typeof startAppServer>> | null} */
let app = null;
try {
  app = await startAppServer({
    port: await freePort(),
    env: {
      NODE_ENV: "production",
      SESSION_SECRET: "console-screens-secret-of-32-characters",
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      FIREBASE_PROJECT_ID: PROJECT_ID,
      DATABASE_URL: postgres.url,
      // A wall turned on by the environment, so the Walls pages have one that runs (and a log).
      WALL_BITLABS_ENABLED: "true",
      WALL_BITLABS_APP_TOKEN: "bitlabs-app-token-0001",
      WALL_BITLABS_APP_SECRET: "bitlabs-app-secret-for-screens",
      WALL_REVLUM_APP_ID: "rv-app",
      // Torox, whose signature does not bind the transaction: its page has postbacks held for review.
      WALL_TOROX_ENABLED: "true",
      WALL_TOROX_PUBLISHER_ID: "14",
      WALL_TOROX_APP_ID: "5",
      WALL_TOROX_SECRET: "torox-secret-for-screens",
    },
  });
  const db = await openPostgres(postgres.url);
  const ownerEmail = "owner@example.com";
  const owner = await emulatorAccount(emulator.host, ownerEmail, { role: "owner" });
  await db.query("select provision_user($1, $2, 'Olivia Owner', null, true, null)", [owner, ownerEmail]);
  await db.query("select grant_operator_role('console-screens', $1, 'owner')", [owner]);
  const seeded = await seed(db, emulator.host);
  // A few changes of settings, for the Settings page's list of changes.
  await db.query(
    `select operator_set_settings($1, 'Olivia Owner', '{"checkin_coins": 15, "provider_hold_days": {"bitlabs": 14}}',
                                  'Spring promotion: a bigger check-in, and BitLabs reverses within two weeks')`,
    [owner],
  );
  await db.query(
    "select operator_set_settings($1, 'Olivia Owner', '{\"min_withdrawal_upi\": 2}', 'Fewer tiny UPI payouts')",
    [owner],
  );
  await seedWalls(db, owner, seeded.person);

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const context = await browser.newContext();
  const page = await context.newPage();
  await context.addCookies([{ name: "hasSeenOnboarding", value: "true", url: app.url }]);
  await page.goto(`${app.url}/auth`);
  await page.getByLabel("Email").fill(ownerEmail);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL(`${app.url}/`);
  // The same session in a browser without JavaScript, for the pages as a no-JavaScript visitor gets them.
  const withoutJavaScript = process.env.JAVASCRIPT === "off";
  const noScript = withoutJavaScript
    ? await (
        await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() })
      ).newPage()
    : null;
  mkdirSync(outDir, { recursive: true });
  for (const wanted of pages) {
    const target = wanted
      .replace("{person}", seeded.person)
      .replace("{withdrawal}", seeded.withdrawal)
      .replace("{ticket}", seeded.ticket);
    const name =
      wanted
        .replace(/^\//, "")
        .replace(/[^a-z0-9]+/gi, "-")
        .replace(/-+$/, "") || "root";
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
      await page.goto(`${app.url}${target}`);
      const file = path.join(outDir, `${name}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      if (noScript) {
        await noScript.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
        await noScript.goto(`${app.url}${target}`);
        const plain = path.join(outDir, `${name}-${width}-nojs.png`);
        await noScript.screenshot({ path: plain, fullPage: true });
        console.log(plain);
      }
    }
  }
  await browser.close();
  await db.close();
} finally {
  await app?.stop();
  await emulator.stop();
  await postgres.stop();
}
