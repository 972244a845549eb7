import { describe, expect, it } from "vitest";
import { REFERRAL_CODE_ALPHABET } from "~/domain/constants";
import { accountInDebtWords, debtOwed } from "~/domain/account-deletion";
import {
  formatDate,
  formatDay,
  formatTime,
  formatTimestamp,
  formatUtcTime,
  setClockTimeZone,
  waitedFor,
} from "~/domain/dates";
import {
  cashOutHint,
  cashOutWait,
  holdAmountInput,
  maskRecipient,
  withdrawalExpected,
  withdrawalStepMeaning,
  type WithdrawalRow,
} from "~/domain/withdrawals";
import { activityLabel } from "~/domain/activity";
import { stateBadge, withdrawalState } from "~/domain/money-timeline";
import { defaultDisplayName, displayNameProblem, trimDisplayName } from "~/domain/display-name";
import { escapeHiddenCharacters, hasHiddenCharacters } from "~/domain/hidden-characters";
import { findLegalDocument, LEGAL_DOCUMENTS } from "~/content/legal";
import {
  availableFigure,
  coinRateLine,
  formatDollars,
  carriedDebtLine,
  lockedBonusLine,
  pendingLine,
  showsTotalBalance,
  type MoneyParts,
} from "~/domain/money";
import { BOTTOM_NAV_ITEMS, isNavItemActive } from "~/domain/navigation";
import { ONBOARDING_SLIDES } from "~/content/onboarding";
import { parseSlideIndex } from "~/domain/onboarding";
import { isReferralCode } from "~/domain/referral-code";

describe('default display name (docs/product.md, "Profile: the rules")', () => {
  it("prefers the display name, then the email's local part, then User", () => {
    expect(defaultDisplayName(" Asha ", "asha@example.com")).toBe("Asha");
    expect(defaultDisplayName(null, "ravi.k@example.com")).toBe("ravi.k");
    expect(defaultDisplayName("  ", "@example.com")).toBe("User");
    expect(defaultDisplayName(undefined, null)).toBe("User");
  });

  it("counts a name that breaks the display-name rule as none: the email's local part, else User", () => {
    const crafted = `<b>Support</b>\r\n${"x".repeat(380)}`;
    expect(defaultDisplayName(crafted, "ravi.k@example.com")).toBe("ravi.k");
    expect(defaultDisplayName("Ana\u202eLima", "ravi.k@example.com")).toBe("ravi.k");
    expect(defaultDisplayName("\u200b", `${"r".repeat(51)}@example.com`)).toBe("User");
    expect(defaultDisplayName("\u00a0Zoë <b>🌟</b>\u3000", null)).toBe("Zoë <b>🌟</b>");
  });
});

describe("the display-name rule (the app's copy of clean_display_name)", () => {
  it("trims spaces, including no-break and ideographic ones, but not controls or zero-width characters", () => {
    expect(trimDisplayName("\u00a0 Ana \u2003\u3000")).toBe("Ana");
    expect(trimDisplayName("\nAna\u200b")).toBe("\nAna\u200b");
  });

  it("refuses hidden characters with their own key, and blank or over 50 characters with invalid_display_name", () => {
    for (const name of [
      "Line\nBreak",
      "Ana\u202eLima",
      "Zero\u200bWidth",
      "Iso\u2066late",
      "Bom\ufeff",
      "Esc\u001b[8m",
    ]) {
      expect(displayNameProblem(name), JSON.stringify(name)).toBe("display_name_hidden_characters");
    }
    for (const name of ["", "x".repeat(51), "😀".repeat(51)])
      expect(displayNameProblem(name)).toBe("invalid_display_name");
    for (const name of ["A", "x".repeat(50), "😀".repeat(50), "Zoë <b>&</b> 李", "👍🏽 Ana", "❤️ Lima"]) {
      expect(displayNameProblem(name), name).toBeNull();
    }
  });
});

describe("hidden characters", () => {
  it("are controls, bidi controls, zero-width and other invisible characters, line separators and tags", () => {
    for (const character of [
      "\u0000",
      "\u001b",
      "\r",
      "\u007f",
      "\u0085",
      "\u009b",
      "\u00ad",
      "\u061c",
      "\u200b",
      "\u200d",
      "\u200e",
      "\u2028",
      "\u202a",
      "\u202e",
      "\u2066",
      "\u2069",
      "\u2060",
      "\ufeff",
      "\u{e0041}",
    ]) {
      expect(hasHiddenCharacters(`a${character}b`), escapeHiddenCharacters(character)).toBe(true);
    }
    for (const text of ["Zoë", "李", "😀", "a b", "\u00a0", "\u202f", "name@okhdfcbank", "❤️"]) {
      expect(hasHiddenCharacters(text), text).toBe(false);
    }
  });

  it("are written out as JSON escapes, so the text shows what is there and JSON stays JSON", () => {
    expect(escapeHiddenCharacters("a\u001b[2Kb\u001b[8m\r\n\t\u202eZ\u{e0041}")).toBe(
      "a\\u001b[2Kb\\u001b[8m\\r\\n\\t\\u202eZ\\udb40\\udc41",
    );
    expect(escapeHiddenCharacters("plain Zoë 李 😀")).toBe("plain Zoë 李 😀");
    const json = JSON.stringify({ recipient: "x\u0085\u202e\u001b" });
    expect(JSON.parse(escapeHiddenCharacters(json))).toEqual({ recipient: "x\u0085\u202e\u001b" });
  });
});

