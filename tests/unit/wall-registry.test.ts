import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_POSTBACKS_PER_MINUTE, EnvError, parseEnv } from "~/server/runtime/env.server";
import type { WallNetwork } from "~/server/walls/network.server";
import { bitlabs } from "~/server/walls/networks/bitlabs.server";
import { revlum } from "~/server/walls/networks/revlum.server";
import { resolveWall, resolveWalls, UNREADABLE_SECRET, type OpenOverride } from "~/server/walls/overrides.server";
import { readWalls, WALL_NETWORKS } from "~/server/walls/registry.server";
import { openWallSecret, sealWallSecret, secretHint } from "~/server/walls/sealed-secrets.server";

const BASE = { NODE_ENV: "test", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" };

describe("offer walls from the environment (WALL_{NAME}_…)", () => {
  it("turns on only the walls WALL_{NAME}_ENABLED=true names, with their settings and the published sender addresses", () => {
    const { walls, problems } = readWalls({
      WALL_AYETSTUDIOS_ENABLED: "true",
      WALL_AYETSTUDIOS_API_KEY: "9f2228fea0d8e7ce10b2ac36053db14c",
      WALL_AYETSTUDIOS_ADSLOT_ID: "923",
      WALL_BITLABS_APP_SECRET: "set but not enabled",
    });
    expect(problems).toEqual([]);
    expect(walls.map((wall) => wall.network.name)).toEqual(["ayetstudios"]);
    expect(walls[0]).toMatchObject({
      config: { apiKey: "9f2228fea0d8e7ce10b2ac36053db14c", adSlotId: "923" },
      allowedAddresses: [
        "51.79.101.241",
        "158.69.185.134",
        "158.69.185.154",
        "35.165.166.40",
        "35.166.159.131",
        "52.40.3.140",
      ],
      holdDays: null,
      postbacksPerMinute: DEFAULT_POSTBACKS_PER_MINUTE,
      secrets: ["9f2228fea0d8e7ce10b2ac36053db14c"],
    });
  });

  it("takes the operator's own addresses, hold days and postbacks per minute, and 'any' for no address check", () => {
    const { walls } = readWalls({
      WALL_REVLUM_ENABLED: "true",
      WALL_REVLUM_APP_ID: "a1",
      WALL_REVLUM_SECRET: "s1",
      WALL_REVLUM_ALLOWED_ADDRESSES: "209.159.156.198, 2001:db8::1",
      WALL_REVLUM_HOLD_DAYS: "14",
      WALL_REVLUM_POSTBACKS_PER_MINUTE: "60000",
      WALL_BITLABS_ENABLED: "true",
      WALL_BITLABS_APP_TOKEN: "t",
      WALL_BITLABS_APP_SECRET: "s",
      WALL_BITLABS_ALLOWED_ADDRESSES: "any",
    });
    expect(
      walls.map((wall) => [wall.network.name, wall.allowedAddresses, wall.holdDays, wall.postbacksPerMinute]),
    ).toEqual([
      ["bitlabs", [], null, DEFAULT_POSTBACKS_PER_MINUTE],
      ["revlum", ["209.159.156.198", "2001:db8::1"], 14, 60000],
    ]);
  });

  it("names every variable that is missing or wrong, and turns on no wall that has one", () => {
    const { walls, problems } = readWalls({
      WALL_BITLABS_ENABLED: "true",
      WALL_BITLABS_APP_TOKEN: "t",
      WALL_ADGATE_ENABLED: "true",
      WALL_ADGATE_WALL_CODE: "nq6Upw",
      WALL_ADGATE_POSTBACK_TOKEN: "short",
      WALL_ADGATE_ALLOWED_ADDRESSES: "52.42.57.125,not-an-ip",
      WALL_ADGATE_HOLD_DAYS: "-1",
      WALL_TOROX_ENABLED: "yes",
    });
    expect(walls).toEqual([]);
    expect(problems.map((problem) => problem.variable)).toEqual([
      "WALL_BITLABS_APP_SECRET",
      "WALL_ADGATE_POSTBACK_TOKEN",
      "WALL_ADGATE_ALLOWED_ADDRESSES",
      "WALL_ADGATE_HOLD_DAYS",
      "WALL_TOROX_ENABLED",
    ]);
    expect(problems[0]?.message).toBe("is required: the app's secret key, which signs callbacks");
  });

  it("stops the server's start with the variable's name (parseEnv, given readWalls' problems, throws an EnvError naming it)", () => {
    const source = {
      ...BASE,
      WALL_LOOTABLY_ENABLED: "true",
      WALL_LOOTABLY_PLACEMENT_ID: "pl",
      WALL_LOOTABLY_ALLOWED_ADDRESSES: "203.0.113.20",
    };
    const wallProblem =
      "  WALL_LOOTABLY_POSTBACK_SECRET: is required: the placement's postback secret (Edit), which signs postbacks";
    expect(() => parseEnv(source, readWalls(source).problems)).toThrow(
      new EnvError(`Invalid environment:\n${wallProblem}`),
    );
    // One message names them all: the environment's own variables first, then the walls'.
    const withBadSecret = { ...source, SESSION_SECRET: "short" };
    expect(() => parseEnv(withBadSecret, readWalls(withBadSecret).problems)).toThrow(
      new EnvError(`Invalid environment:\n  SESSION_SECRET: must be at least 32 characters\n${wallProblem}`),
    );
    expect(readWalls(BASE)).toEqual({ walls: [], problems: [] });
    expect(() => parseEnv(BASE, readWalls(BASE).problems)).not.toThrow();
  });
});

const overrideOf = (network: string, fields: Partial<OpenOverride> = {}): OpenOverride => ({
  network,
  enabled: null,
  hold_days: null,
  allowed_addresses: null,
  settings: {},
  secrets: {},
  updated_at: "2026-12-02T00:00:00Z",
  updated_by: "owner@example.com",
  ...fields,
});

const REVLUM_ENV = {
  WALL_REVLUM_ENABLED: "true",
  WALL_REVLUM_APP_ID: "env-app",
  WALL_REVLUM_SECRET: "env-secret-value",
  WALL_REVLUM_HOLD_DAYS: "7",
};

describe("the console's settings laid over the environment (docs/offer-walls.md, 'Where settings come from')", () => {
  it("a value set in the console wins over the environment's; what the console leaves unset comes from the environment", () => {
    const state = resolveWall(
      revlum as WallNetwork<unknown>,
      REVLUM_ENV,
      overrideOf("revlum", { hold_days: 0, secrets: { SECRET: "console-secret-value" } }),
    );
    expect(state.problems).toEqual([]);
    expect(state.wall).toMatchObject({
      config: { appId: "env-app", secret: "console-secret-value" },
      holdDays: 0,
      allowedAddresses: ["209.159.156.198"],
    });
  });

  it("without an override (a wall given back to the environment) the wall is the environment's alone", () => {
    const state = resolveWall(revlum as WallNetwork<unknown>, REVLUM_ENV, null);
    expect(state.wall).toMatchObject({ config: { appId: "env-app", secret: "env-secret-value" }, holdDays: 7 });
  });

  it("the console turns off a wall the environment turns on, and turns on one the environment leaves off", () => {
    const off = resolveWall(revlum as WallNetwork<unknown>, REVLUM_ENV, overrideOf("revlum", { enabled: false }));
    expect([off.enabled, off.wall, off.problems]).toEqual([false, null, []]);
    const on = resolveWall(
      bitlabs as WallNetwork<unknown>,
      {},
      overrideOf("bitlabs", { enabled: true, settings: { APP_TOKEN: "t" }, secrets: { APP_SECRET: "s" } }),
    );
    expect(on.wall?.config).toEqual({ appToken: "t", appSecret: "s" });
  });

  it("a wall the console turns on without a setting it needs is off, and the problem names the variable", () => {
    const state = resolveWall(bitlabs as WallNetwork<unknown>, {}, overrideOf("bitlabs", { enabled: true }));
    expect(state.enabled).toBe(true);
    expect(state.wall).toBeNull();
    expect(state.problems.map((problem) => problem.variable)).toEqual([
      "WALL_BITLABS_APP_TOKEN",
      "WALL_BITLABS_APP_SECRET",
    ]);
  });

  it("a console secret that cannot be opened turns the wall off rather than falling back to the environment's secret", () => {
    const state = resolveWall(
      revlum as WallNetwork<unknown>,
      REVLUM_ENV,
      overrideOf("revlum", { secrets: { SECRET: null } }),
    );
    expect(state.wall).toBeNull();
    expect(state.problems).toEqual([{ variable: "WALL_REVLUM_SECRET", message: UNREADABLE_SECRET }]);
  });

  it("the postback log removes the environment's secret too once the console has replaced it", () => {
    const state = resolveWall(
      revlum as WallNetwork<unknown>,
      REVLUM_ENV,
      overrideOf("revlum", { secrets: { SECRET: "console-secret-value" } }),
    );
    expect([...(state.wall?.secrets ?? [])].sort()).toEqual(["console-secret-value", "env-secret-value"]);
  });

  it("resolveWalls opens each sealed secret with its network and setting, and lists every network in the registry's order", () => {
    const sealed = sealWallSecret("console-secret-value", "revlum", "SECRET", KEY);
    const states = resolveWalls(
      REVLUM_ENV,
      [{ ...overrideOf("revlum"), secrets: { SECRET: { sealed, hint: "alue" } } }],
      (value, network, setting) => openWallSecret(value, network, setting, KEY),
    );
    expect(states.map((state) => state.network.name)).toEqual(WALL_NETWORKS.map((network) => network.name));
    expect(states.find((state) => state.network.name === "revlum")?.wall?.config).toEqual({
      appId: "env-app",
      secret: "console-secret-value",
    });
  });
});

const KEY = "a-test-account-hash-secret-of-32-characters";

describe("wall secrets sealed by the app (docs/decisions/076)", () => {
  it("opens what it sealed, and two seals of one value differ (a fresh IV each)", () => {
    const first = sealWallSecret("bitlabs-secret-1", "bitlabs", "APP_SECRET", KEY);
    const second = sealWallSecret("bitlabs-secret-1", "bitlabs", "APP_SECRET", KEY);
    expect(first).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(first).not.toContain("bitlabs-secret-1");
    expect(first).not.toBe(second);
    expect(openWallSecret(first, "bitlabs", "APP_SECRET", KEY)).toBe("bitlabs-secret-1");
  });

  it("does not open with another key, for another setting or network, or altered", () => {
    const sealed = sealWallSecret("bitlabs-secret-1", "bitlabs", "APP_SECRET", KEY);
    expect(openWallSecret(sealed, "bitlabs", "APP_SECRET", `${KEY}-rotated`)).toBeNull();
    expect(openWallSecret(sealed, "bitlabs", "APP_TOKEN", KEY)).toBeNull();
    expect(openWallSecret(sealed, "revlum", "APP_SECRET", KEY)).toBeNull();
    // One character of the ciphertext changed (a byte of it, whatever the character was).
    const at = sealed.length - 6;
    const altered = `${sealed.slice(0, at)}${sealed[at] === "A" ? "B" : "A"}${sealed.slice(at + 1)}`;
    expect(openWallSecret(altered, "bitlabs", "APP_SECRET", KEY)).toBeNull();
    expect(openWallSecret("v1.short", "bitlabs", "APP_SECRET", KEY)).toBeNull();
    expect(openWallSecret("plain-text", "bitlabs", "APP_SECRET", KEY)).toBeNull();
  });

  it("keeps as a hint only the last four characters of a secret of 12 or more", () => {
    expect(secretHint("0123456789ab")).toBe("89ab");
    expect(secretHint("0123456789a")).toBeNull();
  });
});

describe("each network's postback URL, as the console shows it", () => {
  it("is the one its page under docs/walls/ says to paste", () => {
    for (const network of WALL_NETWORKS) {
      const page = readFileSync(`docs/walls/${network.name}.md`, "utf8");
      const url = `{PUBLIC_URL}/api/${network.name}/postback${network.postbackQuery ? `?${network.postbackQuery.replace("{your postback token}", "{your token}")}` : ""}`;
      expect(page, network.name).toContain(`  ${url}\n`);
    }
  });
});
