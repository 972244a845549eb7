import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ruleMessage } from "~/domain/rules";
import {
  formatSettingValue,
  invalidSettingMessage,
  NOT_SETTINGS,
  parseSettingInput,
  settingInputText,
  settingOf,
  SETTING_TOPICS,
  SETTINGS,
  type SettingValue,
} from "~/domain/settings";
import {
  INVALID_GOAL_LISTS,
  INVALID_LEVEL_LISTS,
  INVALID_PRIZE_LISTS,
  VALID_GOAL_LISTS,
  VALID_LEVEL_LISTS,
  VALID_PRIZE_LISTS,
} from "../support/loop-samples";

// app/domain/settings.ts: the console's list of settings (docs/operator-console.md, "Settings"),
// checked against app_config as the migrations leave it (supabase/schema/tables/app_config.sql,
// which tests/integration/schema-snapshot.test.ts keeps equal to the migrations).

/** The columns of `create table public.app_config (...)`, in order. */
function appConfigColumns(): string[] {
  const sql = readFileSync("supabase/schema/tables/app_config.sql", "utf8");
  const body = /create table public\.app_config \(\n([\s\S]*?)\n\);/.exec(sql)?.[1];
  if (!body) throw new Error("supabase/schema/tables/app_config.sql has no create table");
  return body
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("constraint "))
    .map((line) => line.split(" ")[0]!);
}

