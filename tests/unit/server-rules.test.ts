import { describe, expect, it } from "vitest";
import { buildRpcCall, DbError, toDbError } from "~/server/db/core.server";
import { parseEnv } from "~/server/runtime/env.server";
import { assertSameOrigin, CROSS_SITE_MESSAGE, requestHost } from "~/server/http/same-origin.server";
import { safeRedirectPath } from "~/server/http/redirects.server";

// A development server with the emulator: the base of most cases below.
const DEV = { NODE_ENV: "development", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" };

describe("environment validation", () => {
  it("lets the operator command start without Firebase or a session secret, never the server", () => {
    const bare = { NODE_ENV: "production", DATABASE_URL: "postgres://db.example/app" };
    expect(() => parseEnv(bare)).toThrow(/FIREBASE_API_KEY[\s\S]*SESSION_SECRET|SESSION_SECRET[\s\S]*FIREBASE_API_KEY/);
    expect(parseEnv({ ...bare, APP_ROLE: "operator" }).database).toEqual({
      kind: "postgres",
      url: "postgres://db.example/app",
      poolSize: 10,
    });
    expect(() => parseEnv({ ...bare, APP_ROLE: "operator", PAYPAL_CLIENT_ID: "id" })).toThrow(/PAYPAL_CLIENT_SECRET/);
  });

  it("defaults to PGlite and the emulator's demo project in development", () => {
    const env = parseEnv(DEV);
    expect(env.database).toEqual({ kind: "pglite", dataDir: ".data/pglite" });
    expect(env.firebase.projectId).toBe("demo-rewards");
    expect(env.isProduction).toBe(false);
  });

  it("chooses the transport from DATABASE_URL or SUPABASE_URL", () => {
    expect(parseEnv({ ...DEV, DATABASE_URL: "postgres://u@h:5432/db" }).database).toEqual({
      kind: "postgres",
      url: "postgres://u@h:5432/db",
      poolSize: 10,
    });
    expect(
      parseEnv({ ...DEV, DATABASE_URL: "postgres://u@h:5432/db", DATABASE_POOL_SIZE: " 4 " }).database,
    ).toMatchObject({ kind: "postgres", poolSize: 4 });
    expect(
      parseEnv({ ...DEV, SUPABASE_URL: "https://x.supabase.co", SUPABASE_SERVICE_ROLE_KEY: "key" }).database,
    ).toEqual({ kind: "supabase", url: "https://x.supabase.co", serviceRoleKey: "key" });
  });

  it.each([
    [{ ...DEV, NODE_ENV: "production", ALLOW_AUTH_EMULATOR_IN_PRODUCTION: "true" }, "SESSION_SECRET"],
    [{ ...DEV, SESSION_SECRET: "short" }, "SESSION_SECRET"],
    [{ NODE_ENV: "development", FIREBASE_PROJECT_ID: "real-project" }, "FIREBASE_API_KEY"],
    [{ NODE_ENV: "development", FIREBASE_API_KEY: "k" }, "FIREBASE_PROJECT_ID"],
    [{ NODE_ENV: "development", FIREBASE_API_KEY: "k", FIREBASE_PROJECT_ID: "demo-x" }, "FIREBASE_PROJECT_ID"],
    [{ ...DEV, FIREBASE_AUTH_EMULATOR_HOST: "nonsense" }, "FIREBASE_AUTH_EMULATOR_HOST"],
    [{ ...DEV, DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ ...DEV, SUPABASE_URL: "https://x.supabase.co" }, "SUPABASE_SERVICE_ROLE_KEY"],
    [{ ...DEV, SUPABASE_URL: "not a url", SUPABASE_SERVICE_ROLE_KEY: "k" }, "SUPABASE_URL"],
    [{ ...DEV, FIREBASE_SERVICE_ACCOUNT: "{}" }, "FIREBASE_SERVICE_ACCOUNT"],
    [{ ...DEV, NODE_ENV: "staging" }, "NODE_ENV"],
    [{ ...DEV, SMTP_URL: "https://mail.example.com" }, "SMTP_URL"],
    [{ ...DEV, SMTP_URL: "mail.example.com:587" }, "SMTP_URL"],
    [{ ...DEV, EMAIL_FROM: "Rewards" }, "EMAIL_FROM"],
    [{ ...DEV, EMAIL_FROM: "a@b.example, c@d.example" }, "EMAIL_FROM"],
    [{ ...DEV, FCM_API_URL: "fcm.googleapis.com" }, "FCM_API_URL"],
    [{ ...DEV, FCM_TOKEN_URI: "ftp://x.example" }, "FCM_TOKEN_URI"],
    [{ ...DEV, PUBLIC_URL: "rewards.example" }, "PUBLIC_URL"],
    [{ ...DEV, NOTIFY_INTERVAL_SECONDS: "0" }, "NOTIFY_INTERVAL_SECONDS"],
    [{ ...DEV, NOTIFY_RETRY_SECONDS: "soon" }, "NOTIFY_RETRY_SECONDS"],
    [{ ...DEV, SESSION_VERIFY_CACHE_MS: "-1" }, "SESSION_VERIFY_CACHE_MS"],
    [{ ...DEV, SESSION_VERIFY_CACHE_MS: "2s" }, "SESSION_VERIFY_CACHE_MS"],
    [{ ...DEV, DATABASE_POOL_SIZE: "0" }, "DATABASE_POOL_SIZE"],
    [{ ...DEV, DATABASE_POOL_SIZE: "101" }, "DATABASE_POOL_SIZE"],
    [{ ...DEV, DATABASE_POOL_SIZE: "4.5" }, "DATABASE_POOL_SIZE"],
    [{ ...DEV, DATABASE_POOL_SIZE: "many" }, "DATABASE_POOL_SIZE"],
  ])("refuses %j, naming %s", (source, variable) => {
    expect(() => parseEnv(source)).toThrow(new RegExp(`\\b${variable}\\b`));
  });

  it("refuses FIREBASE_AUTH_EMULATOR_HOST in production unless ALLOW_AUTH_EMULATOR_IN_PRODUCTION is true, and allows it in development and test", () => {
    const production = {
      NODE_ENV: "production",
      SESSION_SECRET: "x".repeat(32),
      FIREBASE_PROJECT_ID: "demo-rewards",
      FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
      SMTP_URL: "smtp://mail.example:587",
    };
    const refusal =
      /FIREBASE_AUTH_EMULATOR_HOST: must not be set in production.*ALLOW_AUTH_EMULATOR_IN_PRODUCTION=true/;
    expect(() => parseEnv(production)).toThrow(refusal);
    expect(() => parseEnv({ ...production, ALLOW_AUTH_EMULATOR_IN_PRODUCTION: "false" })).toThrow(refusal);
    expect(() => parseEnv({ ...production, ALLOW_AUTH_EMULATOR_IN_PRODUCTION: "yes" })).toThrow(
      /ALLOW_AUTH_EMULATOR_IN_PRODUCTION: must be true or false/,
    );
    // NODE_ENV unset is production, as remix-serve makes it.
    const { NODE_ENV: _nodeEnv, ...unset } = production;
    expect(() => parseEnv(unset)).toThrow(refusal);
    const allowed = parseEnv({ ...production, ALLOW_AUTH_EMULATOR_IN_PRODUCTION: "true" });
    expect(allowed.isProduction).toBe(true);
    expect(allowed.firebase.emulatorHost).toBe("127.0.0.1:9099");
    for (const NODE_ENV of ["development", "test"]) {
      expect(parseEnv({ ...production, NODE_ENV }).firebase.emulatorHost).toBe("127.0.0.1:9099");
    }
  });

  it("refuses EMAIL_CODES=off in a production deployment (a real Firebase project), and one without SMTP_URL to send the codes; codes are on by default, off only for tests", () => {
    const deployment: Record<string, string> = {
      NODE_ENV: "production",
      SESSION_SECRET: "x".repeat(32),
      FIREBASE_API_KEY: "AIza-test",
      FIREBASE_PROJECT_ID: "rewards-prod",
    };
    expect(() => parseEnv(deployment)).toThrow(/SMTP_URL: is required in production/);
    expect(parseEnv({ ...deployment, SMTP_URL: "smtp://mail.example:587" }).emailCodes).toBe(true);
    expect(() => parseEnv({ ...deployment, EMAIL_CODES: "off" })).toThrow(/EMAIL_CODES: may be off in production only/);
    expect(() => parseEnv({ ...deployment, EMAIL_CODES: "no" })).toThrow(/EMAIL_CODES: must be on or off/);
    expect(parseEnv({ ...DEV, EMAIL_CODES: "off" }).emailCodes).toBe(false);
  });

  it("requires SESSION_SECRET unless NODE_ENV is development or test; unset NODE_ENV is production, as under remix-serve", () => {
    const firebase = {
      FIREBASE_API_KEY: "AIza-test",
      FIREBASE_PROJECT_ID: "rewards-prod",
      SMTP_URL: "smtp://mail.example:587",
    };
    const missing = /SESSION_SECRET: is required unless NODE_ENV is development or test/;
    expect(() => parseEnv(firebase)).toThrow(missing);
    expect(() => parseEnv({ ...firebase, NODE_ENV: "production" })).toThrow(missing);
    const unset = parseEnv({ ...firebase, SESSION_SECRET: "s".repeat(32) });
    expect(unset.nodeEnv).toBe("production");
    expect(unset.isProduction).toBe(true);
    for (const NODE_ENV of ["development", "test"]) {
      expect(parseEnv({ ...firebase, NODE_ENV }).isProduction).toBe(false);
    }
  });

  it("reuses a session verification for SESSION_VERIFY_CACHE_MS milliseconds, two seconds by default", () => {
    expect(parseEnv(DEV).sessionVerifyCacheMs).toBe(2_000);
    expect(parseEnv({ ...DEV, SESSION_VERIFY_CACHE_MS: "60000" }).sessionVerifyCacheMs).toBe(60_000);
    expect(parseEnv({ ...DEV, SESSION_VERIFY_CACHE_MS: "0" }).sessionVerifyCacheMs).toBe(0);
  });

  it("accepts a complete production configuration", () => {
    const env = parseEnv({
      NODE_ENV: "production",
      SESSION_SECRET: "x".repeat(32),
      FIREBASE_API_KEY: "AIza-test",
      FIREBASE_PROJECT_ID: "rewards-prod",
      DATABASE_URL: "postgresql://app@db.internal:5432/rewards",
      AUTH_AUTHORIZED_DOMAINS: "rewards.example.com, Localhost",
      SMTP_URL: "smtp://mailer:secret@mail.internal:587",
    });
    expect(env.isProduction).toBe(true);
    expect(env.firebase.authDomain).toBe("rewards-prod.firebaseapp.com");
    expect(env.authorizedDomainsOverride).toEqual(["rewards.example.com", "localhost"]);
  });

  it("configures no push and no email by default", () => {
    const env = parseEnv(DEV);
    expect(env.notifications).toEqual({ email: null, push: null, intervalMs: 60_000, retrySeconds: 60 });
    expect(env.publicUrl).toBeNull();
  });

  it("sends email through SMTP_URL from EMAIL_FROM, or from no-reply at PUBLIC_URL's host", () => {
    const smtp = "smtps://mailer:secret@smtp.example.com:465";
    expect(
      parseEnv({ ...DEV, SMTP_URL: smtp, EMAIL_FROM: "Rewards <hello@rewards.example>" }).notifications.email,
    ).toEqual({
      smtpUrl: smtp,
      from: "Rewards <hello@rewards.example>",
    });
    const env = parseEnv({
      ...DEV,
      SMTP_URL: "smtp://smtp.example.com:587",
      PUBLIC_URL: "https://app.rewards.example/",
    });
    expect(env.notifications.email?.from).toBe("Rewards <no-reply@app.rewards.example>");
    expect(env.publicUrl).toBe("https://app.rewards.example");
  });

  it("pushes with the service account's key and project, at Google's endpoints unless FCM_API_URL and FCM_TOKEN_URI say otherwise", () => {
    const account = {
      project_id: "rewards-prod",
      private_key_id: "abc",
      private_key: "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n",
      client_email: "push@rewards-prod.iam.gserviceaccount.com",
      token_uri: "https://oauth2.googleapis.com/token",
    };
    const base = { ...DEV, FIREBASE_SERVICE_ACCOUNT: JSON.stringify(account) };
    expect(parseEnv(base).notifications.push).toEqual({
      clientEmail: account.client_email,
      privateKey: account.private_key,
      privateKeyId: "abc",
      projectId: "rewards-prod",
      tokenUri: "https://oauth2.googleapis.com/token",
      apiUrl: "https://fcm.googleapis.com",
    });
    expect(
      parseEnv({ ...base, FCM_API_URL: "http://127.0.0.1:9/", FCM_TOKEN_URI: "http://127.0.0.1:9/token" }).notifications
        .push,
    ).toMatchObject({ apiUrl: "http://127.0.0.1:9", tokenUri: "http://127.0.0.1:9/token" });
    const { project_id: _project, token_uri: _tokenUri, ...bare } = account;
    expect(parseEnv({ ...base, FIREBASE_SERVICE_ACCOUNT: JSON.stringify(bare) }).notifications.push).toMatchObject({
      projectId: "demo-rewards",
      tokenUri: "https://oauth2.googleapis.com/token",
      privateKeyId: "abc",
    });
  });

  it("lets the operator command start with the notification variables set", () => {
    const env = parseEnv({
      NODE_ENV: "production",
      APP_ROLE: "operator",
      DATABASE_URL: "postgres://db.example/app",
      SMTP_URL: "smtp://smtp.example.com:587",
      NOTIFY_INTERVAL_SECONDS: "30",
    });
    expect(env.notifications).toMatchObject({ intervalMs: 30_000, email: { smtpUrl: "smtp://smtp.example.com:587" } });
  });
});

describe("rpc calls", () => {
  it("builds a named-argument call and serialises objects as JSON", () => {
    expect(
      buildRpcCall("create_withdrawal", {
        p_user_id: "u1",
        amount_param: 5,
        recipient_bank_details_param: { details: "x" },
      }),
    ).toEqual({
      sql: "select public.create_withdrawal(p_user_id => $1, amount_param => $2, recipient_bank_details_param => $3) as result",
      values: ["u1", 5, '{"details":"x"}'],
    });
    expect(buildRpcCall("app_health").sql).toBe("select public.app_health() as result");
  });

  it("refuses names that are not plain identifiers", () => {
    expect(() => buildRpcCall("x; drop table users", {})).toThrow(/identifier/);
    expect(() => buildRpcCall("f", { "a => 1); --": 1 })).toThrow(/identifier/);
  });

  it("keeps the SQLSTATE of driver errors", () => {
    const error = toDbError(Object.assign(new Error("duplicate key"), { code: "23505", detail: "Key exists" }));
    expect(error).toBeInstanceOf(DbError);
    expect(error).toMatchObject({ code: "23505", message: "duplicate key", details: "Key exists" });
    const plain = new Error("boom");
    expect(toDbError(plain)).toBe(plain);
  });
});

describe("same-origin guard", () => {
  const post = (headers: Record<string, string>) =>
    new Request("http://localhost:3000/auth", { method: "POST", headers: { host: "localhost:3000", ...headers } });

  it("lets same-origin and header-less posts through", () => {
    expect(() => assertSameOrigin(post({ origin: "http://localhost:3000" }), false)).not.toThrow();
    expect(() => assertSameOrigin(post({ "sec-fetch-site": "same-origin" }), false)).not.toThrow();
    expect(() => assertSameOrigin(post({}), false)).not.toThrow();
  });

  it.each<Record<string, string>>([
    { origin: "https://evil.example" },
    { origin: "null" },
    { "sec-fetch-site": "cross-site" },
    { "sec-fetch-site": "same-site" },
  ])("refuses %j with 403", (headers) => {
    try {
      assertSameOrigin(post(headers), false);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ init: { status: 403 }, data: { message: CROSS_SITE_MESSAGE } });
    }
  });

  it("behind a trusted proxy (TRUST_PROXY) compares the Origin with the first X-Forwarded-Host value", () => {
    const proxied = (origin: string) =>
      post({ origin, "x-forwarded-host": "app.example, edge.internal", host: "10.0.0.5:3000" });
    expect(() => assertSameOrigin(proxied("https://app.example"), true)).not.toThrow();
    expect(() => assertSameOrigin(proxied("https://edge.internal"), true)).toThrow();
    expect(requestHost(proxied("https://app.example"), true)).toBe("app.example");
  });

  it("without TRUST_PROXY ignores X-Forwarded-Host, which anyone can send, and compares with Host", () => {
    const forged = post({ origin: "https://evil.example", "x-forwarded-host": "evil.example" });
    expect(() => assertSameOrigin(forged, false)).toThrow();
    expect(requestHost(forged, false)).toBe("localhost:3000");
    expect(() =>
      assertSameOrigin(post({ origin: "http://localhost:3000", "x-forwarded-host": "x" }), false),
    ).not.toThrow();
  });

  it("only redirects to local paths", () => {
    expect(safeRedirectPath("/earn?x=1")).toBe("/earn?x=1");
    expect(safeRedirectPath("//evil.example")).toBe("/");
    expect(safeRedirectPath("https://evil.example")).toBe("/");
    expect(safeRedirectPath("/\\evil.example")).toBe("/");
    expect(safeRedirectPath(null)).toBe("/");
  });

  it("refuses redirect paths that browsers would read as another site or that break the Location header", () => {
    // URLSearchParams has already decoded %09 / %0A / %5C by the time the value arrives.
    expect(safeRedirectPath("/\t/evil.example")).toBe("/");
    expect(safeRedirectPath("/\n/x")).toBe("/");
    expect(safeRedirectPath("/\r\nSet-Cookie: a=b")).toBe("/");
    expect(safeRedirectPath("/\\/evil.example")).toBe("/");
    expect(safeRedirectPath("/\u007f/x")).toBe("/");
    expect(safeRedirectPath("earn")).toBe("/");
    expect(safeRedirectPath("")).toBe("/");
  });

  it("refuses redirect paths whose dot segments resolve to a path starting with // (another host to a browser)", () => {
    expect(safeRedirectPath("/.//evil.example/login")).toBe("/");
    expect(safeRedirectPath("/a/..//x")).toBe("/");
    expect(safeRedirectPath("/%2e%2e//x")).toBe("/");
    expect(safeRedirectPath("/%2E//x")).toBe("/");
    expect(safeRedirectPath("/./.././/x?y=1")).toBe("/");
    // Dot segments that stay on a local path still resolve.
    expect(safeRedirectPath("/earn/../withdraw?history=1")).toBe("/withdraw?history=1");
    expect(safeRedirectPath("/./legal")).toBe("/legal");
  });

  it("keeps a local path whole and returns it in its resolved form", () => {
    expect(safeRedirectPath("/withdraw?history=1#top")).toBe("/withdraw?history=1#top");
    expect(safeRedirectPath("/a/../earn")).toBe("/earn");
    expect(safeRedirectPath("/%09/evil.example")).toBe("/%09/evil.example");
    expect(safeRedirectPath("/profile?tab=café")).toBe("/profile?tab=caf%C3%A9");
  });
});
