import { MISSING_CREDIT_MESSAGES } from "~/routes/earn_.offers/missing-credit-form";
import { createHash, createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleMessage } from "~/domain/rules";
import { html, landing, type HttpClient } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// Issue 19, item 4: "My offers" (/earn/offers) lists each offer credit with its network, name,
// coins, status and date; "Report missing credit" records a ticket the operator can read, and
// shows the network's own support. Credits arrive as the networks sign them (BitLabs with no
// hold, Torox with 5 days), over HTTP to a running app on Postgres; the page is read without
// JavaScript (its HTML), as a phone with scripts off would.

const BITLABS_SECRET = "bitlabs-app-secret-my-offers";
const TOROX_SECRET = "torox-secret-my-offers";
const TOROX_SUPPORT = "https://support.torox.example/help";

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

describe("My offers and missing-credit reports over HTTP", () => {
  let app: PostgresApp;
  let person: { uid: string; wallId: string; client: HttpClient };
  let seq = 0;
  const tx = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

  const bitlabs = async (params: Record<string, string>) => {
    const unsigned = `${app.url}/api/bitlabs/postback?${new URLSearchParams(params)}`;
    const response = await fetch(
      `${unsigned}&hash=${createHmac("sha1", BITLABS_SECRET).update(unsigned).digest("hex")}`,
    );
    expect([response.status, await response.text()]).toEqual([200, "OK"]);
  };
  const torox = async (params: { id: string; oid: string; amount: string; o_name: string }) => {
    const query = new URLSearchParams({
      ...params,
      user_id: person.wallId,
      sig: md5(`${params.oid}-${person.wallId}-${TOROX_SECRET}`),
    });
    const response = await fetch(`${app.url}/api/torox/postback?${query}`);
    expect([response.status, await response.text()]).toEqual([200, "1"]);
  };
  const page = async (path = "/earn/offers") => {
    const { response, html: body } = await person.client.visit(path);
    expect(response.status).toBe(200);
    // Without React's markers between the parts of one text ("Report a missing <!-- -->Torox").
    return body.replace(/<!-- -->/g, "");
  };
  /** The text of the page's offer credits list, tags removed: what a person reads, in order. */
  const creditsText = (body: string) =>
    body
      .slice(
        body.indexOf('aria-label="Offer credits"'),
        body.indexOf("</ul>", body.indexOf('aria-label="Offer credits"')),
      )
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
  const report = (fields: Record<string, string>) =>
    person.client.post("/earn/offers?report=torox", { intent: "report-missing-credit", network: "torox", ...fields });
  const today = () => new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    app = await startPostgresApp({
      WALL_BITLABS_ENABLED: "true",
      WALL_BITLABS_APP_TOKEN: "bitlabs-token",
      WALL_BITLABS_APP_SECRET: BITLABS_SECRET,
      WALL_BITLABS_HOLD_DAYS: "0",
      WALL_TOROX_ENABLED: "true",
      WALL_TOROX_PUBLISHER_ID: "14",
      WALL_TOROX_APP_ID: "5",
      WALL_TOROX_SECRET: TOROX_SECRET,
      WALL_TOROX_HOLD_DAYS: "5",
      // The test sends from loopback, with no proxy in front: that is the sender to allow.
      WALL_TOROX_ALLOWED_ADDRESSES: "127.0.0.1",
      WALL_TOROX_SUPPORT_URL: TOROX_SUPPORT,
    });
    const { email, client } = await app.signUp();
    const [row] = await app.sql<{ id: string; wall_id: string }>(
      "select id, wall_id from user_profiles where email = $1",
      [email],
    );
    person = { uid: row!.id, wallId: row!.wall_id, client };
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it("says there are no offer credits yet, with a way to find offers, before any postback", async () => {
    const body = await page();
    expect(body).toContain("No offer credits yet. Offers you complete show here once the network confirms them.");
    expect(body).toMatch(/href="\/earn"[^>]*>.*Find offers/s);
  });

  it("lists each credit newest first with its network, offer name, dollars and coins, and status: available after no hold, pending until the hold's end, reversed once taken back", async () => {
    await bitlabs({
      uid: person.wallId,
      tx: tx("bl"),
      val: "150",
      raw: "1.50",
      type: "COMPLETE",
      offer_name: "Puzzle Quest",
    });
    const held = tx("tr");
    await torox({ id: held, oid: "77", amount: "250", o_name: "Tower Builder" });
    const reversed = tx("tr");
    await torox({ id: reversed, oid: "78", amount: "40", o_name: "Quiz Night" });
    // Torox's negative amount is not signed: the reversal waits for an operator, who approves it.
    await torox({ id: reversed, oid: "78", amount: "-40", o_name: "Quiz Night" });
    const finance = await app.signUp();
    const [{ id: financeId }] = (await app.sql<{ id: string }>("select id from user_profiles where email = $1", [
      finance.email,
    ])) as [{ id: string }];
    await app.sql("insert into operators (user_id, role, granted_by) values ($1, 'finance', 'my-offers test')", [
      financeId,
    ]);
    const [{ id: heldId }] = (await app.sql<{ id: string }>(
      "select id::text from held_postbacks where network = 'torox' and transaction_id = $1 and kind = 'reversal'",
      [reversed],
    )) as [{ id: string }];
    await app.sql("select decide_held_postback($1, $2::bigint, true, 'Torox dashboard shows the chargeback')", [
      financeId,
      heldId,
    ]);

    // As the page writes a date: "Nov 30, 2026", in UTC.
    const [{ pendingUntil }] = (await app.sql<{ pendingUntil: string }>(
      `select to_char(available_at at time zone 'UTC', 'Mon FMDD, YYYY') as "pendingUntil"
         from provider_postbacks where provider = 'torox' and transaction_id = $1`,
      [held],
    )) as [{ pendingUntil: string }];

    const text = creditsText(await page());
    const quiz = text.indexOf("Quiz Night");
    const tower = text.indexOf("Tower Builder");
    const puzzle = text.indexOf("Puzzle Quest");
    expect(quiz).toBeGreaterThanOrEqual(0);
    expect(quiz < tower && tower < puzzle).toBe(true);
    expect(text.slice(quiz, tower)).toMatch(/Torox · .*Reversed .*\+\$0\.40 40 coins/);
    expect(text.slice(tower, puzzle)).toContain(`Pending until ${pendingUntil}`);
    expect(text.slice(tower, puzzle)).toMatch(/Torox ·.*\+\$2\.50 250 coins/);
    expect(text.slice(puzzle)).toMatch(/BitLabs ·.*Available.*\+\$1\.50 150 coins/);
  });

  it("shows only the signed-in person's credits: another account's page lists none of them", async () => {
    const other = await app.signUp();
    const { html: body } = await other.client.visit("/earn/offers");
    expect(body).toContain("No offer credits yet.");
    expect(body).not.toContain("Tower Builder");
  });

  it("is linked from Earn and from Profile's Recent Activity", async () => {
    expect(await page("/earn")).toMatch(/href="\/earn\/offers"/);
    expect(await page("/profile")).toMatch(/href="\/earn\/offers"[^>]*>My offers/);
  });

  it("offers a report form per network turned on; Torox's shows its wall and the operator's support link for it", async () => {
    const listing = await page();
    expect(listing).toContain("Report a missing BitLabs credit");
    expect(listing).toContain("Report a missing Torox credit");
    expect(listing).not.toContain('name="offerName"');
    const form = await page("/earn/offers?report=torox");
    expect(form).toMatch(/<input type="hidden" name="network" value="torox"\/>/);
    expect(form).toContain(`href="${TOROX_SUPPORT}"`);
    expect(form).toMatch(/href="\/earn\/walls\/torox"/);
    expect(form).toMatch(new RegExp(`type="date"[^>]*max="${today()}"`));
  });

  it("records a report without JavaScript: a redirect with the flash, then the report under Your reports, open, and a ticket row for the operator", async () => {
    const sent = await report({
      offerName: "Dragon Farm",
      completedOn: today(),
      details: "Installed and reached level 10.",
    });
    const { location, html: after } = await landing(person.client, sent);
    expect(location).toBe("/earn/offers");
    expect(after).toContain("Report sent");
    expect(after).toContain("We will look into your Torox offer. Its status shows under Your reports.");
    expect(after).toMatch(/Dragon Farm[\s\S]*data-testid="ticket-status">Open</);
    const rows = await app.sql<{ network: string; offer_name: string; details: string; status: string }>(
      "select network, offer_name, details, status from missing_credit_reports where user_id = $1",
      [person.uid],
    );
    expect(rows).toEqual([
      { network: "torox", offer_name: "Dragon Farm", details: "Installed and reached level 10.", status: "open" },
    ]);
  });

  it("refuses blanks, a date ahead of today or older than 90 days, and a network that is not turned on, each saying why and recording nothing", async () => {
    const count = async () =>
      (
        await app.sql<{ n: number }>("select count(*)::int as n from missing_credit_reports where user_id = $1", [
          person.uid,
        ])
      )[0]!.n;
    const before = await count();
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const old = new Date(Date.now() - 91 * 86_400_000).toISOString().slice(0, 10);
    const cases: [Record<string, string>, string][] = [
      [{ offerName: "", completedOn: today(), details: "Did it." }, MISSING_CREDIT_MESSAGES.blank.offerName],
      [{ offerName: "X", completedOn: today(), details: "   " }, MISSING_CREDIT_MESSAGES.blank.details],
      [{ offerName: "X", completedOn: tomorrow, details: "Did it." }, ruleMessage("missing_credit_date_out_of_range")],
      [{ offerName: "X", completedOn: old, details: "Did it." }, ruleMessage("missing_credit_date_out_of_range")],
      [
        { offerName: "X", completedOn: "25/11/2026", details: "Did it." },
        ruleMessage("missing_credit_date_out_of_range"),
      ],
      [{ offerName: "X", completedOn: today(), details: "y".repeat(2001) }, ruleMessage("missing_credit_too_long")],
      [
        { offerName: "X", completedOn: today(), details: "Did it.", network: "adgate" },
        "Please choose one of the networks listed on this page.",
      ],
    ];
    for (const [fields, message] of cases) {
      const refused = await report(fields);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(await refused.text()).toContain(html(message));
    }
    expect(await count()).toBe(before);
  });

  it("keeps at most 5 reports waiting for an answer per person, and says so on the sixth", async () => {
    const open = async () =>
      (
        await app.sql<{ n: number }>(
          "select count(*)::int as n from missing_credit_reports where user_id = $1 and status = 'open'",
          [person.uid],
        )
      )[0]!.n;
    while ((await open()) < 5) {
      expect(
        (await report({ offerName: `Offer ${await open()}`, completedOn: today(), details: "Done." })).status,
      ).toBe(302);
    }
    const sixth = await report({ offerName: "One more", completedOn: today(), details: "Done." });
    expect(sixth.status).toBe(400);
    expect(await sixth.text()).toContain(html(ruleMessage("too_many_missing_credit_reports")));
    expect(await open()).toBe(5);
  });

  it("sends a signed-out visitor to sign in, for the page and for a report", async () => {
    const response = await fetch(`${app.url}/earn/offers`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth?redirectTo=%2Fearn%2Foffers");
  });
});
