import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES, authErrorMessage } from "~/domain/auth";
import { parseEnv } from "~/server/runtime/env.server";
import { clientAddress } from "~/server/http/client-address.server";
import { addressKey } from "~/server/http/ip-address.server";

const EMULATOR = { NODE_ENV: "development", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" };

function forwardedFor(value?: string) {
  return new Request("http://localhost:3000/auth", {
    headers: value === undefined ? {} : { "x-forwarded-for": value },
  });
}

describe("the client address behind trusted proxies (TRUST_PROXY)", () => {
  it("without a trusted proxy believes no X-Forwarded-For at all", () => {
    expect(clientAddress(forwardedFor("203.0.113.7"), 0)).toBeNull();
  });

  it("with one proxy takes the last entry, which that proxy wrote, whatever the client put before it", () => {
    expect(clientAddress(forwardedFor("203.0.113.7"), 1)).toBe("203.0.113.7");
    expect(clientAddress(forwardedFor("1.1.1.1, 8.8.8.8 ,203.0.113.7"), 1)).toBe("203.0.113.7");
  });

  it("with two proxies takes the second entry from the right (what the outer proxy saw)", () => {
    expect(clientAddress(forwardedFor("6.6.6.6, 203.0.113.7, 10.0.0.2"), 2)).toBe("203.0.113.7");
  });

  it("has no address when the header is missing, shorter than the proxy chain, or not an address", () => {
    expect(clientAddress(forwardedFor(), 1)).toBeNull();
    expect(clientAddress(forwardedFor("203.0.113.7"), 2)).toBeNull();
    expect(clientAddress(forwardedFor("unknown"), 1)).toBeNull();
  });

  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["203.0.113.7:51234", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::ffff:cb00:7107", "203.0.113.7"],
    ["2001:DB8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["[2001:db8:1:2::9]:443", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["2001:db8:1:2::192.0.2.1", "2001:db8:1:2::/64"],
    ["not-an-address", null],
    ["", null],
  ])("keys %s as %s (IPv6 by its /64)", (value, key) => {
    expect(addressKey(value)).toBe(key);
  });
});

describe("the settings of the limits", () => {
  it("reads TRUST_PROXY as true, false or a number of proxies", () => {
    expect(parseEnv(EMULATOR).trustedProxyHops).toBe(0);
    expect(parseEnv({ ...EMULATOR, TRUST_PROXY: "true" })).toMatchObject({ trustProxy: true, trustedProxyHops: 1 });
    expect(parseEnv({ ...EMULATOR, TRUST_PROXY: "1" }).trustedProxyHops).toBe(1);
    expect(parseEnv({ ...EMULATOR, TRUST_PROXY: "2" })).toMatchObject({ trustProxy: true, trustedProxyHops: 2 });
    expect(parseEnv({ ...EMULATOR, TRUST_PROXY: "false" })).toMatchObject({ trustProxy: false, trustedProxyHops: 0 });
    expect(parseEnv({ ...EMULATOR, TRUST_PROXY: "0" }).trustProxy).toBe(false);
    expect(() => parseEnv({ ...EMULATOR, TRUST_PROXY: "yes" })).toThrow(/TRUST_PROXY/);
  });

  it("reads AUTH_GLOBAL_LIMIT_PER_MINUTE as a whole number, 300 by default", () => {
    expect(parseEnv(EMULATOR).authGlobalLimitPerMinute).toBe(300);
    expect(parseEnv({ ...EMULATOR, AUTH_GLOBAL_LIMIT_PER_MINUTE: "1200" }).authGlobalLimitPerMinute).toBe(1200);
    for (const bad of ["0", "-5", "2.5", "lots"]) {
      expect(() => parseEnv({ ...EMULATOR, AUTH_GLOBAL_LIMIT_PER_MINUTE: bad })).toThrow(
        /AUTH_GLOBAL_LIMIT_PER_MINUTE/,
      );
    }
  });
});

describe(`firebase-admin's sign-up refusals (the words of docs/product.md, "Auth: messages")`, () => {
  it.each([
    ["auth/email-already-exists", AUTH_MESSAGES.emailInUse],
    ["auth/invalid-email", AUTH_MESSAGES.invalidEmailFormat],
    ["auth/invalid-password", AUTH_MESSAGES.weakPassword],
  ])("%s → its message", (code, message) => {
    expect(authErrorMessage(code, "")).toBe(message);
  });
});