describe("the console's settings", () => {
  it("lists every column of app_config, or says why it is not a setting", () => {
    const columns = appConfigColumns();
    expect(columns.length).toBeGreaterThan(20);
    const listed = [...SETTINGS.map(({ key }) => key), ...Object.keys(NOT_SETTINGS)];
    expect(
      columns.filter((column) => !listed.includes(column)),
      "app_config columns the console does not list",
    ).toEqual([]);
    expect(
      listed.filter((key) => !columns.includes(key)),
      "listed settings app_config does not have",
    ).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it("gives every setting a topic, a label, plain help text and bounds that hold a value", () => {
    for (const setting of SETTINGS) {
      expect(SETTING_TOPICS).toContain(setting.topic);
      expect(setting.label.length, setting.key).toBeGreaterThan(3);
      expect(setting.help.length, setting.key).toBeGreaterThan(30);
      if ("min" in setting) expect(setting.min, setting.key).toBeLessThan(setting.max);
    }
    // Every topic has settings.
    expect(SETTING_TOPICS.filter((topic) => !SETTINGS.some((setting) => setting.topic === topic))).toEqual([]);
  });

  it("reads whole numbers and amounts in ASCII digits within the bounds, and nothing else", () => {
    const coins = settingOf("checkin_coins");
    expect(parseSettingInput(coins, " 25 ")).toBe(25);
    expect(parseSettingInput(coins, "100000")).toBe(100_000);
    for (const wrong of ["0", "100001", "-1", "2.5", "1e3", "0x10", "٥", "1,5", "NaN", "", undefined, "9".repeat(400)])
      expect(parseSettingInput(coins, wrong), String(wrong)).toBeUndefined();

    const minimum = settingOf("min_withdrawal_upi");
    expect(parseSettingInput(minimum, "2.5")).toBe(2.5);
    expect(parseSettingInput(minimum, "0.01")).toBe(0.01);
    for (const wrong of ["0", "0.001", "5.001", "$5", "10000.01", ".5", "5."])
      expect(parseSettingInput(minimum, wrong), wrong).toBeUndefined();

    // The ratio may be empty (all bonus money unlocked); a whole number may not.
    const ratio = settingOf("bonus_unlock_ratio");
    expect(parseSettingInput(ratio, "")).toBeNull();
    expect(parseSettingInput(ratio, "1.25")).toBe(1.25);
    expect(parseSettingInput(ratio, "100.01")).toBeUndefined();
  });

  it("reads yes or no, and network holds as a JSON object of whole days", () => {
    const review = settingOf("review_first_withdrawal");
    expect(parseSettingInput(review, "yes")).toBe(true);
    expect(parseSettingInput(review, "no")).toBe(false);
    for (const wrong of ["true", "on", "Yes", "", undefined]) expect(parseSettingInput(review, wrong)).toBeUndefined();
    expect(parseSettingInput(review, ["yes", "no"])).toBeUndefined();

    const holds = settingOf("provider_hold_days");
    expect(parseSettingInput(holds, "")).toEqual({});
    expect(parseSettingInput(holds, ' {"bitlabs": 14, "ad-gem2": 0} ')).toEqual({ bitlabs: 14, "ad-gem2": 0 });
    for (const wrong of [
      "[]",
      "null",
      "14",
      '{"Bitlabs": 14}',
      '{"b": 14}',
      '{"bitlabs": 366}',
      '{"bitlabs": 1.5}',
      '{"bitlabs": "14"}',
      '{"bitlabs": 14',
      '{"__proto__": 1}',
    ])
      expect(parseSettingInput(holds, wrong), wrong).toBeUndefined();
  });

  it("reads the lists of levels and daily goals as the database's levels_valid and daily_goals_valid do", () => {
    for (const [key, valid, invalid] of [
      ["levels", VALID_LEVEL_LISTS, INVALID_LEVEL_LISTS],
      ["daily_goals", VALID_GOAL_LISTS, INVALID_GOAL_LISTS],
    ] as const) {
      const setting = settingOf(key);
      for (const list of valid)
        expect(parseSettingInput(setting, JSON.stringify(list)), JSON.stringify(list)).toEqual(list);
      for (const wrong of invalid)
        expect(parseSettingInput(setting, JSON.stringify(wrong)), JSON.stringify(wrong)).toBeUndefined();
      expect(parseSettingInput(setting, "[{")).toBeUndefined();
    }
    expect(formatSettingValue(settingOf("levels"), VALID_LEVEL_LISTS[1]!)).toBe("Bronze (0 XP), Silver (500 XP)");
    expect(formatSettingValue(settingOf("daily_goals"), VALID_GOAL_LISTS[1]! as SettingValue)).toBe(
      "earn, adgate, friends",
    );
  });

  it("reads the prize table as coins separated by commas, as the database's prizes_valid does", () => {
    const setting = settingOf("monthly_prizes");
    for (const list of VALID_PRIZE_LISTS) expect(parseSettingInput(setting, list.join(", "))).toEqual(list);
    expect(parseSettingInput(setting, " 2500 ,1500,  1000 ")).toEqual([2500, 1500, 1000]);
    // The lists of numbers; a list of strings typed with commas is numbers again.
    const numberLists = INVALID_PRIZE_LISTS.filter(
      (list): list is number[] => Array.isArray(list) && list.every((item) => typeof item === "number"),
    );
    for (const wrong of numberLists)
      expect(parseSettingInput(setting, wrong.join(", ")), JSON.stringify(wrong)).toBeUndefined();
    for (const wrong of ["", "2500,", "2,500", "2500 1500", "[2500]", "1e3", "２５００"])
      expect(parseSettingInput(setting, wrong), wrong).toBeUndefined();
    expect(formatSettingValue(setting, [2500, 1500, 1000, 200])).toBe(
      "1st 2,500 coins, 2nd 1,500 coins, 3rd 1,000 coins, 4th 200 coins",
    );
  });

  it("reads the ticked network flags in their own order; none ticked is none; a flag it does not know, or one twice, is refused", () => {
    const flags = settingOf("network_review_flags");
    expect(parseSettingInput(flags, undefined)).toEqual([]);
    expect(parseSettingInput(flags, "")).toEqual([]);
    expect(parseSettingInput(flags, "tor")).toEqual(["tor"]);
    expect(parseSettingInput(flags, ["hosting", "vpn"])).toEqual(["vpn", "hosting"]);
    for (const wrong of ["VPN", "mobile", ["vpn", "vpn"], ["vpn", "Tor"]]) {
      expect(parseSettingInput(flags, wrong), String(wrong)).toBeUndefined();
    }
    expect(formatSettingValue(flags, [])).toBe("None");
    expect(formatSettingValue(flags, ["vpn", "relay", "hosting"])).toBe("VPN, Private relay (iCloud), Data centre");
  });

  it("starts each field with text that reads back as the same value", () => {
    const samples: Record<string, SettingValue[]> = {
      coins: [1, 100],
      dollars: [0.01, 5, 1234.5],
      ratio: [null, 0, 1, 2.25],
      rupees: [null, 1, 83.2475, 1000],
      boolean: [true, false],
      json: [{}, { bitlabs: 14, "ad-gem": 30 }],
      levels: VALID_LEVEL_LISTS as SettingValue[],
      goals: VALID_GOAL_LISTS as SettingValue[],
      prizes: VALID_PRIZE_LISTS,
      flags: [[], ["vpn", "tor"], ["vpn", "proxy", "tor", "relay", "hosting"]],
      days: [0, 365],
      hours: [72],
      count: [0, 101],
    };
    for (const setting of SETTINGS) {
      for (const value of samples[setting.unit]!.filter(
        (sample) =>
          !("min" in setting) || sample === null || (Number(sample) >= setting.min && Number(sample) <= setting.max),
      )) {
        if (value === null && !("empty" in setting)) continue;
        expect(parseSettingInput(setting, settingInputText(setting, value)), `${setting.key} ${String(value)}`).toEqual(
          value,
        );
      }
    }
  });

  it("words values for people: coins with their worth, money, days, yes or no, and network holds", () => {
    expect(formatSettingValue(settingOf("checkin_coins"), 10, 100)).toBe("10 coins ($0.10)");
    expect(formatSettingValue(settingOf("coins_per_dollar"), 100)).toBe("100 coins = $1.00");
    expect(formatSettingValue(settingOf("min_withdrawal_paypal"), 5)).toBe("$5.00");
    expect(formatSettingValue(settingOf("postback_hold_days"), 1)).toBe("1 day");
    expect(formatSettingValue(settingOf("review_first_withdrawal"), false)).toBe("No");
    expect(formatSettingValue(settingOf("provider_hold_days"), { bitlabs: 14 })).toBe("bitlabs: 14 days");
    expect(formatSettingValue(settingOf("provider_hold_days"), {})).toBe("None");
    expect(formatSettingValue(settingOf("bonus_unlock_ratio"), null)).toBe(
      "empty (all bonus money can be withdrawn at once)",
    );
    expect(formatSettingValue(settingOf("usd_inr_rate"), 83.2475)).toBe("₹83.2475 per $1");
    expect(formatSettingValue(settingOf("usd_inr_rate"), null)).toBe(
      "empty (no rate: UPI amounts are shown in dollars only)",
    );
  });

  it("says what a refused value should be, the same words whether the form or the database refused it", () => {
    expect(invalidSettingMessage(settingOf("checkin_coins"))).toBe("Enter a whole number of coins from 1 to 100,000");
    expect(invalidSettingMessage(settingOf("min_withdrawal_upi"))).toBe(
      "Enter an amount from $0.01 to $10,000.00, with at most two decimals",
    );
    expect(invalidSettingMessage(settingOf("risk_review_threshold"))).toBe("Enter a whole number from 0 to 101");
    expect(invalidSettingMessage(settingOf("usd_inr_rate"))).toBe(
      "Enter rupees per dollar from 1 to 1,000 with at most four decimals, or leave it empty",
    );
    for (const setting of SETTINGS)
      expect(ruleMessage("invalid_setting", setting.key)).toBe(invalidSettingMessage(setting));
  });
});
