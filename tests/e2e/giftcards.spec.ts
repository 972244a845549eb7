import { expect, test } from "@playwright/test";
import { newMember, newOperator } from "../support/console";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { startTremendousStandIn, type TremendousStandIn } from "../support/tremendous";
import { screenshot, screenshotsAtWidths, signInOverHttp } from "./support";

// Gift cards through Tremendous (issue 37, point 2; docs/decisions/089), with JavaScript on and
// off, on an app of its own with a local Tremendous: a person picks a card and an amount on
// Withdraw, a finance operator approves the first cash-out, Tremendous is asked once, its signed
// webhook settles it, and the person reads Paid with the card and the order; a bounced card is
// cancelled and the money comes back with a notice.
test.describe.configure({ mode: "serial" });

let app: PostgresApp;
let tremendous: TremendousStandIn;
let finance: { email: string };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  tremendous = await startTremendousStandIn();
  app = await startPostgresApp({ ...tremendous.env, TREMENDOUS_INTERVAL_SECONDS: "1" });
  await app.sql("update app_config set review_first_withdrawal = true");
  await app.sql("select apply_app_config_patch('{\"usd_inr_rate\": 80}', 'Ana Owner', null, 'e2e')");
  await expect
    .poll(async () => (await app.sql<{ n: number }>("select count(*)::int as n from giftcard_products"))[0]!.n)
    .toBeGreaterThan(0);
  finance = await newOperator(app, "finance");
});
test.afterAll(async () => {
  await app?.stop();
  await tremendous?.close();
});

async function personWithMoney(dollars: number) {
  const person = await newMember(app);
  await app.sql("select record_email_verified($1)", [person.uid]);
  await app.sql("select add_user_coins($1, $2)", [person.uid, dollars * 100]);
  return person;
}

const lastWithdrawal = async (uid: string) =>
  (
    await app.sql<{ id: string }>("select id from withdrawals where user_id = $1 order by created_at desc limit 1", [
      uid,
    ])
  )[0]!.id;

test("a person picks a gift card and an amount; an operator approves it; Tremendous emails it once and the person reads Paid with the card and the order", async ({
  page,
}) => {
  const person = await personWithMoney(20);
  await signInOverHttp(page, person.email, "s3cret-pass", app.url);
  await page.goto(new URL("/withdraw", app.url).href);
  await page
    .locator("label")
    .filter({ hasText: /^Gift cardMin/ })
    .click();
  // India's cards are a link away; the United States' are shown (the browser's zone is not India's).
  await page.getByRole("link", { name: "India" }).click();
  await expect(page.getByText("Gift card (India)")).toBeVisible();
  await expect(page.locator("label").filter({ hasText: "Amazon.in" })).toContainText("₹100.00 to ₹10,000.00");
  // And back: the form opens on the gift cards.
  await page.getByRole("link", { name: "United States" }).click();
  await expect(page.getByText("Gift card (United States)")).toBeVisible();
  await page
    .locator("label")
    .filter({ hasText: /^Amazon\.com/ })
    .click();
  await page.getByLabel("Amount (USD)").fill("10");
  await expect(page.getByText(`The card is emailed to ${person.email}.`)).toBeVisible();
  await screenshotsAtWidths(page, "withdraw-giftcard");
  await page.getByRole("button", { name: "Withdraw Funds" }).click();
  await expect(page.getByText("Your $10.00 withdrawal has been initiated.")).toBeVisible();
  const id = await lastWithdrawal(person.uid);
  expect(tremendous.ordersFor(id)).toHaveLength(0);

  await signInOverHttp(page, finance.email, "s3cret-pass", app.url);
  await page.goto(new URL(`/admin/withdrawals/${id}`, app.url).href);
  await expect(page.getByText(/Tremendous then emails a \$10\.00 Amazon\.com card to/)).toBeVisible();
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect.poll(() => tremendous.ordersFor(id).length).toBe(1);
  const [order] = tremendous.ordersFor(id);
  await page.reload();
  await expect(page.getByTestId("withdrawal-stage")).toContainText("With Tremendous");
  await expect(page.getByRole("button", { name: /Mark paid|Mark failed/ })).toHaveCount(0);
  await screenshot(page, "console-giftcard-ordered");

  tremendous.advance(order!.id, "SUCCEEDED");
  const delivered = await tremendous.deliver(app.url, "REWARDS.DELIVERY.SUCCEEDED", {
    id: order!.rewards[0]!.id,
    type: "rewards",
  });
  expect(delivered.status).toBe(200);
  await page.reload();
  await expect(page.getByTestId("withdrawal-stage")).toContainText("Paid");
  await expect(page.getByTestId("payout-event")).toHaveCount(2);
  await screenshot(page, "console-giftcard-paid");

  await signInOverHttp(page, person.email, "s3cret-pass", app.url);
  await page.goto(new URL("/withdraw?history=1", app.url).href);
  const history = page.getByRole("dialog");
  await expect(history.getByTestId("money-state")).toHaveText(/^Paid /);
  await expect(history.getByText("Your Amazon.com gift card was emailed to your verified address.")).toBeVisible();
  await expect(history.getByText(`Tremendous order ${order!.id}`)).toBeVisible();
  await screenshot(page, "history-giftcard-paid");
  expect(tremendous.ordersFor(id)).toHaveLength(1);
});

