import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasHiddenCharacters } from "~/domain/hidden-characters";
import { ruleViolation } from "~/server/db/core.server";
import { migrateDatabase } from "~/server/db/migrations.server";
import { pgliteDatabase } from "~/server/db/pglite.server";
import { dbRefusal, MIGRATIONS_DIR, openTestPglite, type TestDatabase } from "../support/db";
import { newUserId, provisionMember } from "../support/arrange";

// Security round 2 (supabase/migrations/20261128000000_display_names_and_recipients.sql): one
// display-name rule wherever a name is written, referral notices without the friend's name, and
// recipients without hidden characters.

/** What the issue saw stored: 389 characters with line breaks and markup. */
const CRAFTED_389 = `<b>Rewards Support</b>\r\n<a href="https://evil.example">Verify</a>\r\n${"x".repeat(322)}`;
const PHISHING = "Rewards Security Team: confirm your UPI PIN now";

/** Names that break the rule by a hidden character, each otherwise a fine name. */
const HIDDEN_NAMES: Record<string, string> = {
  "CR LF": "Ana\r\nLima",
  LF: "Ana\nLima",
  tab: "Ana\tLima",
  ESC: "Ana\u001b[8mLima",
  DEL: "Ana\u007fLima",
  "C1 CSI": "Ana\u009bLima",
  "U+202E right-to-left override": "Ana\u202eamiL",
  "U+202A left-to-right embedding": "\u202aAna Lima",
  "U+200B zero-width space": "Ana\u200bLima",
  "U+200D zero-width joiner": "Ana\u200dLima",
  "U+200F right-to-left mark": "Ana Lima\u200f",
  "U+2066 left-to-right isolate": "\u2066Ana Lima",
  "U+2069 pop directional isolate": "Ana Lima\u2069",
  "U+2060 word joiner": "Ana\u2060Lima",
  "U+FEFF byte order mark": "\ufeffAna Lima",
  "U+2028 line separator": "Ana\u2028Lima",
  "U+00AD soft hyphen": "Ana\u00adLima",
  "U+E0041 tag": "Ana\u{e0041}Lima",
};

interface Summary {
  id: string;
  display_name: string;
  preferences: Record<string, unknown>;
}

// Not provisionMember: the name here is the input under test (any value), and the summary is what is checked.
function provision(t: TestDatabase, name: unknown, email: string | null = null, userId = newUserId("hidden")) {
  return t.db.rpc<Summary>("provision_user", { p_user_id: userId, p_email: email, p_display_name: name });
}

function updateName(t: TestDatabase, userId: string, name: unknown) {
  return t.db.rpc<Summary>("update_display_name", { p_user_id: userId, p_display_name: name });
}

async function storedName(t: TestDatabase, userId: string) {
  const [row] = await t.sql<{ display_name: string; preferences: Record<string, unknown> }>(
    "select display_name, preferences from user_profiles where id = $1",
    [userId],
  );
  return row!;
}

/** A verified user with $100. */
const payee = (t: TestDatabase) => provisionMember(t, { prefix: "payee", name: "Payee", coins: 10_000 });

function withdraw(t: TestDatabase, userId: string, method: "paypal" | "upi" | "bank", recipient: string) {
  return t.db.rpc<{ id: string }>("create_withdrawal", {
    p_user_id: userId,
    amount_param: 10,
    payment_method_param: method,
    recipient_email_param: method === "paypal" ? recipient : null,
    recipient_upi_param: method === "upi" ? recipient : null,
    recipient_bank_details_param: method === "bank" ? { details: recipient } : null,
  });
}

async function moneyState(t: TestDatabase, userId: string) {
  const [row] = await t.sql<{ balance: string; withdrawals: number; ledger: number }>(
    `select (select balance::text from user_balance where user_id = $1) as balance,
            (select count(*)::int from withdrawals where user_id = $1) as withdrawals,
            (select count(*)::int from transaction_history where user_id = $1) as ledger`,
    [userId],
  );
  return row!;
}

