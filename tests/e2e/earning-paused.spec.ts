import { expect, test } from "@playwright/test";
import { newMember } from "../support/console";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { screenshotsAtWidths, signInOverHttp } from "./support";

// Earning paused by the account's network (issue 38, point 3; docs/decisions/091), with JavaScript
// on and off, on an app of its own: with a VPN ticked in "Networks that pause earning" and the
// account's latest network a VPN (as ipinfo would have said at its sign-in), Earn says its offers
// wait for a review and what to do; a clean network says nothing.
test.describe.configure({ mode: "serial" });

let app: PostgresApp;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  app = await startPostgresApp();
  await app.sql(`update app_config set network_pause_flags = '["vpn"]'`);
});
test.afterAll(async () => {
  await app?.stop();
});

/** The account's latest network, as record_network_signal keeps it after a sign-in. */
const lastSeenOn = (uid: string, vpn: boolean) =>
  app.sql("select record_network_signal($1, 'signin', repeat('a', 64), $2::jsonb, false)", [
    uid,
    JSON.stringify({
      vpn,
      proxy: false,
      tor: false,
      relay: false,
      hosting: false,
      service: vpn ? "NordVPN" : null,
      country: "NL",
    }),
  ]);

test("Earn says offers wait for a review while the account's latest network is a VPN the owner ticked, and nothing once it is clean", async ({
  page,
}) => {
  const person = await newMember(app);
  await signInOverHttp(page, person.email, "s3cret-pass", app.url);
  await lastSeenOn(person.uid, true);
  await page.goto(new URL("/earn", app.url).href);
  const notice = page.getByRole("status").filter({ hasText: "Your offers wait for a review" });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("turn it off, sign out and sign in again");
  await screenshotsAtWidths(page, "earn-earning-paused");

  await lastSeenOn(person.uid, false);
  await page.goto(new URL("/earn", app.url).href);
  await expect(page.getByRole("heading", { name: "Earn Rewards" })).toBeVisible();
  await expect(page.getByText("Your offers wait for a review")).toHaveCount(0);
});
