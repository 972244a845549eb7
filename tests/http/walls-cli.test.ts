import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealWallSecret } from "~/server/walls/sealed-secrets.server";
import { newMember } from "../support/console";
import { runOperator } from "../support/operator";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// `npm run walls` (build/walls.js) against an app with BitLabs, Torox and Revlum turned on, on a
// scratch Postgres database: simulate sends each network's signed postback over HTTP as the network
// would, and log reads postback_log back through list_postback_log.

const WALLS = {
  WALL_BITLABS_ENABLED: "true",
  WALL_BITLABS_APP_TOKEN: "bitlabs-token",
  WALL_BITLABS_APP_SECRET: "bitlabs-cli-secret",
  WALL_TOROX_ENABLED: "true",
  WALL_TOROX_PUBLISHER_ID: "14",
  WALL_TOROX_APP_ID: "5",
  WALL_TOROX_SECRET: "torox-cli-secret",
  // The command runs on this machine, with no proxy in front of the app: its sender is loopback.
  WALL_TOROX_ALLOWED_ADDRESSES: "127.0.0.1",
  WALL_REVLUM_ENABLED: "true",
  WALL_REVLUM_APP_ID: "rv-app",
  WALL_REVLUM_SECRET: "revlum-cli-secret",
  WALL_REVLUM_ALLOWED_ADDRESSES: "127.0.0.1",
  WALL_ADGEM_ENABLED: "true",
  WALL_ADGEM_APP_ID: "31",
  WALL_ADGEM_POSTBACK_KEY: "adgem-cli-key",
};

interface Simulation {
  network: string;
  kind: string;
  transactionId: string;
  coins: number;
  status: number;
  body: string;
  accepted: boolean;
  account: { user_id: string; email: string; wall_id: string };
}

interface LogEntry {
  network: string;
  verdict: string;
  reason: string | null;
  user_id: string | null;
  email: string | null;
  transaction_id: string | null;
  coins: number | null;
}