// The rules are SQL, run here on PGlite (Postgres's own engine, compiled); the HTTP suite runs them
// again through the app on the Postgres server, and races are proven on the server
// (tests/integration/concurrency.test.ts, tests/http/pooler.test.ts).
describe.each([["PGlite", openTestPglite]])("hidden characters on %s", (_name, open) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("has_hidden_characters picks out exactly the characters of app/domain/hidden-characters.ts, over all of Unicode", async () => {
    // Bounded work, not a long call: 1,114,111 calls took PGlite over 30 s on a busy machine. A
    // string has a hidden character when one of its characters is one, so each block of 256 code
    // points is asked once, and only the blocks that answer yes are asked character by character.
    const [row] = await t.sql<{ hidden: number[] }>(
      `with blocks as (
         select b from generate_series(0, 4351) b
          where public.has_hidden_characters(
            (select string_agg(chr(i), '') from generate_series(greatest(b * 256, 1), b * 256 + 255) i
              where i < 55296 or i > 57343)))
       select coalesce(array_agg(i order by i), '{}') as hidden
         from blocks, generate_series(greatest(b * 256, 1), b * 256 + 255) i
        where (i < 55296 or i > 57343) and public.has_hidden_characters(chr(i))`,
    );
    const expected: number[] = [];
    for (let code = 1; code <= 0x10ffff; code++) {
      if ((code < 0xd800 || code > 0xdfff) && hasHiddenCharacters(String.fromCodePoint(code))) expected.push(code);
    }
    expect(row!.hidden).toEqual(expected);
    expect(expected).toEqual(expect.arrayContaining([0x1b, 0x0d, 0x7f, 0x9b, 0x200b, 0x202e, 0x2066, 0xfeff]));
  });

  describe("provision_user (sign-up, a first sign-in, Google's name)", () => {
    it("stores a usable name trimmed of spaces (no-break and ideographic ones too), markup and all", async () => {
      const user = await provision(t, "\u00a0 Zoë <b>🌟</b>\u3000", "zoe@example.com");
      expect(user.display_name).toBe("Zoë <b>🌟</b>");
      expect((await storedName(t, user.id)).display_name).toBe("Zoë <b>🌟</b>");
    });

    it.each([["389 characters with CR LF and markup", CRAFTED_389], ...Object.entries(HIDDEN_NAMES)])(
      "falls back to the email's local part for a name with %s",
      async (_what, name) => {
        const user = await provision(t, name, "asha.k@example.com");
        expect(user.display_name).toBe("asha.k");
        expect(await storedName(t, user.id)).toEqual({ display_name: "asha.k", preferences: { is_active: true } });
      },
    );

    it("falls back to User when the local part breaks the rule too, or there is no email", async () => {
      expect((await provision(t, CRAFTED_389, `${"r".repeat(51)}@example.com`)).display_name).toBe("User");
      expect((await provision(t, "Ana\u202eLima", "\u200b@example.com")).display_name).toBe("User");
      expect((await provision(t, "x".repeat(51), null)).display_name).toBe("User");
      expect((await provision(t, null, null)).display_name).toBe("User");
    });
  });

  describe("update_display_name (the Profile form)", () => {
    it.each(Object.entries(HIDDEN_NAMES))(
      "refuses a name with %s with display_name_hidden_characters and changes nothing",
      async (_what, name) => {
        const user = await provision(t, "Keep Me");
        expect(ruleViolation(await dbRefusal(updateName(t, user.id, name)))).toEqual({
          rule: "display_name_hidden_characters",
          message: "Your display name cannot contain invisible or control characters",
        });
        expect(await storedName(t, user.id)).toEqual({ display_name: "Keep Me", preferences: { is_active: true } });
      },
    );

    it("refuses the 389-character name with line breaks and markup, and a 51-character or blank one, and changes nothing", async () => {
      const user = await provision(t, "Keep Me");
      expect(ruleViolation(await dbRefusal(updateName(t, user.id, CRAFTED_389)))?.rule).toBe(
        "display_name_hidden_characters",
      );
      for (const name of ["x".repeat(51), "\u00a0\u3000", ""]) {
        expect(ruleViolation(await dbRefusal(updateName(t, user.id, name)))?.rule, JSON.stringify(name)).toBe(
          "invalid_display_name",
        );
      }
      expect((await storedName(t, user.id)).display_name).toBe("Keep Me");
    });

    it("accepts a name of 50 characters with markup, emoji and their modifiers, trimmed of no-break spaces", async () => {
      const user = await provision(t, "Keep Me");
      for (const name of ["👍🏽 Ana ❤️ <i>Lima</i>", `\u00a0${"é".repeat(50)}\u00a0`]) {
        const expected = name.replace(/^\u00a0|\u00a0$/g, "");
        expect((await updateName(t, user.id, name)).display_name).toBe(expected);
        expect(await storedName(t, user.id)).toEqual({
          display_name: expected,
          preferences: { is_active: true, display_name: expected },
        });
      }
    });
  });

  it("the table refuses a name that breaks the rule however it is written", async () => {
    const user = await provision(t, "Keep Me");
    for (const name of [CRAFTED_389, "Ana\u202eLima", " padded ", ""]) {
      await expect(
        t.sql("update user_profiles set display_name = $1 where id = $2", [name, user.id]),
        JSON.stringify(name),
      ).rejects.toThrow(/user_profiles_display_name_check/);
    }
    expect((await storedName(t, user.id)).display_name).toBe("Keep Me");
  });

  it("submit_feedback refuses a name, address or message with hidden characters, and keeps a message's line breaks and tabs", async () => {
    const user = await provision(t, "Writer");
    const feedback = (name: string, email: string, message: string) =>
      t.db.rpc("submit_feedback", { p_user_id: user.id, p_name: name, p_email: email, p_message: message });
    for (const [name, email, message] of [
      ["Ana\u202e", "a@example.com", "Hello"],
      ["Ana", "a\u200b@example.com", "Hello"],
      ["Ana", "a@example.com", "Pay \u001b[8mme"],
      ["Ana", "a@example.com", "line\u2028separator"],
    ])
      expect((await dbRefusal(feedback(name!, email!, message!))).hint, JSON.stringify(message)).toBe(
        "feedback_hidden_characters",
      );
    await feedback("Ana", "a@example.com", "Line one\r\n\tLine two");
    expect(await t.sql("select message from user_feedback where user_id = $1", [user.id])).toEqual([
      { message: "Line one\r\n\tLine two" },
    ]);
  });

  describe("the referral credit", () => {
    it("writes neither the friend's name into the referrer's notice nor into their ledger row", async () => {
      const referrer = await provision(t, "Rita Referrer");
      const [{ referral_code: code }] = (await t.sql<{ referral_code: string }>(
        "select referral_code from user_profiles where id = $1",
        [referrer.id],
      )) as [{ referral_code: string }];
      const friend = await t.db.rpc<Summary>("provision_user", {
        p_user_id: newUserId("friend"),
        p_email: null,
        p_display_name: PHISHING,
        p_referral_code: code,
        p_email_verified: true,
      });
      expect(friend.display_name).toBe(PHISHING);
      await t.db.rpc("add_user_coins", { user_id_param: friend.id, amount_param: 100 });
      const notices = await t.sql<{ kind: string; data: unknown }>(
        "select kind, data from user_notices where user_id = $1",
        [referrer.id],
      );
      expect(notices).toEqual([{ kind: "referral_credited", data: { amount: 5, locked: false } }]);
      const ledger = await t.sql<{ description: string }>(
        "select description from transaction_history where user_id = $1 and transaction_type = 'referral'",
        [referrer.id],
      );
      expect(ledger).toEqual([{ description: "Referral bonus: a friend joined" }]);
    });
  });

  describe("create_withdrawal", () => {
    const CONTROL_VALUES: Record<string, string> = {
      "ESC[2K": "\u001b[2K",
      "ESC[8m": "\u001b[8m",
      "a lone CR": "\r",
      tab: "\t",
      BEL: "\u0007",
      DEL: "\u007f",
      "C1 CSI": "\u009b",
      "U+202E": "\u202e",
      "U+2066": "\u2066",
      "U+200B": "\u200b",
      "U+FEFF": "\ufeff",
    };
    const fields = {
      paypal: (value: string) => `pay${value}ee@example.com`,
      upi: (value: string) => `pay${value}ee@okhdfcbank`,
      bank: (value: string) => `A/C 1234${value}5678 IFSC HDFC0001234`,
    };

    for (const [method, recipient] of Object.entries(fields) as [keyof typeof fields, (value: string) => string][]) {
      it.each(Object.entries(CONTROL_VALUES))(
        `refuses a ${method} recipient with %s with recipient_hidden_characters and changes nothing`,
        async (_what, value) => {
          const userId = await payee(t);
          const before = await moneyState(t, userId);
          expect(ruleViolation(await dbRefusal(withdraw(t, userId, method, recipient(value))))).toEqual({
            rule: "recipient_hidden_characters",
            message: "Payment details cannot contain invisible or control characters",
          });
          expect(await moneyState(t, userId)).toEqual(before);
        },
      );
    }

    it("keeps the line breaks of bank details (a textarea's CR LF) as LF, trimmed at the ends", async () => {
      const userId = await payee(t);
      const created = await withdraw(t, userId, "bank", "\r\nAsha K\r\nA/C 12345678\nIFSC HDFC0001234\r\n ");
      const [row] = await t.sql<{ details: string }>(
        "select recipient_bank_details ->> 'details' as details from withdrawals where id = $1",
        [created.id],
      );
      expect(row!.details).toBe("Asha K\nA/C 12345678\nIFSC HDFC0001234");
    });

    it("still accepts plain recipients of every method", async () => {
      const userId = await payee(t);
      await withdraw(t, userId, "paypal", "payee@example.com");
      await withdraw(t, userId, "upi", "payee@okhdfcbank");
      await withdraw(t, userId, "bank", "Zoë Lima, A/C 12345678, IFSC HDFC0001234");
      expect((await moneyState(t, userId)).withdrawals).toBe(3);
    });
  });
});