test("a card whose email bounced is cancelled at Tremendous and the money comes back: the person reads why, and a notice", async ({
  page,
}) => {
  await app.sql("update app_config set review_first_withdrawal = false");
  const person = await personWithMoney(10);
  await signInOverHttp(page, person.email, "s3cret-pass", app.url);
  await page.goto(new URL("/withdraw?country=IN", app.url).href);
  await page
    .locator("label")
    .filter({ hasText: /^Gift cardMin/ })
    .click();
  await page
    .locator("label")
    .filter({ hasText: /^Flipkart/ })
    .click();
  // $3 is ₹240: under Flipkart's ₹250, refused on the amount with the card's amounts.
  await page.getByLabel("Amount (USD)").fill("3");
  await page.getByRole("button", { name: "Withdraw Funds" }).click();
  await expect(page.getByText("This card comes in ₹250.00 to ₹10,000.00.")).toBeVisible();
  await screenshot(page, "withdraw-giftcard-amount-refused");
  await page.getByLabel("Amount (USD)").fill("5");
  await page.getByRole("button", { name: "Withdraw Funds" }).click();
  await expect(page.getByText("Your $5.00 withdrawal has been initiated.")).toBeVisible();
  const id = await lastWithdrawal(person.uid);
  await expect.poll(() => tremendous.ordersFor(id).length).toBe(1);
  const [order] = tremendous.ordersFor(id);
  expect(order!.rewards[0]!.value).toEqual({ denomination: 400, currency_code: "INR" });
  await expect
    .poll(
      async () =>
        (
          await app.sql<{ n: number }>(
            "select count(*)::int as n from withdrawals where id = $1 and sent_at is not null",
            [id],
          )
        )[0]!.n,
    )
    .toBe(1);
  tremendous.advance(order!.id, "FAILED");
  const bounced = await tremendous.deliver(
    app.url,
    "REWARDS.DELIVERY.FAILED",
    { id: order!.rewards[0]!.id, type: "rewards" },
    { failure_reason: "mailbox_unavailable", retryable: true },
  );
  expect(bounced.status).toBe(200);
  await expect.poll(() => tremendous.canceled(order!.rewards[0]!.id)).toBe(true);
  await page.goto(new URL("/withdraw?history=1", app.url).href);
  const history = page.getByRole("dialog");
  await expect(history.getByTestId("money-state")).toHaveText("Not paid — $5.00 refunded");
  await expect(history.getByText(/could not be delivered to your email \(mailbox unavailable\)/)).toBeVisible();
  await page.goto(new URL("/notices", app.url).href);
  await expect(
    page.getByText("Your $5.00 gift card withdrawal could not be paid — $5.00 refunded to your balance."),
  ).toBeVisible();
});