describe("npm run walls: simulate sends a network's signed postback to a running app, log reads the postback log", () => {
  let app: PostgresApp;
  let person: { uid: string; email: string };
  let other: { uid: string; email: string };

  /** `node build/walls.js ...args` with the app's database and, unless told, the app's wall settings. */
  const walls = (args: string[], env: Record<string, string> = WALLS) =>
    runOperator(app.scratchUrl, args, env, "build/walls.js");

  /** The command's --json answer; fails the test when it exits otherwise than `code`. */
  async function wallsJson<T>(args: string[], code = 0, env?: Record<string, string>): Promise<T> {
    const result = await walls([...args, "--json"], env);
    expect(result.code, result.stderr).toBe(code);
    return JSON.parse(result.stdout) as T;
  }

  const simulate = (network: string, email: string, coins: number, reverse?: string) =>
    wallsJson<Simulation>([
      "simulate",
      network,
      "--user",
      email,
      "--coins",
      String(coins),
      "--url",
      app.url,
      ...(reverse ? ["--reverse", reverse] : []),
    ]);

  /** One line on stderr, `error: ...`, no stack trace, and a non-zero exit. */
  function expectOneLineError(result: { code: number | null; stderr: string }, message: string | RegExp) {
    expect(result.code).not.toBe(0);
    const [first] = result.stderr.trim().split("\n");
    expect(first).toMatch(/^error: /);
    expect(first).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at |node:internal|\.js:\d+/);
  }

  const recorded = (network: string, transaction: string) =>
    app.sql<{ kind: string; coins: number; user_id: string }>(
      "select kind, coins, user_id from provider_postbacks where provider = $1 and transaction_id = $2 order by id",
      [network, transaction],
    );

  beforeAll(async () => {
    app = await startPostgresApp(WALLS);
    person = await newMember(app);
    other = await newMember(app);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it("simulate credits the person once through the app for BitLabs, Torox, Revlum and AdGem; --reverse takes BitLabs' back and holds Torox's and Revlum's unsigned ones for an operator (AdGem has no reversal)", async () => {
    const credit = await simulate("adgem", person.email, 250);
    expect(credit).toMatchObject({ network: "adgem", kind: "credit", status: 200, accepted: true });
    expect(await recorded("adgem", credit.transactionId)).toEqual([
      { kind: "credit", coins: 250, user_id: person.uid },
    ]);
    for (const network of ["bitlabs", "torox", "revlum"]) {
      const credit = await simulate(network, person.email, 250);
      expect(credit, network).toMatchObject({ network, kind: "credit", status: 200, accepted: true });
      expect(credit.account.user_id).toBe(person.uid);
      expect(credit.transactionId).toMatch(/^sim-/);
      expect(await recorded(network, credit.transactionId), network).toEqual([
        { kind: "credit", coins: 250, user_id: person.uid },
      ]);

      const reversal = await simulate(network, person.email, 250, credit.transactionId);
      expect(reversal, network).toMatchObject({
        kind: "reversal",
        transactionId: credit.transactionId,
        accepted: true,
      });
      // BitLabs signs its reconciliation; Torox's negative amount and Revlum's status=2 are not
      // signed, so theirs waits for an operator (held_postbacks) and takes nothing back yet.
      const signed = network === "bitlabs";
      expect(
        (await recorded(network, credit.transactionId)).map((row) => row.kind),
        network,
      ).toEqual(signed ? ["credit", "reversal"] : ["credit"]);
      expect(
        await app.sql("select kind, status from held_postbacks where network = $1 and transaction_id = $2", [
          network,
          credit.transactionId,
        ]),
        network,
      ).toEqual(signed ? [] : [{ kind: "reversal", status: "held" }]);
    }
  });

  it("simulate prints the new transaction id, the app's answer, and how to take it back", async () => {
    const result = await walls(["simulate", "torox", "--user", other.email, "--coins", "40", "--url", app.url]);
    expect(result.code, result.stderr).toBe(0);
    const transaction = /^transaction (sim-\S+)$/m.exec(result.stdout)?.[1];
    expect(transaction).toBeDefined();
    expect(result.stdout).toContain("answer: 200 1");
    expect(result.stdout).toContain("Taken: the app answered as the network expects.");
    expect(result.stdout).toContain(`--reverse ${transaction}`);
    expect(await recorded("torox", transaction!)).toEqual([{ kind: "credit", coins: 40, user_id: other.uid }]);
  });

  it("simulate exits 1 when the app refuses the postback (its secret differs from the command's), and nothing is credited", async () => {
    const result = await walls(["simulate", "bitlabs", "--user", person.email, "--coins", "10", "--url", app.url], {
      ...WALLS,
      WALL_BITLABS_APP_SECRET: "not-the-app-secret",
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("answer: 403 Invalid signature");
    expect(result.stdout).toContain("Not taken");
    const transaction = /^transaction (sim-\S+)$/m.exec(result.stdout)![1]!;
    expect(await recorded("bitlabs", transaction)).toEqual([]);
  });

  it("log lists the simulated postbacks newest first with the person's email; --network and --user narrow it", async () => {
    const all = await wallsJson<LogEntry[]>(["log"]);
    expect(all.length).toBeGreaterThanOrEqual(9);
    // The last one sent: the refused BitLabs postback of the test before.
    expect(all[0]).toMatchObject({ network: "bitlabs", verdict: "refused" });

    const mine = await wallsJson<LogEntry[]>(["log", "--user", person.email]);
    expect(mine.every((entry) => entry.user_id === person.uid && entry.email === person.email)).toBe(true);
    expect(mine.map((entry) => [entry.network, entry.verdict, entry.coins])).toEqual([
      ["revlum", "held", 250],
      ["revlum", "credited", 250],
      ["torox", "held", 250],
      ["torox", "credited", 250],
      ["bitlabs", "reversed", 250],
      ["bitlabs", "credited", 250],
      ["adgem", "credited", 250],
    ]);

    const torox = await wallsJson<LogEntry[]>(["log", "--network", "torox"]);
    expect(torox.map((entry) => [entry.verdict, entry.email])).toEqual([
      ["credited", other.email],
      ["held", person.email],
      ["credited", person.email],
    ]);
    const toroxOfOther = await wallsJson<LogEntry[]>(["log", "--network", "torox", "--user", other.email]);
    expect(toroxOfOther).toHaveLength(1);
    expect(await wallsJson<LogEntry[]>(["log", "--limit", "2"])).toHaveLength(2);
  });

  it("log shows the entries as a table of time, network, verdict, reason, user, transaction, coins and sender", async () => {
    const result = await walls(["log", "--user", other.email]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toBe(`1 postback (${other.email}), newest first`);
    expect(lines[2]).toMatch(/^RECEIVED\s+NETWORK\s+VERDICT\s+REASON\s+USER\s+TRANSACTION\s+COINS\s+FROM$/);
    expect(lines[3]).toMatch(
      new RegExp(
        // The sender: the socket's own address (no proxy in front of the app).
        `^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\s+torox\\s+credited\\s+${other.email}\\s+sim-\\S+\\s+40\\s+127\\.0\\.0\\.1$`,
      ),
    );
  });

  it("log --refused shows a forged postback with its reason, and no taken one", async () => {
    const unsigned = `${app.url}/api/bitlabs/postback?uid=w_forged&tx=forged-1&val=99999`;
    const forged = await fetch(
      `${unsigned}&hash=${createHmac("sha1", "a-guessed-secret").update(unsigned).digest("hex")}`,
    );
    expect(forged.status).toBe(403);

    const refused = await wallsJson<LogEntry[]>(["log", "--refused"]);
    expect(refused.every((entry) => entry.verdict === "refused")).toBe(true);
    expect(refused[0]).toMatchObject({ network: "bitlabs", reason: "the hash does not match the URL", user_id: null });
    expect(refused).toHaveLength(2);
    const text = await walls(["log", "--refused", "--network", "bitlabs"]);
    expect(text.stdout).toContain("the hash does not match the URL");
    expect(text.stdout).not.toContain("credited");
  });

  it("ends an operator's mistake with one line on stderr and a non-zero exit", async () => {
    const base = ["--user", person.email, "--coins", "5", "--url", app.url];
    expectOneLineError(await walls(["simulate", "nosuch", ...base]), /unknown network "nosuch"/);
    expectOneLineError(
      await walls(["simulate", "ayetstudios", ...base]),
      /the ayetstudios wall is not enabled here: turn it on in the console \(\/admin\/walls\/ayetstudios\) or set WALL_AYETSTUDIOS_ENABLED=true/,
    );
    expectOneLineError(
      await walls(["simulate", "torox", "--user", "nobody@example.com", "--coins", "5", "--url", app.url]),
      /no account has the email nobody@example\.com/,
    );
    expectOneLineError(
      await walls(["simulate", "torox", "--user", person.email, "--coins", "0"]),
      /--coins must be a whole number/,
    );
    expectOneLineError(await walls(["simulate", "torox", "--user", person.email]), /simulate needs --coins N/);
    expectOneLineError(
      await walls(["simulate", "adgem", ...base, "--reverse", "sim-anything"]),
      /adgem documents no reversal postback, so there is none to send/,
    );
    expectOneLineError(
      await walls(["simulate", "torox", "--user", person.email, "--coins", "5", "--url", "http://127.0.0.1:1"]),
      /could not reach http:\/\/127\.0\.0\.1:1/,
    );
    // An empty DATABASE_URL: the embedded PGlite.
    expectOneLineError(
      await runOperator("", ["simulate", "torox", ...base], WALLS, "build/walls.js"),
      /the embedded PGlite cannot share/,
    );
    expectOneLineError(await walls(["log", "--user", "nobody@example.com"]), /no account has the email/);
    expectOneLineError(await walls(["log", "--network", "nosuch"]), /unknown network "nosuch"/);
    expectOneLineError(await walls(["log", "--limit", "5000"]), /--limit must be a whole number from 1 to 1000/);
    expectOneLineError(await walls(["log", "--coins", "5"]), /--coins does not go with log/);
  });

  it("reports lists the missing-credit reports people sent from My offers, the longest waiting first, open ones unless --all, with control characters shown escaped", async () => {
    const { client, email } = await app.signUp();
    const today = new Date().toISOString().slice(0, 10);
    for (const offerName of ["Castle Clash", "Word Hunt\u001b[2J"]) {
      const sent = await client.post("/earn/offers?report=torox", {
        intent: "report-missing-credit",
        network: "torox",
        offerName,
        completedOn: today,
        details: "Installed it.\nReached level 5.",
      });
      expect(sent.status).toBe(302);
    }
    await app.sql("update missing_credit_reports set status = 'waiting' where offer_name = 'Castle Clash'");

    const open = await wallsJson<{ offer_name: string; email: string; status: string }[]>(["reports"]);
    expect(open.map((report) => [report.offer_name, report.email, report.status])).toEqual([
      ["Word Hunt\u001b[2J", email, "open"],
    ]);
    const all = await wallsJson<{ offer_name: string }[]>(["reports", "--all"]);
    expect(all.map((report) => report.offer_name)).toEqual(["Castle Clash", "Word Hunt\u001b[2J"]);

    const printed = await walls(["reports"]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toMatch(new RegExp(`^#\\d+ .* torox {2}open {2}${email}$`, "m"));
    expect(printed.stdout).toContain("  Installed it.\n  Reached level 5.");
    expect(printed.stdout).not.toContain("\u001b");
    expect(printed.stdout).toContain("offer: Word Hunt");
  });
  it("simulate signs with the secret set in the operator console, as the server runs the wall, given the server's key", async () => {
    // The app's key (its SESSION_SECRET, tests/support/app-server.ts): ACCOUNT_HASH_SECRET defaults to it.
    const serverKey = "second-app-secret-of-at-least-32-chars";
    const owner = await newMember(app);
    await app.sql("select grant_operator_role('cli-test', $1, 'owner')", [owner.uid]);
    const consoleKey = "adgem-key-set-in-the-console";
    await app.sql(
      "select operator_set_wall($1, 'adgem', null, null, null, '{}'::jsonb, $2::jsonb, '[]'::jsonb, 'Rotated the key')",
      [
        owner.uid,
        JSON.stringify({
          POSTBACK_KEY: { sealed: sealWallSecret(consoleKey, "adgem", "POSTBACK_KEY", serverKey), hint: null },
        }),
      ],
    );
    try {
      const args = ["simulate", "adgem", "--user", person.email, "--coins", "15", "--url", app.url, "--json"];
      const taken = await walls(args, { ...WALLS, SESSION_SECRET: serverKey });
      expect(taken.code, taken.stderr).toBe(0);
      const result = JSON.parse(taken.stdout) as Simulation;
      expect([result.status, result.body]).toEqual([200, "OK"]);
      expect(await recorded("adgem", result.transactionId)).toEqual([
        { kind: "credit", coins: 15, user_id: person.uid },
      ]);
      // Another key cannot open the console's secret: the command says so rather than sign with the environment's.
      expectOneLineError(
        await walls(args, WALLS),
        /the adgem wall is turned on but cannot run: WALL_ADGEM_POSTBACK_KEY was set in the console but cannot be opened/,
      );
    } finally {
      await app.sql("select operator_reset_wall($1, 'adgem', 'Back to the environment')", [owner.uid]);
    }
  });
});
