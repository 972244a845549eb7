import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "~/server/env.server";
import { DEFAULT_POSTBACKS_PER_MINUTE, readWalls } from "~/server/walls/registry.server";

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

  it("stops the server's start with the variable's name (parseEnv throws an EnvError naming it)", () => {
    expect(() => parseEnv({ ...BASE, WALL_LOOTABLY_ENABLED: "true", WALL_LOOTABLY_PLACEMENT_ID: "pl" })).toThrow(
      new EnvError(
        "Invalid environment:\n  WALL_LOOTABLY_POSTBACK_SECRET: is required: the placement's postback secret (Edit), which signs postbacks",
      ),
    );
    expect(parseEnv(BASE).walls).toEqual([]);
  });
});