describe("the migration itself", () => {
  it("cleans the names stored before it (as a new profile would get them), removes friends' names from notices, and keeps good names", async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "migrations-"));
    const pglite = await PGlite.create();
    try {
      const files = readdirSync(MIGRATIONS_DIR).sort();
      const index = files.indexOf("20261128000000_display_names_and_recipients.sql");
      expect(index).toBeGreaterThan(0);
      for (const file of files.slice(0, index)) cpSync(path.join(MIGRATIONS_DIR, file), path.join(directory, file));
      await migrateDatabase({ pglite }, directory);
      const t: TestDatabase = {
        db: pgliteDatabase(pglite),
        sql: async (text, values) => (await pglite.query(text, values)).rows as never[],
        close: async () => {},
      };
      const referrer = await provision(t, "Rita Referrer", "rita@example.com", "old-referrer");
      await provision(t, CRAFTED_389, "asha.k@example.com", "old-crafted");
      await provision(t, "Ana Lima", null, "old-renamed");
      await updateName(t, "old-renamed", "Ana\u202eamiL"); // the old 1-50 rule let this through
      await provision(t, "Plain\u200b", null, "old-invisible");
      const [{ referral_code: code }] = (await t.sql<{ referral_code: string }>(
        "select referral_code from user_profiles where id = $1",
        [referrer.id],
      )) as [{ referral_code: string }];
      await t.db.rpc("provision_user", {
        p_user_id: "old-friend",
        p_email: null,
        p_display_name: PHISHING,
        p_referral_code: code,
        p_email_verified: true,
      });
      await t.db.rpc("add_user_coins", { user_id_param: "old-friend", amount_param: 100 });
      const [old] = await t.sql<{ data: Record<string, unknown> }>(
        "select data from user_notices where user_id = 'old-referrer'",
      );
      expect(old!.data).toEqual({ amount: 5, friend: PHISHING }); // as it was

      for (const file of files.slice(index)) cpSync(path.join(MIGRATIONS_DIR, file), path.join(directory, file));
      await migrateDatabase({ pglite }, directory);
      expect(await storedName(t, "old-crafted")).toEqual({ display_name: "asha.k", preferences: { is_active: true } });
      expect(await storedName(t, "old-renamed")).toEqual({
        display_name: "User",
        preferences: { is_active: true, display_name: "User" },
      });
      expect((await storedName(t, "old-invisible")).display_name).toBe("User");
      expect((await storedName(t, "old-referrer")).display_name).toBe("Rita Referrer");
      expect((await storedName(t, "old-friend")).display_name).toBe(PHISHING);
      expect(await t.sql("select data from user_notices where user_id = 'old-referrer'")).toEqual([
        { data: { amount: 5 } },
      ]);
    } finally {
      await pglite.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
