import { describe, expect, it } from "vitest";
import { parseEnv } from "~/server/runtime/env.server";
import { clientAddress, senderAddress, SOCKET_ADDRESS_HEADER } from "~/server/http/client-address.server";
import { readWalls } from "~/server/walls/registry.server";

// Who sent a postback (docs/offer-walls.md, "Senders"): the socket's address without TRUST_PROXY,
// the address our proxies report with it, and nobody (fail closed) when that cannot be told.

const EMULATOR = { NODE_ENV: "development", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" };

function request(forwardedFor?: string, socket?: string) {
  const headers: Record<string, string> = {};
  if (forwardedFor !== undefined) headers["x-forwarded-for"] = forwardedFor;
  if (socket !== undefined) headers[SOCKET_ADDRESS_HEADER] = socket;
  return new Request("http://localhost:3000/api/adgate/postback", { headers });
}

describe("the sender of a postback", () => {
  it("without TRUST_PROXY is the socket's address, whatever X-Forwarded-For claims", () => {
    expect(senderAddress(request("52.42.57.125"), "203.0.113.9", 0)).toBe("203.0.113.9");
    expect(senderAddress(request(), "::ffff:52.42.57.125", 0)).toBe("52.42.57.125");
    expect(senderAddress(request(), null, 0)).toBeNull();
  });

  it("behind one proxy is the entry that proxy wrote; a missing or unreadable header is no sender at all", () => {
    expect(senderAddress(request("6.6.6.6, 52.42.57.125"), "127.0.0.1", 1)).toBe("52.42.57.125");
    expect(senderAddress(request(), "127.0.0.1", 1)).toBeNull();
    expect(senderAddress(request("unknown"), "127.0.0.1", 1)).toBeNull();
    expect(senderAddress(request(""), "127.0.0.1", 1)).toBeNull();
  });

  it("with the proxies named by address is the right-most address that is none of them (Express's trust proxy list)", () => {
    const proxies = ["10.0.0.2", "10.0.0.3"];
    // Through both proxies: the address the outer one received the connection from.
    expect(senderAddress(request("6.6.6.6, 52.42.57.125, 10.0.0.2"), "10.0.0.3", 1, proxies)).toBe("52.42.57.125");
    // Straight to the app's port: the socket is no proxy of ours, so its X-Forwarded-For is not read.
    expect(senderAddress(request("52.42.57.125"), "198.51.100.7", 1, proxies)).toBe("198.51.100.7");
    // From our proxy, but the header is missing or unreadable: unknown.
    expect(senderAddress(request(), "10.0.0.3", 1, proxies)).toBeNull();
    expect(senderAddress(request("unknown"), "10.0.0.3", 1, proxies)).toBeNull();
  });

  it("clientAddress reads the socket's address from the request interceptor's header when the proxies are named", () => {
    expect(clientAddress(request("52.42.57.125, 10.0.0.2", "10.0.0.2"), 0, ["10.0.0.2"])).toBe("52.42.57.125");
    expect(clientAddress(request("52.42.57.125", "198.51.100.7"), 0, ["10.0.0.2"])).toBe("198.51.100.7");
  });

  it("reads TRUST_PROXY as a list of proxy addresses, and refuses one that is not an address", () => {
    expect(parseEnv({ ...EMULATOR, TRUST_PROXY: "10.0.0.2, 10.0.0.3" })).toMatchObject({
      trustProxy: true,
      trustedProxyHops: 0,
      trustedProxies: ["10.0.0.2", "10.0.0.3"],
    });
    expect(parseEnv({ ...EMULATOR, TRUST_PROXY: "2" })).toMatchObject({ trustedProxyHops: 2, trustedProxies: [] });
    expect(() => parseEnv({ ...EMULATOR, TRUST_PROXY: "10.0.0.2,proxy.internal" })).toThrow(/TRUST_PROXY/);
  });
});

describe("the sender allowlist of a wall whose signature does not bind the transaction and the amount", () => {
  const LOOTABLY = {
    WALL_LOOTABLY_ENABLED: "true",
    WALL_LOOTABLY_PLACEMENT_ID: "p",
    WALL_LOOTABLY_POSTBACK_SECRET: "s",
  };
  const TOROX = {
    WALL_TOROX_ENABLED: "true",
    WALL_TOROX_PUBLISHER_ID: "14",
    WALL_TOROX_APP_ID: "5",
    WALL_TOROX_SECRET: "torox-secret",
  };

  it("is required: Lootably publishes no addresses, so without a list the wall does not start", () => {
    const { walls, problems } = readWalls(LOOTABLY);
    expect(walls).toEqual([]);
    expect(problems).toEqual([
      { variable: "WALL_LOOTABLY_ALLOWED_ADDRESSES", message: expect.stringMatching(/^is required: Lootably/) },
    ]);
    expect(readWalls({ ...LOOTABLY, WALL_LOOTABLY_ALLOWED_ADDRESSES: "203.0.113.20" }).walls[0]).toMatchObject({
      allowedAddresses: ["203.0.113.20"],
      anySender: false,
    });
  });

  it("is the published address by default, and 'any' needs WALL_{NAME}_ANY_SENDER=true as well", () => {
    expect(readWalls(TOROX).walls[0]).toMatchObject({ allowedAddresses: ["54.175.173.245"], anySender: false });
    const any = readWalls({ ...TOROX, WALL_TOROX_ALLOWED_ADDRESSES: "any" });
    expect(any.walls).toEqual([]);
    expect(any.problems[0]).toMatchObject({
      variable: "WALL_TOROX_ALLOWED_ADDRESSES",
      message: expect.stringContaining("WALL_TOROX_ANY_SENDER=true"),
    });
    const confirmed = readWalls({ ...TOROX, WALL_TOROX_ALLOWED_ADDRESSES: "any", WALL_TOROX_ANY_SENDER: "true" });
    expect(confirmed.walls[0]).toMatchObject({ allowedAddresses: [], anySender: true });
  });

  it("is not asked twice of a network whose signature binds everything (BitLabs signs the whole URL)", () => {
    const { walls, problems } = readWalls({
      WALL_BITLABS_ENABLED: "true",
      WALL_BITLABS_APP_TOKEN: "t",
      WALL_BITLABS_APP_SECRET: "s",
      WALL_BITLABS_ALLOWED_ADDRESSES: "any",
    });
    expect(problems).toEqual([]);
    expect(walls[0]).toMatchObject({ allowedAddresses: [], anySender: true });
  });
});
