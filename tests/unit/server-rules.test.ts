import { describe, expect, it } from "vitest";
import { buildRpcCall, DbError, toDbError } from "~/server/db/core.server";
import { parseEnv } from "~/server/env.server";
import { assertSameOrigin, CROSS_SITE_MESSAGE, requestHost } from "~/server/http/same-origin.server";
import { safeRedirectPath } from "~/server/http/redirects.server";

describe("environment validation", () => {
  it("lets the operator command start without Firebase or a session secret, never the server", () => {
    const bare = { NODE_ENV: "production", DATABASE_URL: "postgres://db.example/app" };
    expect(() => parseEnv(bare)).toThrow(/FIREBASE_API_KEY[\s\S]*SESSION_SECRET|SESSION_SECRET[\s\S]*FIREBASE_API_KEY/);
    expect(parseEnv({ ...bare, APP_ROLE: "operator" }).database).toEqual({
      kind: "postgres",
      url: "postgres://db.example/app",
    });
    expect(() => parseEnv({ ...bare, APP_ROLE: "operator", PAYPAL_CLIENT_ID: "id" })).toThrow(/PAYPAL_CLIENT_SECRET/);
  });

  it("defaults to PGlite and the emulator's demo project in development", () => {
    const env = parseEnv({ FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" });
    expect(env.database).toEqual({ kind: "pglite", dataDir: ".data/pglite" });
    expect(env.firebase.projectId).toBe("demo-rewards");
    expect(env.isProduction).toBe(false);
  });

  it("chooses the transport from DATABASE_URL or SUPABASE_URL", () => {
    const emulator = { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" };
    expect(parseEnv({ ...emulator, DATABASE_URL: "postgres://u@h:5432/db" }).database).toEqual({
      kind: "postgres",
      url: "postgres://u@h:5432/db",
    });
    expect(
      parseEnv({ ...emulator, SUPABASE_URL: "https://x.supabase.co", SUPABASE_SERVICE_ROLE_KEY: "key" }).database,
    ).toEqual({ kind: "supabase", url: "https://x.supabase.co", serviceRoleKey: "key" });
  });

  it.each([
    [{ NODE_ENV: "production", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" }, "SESSION_SECRET"],
    [{ SESSION_SECRET: "short", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" }, "SESSION_SECRET"],
    [{ FIREBASE_PROJECT_ID: "real-project" }, "FIREBASE_API_KEY"],
    [{ FIREBASE_API_KEY: "k" }, "FIREBASE_PROJECT_ID"],
    [{ FIREBASE_API_KEY: "k", FIREBASE_PROJECT_ID: "demo-x" }, "FIREBASE_PROJECT_ID"],
    [{ FIREBASE_AUTH_EMULATOR_HOST: "nonsense" }, "FIREBASE_AUTH_EMULATOR_HOST"],
    [{ FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099", DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [
      { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099", SUPABASE_URL: "https://x.supabase.co" },
      "SUPABASE_SERVICE_ROLE_KEY",
    ],
    [
      { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099", SUPABASE_URL: "not a url", SUPABASE_SERVICE_ROLE_KEY: "k" },
      "SUPABASE_URL",
    ],
    [{ FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099", FIREBASE_SERVICE_ACCOUNT: "{}" }, "FIREBASE_SERVICE_ACCOUNT"],
    [{ FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099", NODE_ENV: "staging" }, "NODE_ENV"],
  ])("refuses %j, naming %s", (source, variable) => {
    expect(() => parseEnv(source)).toThrow(new RegExp(`\\b${variable}\\b`));
  });

  it("accepts a complete production configuration", () => {
    const env = parseEnv({
      NODE_ENV: "production",
      SESSION_SECRET: "x".repeat(32),
      FIREBASE_API_KEY: "AIza-test",
      FIREBASE_PROJECT_ID: "rewards-prod",
      DATABASE_URL: "postgresql://app@db.internal:5432/rewards",
      AUTH_AUTHORIZED_DOMAINS: "rewards.example.com, Localhost",
    });
    expect(env.isProduction).toBe(true);
    expect(env.firebase.authDomain).toBe("rewards-prod.firebaseapp.com");
    expect(env.authorizedDomainsOverride).toEqual(["rewards.example.com", "localhost"]);
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
});
