import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ruleMessage } from "~/domain/rules";
import { invalidSettingMessage, settingOf, SETTINGS } from "~/domain/settings";
import { visibleText } from "../support/bad-input";
import { ageSession, newMember, newOperator } from "../support/console";
import { html, landing, type HttpClient } from "../support/http";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// The console's settings (docs/operator-console.md, "Settings") on the production build with its
// own Postgres and the Auth emulator: an owner changes app_config through the page's plain HTML form
// (as a browser without JavaScript posts it), the people's screens follow at once, and every
// change is audited; everyone else may read at most, and bad input changes nothing.

const PAGE = "/admin/settings";

/** HTML entities back to text (attribute values and textarea contents). */
function unescape(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/**
 * The fields the settings form would post as the page drew it: inputs, ticked checkboxes (a list
 * for the network flags), selected options, textareas.
 */
function formFields(page: string): Record<string, string | string[]> {
  const form = /<form[^>]*id="settings"[^>]*>([\s\S]*?)<\/form>/.exec(page)?.[1];
  if (!form) throw new Error("the page has no settings form");
  const fields: Record<string, string | string[]> = {};
  for (const [input] of form.matchAll(/<input[^>]*>/g)) {
    const name = attribute(input, "name");
    if (!name) continue;
    const value = unescape(attribute(input, "value") ?? "");
    if (attribute(input, "type") !== "checkbox") fields[name] = value;
    else {
      // Listed even when none is ticked (the browser then posts nothing of it).
      const ticked = (fields[name] ??= []) as string[];
      if (/\schecked=""/.test(input)) ticked.push(value);
    }
  }
  for (const [, tag, options] of form.matchAll(/(<select[^>]*>)([\s\S]*?)<\/select>/g)) {
    const selected = /<option[^>]*value="([^"]*)"[^>]*selected=""/.exec(options!)?.[1];
    fields[attribute(tag!, "name")!] = selected ?? "";
  }
  for (const [, tag, text] of form.matchAll(/(<textarea[^>]*>)([\s\S]*?)<\/textarea>/g)) {
    fields[attribute(tag!, "name")!] = unescape(text!);
  }
  return fields;
}

/** The messages shown under a field (its error list, which the field's aria-describedby names). */
function fieldErrors(page: string, field: string): string {
  const list = new RegExp(`<ul id="settings-${field}-error"[^>]*>([\\s\\S]*?)</ul>`).exec(page)?.[1] ?? "";
  return unescape(list.replace(/<[^>]+>/g, " "));
}

