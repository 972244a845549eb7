import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEED_TITLE } from "~/domain/cashout-feed";
import { visibleText } from "../support/bad-input";
import { cashOutOf, newMember } from "../support/console";
import { landing } from "../support/http";
import { openEvents } from "../support/live-events";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { eventually } from "../support/wait";

// Recent cash-outs over HTTP (issue 39, point 5; docs/decisions/098) on an app with its own Postgres
// that reads the feed again every second: Home and Withdraw render it without JavaScript, a person
// leaves it in Settings, and an open page that asks for it is sent each new list over /api/events.
describe("recent cash-outs over HTTP", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp({ CASHOUT_FEED_REFRESH_SECONDS: "1" });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  /** A member's UPI cash-out of `dollars`, paid. */
  async function paidCashOut(dollars: number) {
    const owner = await cashOutOf(app, dollars, { method: "upi", upiId: `feed.${Date.now().toString(36)}@okaxis` });
    if (owner.reviewState === "review")
      await app.sql("select approve_withdrawals(jsonb_build_array($1::text), 'test')", [owner.id]);
    await app.sql("select settle_withdrawal($1, 'completed', 'UTR-FEED')", [owner.id]);
    return owner;
  }
  const line = (dollars: string) => `cashed out $${dollars} by UPI`;
  const page = async (client: Awaited<ReturnType<typeof newMember>>["client"], path: string) =>
    visibleText(await (await client.get(path)).text());

  it("shows a paid cash-out on Home and Withdraw, server-rendered, under a masked name and never the display name", async () => {
    const owner = await paidCashOut(11);
    await app.sql("update user_profiles set display_name = 'Secret Person' where id = $1", [owner.uid]);
    const viewer = await newMember(app);
    for (const path of ["/", "/withdraw"]) {
      const text = await eventually(
        async () => {
          const shown = await page(viewer.client, path);
          return shown.includes(line("11.00")) && shown;
        },
        { what: `the cash-out on ${path}` },
      );
      expect(text).toContain(FEED_TITLE);
      expect(text).toContain(`User${owner.uid.slice(0, 2)}** ${line("11.00")}`);
      expect(text).not.toContain("Secret Person");
      expect(text).not.toContain(owner.email);
    }
  });

  it("leaves a person's cash-outs out once they leave the list in Settings, and shows them when they come back", async () => {
    const owner = await paidCashOut(13);
    await eventually(async () => (await page(owner.client, "/")).includes(line("13.00")), {
      what: "the cash-out on Home",
    });
    expect(await page(owner.client, "/settings")).toContain("Leave Recent cash-outs");
    await landing(owner.client, await owner.client.post("/settings", { intent: "cashout-feed-off" }));
    expect(await page(owner.client, "/settings")).toContain("Show mine in Recent cash-outs");
    // The server that saved it reads the feed again at once.
    expect(await page(owner.client, "/")).not.toContain(line("13.00"));
    await landing(owner.client, await owner.client.post("/settings", { intent: "cashout-feed-on" }));
    expect(await page(owner.client, "/")).toContain(line("13.00"));
  });

  it("sends an open page that asks for the feed each new list, and a page that does not ask nothing of it", async () => {
    const viewer = await newMember(app);
    const withFeed = await openEvents(viewer.client, "/api/events?feed=1");
    const without = await openEvents(viewer.client);
    try {
      await paidCashOut(17);
      const data = await eventually(
        async () => {
          const items = JSON.parse(await withFeed.nextData("cashout-feed")) as { name: string; amount: number }[];
          return items.some((item) => Number(item.amount) === 17) && items;
        },
        { what: "a list with the new cash-out", timeoutMs: 20_000 },
      );
      expect(data[0]).toMatchObject({ kind: "cashout", method: "upi" });
      expect(without.said()).not.toContain("cashout-feed");
    } finally {
      withFeed.close();
      without.close();
    }
  });
});