describe("recent activity labels", () => {
  it("calls a referral credit Referral bonus, whatever its ledger row says (older rows hold the friend's chosen name)", () => {
    expect(
      activityLabel({
        transaction_type: "referral",
        description: "Referral bonus: Security Team says call 555 joined",
      }),
    ).toBe("Referral bonus");
  });

  it("calls the check-in streak's bonus Check-in day 7 bonus, and other bonus rows Bonus coins", () => {
    expect(activityLabel({ transaction_type: "bonus", description: "Check-in day 7 bonus" })).toBe(
      "Check-in day 7 bonus",
    );
    expect(activityLabel({ transaction_type: "bonus", description: "Bonus coins" })).toBe("Bonus coins");
  });

  it("calls an operator's credit or debit Correction by support, whatever the reason written in its row", () => {
    expect(
      activityLabel({ transaction_type: "adjustment", description: "Balance correction: BitLabs survey 88" }),
    ).toBe("Correction by support");
  });
});

describe("the operator console's times", () => {
  const now = "2026-11-27T12:00:00.000Z";
  it("says how long something has waited, roughly, from under a minute to days", () => {
    expect(waitedFor("2026-11-27T11:59:30.000Z", now)).toBe("under a minute");
    expect(waitedFor("2026-11-27T11:48:00.000Z", now)).toBe("12 min");
    expect(waitedFor("2026-11-27T07:00:00.000Z", now)).toBe("5 h");
    expect(waitedFor("2026-11-25T13:00:00.000Z", now)).toBe("47 h");
    expect(waitedFor("2026-11-24T12:00:00.000Z", now)).toBe("3 days");
    // A clock a moment ahead never says "-1 min".
    expect(waitedFor("2026-11-27T12:00:05.000Z", now)).toBe("under a minute");
  });

  it("writes a moment to the second in UTC, the same on the server and in the browser", () => {
    expect(formatTimestamp("2026-11-23T10:04:31.987+00:00")).toBe("2026-11-23 10:04:31 UTC");
    expect(formatTimestamp("2026-11-23T11:04:31+01:00")).toBe("2026-11-23 10:04:31 UTC");
  });
});

describe('referral codes (docs/product.md, "Refer: the rules")', () => {
  it("uses uppercase letters and digits without I, O, 0 and 1", () => {
    for (const excluded of ["I", "O", "0", "1"]) expect(REFERRAL_CODE_ALPHABET).not.toContain(excluded);
    expect(REFERRAL_CODE_ALPHABET).toHaveLength(32);
    expect(isReferralCode("ABCD234")).toBe(true);
    expect(isReferralCode("ABCD23")).toBe(false);
    expect(isReferralCode("ABCD2340")).toBe(false);
    expect(isReferralCode("ABCDO23")).toBe(false);
    expect(isReferralCode("abcd234")).toBe(false);
  });
});

describe('onboarding (docs/product.md, "Onboarding")', () => {
  it("has the three slides in order", () => {
    expect(ONBOARDING_SLIDES.map((slide) => slide.title)).toEqual([
      "Complete Tasks, Earn Rewards",
      "Refer Friends, Multiply Earnings",
      "Withdraw to PayPal Instantly",
    ]);
  });

  it("clamps the slide index from the URL", () => {
    expect(parseSlideIndex(null, ONBOARDING_SLIDES.length)).toBe(0);
    expect(parseSlideIndex("1", ONBOARDING_SLIDES.length)).toBe(1);
    expect(parseSlideIndex("7", ONBOARDING_SLIDES.length)).toBe(2);
    expect(parseSlideIndex("-3", ONBOARDING_SLIDES.length)).toBe(0);
    expect(parseSlideIndex("abc", ONBOARDING_SLIDES.length)).toBe(0);
  });
});

