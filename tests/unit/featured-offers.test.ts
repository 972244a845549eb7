import { describe, expect, it } from "vitest";
import {
  FEATURED_OFFERS_SHOWN,
  HIGH_PAYING_MIN_OFFERS,
  NEW_OFFER_DAYS,
  highPayingFloor,
  medianCoins,
  offerBadges,
  creditedOfferKey,
  pickFeatured,
  rankFeatured,
  type OfferBadge,
} from "~/domain/featured-offers";
import { kindsPhrase, mostListedKinds, offerKindOf, offerTime } from "~/domain/offer-kinds";

// Featured offers' rules (app/domain/featured-offers.ts, app/domain/offer-kinds.ts; decision 100).

const DAY = 86_400_000;
const NOW = new Date("2026-12-10T12:00:00Z");

describe("offerKindOf: the kind a catalogue's categories name", () => {
  it("reads AdGate's and Lootably's words whatever their case and spacing; games win over apps, surveys over apps; none named is null", () => {
    expect(offerKindOf(["Android", "Games"])).toBe("game");
    expect(offerKindOf(["iOS", " SURVEYS "])).toBe("survey");
    expect(offerKindOf(["CPI"])).toBe("app");
    expect(offerKindOf(["freetrial"])).toBe("trial");
    expect(offerKindOf(["Free  Trial"])).toBe("trial");
    expect(offerKindOf(["signup"])).toBe("signup");
    expect(offerKindOf(["quiz", "app"])).toBe("quiz");
    expect(offerKindOf(["shopping"])).toBe("shopping");
    expect(offerKindOf(["Featured", "Hot"])).toBeNull();
    expect(offerKindOf([])).toBeNull();
  });
});

describe("offerTime and kindsPhrase: what Earn says of a kind", () => {
  it("an offer of several steps says its steps; else its kind's usual time; nothing known, nothing said", () => {
    expect(offerTime("game", 4)).toBe("4 steps");
    expect(offerTime("game", 1)).toBe("Days of play");
    expect(offerTime("survey", null)).toBe("About 15 min");
    expect(offerTime(null, null)).toBeNull();
    expect(offerTime(null, 2)).toBe("2 steps");
  });

  it("joins plural names as a sentence does", () => {
    expect(kindsPhrase(["survey"])).toBe("surveys");
    expect(kindsPhrase(["game", "app"])).toBe("games and apps");
    expect(kindsPhrase(["game", "app", "quiz"])).toBe("games, apps and quizzes");
    expect(kindsPhrase([])).toBe("");
  });
});

describe("mostListedKinds: what a catalogue is best for", () => {
  it("its two most listed kinds, each at least a fifth of its offers, ties in the order kinds win", () => {
    expect(mostListedKinds(["app", "game", "game", "app", "survey", null, null, null, null, null])).toEqual([
      "game",
      "app",
    ]);
    // The survey is one in ten: under a fifth.
    expect(mostListedKinds(["app", "app", "app", "app", "app", "app", "app", "app", "app", "survey"])).toEqual(["app"]);
    expect(mostListedKinds([null, null])).toEqual([]);
    expect(mostListedKinds([])).toEqual([]);
  });
});

describe("highPayingFloor and offerBadges", () => {
  it("the floor is the coins at the top tenth (nearest rank), only from HIGH_PAYING_MIN_OFFERS offers", () => {
    const ten = Array.from({ length: HIGH_PAYING_MIN_OFFERS }, (_, index) => (index + 1) * 10);
    expect(highPayingFloor(ten)).toBe(100);
    expect(highPayingFloor([...ten, 5, 6])).toBe(90);
    expect(highPayingFloor(ten.slice(1))).toBeNull();
  });

  it("New from first seen to NEW_OFFER_DAYS later (a time a little ahead of now included); never for an offer of the first listing; High paying from the floor up", () => {
    const seen = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
    expect(offerBadges({ coins: 10, firstSeenAt: seen(0) }, 100, NOW)).toEqual(["new"]);
    expect(offerBadges({ coins: 10, firstSeenAt: seen(NEW_OFFER_DAYS) }, 100, NOW)).toEqual(["new"]);
    expect(offerBadges({ coins: 10, firstSeenAt: seen(NEW_OFFER_DAYS + 0.01) }, 100, NOW)).toEqual([]);
    expect(offerBadges({ coins: 10, firstSeenAt: seen(-0.001) }, 100, NOW)).toEqual(["new"]);
    expect(offerBadges({ coins: 10, firstSeenAt: null }, 100, NOW)).toEqual([]);
    expect(offerBadges({ coins: 100, firstSeenAt: null }, 100, NOW)).toEqual(["high-paying"]);
    expect(offerBadges({ coins: 500, firstSeenAt: seen(1) }, 100, NOW)).toEqual(["new", "high-paying"]);
    expect(offerBadges({ coins: 500, firstSeenAt: null }, null, NOW)).toEqual([]);
  });
});

describe("rankFeatured and pickFeatured: the offers that lead Earn", () => {
  const offer = (network: string, id: string, coins: number, badges: OfferBadge[] = []) => ({
    network,
    id,
    title: `Offer ${id}`,
    coins,
    badges,
  });
  const pick = (offers: ReturnType<typeof offer>[], credited?: ReadonlySet<string>) =>
    pickFeatured(rankFeatured(offers), credited);

  it("badged first (both badges, then one), then by coins, catalogue order on ties; two at most from one wall; FEATURED_OFFERS_SHOWN in all", () => {
    const picked = pick([
      offer("a", "a1", 900),
      offer("a", "a2", 800),
      offer("a", "a3", 50, ["new"]),
      offer("b", "b1", 100),
      offer("b", "b2", 100),
      offer("b", "b3", 20, ["new", "high-paying"]),
      offer("c", "c1", 300),
    ]);
    expect(picked.map((item) => item.id)).toEqual(["b3", "a3", "a1", "c1"]);
    expect(picked).toHaveLength(FEATURED_OFFERS_SHOWN);
  });

  it("one wall alone fills two places; none listed, none featured", () => {
    expect(pick([offer("a", "1", 1), offer("a", "2", 2), offer("a", "3", 3)]).map((item) => item.id)).toEqual([
      "3",
      "2",
    ]);
    expect(pick([])).toEqual([]);
  });

  it("leaves out an offer the person was credited for (its wall and title, whatever the case and spaces), and the next one takes its place", () => {
    const offers = [offer("a", "a1", 900), offer("a", "a2", 800), offer("a", "a3", 700), offer("b", "b1", 100)];
    const credited = new Set([creditedOfferKey("a", "  OFFER A1 "), creditedOfferKey("b", "Offer a2")]);
    expect(pick(offers, credited).map((item) => item.id)).toEqual(["a2", "a3", "b1"]);
    expect(pick(offers).map((item) => item.id)).toEqual(["a1", "a2", "b1"]);
  });
});

describe("medianCoins: a catalogue's typical offer", () => {
  it("the lower middle of its offers' coins; none, null", () => {
    expect(medianCoins([300, 100, 200])).toBe(200);
    expect(medianCoins([400, 100, 300, 200])).toBe(200);
    expect(medianCoins([7])).toBe(7);
    expect(medianCoins([])).toBeNull();
  });
});