describe("the console's settings", () => {
  let app: PostgresApp;
  let owner: { client: HttpClient; uid: string; email: string };

  beforeAll(async () => {
    app = await startPostgresApp();
    owner = await newOperator(app, "owner");
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  const config = async () => (await app.sql<Record<string, unknown>>("select * from app_config"))[0]!;
  const settingAudit = () =>
    app.sql<{
      actor_user_id: string;
      action: string;
      record_id: string;
      before: unknown;
      after: unknown;
      reason: string;
    }>(
      "select actor_user_id, action, record_id, before, after, reason from operator_actions where record_kind = 'setting' order by id",
    );

  /** The owner's settings form as the page shows it, with `changes` typed in. */
  async function filledForm(changes: Record<string, string | string[]>) {
    const response = await owner.client.get(PAGE);
    expect(response.status).toBe(200);
    return { ...formFields(await response.text()), intent: "save-settings", ...changes };
  }

  it("shows every setting in the form with its value, grouped by topic, with its help", async () => {
    const response = await owner.client.get(PAGE);
    expect(response.status).toBe(200);
    const page = await response.text();
    const fields = formFields(page);
    for (const setting of SETTINGS) expect(Object.keys(fields), setting.key).toContain(setting.key);
    expect(fields).toMatchObject({ checkin_coins: "10", min_withdrawal_upi: "1.00", review_first_withdrawal: "no" });
    expect(fields.version).toMatch(/^[0-9a-f]{32}$/);
    for (const topic of ["Coins and rewards", "Referrals", "Cash-outs and review by risk", "Holds and bonus money"])
      expect(page).toContain(`>${topic}</h2>`);
    expect(page).toContain(html(settingOf("coins_per_dollar").help));
    expect(page).toContain("Now: 10 coins ($0.10)<");
    expect(page).toContain("Reason for the change");
    expect(page).toMatch(/href="\/admin\/settings"[^>]*>Settings</);
  });

  it("an owner's change shows on the page, is held by app_config, audited once with before, after and reason, and reaches the people's screens at once", async () => {
    const member = await newMember(app);
    await app.sql("select record_email_verified($1)", [member.uid]);
    // The people's screens have read (and cached) the settings before the change.
    expect((await member.client.visit("/")).html).toContain("Check In Now (+10 coins)");
    expect((await member.client.visit("/withdraw")).html).toContain("Min. $1.00");
    const audit = await settingAudit();

    const response = await owner.client.post(
      PAGE,
      await filledForm({ checkin_coins: "25", min_withdrawal_upi: "2.5", reason: "Spring promotion" }),
    );
    expect(response.status).toBe(302);
    const after = await landing(owner.client, response);
    expect(after.location).toBe(PAGE);
    expect(after.html).toContain("Settings saved: 2 changed");
    expect(formFields(after.html)).toMatchObject({ checkin_coins: "25", min_withdrawal_upi: "2.50" });
    expect(after.html).toMatch(/data-testid="setting-change"[\s\S]*?Smallest UPI cash-out[\s\S]*?\$1\.00 → \$2\.50/);
    expect(after.html).toContain("Spring promotion");

    expect(await config()).toMatchObject({ checkin_coins: 25, min_withdrawal_upi: "2.50" });
    const added = (await settingAudit()).slice(audit.length);
    const entry = { actor_user_id: owner.uid, action: "set_setting", reason: "Spring promotion" };
    expect(added).toEqual([
      { ...entry, record_id: "checkin_coins", before: { value: 10 }, after: { value: 25 } },
      { ...entry, record_id: "min_withdrawal_upi", before: { value: 1.0 }, after: { value: 2.5 } },
    ]);

    expect((await member.client.visit("/")).html).toContain("Check In Now (+25 coins)");
    expect((await member.client.visit("/withdraw")).html).toContain("Min. $2.50");
  });

  it("a change on a session signed in more than 15 minutes ago asks for the password, keeps what was typed and changes nothing; with the password it is saved", async () => {
    const old = await newOperator(app, "owner");
    await ageSession(old.client, old.uid, 16 * 60);
    const page = (await old.client.visit(PAGE)).html;
    expect(page).toContain('id="settings-password"');
    const before = await config();
    const form = { ...formFields(page), intent: "save-settings", checkin_coins: "33", reason: "Raise the check-in" };
    const refused = await old.client.post(PAGE, form);
    expect(refused.status).toBe(403);
    const body = await refused.text();
    expect(body).toContain(
      "Enter your password: money, policy and access changes need a sign-in within the last 15 minutes.",
    );
    expect(formFields(body)).toMatchObject({ checkin_coins: "33", reason: "Raise the check-in" });
    expect((await config()).checkin_coins).toBe(before.checkin_coins);
    const wrong = await old.client.post(PAGE, { ...form, password: "not-the-password" });
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain("That password is not right.");
    expect((await config()).checkin_coins).toBe(before.checkin_coins);
    const saved = await old.client.post(PAGE, { ...form, password: "s3cret-pass" });
    expect(saved.status).toBe(302);
    expect((await config()).checkin_coins).toBe(33);
    await app.sql("update app_config set checkin_coins = $1", [before.checkin_coins]);
  });

  it("loosening a money rule (approval limit, review threshold, first cash-out review) waits for a second owner: the asker cannot approve it, another owner applies it, a withdrawn one changes nothing, all audited", async () => {
    const second = await newOperator(app, "owner");
    const before = await config();
    const asked = await owner.client.post(
      PAGE,
      await filledForm({
        adjustment_approval_above: "100000",
        risk_review_threshold: "101",
        review_first_withdrawal: "no",
        checkin_coins: String(Number(before.checkin_coins) + 1),
        reason: "Fewer reviews",
      }),
    );
    expect(asked.status).toBe(302);
    const told = visibleText((await landing(owner.client, asked)).html);
    expect(told).toContain("Settings saved: 1 changed");
    expect(told).toContain("Waiting for a second owner:");
    // The tightening-neutral part applied; the loosening part did not.
    const now = await config();
    expect(now.checkin_coins).toBe(Number(before.checkin_coins) + 1);
    expect([now.adjustment_approval_above, now.risk_review_threshold, now.review_first_withdrawal]).toEqual([
      before.adjustment_approval_above,
      before.risk_review_threshold,
      before.review_first_withdrawal,
    ]);
    const [change] = await app.sql<{ id: string; apply_after: string | null }>(
      "select id::text, apply_after from setting_changes where state = 'waiting' order by id desc limit 1",
    );
    expect(change!.apply_after).toBeNull();
    const page = visibleText((await second.client.visit(PAGE)).html);
    expect(page).toContain("Waiting for a second owner");
    expect(page).toContain("Asked by");

    const own = await owner.client.post(PAGE, { intent: "approve-change", change: change!.id });
    expect(own.status).toBe(400);
    expect(visibleText(await own.text())).toContain("Another owner must approve a change you asked for");
    expect((await config()).risk_review_threshold).toBe(before.risk_review_threshold);

    const approved = await second.client.post(PAGE, { intent: "approve-change", change: change!.id });
    expect(approved.status).toBe(302);
    const after = await config();
    expect([
      Number(after.adjustment_approval_above),
      after.risk_review_threshold,
      after.review_first_withdrawal,
    ]).toEqual([100000, 101, false]);
    const audit = await app.sql<{ action: string; record_id: string; detail: Record<string, unknown> }>(
      "select action, record_id, detail from operator_actions where (record_kind = 'setting_change' and record_id = $1) or (action = 'refused' and record_id = $1) or (record_kind = 'setting' and detail->>'change_id' = $1) order by id",
      [change!.id],
    );
    const [asked_] = await app.sql<{ n: number }>(
      "select count(*)::int as n from jsonb_object_keys((select settings from setting_changes where id = $1))",
      [change!.id],
    );
    expect(asked_!.n).toBeGreaterThanOrEqual(2);
    expect(audit.map((row) => row.action)).toEqual([
      "setting_change_asked",
      "refused",
      ...Array.from({ length: asked_!.n }, () => "set_setting"),
      "setting_change_approve",
    ]);
    expect(audit[2]!.detail).toMatchObject({ approved_by_user_id: second.uid });

    // A second ask, withdrawn: nothing changes.
    const again = await owner.client.post(
      PAGE,
      await filledForm({ postback_hold_days: String(Number(after.postback_hold_days) + 1), reason: "Longer holds" }),
    );
    expect(again.status).toBe(302);
    const [next] = await app.sql<{ id: string }>(
      "select id::text from setting_changes where state = 'waiting' order by id desc limit 1",
    );
    expect((await second.client.post(PAGE, { intent: "withdraw-change", change: next!.id })).status).toBe(302);
    expect((await config()).postback_hold_days).toBe(after.postback_hold_days);
    expect(await app.sql("select state from setting_changes where id = $1", [next!.id])).toEqual([
      { state: "withdrawn" },
    ]);
    await app.sql(
      "update app_config set adjustment_approval_above = $1, risk_review_threshold = $2, review_first_withdrawal = $3, checkin_coins = $4",
      [
        before.adjustment_approval_above,
        before.risk_review_threshold,
        before.review_first_withdrawal,
        before.checkin_coins,
      ],
    );
  });

  it("the network flags are checkboxes: ticking VPN and Tor applies at once, audited as a list; unticking one waits for a second owner", async () => {
    const ticked = await owner.client.post(
      PAGE,
      await filledForm({ network_pause_flags: ["vpn", "tor"], reason: "Pause earning from VPNs and Tor" }),
    );
    expect(ticked.status, visibleText(await ticked.clone().text()).slice(0, 600)).toBe(302);
    const page = (await landing(owner.client, ticked)).html;
    expect(visibleText(page)).toContain("Settings saved: 1 changed");
    expect(formFields(page).network_pause_flags).toEqual(["vpn", "tor"]);
    expect(visibleText(page)).toContain("Now: VPN, Tor");
    expect((await config()).network_pause_flags).toEqual(["vpn", "tor"]);
    expect((await settingAudit()).at(-1)).toMatchObject({
      record_id: "network_pause_flags",
      before: { value: [] },
      after: { value: ["vpn", "tor"] },
    });

    const unticked = await owner.client.post(
      PAGE,
      await filledForm({ network_pause_flags: ["vpn"], reason: "Tor earns again" }),
    );
    expect(visibleText((await landing(owner.client, unticked)).html)).toContain("Waiting for a second owner:");
    expect((await config()).network_pause_flags).toEqual(["vpn", "tor"]);
    await app.sql("update setting_changes set state = 'withdrawn' where state = 'waiting'");

    const unknown = await owner.client.post(PAGE, await filledForm({ network_review_flags: ["mobile"], reason: "x" }));
    expect(unknown.status).toBe(400);
    expect(fieldErrors(await unknown.text(), "network_review_flags")).toContain("Tick only the networks listed");
  });

  it("a save that changes nothing says so and writes no audit entry", async () => {
    const audit = await settingAudit();
    const response = await owner.client.post(PAGE, await filledForm({ reason: "Just looking" }));
    expect(response.status).toBe(302);
    expect((await landing(owner.client, response)).html).toContain("Nothing changed");
    expect(await settingAudit()).toEqual(audit);
  });

  it("out-of-range, non-numeric and malformed values and a missing reason answer 400 with the message on the field, changing nothing", async () => {
    const before = await config();
    const audit = await settingAudit();
    const cases: [Record<string, string>, string, string][] = [
      [{ checkin_coins: "0" }, "checkin_coins", invalidSettingMessage(settingOf("checkin_coins"))],
      [{ checkin_coins: "ten" }, "checkin_coins", invalidSettingMessage(settingOf("checkin_coins"))],
      [
        { min_withdrawal_paypal: "5.001" },
        "min_withdrawal_paypal",
        invalidSettingMessage(settingOf("min_withdrawal_paypal")),
      ],
      [{ postback_hold_days: "366" }, "postback_hold_days", invalidSettingMessage(settingOf("postback_hold_days"))],
      [
        { provider_hold_days: '{"BitLabs": 14}' },
        "provider_hold_days",
        invalidSettingMessage(settingOf("provider_hold_days")),
      ],
      [{ review_first_withdrawal: "maybe" }, "review_first_withdrawal", "Choose Yes or No"],
      [{ reason: "  " }, "reason", ruleMessage("reason_required")],
    ];
    for (const [changes, field, message] of cases) {
      // Every other value is a valid change: none of them may be saved either.
      const form = await filledForm({ withdrawals_per_hour: "9", reason: "Testing refusals", ...changes });
      const response = await owner.client.post(PAGE, form);
      expect(response.status, JSON.stringify(changes)).toBe(400);
      const page = await response.text();
      expect(fieldErrors(page, field), JSON.stringify(changes)).toContain(message);
      expect(page).toMatch(
        new RegExp(`id="settings-${field}"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="settings-${field}"`),
      );
      // What was typed stays in the form (a field the person types in).
      if (!["reason", "review_first_withdrawal"].includes(field)) expect(formFields(page)[field]).toBe(changes[field]);
    }
    expect(await config()).toEqual(before);
    expect(await settingAudit()).toEqual(audit);
  });

  it("a form opened before another owner's save is refused with 409, saving nothing, and the page shows the new values", async () => {
    const stale = await filledForm({ withdrawals_per_hour: "6", reason: "From an old tab" });
    const second = await newOperator(app, "owner");
    const saved = await second.client.post(PAGE, {
      ...formFields(await (await second.client.get(PAGE)).text()),
      intent: "save-settings",
      notice_delivery_attempts: "12",
      reason: "Other owner",
    });
    expect(saved.status).toBe(302);
    const before = await config();
    const response = await owner.client.post(PAGE, stale);
    expect(response.status).toBe(409);
    const page = await response.text();
    expect(page).toContain(html(ruleMessage("settings_changed")));
    expect(page).toContain("Now: 12<");
    expect(await config()).toEqual(before);
  });

  for (const role of ["finance", "support"] as const) {
    it(`${role} reads the settings with the form disabled, and a post is refused with the console's 404, changing nothing`, async () => {
      const { client } = await newOperator(app, role);
      const response = await client.get(PAGE);
      expect(response.status).toBe(200);
      const page = await response.text();
      expect(page).toContain("Only an owner can change settings.");
      expect(page).toMatch(/<fieldset[^>]*disabled=""/);
      expect(page).not.toContain("Save settings");
      expect(formFields(page)).toMatchObject({ checkin_coins: String((await config()).checkin_coins) });

      const before = await config();
      const audit = await settingAudit();
      const post = await client.post(PAGE, await filledForm({ checkin_coins: "99", reason: `${role} tries` }));
      expect(post.status).toBe(404);
      expect(await post.text()).not.toContain("Settings saved");
      expect(await config()).toEqual(before);
      expect(await settingAudit()).toEqual(audit);
    });
  }

  it("a member gets the app's 404 for the page, its data and a post", async () => {
    const { client } = await newMember(app);
    for (const path of [PAGE, `${PAGE}?before=5`, "/admin/settings.data"]) {
      const response = await client.get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toMatch(/Coins per dollar|checkin_coins|Only an owner/);
    }
    const before = await config();
    const post = await client.post(PAGE, await filledForm({ checkin_coins: "99", reason: "member" }));
    expect(post.status).toBe(404);
    expect(await config()).toEqual(before);
  });

  it("a post from another site is refused with 403 before anything is read, changing nothing", async () => {
    const before = await config();
    const response = await owner.client.post(PAGE, await filledForm({ checkin_coins: "99", reason: "forged" }), {
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
    });
    expect(response.status).toBe(403);
    expect(await config()).toEqual(before);
  });

  it("lists the changes newest first, 20 a page, paged by URL", async () => {
    for (let attempts = 20; attempts <= 41; attempts++) {
      await app.sql(
        "select operator_set_settings($1, 'Ana', jsonb_build_object('notice_delivery_attempts', $2::int), 'paging')",
        [owner.uid, attempts],
      );
    }
    const first = await (await owner.client.get(PAGE)).text();
    expect(first.match(/data-testid="setting-change"/g)).toHaveLength(20);
    expect(first).toMatch(/data-testid="setting-change"[\s\S]*?40 → 41/);
    const older = /href="\/admin\/settings\?before=(\d+)"/.exec(first);
    expect(older).not.toBeNull();
    const second = await (await owner.client.get(`${PAGE}?before=${older![1]}`)).text();
    expect(second).toContain("Newest changes");
    expect(second).toMatch(/data-testid="setting-change"[\s\S]*?20 → 21/);
    expect(second).not.toMatch(/40 → 41/);
    // A `before` that is no id shows the newest page.
    const edited = await owner.client.get(`${PAGE}?before=%27%3Bdrop`);
    expect(edited.status).toBe(200);
    expect((await edited.text()).match(/data-testid="setting-change"/g)).toHaveLength(20);
  });
});