describe('bottom navigation (docs/product.md, "App shell")', () => {
  it("lists Home, Earn, Refer, Withdraw, Profile", () => {
    expect(BOTTOM_NAV_ITEMS.map((item) => [item.label, item.to])).toEqual([
      ["Home", "/"],
      ["Earn", "/earn"],
      ["Refer", "/referral"],
      ["Withdraw", "/withdraw"],
      ["Profile", "/profile"],
    ]);
  });

  it("marks Home active only on / and others by prefix", () => {
    const [home, earn] = BOTTOM_NAV_ITEMS;
    expect(isNavItemActive(home!, "/")).toBe(true);
    expect(isNavItemActive(home!, "/earn")).toBe(false);
    expect(isNavItemActive(earn!, "/earn")).toBe(true);
    expect(isNavItemActive(earn!, "/earnings")).toBe(false);
  });

  it("marks Profile active on Settings, which is reached from it", () => {
    const profile = BOTTOM_NAV_ITEMS.find((item) => item.to === "/profile")!;
    expect(isNavItemActive(profile, "/settings")).toBe(true);
    expect(isNavItemActive(profile, "/settingsx")).toBe(false);
    expect(BOTTOM_NAV_ITEMS.filter((item) => isNavItemActive(item, "/settings"))).toEqual([profile]);
  });
});

describe('legal documents (docs/product.md, "Legal")', () => {
  it("has Terms, Privacy and Cookies with five sections each", () => {
    expect(LEGAL_DOCUMENTS.map((doc) => doc.tab)).toEqual(["Terms", "Privacy", "Cookies"]);
    for (const doc of LEGAL_DOCUMENTS) {
      expect(doc.sections).toHaveLength(5);
      for (const section of doc.sections) expect(section.paragraphs.join(" ").length).toBeGreaterThan(60);
    }
  });

  it("starts Cookies with the types and ends it with changes", () => {
    const cookies = findLegalDocument("cookies");
    expect(cookies.sections[0]!.title).toMatch(/types/i);
    expect(cookies.sections[4]!.title).toMatch(/changes/i);
  });

  it("falls back to the terms for an unknown tab", () => {
    expect(findLegalDocument("nope").id).toBe("terms");
    expect(findLegalDocument(null).id).toBe("terms");
  });
});

