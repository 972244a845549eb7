import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ageSession, newMember, newOperator, signInAs } from "../support/console";
import type { HttpClient } from "../support/http";
import { runOperator } from "../support/operator";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";
import { stepNow, totp } from "../support/totp";

// The console's authenticator (issue 38, point 2; docs/decisions/093), over HTTP on Postgres as a
// production server runs it (OPERATOR_2FA on, as in every deployment): an operator without a
// confirmed authenticator cannot open /admin; enrolment shows a QR code and the key, a first code
// confirms it and shows ten recovery codes; each code is used once; a recovery code opens the
// console once; the step-up asks for a code with the password; `npm run operator -- reset-2fa`
// removes it, audited. The codes are computed here from RFC 6238, apart from the app's own code.

describe("the operator console's authenticator", () => {
  let app: PostgresApp;

  beforeAll(async () => {
    app = await startPostgresApp({ OPERATOR_2FA: "on" });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  const location = (response: Response) => response.headers.get("location");

  /**
   * Enrols `client`'s operator with the code of the current step: the secret from the page, that
   * step, and the recovery codes the first code shows.
   */
  async function enrol(client: HttpClient) {
    const page = await (await client.get("/admin/2fa")).text();
    const secret = /data-testid="totp-secret"[^>]*>([A-Z2-7 ]+)</.exec(page)![1]!;
    const step = stepNow();
    const confirmed = await client.post("/admin/2fa", { intent: "totp-code", code: totp(secret, step) });
    expect(confirmed.status).toBe(200);
    const shown = await confirmed.text();
    const recovery = [...shown.matchAll(/>([A-Z2-7]{4}-[A-Z2-7]{4})</g)].map((match) => match[1]!);
    return { secret, step, recovery };
  }
  /** The operator `email` signed in on a new browser (the password alone). */
  const newBrowser = (email: string) => signInAs(app, email);

  it("an operator without an authenticator cannot open /admin (sent to set one up); a member still gets the 404", async () => {
    const owner = await newOperator(app, "owner");
    const console = await owner.client.get("/admin/withdrawals");
    expect(console.status).toBe(302);
    expect(location(console)).toBe("/admin/2fa?redirectTo=%2Fadmin%2Fwithdrawals");
    // A post too: nothing moves without the second factor.
    expect((await owner.client.post("/admin/withdrawals", { intent: "approve-selected" })).status).toBe(302);
    const member = await newMember(app);
    expect((await member.client.get("/admin")).status).toBe(404);
    expect((await member.client.get("/admin/2fa")).status).toBe(404);
  });

  it("enrolment shows a QR code of the otpauth URI and the typed key; a first code turns it on and shows ten recovery codes once; the console opens", async () => {
    const owner = await newOperator(app, "owner");
    const page = await (await owner.client.get("/admin/2fa?redirectTo=%2Fadmin%2Fsettings")).text();
    expect(page).toContain("Set up your authenticator");
    expect(page).toMatch(/role="img" aria-label="QR code to scan with your authenticator app"[^>]*><svg/);
    // A reload shows the same key until a code confirms it.
    const again = await (await owner.client.get("/admin/2fa")).text();
    const key = (html: string) => /data-testid="totp-secret"[^>]*>([A-Z2-7 ]+)</.exec(html)![1]!;
    expect(key(again)).toBe(key(page));
    expect(key(page).replace(/ /g, "")).toMatch(/^[A-Z2-7]{32}$/);

    const wrong = await owner.client.post("/admin/2fa", { intent: "totp-code", code: "000000" });
    expect(wrong.status).toBe(400);
    const { recovery } = await enrol(owner.client);
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    expect((await owner.client.get("/admin/settings")).status).toBe(200);
    // Stored sealed: neither the key nor a recovery code is in the database as typed.
    const [row] = await app.sql<{ secret_sealed: string }>(
      "select secret_sealed from operator_totp where user_id = $1",
      [owner.uid],
    );
    expect(row!.secret_sealed).not.toContain(key(page).replace(/ /g, ""));
    const hashes = await app.sql<{ code_hash: string }>(
      "select code_hash from operator_recovery_codes where user_id = $1",
      [owner.uid],
    );
    expect(hashes.map((hash) => hash.code_hash)).not.toContain(recovery[0]);
    const [audit] = await app.sql<{ action: string }>(
      "select action from operator_actions where user_id = $1 and action = 'enrol_authenticator'",
      [owner.uid],
    );
    expect(audit).toBeDefined();
  });

  it("a signed-in operator is asked for a code again on a new sign-in; a replayed code is refused; the next step's code is accepted", async () => {
    const owner = await newOperator(app, "finance");
    const { secret, step } = await enrol(owner.client);
    // Another browser, signed in with the password alone (the thief's, say): no console without a code.
    const other = await newBrowser(owner.email);
    expect(location(await other.get("/admin"))).toBe("/admin/2fa?redirectTo=%2Fadmin");
    // The code of the step just used at enrolment is spent: a replay is refused.
    const replayed = await other.post("/admin/2fa", { intent: "totp-code", code: totp(secret, step) });
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain("That code is not right, or was already used.");
    // The next step's code (the app accepts one step either way) passes, once.
    const next = await other.post("/admin/2fa?redirectTo=%2Fadmin", {
      intent: "totp-code",
      code: totp(secret, step + 1),
    });
    expect(location(next)).toBe("/admin");
    expect((await other.get("/admin")).status).toBe(200);
    const third = await newBrowser(owner.email);
    expect((await third.post("/admin/2fa", { intent: "totp-code", code: totp(secret, step + 1) })).status).toBe(400);
  });

  it("a recovery code opens the console once; used again it is refused", async () => {
    const owner = await newOperator(app, "support");
    const { recovery } = await enrol(owner.client);
    const lostPhone = await newBrowser(owner.email);
    const used = await lostPhone.post("/admin/2fa", {
      intent: "totp-recovery",
      recoveryCode: recovery[3]!.toLowerCase(),
    });
    expect(location(used)).toBe("/admin");
    expect((await lostPhone.get("/admin")).status).toBe(200);
    const again = await newBrowser(owner.email);
    const refused = await again.post("/admin/2fa", { intent: "totp-recovery", recoveryCode: recovery[3]! });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("That is not one of your recovery codes, or it was already used.");
  });

  it("the 15-minute step-up asks for the password and an authenticator code: the password alone changes nothing", async () => {
    const owner = await newOperator(app, "owner");
    const { secret, step } = await enrol(owner.client);
    await ageSession(owner.client, owner.uid, 20 * 60);
    const page = await (await owner.client.get("/admin/settings")).text();
    expect(page).toContain('name="totpCode"');
    const before = (await app.sql<{ checkin_coins: number }>("select checkin_coins from app_config"))[0]!.checkin_coins;
    const form = settingsForm(page, { checkin_coins: String(before + 1), reason: "Step-up test" });
    const passwordOnly = await owner.client.post("/admin/settings", { ...form, password: "s3cret-pass" });
    expect(passwordOnly.status).toBe(403);
    expect(await passwordOnly.text()).toContain("Enter your password and the code your authenticator app shows now.");
    const wrongCode = await owner.client.post("/admin/settings", {
      ...form,
      password: "s3cret-pass",
      totpCode: "000000",
    });
    expect(wrongCode.status).toBe(403);
    expect((await app.sql<{ checkin_coins: number }>("select checkin_coins from app_config"))[0]!.checkin_coins).toBe(
      before,
    );
    const both = await owner.client.post("/admin/settings", {
      ...form,
      password: "s3cret-pass",
      totpCode: totp(secret, step + 1),
    });
    expect(both.status).toBe(302);
    expect((await app.sql<{ checkin_coins: number }>("select checkin_coins from app_config"))[0]!.checkin_coins).toBe(
      before + 1,
    );
  });

  it("npm run operator -- reset-2fa removes the authenticator, audited with the actor: the operator sets up a new one", async () => {
    const owner = await newOperator(app, "owner");
    await enrol(owner.client);
    const run = await runOperator(
      app.scratchUrl,
      ["reset-2fa", owner.email],
      { OPERATOR_NAME: "Ana Owner" },
      "build/operator.js",
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${owner.email}'s authenticator and recovery codes were removed`);
    expect(await app.sql("select * from operator_totp where user_id = $1", [owner.uid])).toEqual([]);
    const [audit] = await app.sql<{ actor: string }>(
      "select actor from operator_actions where user_id = $1 and action = 'reset_authenticator'",
      [owner.uid],
    );
    expect(audit!.actor).toBe("Ana Owner");
    const fresh = await newBrowser(owner.email);
    expect(await (await fresh.get("/admin/2fa")).text()).toContain("Set up your authenticator");
  });
});

/** The console's settings form as its page shows it, with `changes`. */
function settingsForm(page: string, changes: Record<string, string>): Record<string, string | string[]> {
  const form = /<form[^>]*id="settings"[^>]*>([\s\S]*?)<\/form>/.exec(page)![1]!;
  const fields: Record<string, string | string[]> = {};
  for (const [input] of form.matchAll(/<input[^>]*>/g)) {
    const name = /\sname="([^"]*)"/.exec(input)?.[1];
    const value = /\svalue="([^"]*)"/.exec(input)?.[1] ?? "";
    if (!name || name === "password" || name === "totpCode") continue;
    if (/type="checkbox"/.test(input)) {
      if (/\schecked=""/.test(input)) fields[name] = [...((fields[name] as string[]) ?? []), value];
    } else fields[name] = value;
  }
  for (const [, tag, options] of form.matchAll(/(<select[^>]*>)([\s\S]*?)<\/select>/g)) {
    fields[/\sname="([^"]*)"/.exec(tag!)![1]!] =
      /<option[^>]*value="([^"]*)"[^>]*selected=""/.exec(options!)?.[1] ?? "";
  }
  for (const [, tag, text] of form.matchAll(/(<textarea[^>]*>)([\s\S]*?)<\/textarea>/g)) {
    // The lists of levels and goals are JSON, which the page escapes.
    fields[/\sname="([^"]*)"/.exec(tag!)![1]!] = text!
      .replaceAll("&quot;", '"')
      .replaceAll("&#x27;", "'")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
  }
  return { ...fields, intent: "save-settings", ...changes };
}
