import { describe, expect, it } from "vitest";
import { isListableOffer, MAX_REWARD_COINS } from "~/domain/tasks";
import { canonicalPostback, percentEncode, postbackSignature } from "~/server/walls/networks/custom.server";

describe("postback signing (docs/offer-provider.md)", () => {
  it("signs the documented example: the canonical string and its HMAC-SHA256", () => {
    const params = new Map([
      ["user_id", "Kx9rT2bQ"],
      ["transaction_id", "tx-1001"],
      ["amount", "250"],
      ["offer_id", "acme-2"],
      ["sub1", "spring sale & more"],
      ["sig", "ignored"],
    ]);
    expect(canonicalPostback(params)).toBe(
      "amount=250&offer_id=acme-2&sub1=spring%20sale%20%26%20more&transaction_id=tx-1001&user_id=Kx9rT2bQ",
    );
    expect(postbackSignature(params, "example-postback-secret")).toBe(
      "c6e216267ced5c9013de36aba91c29fa21e7aad66b9c66287f55d27cd83408b1",
    );
  });

  it("percent-encodes all but RFC 3986's unreserved characters, in upper-case hex of the UTF-8 bytes", () => {
    expect(percentEncode("a=b&c d+e%f!'()*é~._-Z9")).toBe("a%3Db%26c%20d%2Be%25f%21%27%28%29%2A%C3%A9~._-Z9");
  });

  it("cannot be re-split: a value holding &key=value signs differently from that extra parameter", () => {
    const joined = canonicalPostback(new Map([["sub1", "x&transaction_id=NEW"]]));
    const split = canonicalPostback(
      new Map([
        ["sub1", "x"],
        ["transaction_id", "NEW"],
      ]),
    );
    expect(joined).toBe("sub1=x%26transaction_id%3DNEW");
    expect(joined).not.toBe(split);
  });

  it("sorts by the encoded key in plain ASCII order", () => {
    expect(
      canonicalPostback(
        new Map([
          ["b", "1"],
          ["B", "2"],
          ["a b", "3"],
          ["a", "4"],
        ]),
      ),
    ).toBe("B=2&a=4&a%20b=3&b=1");
  });
});

describe("provider offers with absurd payouts", () => {
  it("lists an offer worth up to MAX_REWARD_COINS, not one worth more (the database's integers stay safe)", () => {
    const offer = (currency_value: number | string) => ({ offer_id: "o-1", name: "Offer", currency_value });
    expect(isListableOffer(offer(MAX_REWARD_COINS))).toBe(true);
    expect(isListableOffer(offer(MAX_REWARD_COINS + 1))).toBe(false);
    expect(isListableOffer(offer(1e12))).toBe(false);
    expect(isListableOffer(offer("3000000000"))).toBe(false);
    expect(isListableOffer({ offer_id: "../x", name: "Offer", currency_value: 5 })).toBe(false);
  });
});