describe("dates", () => {
  it("formatDate writes a UTC day as Intl's en-US short date does, for every month and across midnight", () => {
    const intl = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
    const dates = [
      ...Array.from({ length: 12 }, (_, month) => new Date(Date.UTC(2026, month, month * 2 + 1, 23, 59, 59))),
      new Date("2026-11-22T00:00:00.000Z"),
      new Date("1999-12-31T23:59:59.999+00:00"),
      new Date("2027-01-01T00:30:00+05:30"),
    ];
    for (const date of dates) expect(formatDate(date.toISOString())).toBe(intl.format(date));
    expect(formatDate("2026-09-05T10:00:00Z")).toBe("Sep 5, 2026");
  });

  // Issue 36, point 10 (docs/decisions/085): people read days and times in their own zone.
  const ZONES = ["Asia/Kolkata", "America/Los_Angeles", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/London"];
  // Each hour of a day across a summer-time change in both hemispheres, and a year's end.
  const MOMENTS = [
    ...Array.from({ length: 48 }, (_, hour) => new Date(Date.UTC(2026, 2, 28, hour, 17, 9))),
    ...Array.from({ length: 24 }, (_, hour) => new Date(Date.UTC(2026, 10, 1, hour, 0, 0))),
    new Date("2026-12-31T23:59:59Z"),
    new Date("2027-01-01T00:00:00Z"),
  ];

  it("formatDate and formatDay write the day in the person's zone as Intl's en-US does, at every hour", () => {
    for (const zone of ZONES) {
      const date = new Intl.DateTimeFormat("en-US", {
        month: "short",
        day: "numeric",
        year: "numeric",
        timeZone: zone,
      });
      const day = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: zone });
      for (const moment of MOMENTS) {
        expect(formatDate(moment.toISOString(), zone)).toBe(date.format(moment));
        expect(formatDay(moment.toISOString(), zone)).toBe(day.format(moment));
      }
    }
    // A day apart where the zones are: 23:30 UTC is already tomorrow in Kolkata, still today in Los Angeles.
    expect(formatDay("2026-12-04T23:30:00Z", "Asia/Kolkata")).toBe("Dec 5");
    expect(formatDay("2026-12-05T03:00:00Z", "America/Los_Angeles")).toBe("Dec 4");
    expect(formatDay("2026-12-05T03:00:00Z")).toBe("Dec 5");
  });

  it("formatTime writes the person's time of day as Intl's en-US h:mm:ss does, and UTC labelled when the zone is unknown", () => {
    for (const zone of ZONES) {
      const time = new Intl.DateTimeFormat("en-US", {
        hour: "numeric",
        minute: "2-digit",
        second: "2-digit",
        timeZone: zone,
      });
      for (const moment of MOMENTS)
        expect(formatTime(moment.toISOString(), zone)).toBe(time.format(moment).replace(/\s/u, " "));
    }
    expect(formatTime("2026-12-01T04:05:09Z", "Asia/Kolkata")).toBe("9:35:09 AM");
    expect(formatTime("2026-12-01T12:00:00Z", "Europe/London")).toBe("12:00:00 PM");
    expect(formatTime("2026-12-01T00:00:00Z", "Europe/London")).toBe("12:00:00 AM");
    // Unknown: UTC, and it says so (a bare "4:05 AM" would be read as local time).
    expect(formatTime("2026-12-01T04:05:09Z", null)).toBe("04:05:09 UTC");
    expect(formatTime("2026-12-01T04:05:09Z", "Not/AZone")).toBe("04:05:09 UTC");
    expect(formatDay("2026-12-04T23:30:00Z", "Not/AZone")).toBe("Dec 4");
  });

  // Docs/decisions/104: in the browser, dates in its own zone are read from the clock, with no Intl object.
  it("in the zone the runtime's clock keeps, formatDate, formatDay and formatTime read the clock and write what Intl writes, across summer-time changes", () => {
    const before = process.env.TZ;
    try {
      for (const zone of ZONES) {
        process.env.TZ = zone; // Node reads the clock's zone again when TZ changes
        setClockTimeZone(zone);
        const expected = MOMENTS.map((moment) => {
          const iso = moment.toISOString();
          setClockTimeZone(null);
          const viaIntl = [formatDate(iso, zone), formatDay(iso, zone), formatTime(iso, zone)];
          setClockTimeZone(zone);
          return viaIntl;
        });
        const viaClock = MOMENTS.map((moment) => {
          const iso = moment.toISOString();
          return [formatDate(iso, zone), formatDay(iso, zone), formatTime(iso, zone)];
        });
        expect(viaClock, zone).toEqual(expected);
      }
      // The clock's zone is used only for that zone: another is still written through Intl.
      process.env.TZ = "Asia/Tokyo";
      setClockTimeZone("Asia/Tokyo");
      expect(formatTime("2026-12-01T04:05:09Z", "Asia/Tokyo")).toBe("1:05:09 PM");
      expect(formatTime("2026-12-01T04:05:09Z", "Asia/Kolkata")).toBe("9:35:09 AM");
      expect(formatTime("2026-12-01T04:05:09Z", null)).toBe("04:05:09 UTC");
    } finally {
      setClockTimeZone(null);
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it("with a clock zone set, dates in that zone come from the clock's fields: a clock in Los Angeles named Kolkata writes Los Angeles's time", () => {
    const before = process.env.TZ;
    try {
      process.env.TZ = "America/Los_Angeles";
      setClockTimeZone("Asia/Kolkata"); // the clock is not in Kolkata: its fields are Los Angeles's
      expect(formatTime("2026-12-01T04:05:09Z", "Asia/Kolkata")).toBe("8:05:09 PM");
    } finally {
      setClockTimeZone(null);
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it("the tz cookie carries the zone and the offset it was checked at; a value written before, without one, still names the zone", async () => {
    const { parseTimeZoneCookie, timeZoneCookieValue, TIME_ZONE_COOKIE_PATTERN } = await import("~/domain/time-zone");
    expect(timeZoneCookieValue("Asia/Kolkata", -330)).toBe("Asia/Kolkata:-330");
    expect(parseTimeZoneCookie("Asia/Kolkata:-330")).toEqual({ name: "Asia/Kolkata", offset: -330 });
    expect(parseTimeZoneCookie("America/Los_Angeles:480")).toEqual({ name: "America/Los_Angeles", offset: 480 });
    expect(parseTimeZoneCookie("UTC:0")).toEqual({ name: "UTC", offset: 0 });
    expect(parseTimeZoneCookie("Asia/Kolkata")).toEqual({ name: "Asia/Kolkata", offset: null });
    for (const value of [
      null,
      undefined,
      "",
      ":-330",
      "Asia/Kolkata:",
      "Asia/Kolkata:x",
      "Asia/Kolkata:-330:1",
      "Asia/Kolkata;x=1",
    ]) {
      expect(parseTimeZoneCookie(value), String(value)).toBeNull();
      if (value) expect(TIME_ZONE_COOKIE_PATTERN.test(value), value).toBe(false);
    }
  });

  it("readTimeZone keeps a zone name the runtime knows, and reads UTC, unknown and malformed names as none", async () => {
    const { readTimeZone } = await import("~/domain/time-zone");
    for (const zone of [...ZONES, "America/Argentina/Buenos_Aires", "Etc/GMT+5", "America/Port-au-Prince"])
      expect(readTimeZone(zone)).toBe(zone);
    for (const value of [
      null,
      undefined,
      "",
      "UTC",
      "Etc/UTC",
      "GMT",
      "Not/AZone",
      "Asia/Kolkata;x=1",
      "../etc/passwd",
      "Asia/" + "K".repeat(80),
      " Asia/Kolkata",
      "Asia/Kolkata\u200b",
    ])
      expect(readTimeZone(value)).toBeNull();
  });
});

describe("money", () => {
  it("formatDollars writes amounts exactly as Intl's en-US dollar format does", () => {
    const intl = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });
    const values = [
      0,
      -0,
      0.001,
      -0.001,
      0.005,
      0.015,
      1.005,
      2.675,
      0.1,
      0.3,
      5,
      -5,
      9.99,
      10,
      999.995,
      1000,
      1234.5,
      -1234.5,
      12345.678,
      100000,
      999999.99,
      1234567.891,
      -9876543.21,
      1e15,
      0.1 + 0.2,
    ];
    for (const value of values) expect(formatDollars(value), String(value)).toBe(intl.format(value));
    expect(formatDollars("1234.5")).toBe("$1,234.50");
    expect(formatDollars(Number.NaN)).toBe("$0.00");
    expect(formatDollars("abc")).toBe("$0.00");
  });

  it("formats dollars with two decimals", () => {
    expect(formatDollars(0)).toBe("$0.00");
    expect(formatDollars("1234.5")).toBe("$1,234.50");
    expect(formatDollars(Number.NaN)).toBe("$0.00");
  });
});

describe('the balance card\'s lines (docs/product.md, "Home: balance and tiles", docs/decisions/066)', () => {
  const money = (parts: Partial<MoneyParts>): MoneyParts => ({
    balance: 0,
    available: 0,
    pending: 0,
    nextClearAt: null,
    bonusLocked: 0,
    earnedToUnlock: 0,
    carriedDebt: 0,
    ...parts,
  });

  it("shows what can be withdrawn now as the figure, the balance itself only while it is below zero", () => {
    expect(availableFigure(money({ balance: 5.2, available: 2 }))).toBe(2);
    expect(availableFigure(money({ balance: -10, available: 0 }))).toBe(-10);
    expect(showsTotalBalance(money({ balance: 5.2, available: 2 }))).toBe(true);
    expect(showsTotalBalance(money({ balance: 6.3, available: 6.3 }))).toBe(false);
    expect(showsTotalBalance(money({ balance: -10, available: 0 }))).toBe(false);
  });

  it("says how much is pending and the UTC day the next amount clears, nothing when none is", () => {
    expect(formatDay("2026-12-03T23:59:59.999Z")).toBe("Dec 3");
    expect(formatDay("2027-01-01T00:00:00+00:00")).toBe("Jan 1");
    expect(pendingLine(money({ pending: 1.2, nextClearAt: "2026-12-03T10:00:00.000Z" }))).toEqual({
      label: "$1.20 pending",
      detail: "next clears Dec 3",
    });
    expect(pendingLine(money({ pending: 1234.5, nextClearAt: null }))).toEqual({
      label: "$1,234.50 pending",
      detail: null,
    });
    expect(pendingLine(money({ pending: 0, nextClearAt: "2026-12-03T10:00:00.000Z" }))).toBeNull();
  });

  it("says how much bonus is locked and how much more to earn from offers, counting pending earnings once they clear", () => {
    expect(lockedBonusLine(money({ bonusLocked: 3, earnedToUnlock: 2 }))).toEqual({
      label: "$3.00 bonus locked",
      detail: "earn $2.00 more from offers to unlock it",
    });
    expect(lockedBonusLine(money({ bonusLocked: 2, earnedToUnlock: 2, pending: 1.2 }))).toEqual({
      label: "$2.00 bonus locked",
      detail: "earn $0.80 more from offers to unlock it",
    });
    expect(lockedBonusLine(money({ bonusLocked: 3, earnedToUnlock: 2, pending: 2 }))).toEqual({
      label: "$3.00 bonus locked",
      detail: "it unlocks as your pending earnings clear",
    });
    expect(lockedBonusLine(money({ bonusLocked: 3, earnedToUnlock: null, pending: 5 }))).toEqual({
      label: "$3.00 bonus locked",
      detail: "it can't be withdrawn for now",
    });
    expect(lockedBonusLine(money({ bonusLocked: 0, earnedToUnlock: 0 }))).toBeNull();
  });

  it("says what is owed from an earlier account and that offer earnings pay it first; nothing when nothing is", () => {
    expect(carriedDebtLine(money({ carriedDebt: 20 }))).toEqual({
      label: "$20.00 owed from an earlier account",
      detail: "your offer earnings pay it first",
    });
    expect(carriedDebtLine(money({ carriedDebt: 0 }))).toBeNull();
  });

  it("an account owes what a debt carried in leaves uncovered, or what its balance is below zero", () => {
    expect(debtOwed({ balance: -20, carried_debt: 0 })).toBe(20);
    expect(debtOwed({ balance: "5.00", carried_debt: "20.00" })).toBe(15);
    expect(debtOwed({ balance: 25, carried_debt: 20 })).toBe(0);
    expect(debtOwed({ balance: 3 })).toBe(0);
    expect(accountInDebtWords(15)).toMatch(/^You owe \$15\.00: an offer network took back coins/);
  });

  it("says how coins and dollars relate", () => {
    expect(coinRateLine(100)).toBe("Amounts are in dollars: 100 coins = $1.00.");
    expect(coinRateLine(1000)).toBe("Amounts are in dollars: 1,000 coins = $1.00.");
  });
});

describe('tasks (docs/product.md, "Earn" and "Earn: the tasks")', () => {
  it("maps provider offer types and times", async () => {
    const { mapOfferType, minutesLabel, offerToTask } = await import("~/domain/tasks");
    expect(
      [
        "survey",
        "video",
        "video_to_install",
        "install",
        "app_engagement",
        "game_engagement",
        "browser_engagement",
        "other",
        null,
      ].map(mapOfferType),
    ).toEqual(["survey", "video", "video", "app", "app", "game", "game", "app", "app"]);
    expect([minutesLabel(150), minutesLabel(89), minutesLabel(null), minutesLabel("600")]).toEqual([
      "3 min",
      "1 min",
      "0 min",
      "10 min",
    ]);
    expect(offerToTask({ offer_id: 7, name: "X", currency_value: "12.9" }).reward).toBe(12);
    expect(offerToTask({ offer_id: 7, name: "X", currency_value: null }).reward).toBe(50);
  });

  it("searches title or description without case, filters by type, and sums the rewards", async () => {
    const { earningPotential, fallbackTasks, filterTasks, taskActionLabel } = await import("~/domain/tasks");
    const tasks = fallbackTasks();
    expect(earningPotential(tasks)).toBe(1615);
    expect(filterTasks(tasks, "SURVEY", "all").map((task) => task.id)).toEqual(["task-001", "task-005", "task-009"]);
    expect(filterTasks(tasks, "kitchen", "all").map((task) => task.id)).toEqual(["task-006"]);
    expect(filterTasks(tasks, "", "game").map((task) => task.id)).toEqual(["task-003", "task-007"]);
    expect(filterTasks(tasks, "survey", "video")).toEqual([]);
    expect(taskActionLabel({ type: "video" })).toBe("Watch");
    expect(taskActionLabel({ type: "game" })).toBe("Start");
  });

  it("sums only open tasks as the earning potential and groups finished ones (done or pending) after them (decision 069)", async () => {
    const { earningPotential, fallbackTasks, groupTasks } = await import("~/domain/tasks");
    const tasks = fallbackTasks().map((task) =>
      task.id === "task-004"
        ? { ...task, completed: true }
        : task.id === "task-008"
          ? { ...task, completed: true, pending: true }
          : task,
    );
    expect(earningPotential(tasks)).toBe(1615 - 150 - 250);
    const { open, done } = groupTasks(tasks);
    expect(done.map((task) => task.id)).toEqual(["task-004", "task-008"]);
    expect(open).toHaveLength(9);
    expect(earningPotential(done)).toBe(0);
  });

  it("says when a started task can be completed: the start plus the delay, seconds left rounded up, never below 0 (decision 069)", async () => {
    const { taskStart } = await import("~/domain/tasks");
    expect(taskStart("2026-12-01T14:05:00.000Z", "2026-12-01T14:05:01.200Z", 5000)).toEqual({
      readyAt: "2026-12-01T14:05:05.000Z",
      secondsLeft: 4,
    });
    expect(taskStart("2026-12-01T14:05:00Z", "2026-12-01T14:05:05Z", 5000)?.secondsLeft).toBe(0);
    expect(taskStart("2026-12-01T14:05:00Z", "2026-12-01T15:00:00Z", 5000)?.secondsLeft).toBe(0);
    expect(taskStart("not a time", "2026-12-01T15:00:00Z", 5000)).toBeNull();
    expect(formatUtcTime("2026-12-01T04:05:09.999Z")).toBe("04:05:09 UTC");
  });

  it("converts coins to dollars like the database, rounding down to the cent", async () => {
    const { coinsToDollars, formatCoins } = await import("~/domain/money");
    expect(coinsToDollars(175, 100)).toBe(1.75);
    expect(coinsToDollars(15, 1000)).toBe(0.01);
    expect(coinsToDollars(-30, 100)).toBe(-0.3);
    expect(formatCoins(1615)).toBe("1,615 coins");
  });

  it("formatCoins writes whole coins exactly as Intl's en-US number format does, and leaves fractions to Intl", async () => {
    const { formatCoins } = await import("~/domain/money");
    const intl = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
    const amounts = [0, 1, 12, 999, 1000, 1001, 99_999, 100_000, 1_234_567, Number.MAX_SAFE_INTEGER];
    for (const amount of [...amounts, ...amounts.map((a) => -a).filter((a) => a !== 0)]) {
      expect(formatCoins(amount)).toBe(`${intl.format(amount)} coins`);
    }
    expect(formatCoins(2.5)).toBe(`${intl.format(2.5)} coins`);
    expect(formatCoins(1234.4)).toBe("1,234 coins");
  });
});

describe('holdAmountInput: the Withdraw amount as it is typed (docs/product.md, "Withdraw: the rules")', () => {
  it.each([
    ["12.345", "12.34"],
    ["1a2", "12"],
    [",5", "5"],
    ["5.", "5."],
    [".5", ".5"],
    ["1.2.3", "1.23"],
    ["12345678901", "1234567890"],
    ["٥", ""],
    ["-5", "5"],
    ["1e3", "13"],
  ])("holds %j to %j", (typed, held) => {
    expect(holdAmountInput(typed)).toBe(held);
  });

  it("keeps every amount parseAmount accepts as it is", () => {
    for (const amount of ["0.01", "5", "5.5", "1234567890.99"]) expect(holdAmountInput(amount)).toBe(amount);
  });
});

describe("cashOutHint: how far the available money is from the smallest cash-out offered", () => {
  const minimums = { paypal: 5, upi: 1, bank: 10, giftcard: 1 };
  const at = (available: number, pending = 0) => cashOutHint({ available, pending }, minimums);
  it.each([
    [0, "$1.00 more to cash out with UPI"],
    [0.15, "$0.85 more to cash out with UPI"],
    [0.99, "$0.01 more to cash out with UPI"],
  ])("at $%s available: %j", (available, hint) => {
    expect(at(available)).toBe(hint);
  });
  it("counts pending offer earnings: only the rest is asked for, and waiting is enough when they cover it", () => {
    expect(at(0, 0.4)).toBe("$0.60 more to cash out with UPI");
    expect(at(0, 3.5)).toBe("You can cash out with UPI once your pending earnings clear");
    expect(at(0.5, 0.5)).toBe("You can cash out with UPI once your pending earnings clear");
  });
  it("says nothing once a cash-out is possible, or while the balance is negative", () => {
    expect(at(1)).toBeNull();
    expect(at(25)).toBeNull();
    expect(at(-10)).toBeNull();
  });
  it("names the method with the smallest minimum among those offered (bank is not offered)", () => {
    expect(cashOutHint({ available: 2, pending: 0 }, { paypal: 3, upi: 4, bank: 1, giftcard: 1 })).toBe(
      "$1.00 more to cash out with PayPal",
    );
  });
});

describe("cashOutWait: what Withdraw says while no cash-out is possible (issue 36)", () => {
  const minimums = { paypal: 5, upi: 1, bank: 10, giftcard: 1 };
  it("says to wait until the day enough pending money clears, not to earn more", () => {
    expect(
      cashOutWait(
        { missing: 1, enough_clears_at: "2026-12-05T10:00:00+00:00" },
        { available: 0, pending: 3.5 },
        minimums,
      ),
    ).toEqual({
      title: "Wait until Dec 5",
      detail:
        "UPI's minimum is $1.00 and you have $0.00 available. Your offer earnings still pending clear by then, enough to cash out.",
    });
  });
  it("says how much more to earn, counting what is pending", () => {
    expect(cashOutWait({ missing: 1, enough_clears_at: null }, { available: 0, pending: 0 }, minimums)).toEqual({
      title: "Earn $1.00 more",
      detail: "UPI's minimum is $1.00 and you have $0.00 available.",
    });
    expect(cashOutWait({ missing: 0.8, enough_clears_at: null }, { available: 0.2, pending: 0.3 }, minimums)).toEqual({
      title: "Earn $0.50 more",
      detail: "UPI's minimum is $1.00 and you have $0.20 available; your $0.30 pending counts once it clears.",
    });
  });
  it("says nothing once a cash-out is possible", () => {
    expect(cashOutWait({ missing: 0, enough_clears_at: null }, { available: 2, pending: 0 }, minimums)).toBeNull();
  });
});

describe("maskRecipient: where a withdrawal went, recognisable but never whole (issue 18, item 3)", () => {
  it("shows one character of a PayPal name and the whole domain", () => {
    expect(maskRecipient("paypal", "john.smith@example.com")).toBe("j•••@example.com");
    expect(maskRecipient("paypal", "  jo@example.com ")).toBe("j•••@example.com");
  });

  it("shows two characters of a UPI handle (often a phone number) and its provider", () => {
    expect(maskRecipient("upi", "abcdef@upi")).toBe("ab•••@upi");
    expect(maskRecipient("upi", "9876543210@ybl")).toBe("98•••@ybl");
  });

  it("never shows a whole name, however short, and the mask does not tell its length", () => {
    expect(maskRecipient("paypal", "a@x.io")).toBe("•••@x.io");
    expect(maskRecipient("upi", "ab@upi")).toBe("a•••@upi");
    expect(maskRecipient("upi", "a@upi")).toBe("•••@upi");
    expect(maskRecipient("paypal", "averyveryverylongname@example.com")).toBe("a•••@example.com");
  });

  it("shows the last four letters or digits of bank details, or only the mask", () => {
    expect(maskRecipient("bank", "Jane Doe\nIBAN DE89 3704 0044 0532 0130 00")).toBe("•••3000");
    expect(maskRecipient("bank", "12")).toBe("•••");
  });

  it("has nothing to show for a missing recipient", () => {
    expect(maskRecipient("paypal", null)).toBeNull();
    expect(maskRecipient("upi", "   ")).toBeNull();
  });
});

describe("a withdrawal's step, its meaning and its expected date (issue 18, item 3; decision 068)", () => {
  const row = (fields: Partial<WithdrawalRow>): WithdrawalRow => ({
    id: "w",
    created_at: "2026-11-24T10:00:00Z",
    amount: 5,
    payment_method: "paypal",
    status: "pending",
    review_state: "approved",
    ...fields,
  });
  const now = new Date("2026-11-25T10:00:00Z");

  it("gives every status one state of the money timeline and a plain meaning that names no other state", () => {
    const both = (withdrawal: WithdrawalRow) => {
      const state = withdrawalState(withdrawal);
      return [state ? stateBadge(state) : null, withdrawalStepMeaning(withdrawal)];
    };
    expect(both(row({ review_state: "review" }))).toEqual([
      "In review",
      "We check first cash-outs and unusual ones by hand before anything is sent.",
    ]);
    expect(both(row({}))).toEqual(["Sending", "We are sending it to your PayPal account."]);
    expect(both(row({ sent_at: "2026-11-24T11:00:00Z", payment_method: "upi" }))).toEqual([
      "Sending",
      "We sent it; UPI is confirming the payment.",
    ]);
    expect(both(row({ status: "completed", settled_at: "2026-11-25T09:00:00Z" }))).toEqual([
      "Paid Nov 25",
      "The money went to your PayPal account.",
    ]);
    const failed = row({
      status: "failed",
      settled_at: "2026-11-25T09:00:00Z",
      failure_reason: "Receiver unconfirmed",
    });
    expect(both(failed)).toEqual([
      "Not paid — $5.00 refunded",
      "PayPal could not pay it: Receiver unconfirmed. The money is back in your balance.",
    ]);
    const refused = row({ status: "failed", review_state: "rejected", failure_reason: "Under investigation" });
    expect(both(refused)).toEqual([
      "Refused — $5.00 refunded",
      "We did not send it: Under investigation. The money is back in your balance.",
    ]);
    expect(both(row({ status: "failed", review_state: "rejected", failure_reason: null }))[1]).toBe(
      "We did not send it. The money is back in your balance.",
    );
    expect(both(row({ status: "on_hold" }))).toEqual([null, null]);
  });

  it("expects a pending one 48 hours after its request, says a review can take longer, and says when it is late", () => {
    expect(withdrawalExpected(row({}), now)).toBe("Expected by Nov 26");
    expect(withdrawalExpected(row({ created_at: "2026-11-24T23:30:00Z" }), now)).toBe("Expected by Nov 26");
    expect(withdrawalExpected(row({ review_state: "review" }), now)).toBe(
      "Expected by Nov 26; a review can take longer.",
    );
    const late = new Date("2026-11-26T10:00:01Z");
    expect(withdrawalExpected(row({}), late)).toBe(
      "Expected by Nov 26; it is taking longer than usual, your money is safe.",
    );
    expect(withdrawalExpected(row({ review_state: "review" }), late)).toBe(
      "Expected by Nov 26; this review is taking longer, your money is safe.",
    );
  });

  it("expects nothing of a paid or failed one", () => {
    expect(withdrawalExpected(row({ status: "completed" }), now)).toBeNull();
    expect(withdrawalExpected(row({ status: "failed" }), now)).toBeNull();
  });
});
