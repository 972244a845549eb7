import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, uniqueEmail } from "../support/http";
import { startIpinfoStandIn, type IpinfoStandIn } from "../support/ipinfo";
import { startPostgresApp, type PostgresApp } from "../support/postgres-app";

// Network signals (issue 38, point 3; docs/decisions/091), over HTTP on Postgres against a local
// ipinfo, behind a trusted proxy (the browser's address from X-Forwarded-For): a withdrawal from a
// VPN, Tor or a data centre adds its reason to the risk score, the account keeps the provider's
// country, each address is asked once a day, and a slow or broken provider is no signal.

const VPN = "203.0.113.10";
const TOR = "203.0.113.20";
const HOME = "198.51.100.30";
const SLOW = "198.51.100.40";
const WALL_SECRET = "custom-network-signals-secret-0123";
const WALL_SENDER = "203.0.113.99";

describe("network signals from ipinfo", () => {
  let ipinfo: IpinfoStandIn;
  let app: PostgresApp;

  beforeAll(async () => {
    ipinfo = await startIpinfoStandIn();
    ipinfo.set(VPN, "NL", { vpn: true, service: "NordVPN" });
    ipinfo.set(TOR, "DE", { tor: true, proxy: true });
    ipinfo.set(HOME, "IN", {});
    app = await startPostgresApp({
      ...ipinfo.env,
      TRUST_PROXY: "true",
      IPINFO_TIMEOUT_MS: "300",
      WALL_CUSTOM_ENABLED: "true",
      WALL_CUSTOM_SECRET: WALL_SECRET,
      WALL_CUSTOM_ALLOWED_ADDRESSES: WALL_SENDER,
      WALL_CUSTOM_HOLD_DAYS: "0",
    });
    // A VPN alone sends a cash-out to review here.
    await app.sql("update app_config set risk_review_threshold = 25");
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await ipinfo?.close();
  });

  /** A new account signed up from `address`, verified, with $20. */
  async function personAt(address: string) {
    const client = new HttpClient(app.url);
    client.cookies.set("hasSeenOnboarding", "true");
    const email = uniqueEmail("net");
    const signUp = await client.post(
      "/auth?tab=signup",
      { intent: "signup", email, password: "s3cret-pass" },
      { "x-forwarded-for": address },
    );
    expect(signUp.status).toBe(302);
    const [row] = await app.sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    await app.sql("select record_email_verified($1)", [row!.id]);
    await app.sql("select add_user_coins($1, 2000)", [row!.id]);
    return { client, uid: row!.id, email };
  }
  const withdrawFrom = (client: HttpClient, address: string, amount = "5") =>
    client.post(
      "/withdraw",
      { intent: "withdraw", amount, method: "paypal", paypalEmail: "net@example.com" },
      { "x-forwarded-for": address },
    );
  /** A credit of `coins` from the custom wall (docs/offer-walls.md: HMAC-SHA256 of the sorted, encoded query), from its sender. */
  async function creditFromWall(uid: string, tx: string, coins: number): Promise<number> {
    const [row] = await app.sql<{ wall_id: string }>("select wall_id from user_profiles where id = $1", [uid]);
    const params = new URLSearchParams([
      ["amount", String(coins)],
      ["transaction_id", tx],
      ["user_id", row!.wall_id],
    ]);
    const signature = createHmac("sha256", WALL_SECRET).update(params.toString()).digest("hex");
    params.append("sig", signature);
    const response = await fetch(`${app.url}/api/custom/postback?${params}`, {
      headers: { "x-forwarded-for": WALL_SENDER },
    });
    return response.status;
  }
  const lastWithdrawal = async (uid: string) =>
    (
      await app.sql<{ review_state: string; risk_reasons: { code: string; detail: string; points: number }[] }>(
        "select review_state, risk_reasons from withdrawals where user_id = $1 order by created_at desc limit 1",
        [uid],
      )
    )[0]!;

  it("a withdrawal from a VPN names it, with its service, in the risk reasons and goes to review; the account keeps the country", async () => {
    const person = await personAt(HOME);
    expect(
      (
        await app.sql<{ network_country: string }>("select network_country from user_profiles where id = $1", [
          person.uid,
        ])
      )[0]!.network_country,
    ).toBe("IN");
    const response = await withdrawFrom(person.client, VPN);
    expect(response.status).toBe(302);
    const withdrawal = await lastWithdrawal(person.uid);
    expect(withdrawal.risk_reasons).toContainEqual(
      expect.objectContaining({ code: "network_vpn", points: 25, detail: "withdrawal from a VPN (NordVPN)" }),
    );
    expect(withdrawal.review_state).toBe("review");
    expect(
      (
        await app.sql<{ network_country: string }>("select network_country from user_profiles where id = $1", [
          person.uid,
        ])
      )[0]!.network_country,
    ).toBe("NL");
  });

  it("Tor and a proxy each add their reason; a plain address adds none; each address is asked once a day", async () => {
    const person = await personAt(HOME);
    await withdrawFrom(person.client, TOR);
    const codes = (await lastWithdrawal(person.uid)).risk_reasons.map((reason) => reason.code);
    expect(codes).toEqual(expect.arrayContaining(["network_tor", "network_proxy"]));
    const plain = await personAt(HOME);
    await withdrawFrom(plain.client, HOME);
    expect((await lastWithdrawal(plain.uid)).risk_reasons.map((reason) => reason.code)).not.toContain("network_vpn");
    // HOME was asked about at the first sign-up only: every later use read the kept answer.
    expect(ipinfo.calls(HOME)).toBe(1);
  });

  it("a cash-out from a network ticked in network_review_flags waits for review whatever its score; unticked, it is scored alone", async () => {
    await app.sql("update app_config set risk_review_threshold = 101");
    try {
      const off = await personAt(HOME);
      await withdrawFrom(off.client, VPN);
      expect((await lastWithdrawal(off.uid)).review_state).toBe("approved");
      // Tor ticked, a VPN not: the VPN's cash-out is still approved, Tor's waits.
      await app.sql(`update app_config set network_review_flags = '["tor"]'`);
      const vpn = await personAt(HOME);
      await withdrawFrom(vpn.client, VPN);
      expect((await lastWithdrawal(vpn.uid)).review_state).toBe("approved");
      const tor = await personAt(HOME);
      await withdrawFrom(tor.client, TOR);
      expect((await lastWithdrawal(tor.uid)).review_state).toBe("review");
      await app.sql(`update app_config set network_review_flags = '["vpn"]'`);
      const on = await personAt(HOME);
      await withdrawFrom(on.client, VPN);
      expect((await lastWithdrawal(on.uid)).review_state).toBe("review");
      // A plain address is not held by the setting.
      const plain = await personAt(HOME);
      await withdrawFrom(plain.client, HOME);
      expect((await lastWithdrawal(plain.uid)).review_state).toBe("approved");
    } finally {
      await app.sql(`update app_config set risk_review_threshold = 25, network_review_flags = '[]'`);
    }
  });

  it("with a VPN ticked in network_pause_flags, an offer credit to an account last seen on a VPN waits under held postbacks, its retry too, and Earn says why; one seen at home is paid; signing in again without the VPN ends the pause", async () => {
    await app.sql(`update app_config set network_pause_flags = '["vpn"]'`);
    try {
      const onVpn = await personAt(VPN);
      const atHome = await personAt(HOME);
      const tx = `net-${Date.now().toString(36)}`;
      expect(await creditFromWall(onVpn.uid, `${tx}-a`, 500)).toBe(200);
      // The network's retry of the same credit is a repeat of the held one, not a second wait.
      expect(await creditFromWall(onVpn.uid, `${tx}-a`, 500)).toBe(200);
      expect(await creditFromWall(atHome.uid, `${tx}-b`, 500)).toBe(200);
      const held = await app.sql<{ user_id: string; reason: string; status: string }>(
        "select user_id, reason, status from held_postbacks where network = 'custom' and transaction_id like $1",
        [`${tx}-%`],
      );
      expect(held).toEqual([
        {
          user_id: onVpn.uid,
          reason: "earned while the account's network is flagged: VPN (NordVPN)",
          status: "held",
        },
      ]);
      const paid = await app.sql<{ user_id: string }>(
        "select user_id from provider_postbacks where provider = 'custom' and transaction_id like $1",
        [`${tx}-%`],
      );
      expect(paid).toEqual([{ user_id: atHome.uid }]);
      // Earn says so, in the person's words; the one at home reads nothing of it.
      expect((await onVpn.client.visit("/earn")).html).toContain("Your offers wait for a review");
      expect((await atHome.client.visit("/earn")).html).not.toContain("Your offers wait for a review");

      // Signed in again without the VPN (the same phone): the account's latest network is clean,
      // and the next credit is paid at once.
      await onVpn.client.post("/logout", {});
      const again = await onVpn.client.post(
        "/auth",
        { intent: "signin", email: onVpn.email, password: "s3cret-pass" },
        { "x-forwarded-for": HOME },
      );
      expect(again.headers.get("location")).toBe("/");
      expect((await onVpn.client.visit("/earn")).html).not.toContain("Your offers wait for a review");
      expect(await creditFromWall(onVpn.uid, `${tx}-c`, 500)).toBe(200);
      const [later] = await app.sql<{ n: number }>(
        "select count(*)::int as n from provider_postbacks where provider = 'custom' and transaction_id = $1",
        [`${tx}-c`],
      );
      expect(later!.n).toBe(1);
    } finally {
      await app.sql(`update app_config set network_pause_flags = '[]'`);
    }
  });

  it("a provider slower than IPINFO_TIMEOUT_MS is no signal: the withdrawal goes through without a network reason", async () => {
    const person = await personAt(HOME);
    ipinfo.set(SLOW, "NL", { vpn: true, service: "SlowVPN" });
    ipinfo.slow(2_000);
    try {
      const response = await withdrawFrom(person.client, SLOW);
      expect(response.status).toBe(302);
    } finally {
      ipinfo.slow(0);
    }
    const codes = (await lastWithdrawal(person.uid)).risk_reasons.map((reason) => reason.code);
    expect(codes.filter((code) => code.startsWith("network_"))).toEqual([]);
    const [kept] = await app.sql<{ n: number }>("select count(*)::int as n from network_lookups");
    expect(kept!.n).toBeGreaterThan(0);
  });
});
