import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { OutgoingPostback, PostbackRequest, SimulatedPostback, WallNetwork } from "~/server/walls/network.server";
import { creditOrReversal, parseCoins } from "~/server/walls/network.server";
import { adgate } from "~/server/walls/networks/adgate.server";
import { adgem } from "~/server/walls/networks/adgem.server";
import { ayetSignedString, ayetstudios } from "~/server/walls/networks/ayetstudios.server";
import { bitlabs } from "~/server/walls/networks/bitlabs.server";
import { cpx } from "~/server/walls/networks/cpx.server";
import { custom, postbackSignature } from "~/server/walls/networks/custom.server";
import { lootably } from "~/server/walls/networks/lootably.server";
import { revlum } from "~/server/walls/networks/revlum.server";
import { torox } from "~/server/walls/networks/torox.server";
import { WALL_NETWORKS } from "~/server/walls/registry.server";

// Each network's postbacks as its own documentation signs them (docs/offer-walls.md). The formulas
// are written out here with node:crypto, apart from the modules under test; where a network's
// documentation prints a signature, that value is checked as printed.

const APP = "https://rewards.example.com";

/** A GET to `path` with `query` (its parameters in this order), and `headers`. */
function get(path: string, query: [string, string][], headers: Record<string, string> = {}): PostbackRequest {
  const search = new URLSearchParams(query).toString();
  return { method: "GET", url: `${APP}${path}?${search}`, query, body: [], headers: new Headers(headers) };
}

function read<C>(network: WallNetwork<C>, settings: Record<string, string>, request: PostbackRequest) {
  return network.readPostback(request, network.configure(settings));
}

const hmac = (algorithm: string, key: string, text: string) => createHmac(algorithm, key).update(text).digest("hex");
const hash = (algorithm: string, text: string) => createHash(algorithm).update(text).digest("hex");

describe("BitLabs: hash = hex HMAC-SHA1 of the whole callback URL, keyed with the app secret", () => {
  const SECRET = "JLOIAUNMHFli7ZJOQVEzm98rzqnm9";
  const settings = { APP_TOKEN: "app-token-1", APP_SECRET: SECRET };
  /** BitLabs' callback: the URL as configured, then &hash= its HMAC. */
  function callback(query: [string, string][], secret = SECRET): PostbackRequest {
    const request = get("/api/bitlabs/postback", query);
    const signature = hmac("sha1", secret, request.url);
    return { ...request, url: `${request.url}&hash=${signature}`, query: [...query, ["hash", signature]] };
  }

  it("accepts the documentation's own example (URL, app secret and hash as printed)", () => {
    const url = "https://publisher.com/complete?uid=8cc877ee-af19-488d-b28d-216fb866b996&val=500";
    const printed = "dbcd6bb8ca677344592842a52b4fca9bec36cd4b";
    const reading = read(bitlabs, settings, {
      method: "GET",
      url: `${url}&hash=${printed}`,
      query: [
        ["uid", "8cc877ee-af19-488d-b28d-216fb866b996"],
        ["val", "500"],
        ["hash", printed],
      ],
      body: [],
      headers: new Headers(),
    });
    // The signature holds; the example has no transaction id, which the app needs.
    expect(reading).toEqual({ kind: "refused", status: 400, reason: "missing or unreadable transaction id" });
  });

  it("reads a completion: the transaction, the person's wall id, whole coins, the dollars and the offer", () => {
    const reading = read(
      bitlabs,
      settings,
      callback([
        ["uid", "w_9f3k2"],
        ["tx", "o233"],
        ["val", "150.00"],
        ["raw", "1.50"],
        ["ref", ""],
        ["type", "COMPLETE"],
        ["offer_id", "77"],
        ["offer_name", "Puzzle Quest"],
      ]),
    );
    expect(reading).toEqual({
      kind: "credit",
      transactionId: "o233",
      wallUserId: "w_9f3k2",
      coins: 150,
      payoutUsd: 1.5,
      offerId: "77",
      offerName: "Puzzle Quest",
    });
  });

  it("reads a reconciliation (negative value, its own tx) as the reversal of the completion named in ref", () => {
    const reading = read(
      bitlabs,
      settings,
      callback([
        ["uid", "w_9f3k2"],
        ["tx", "or233"],
        ["val", "-150.00"],
        ["ref", "o233"],
      ]),
    );
    expect(reading).toMatchObject({ kind: "reversal", transactionId: "o233", coins: 150 });
  });

  it("reads a stateful reconciliation (type RECONCILIATION, positive value) as a reversal too", () => {
    const reading = read(
      bitlabs,
      settings,
      callback([
        ["uid", "w_9f3k2"],
        ["tx", "o233"],
        ["val", "150"],
        ["ref", "o233"],
        ["type", "RECONCILIATION"],
      ]),
    );
    expect(reading).toMatchObject({ kind: "reversal", transactionId: "o233", coins: 150 });
  });

  it("refuses a changed value, another secret's hash, a hash that is not last, and a POST", () => {
    const good = callback([
      ["uid", "w_1"],
      ["tx", "o1"],
      ["val", "10"],
    ]);
    expect(read(bitlabs, settings, { ...good, url: good.url.replace("val=10", "val=99") })).toMatchObject({
      kind: "refused",
      status: 403,
    });
    const otherSecret = callback(
      [
        ["uid", "w_1"],
        ["tx", "o1"],
        ["val", "10"],
      ],
      "another-secret",
    );
    expect(read(bitlabs, settings, otherSecret)).toMatchObject({ kind: "refused", status: 403 });
    expect(read(bitlabs, settings, { ...good, url: `${good.url}&val=99` })).toMatchObject({ status: 403 });
    expect(read(bitlabs, settings, { ...good, method: "POST" })).toMatchObject({ status: 400 });
  });

  it("answers the dashboard tester's callbacks (debug=true) without paying them", () => {
    const reading = read(
      bitlabs,
      settings,
      callback([
        ["uid", "w_1"],
        ["tx", "o1"],
        ["val", "10"],
        ["debug", "true"],
      ]),
    );
    expect(reading).toMatchObject({ kind: "ignored", reason: "a test callback" });
  });

  it("opens the wall at web.bitlabs.ai with the wall id and the app token", () => {
    expect(bitlabs.wallUrl?.(bitlabs.configure(settings), "w_9f3k2")).toBe(
      "https://web.bitlabs.ai/?uid=w_9f3k2&token=app-token-1",
    );
  });
});

describe("ayeT-Studios: X-Ayetstudios-Security-Hash = HMAC-SHA256 of the sorted parameters, keyed with the API key", () => {
  const API_KEY = "9f2228fea0d8e7ce10b2ac36053db14c";
  const settings = { API_KEY, ADSLOT_ID: "923" };
  function callback(query: [string, string][], key = API_KEY): PostbackRequest {
    const sorted = [...query].sort(([a], [b]) => (a < b ? -1 : 1));
    const signed = new URLSearchParams(sorted).toString();
    return get("/api/ayetstudios/postback", query, { "X-Ayetstudios-Security-Hash": hmac("sha256", key, signed) });
  }

  it("refuses a signed callback with a negative amount that is no chargeback (is_chargeback=0), rather than paying its size", () => {
    const reading = read(
      ayetstudios,
      settings,
      callback([
        ["transaction_id", "381f9934"],
        ["external_identifier", "w_ab12"],
        ["currency_amount", "-360"],
        ["is_chargeback", "0"],
      ]),
    );
    expect(reading).toEqual({
      kind: "refused",
      status: 400,
      reason: "a negative amount on a postback that is no reversal",
    });
  });

  it("builds the documentation's sorted string for its example callback, and its HMAC", () => {
    const params = new Map([
      ["transaction_id", "8ee08f32ae611231b0a49d1bd66e9bf193132561"],
      ["amount", "0.10"],
      ["payout", "1.50"],
      ["user_id", "testuser123456"],
      ["click_id", "1234abcd5678021"],
    ]);
    const signed = ayetSignedString(params);
    expect(signed).toBe(
      "amount=0.10&click_id=1234abcd5678021&payout=1.50&transaction_id=8ee08f32ae611231b0a49d1bd66e9bf193132561&user_id=testuser123456",
    );
    // Computed from that string with the documentation's API key (its printed hash is cut short in our copy).
    expect(hmac("sha256", API_KEY, signed)).toBe("3191f052846df1beee6c1d42030fee7448ff8fc47a417bf714c2e0a1308fc010");
  });

  it("encodes a space as + as PHP's http_build_query does (the example with offer_name=TEST OFFER)", () => {
    const params = new Map([
      ["transaction_id", "8ee08f32ae611231b0a49d1bd66e9bf193132561"],
      ["amount", "0.10"],
      ["payout", "1.50"],
      ["user_id", "testuser123456"],
      ["click_id", "1234abcd5678021"],
      ["offer_name", "TEST OFFER"],
    ]);
    expect(hmac("sha256", API_KEY, ayetSignedString(params))).toBe(
      "62a32725866780ada1dec3d62232645f2801e05a91df7b0202e9b780f804f04b",
    );
  });

  it("reads a conversion, and a chargeback (is_chargeback=1, negative amount, r- before the original id)", () => {
    const credit = read(
      ayetstudios,
      settings,
      callback([
        ["transaction_id", "381f9933"],
        ["external_identifier", "w_ab12"],
        ["currency_amount", "360"],
        ["payout_usd", "0.36"],
        ["is_chargeback", "0"],
        ["offer_id", "5521"],
        ["offer_name", "Spin & Win"],
      ]),
    );
    expect(credit).toEqual({
      kind: "credit",
      transactionId: "381f9933",
      wallUserId: "w_ab12",
      coins: 360,
      payoutUsd: 0.36,
      offerId: "5521",
      offerName: "Spin & Win",
    });
    const chargeback = read(
      ayetstudios,
      settings,
      callback([
        ["transaction_id", "r-381f9933"],
        ["external_identifier", "w_ab12"],
        ["currency_amount", "-360"],
        ["is_chargeback", "1"],
      ]),
    );
    expect(chargeback).toMatchObject({ kind: "reversal", transactionId: "381f9933", coins: 360 });
  });

  it("refuses a missing or wrong header, a changed amount, and a chargeback without r-", () => {
    const query: [string, string][] = [
      ["transaction_id", "t1"],
      ["external_identifier", "w_1"],
      ["currency_amount", "10"],
    ];
    const good = callback(query);
    expect(read(ayetstudios, settings, { ...good, headers: new Headers() })).toMatchObject({ status: 403 });
    expect(read(ayetstudios, settings, callback(query, "another-key"))).toMatchObject({ status: 403 });
    expect(
      read(ayetstudios, settings, { ...good, query: [...query.slice(0, 2), ["currency_amount", "9999"]] }),
    ).toMatchObject({ status: 403 });
    const noPrefix = callback([...query, ["is_chargeback", "1"]]);
    expect(read(ayetstudios, settings, noPrefix)).toMatchObject({ status: 400 });
  });

  it("opens the AdSlot's web offerwall with the wall id as external_identifier", () => {
    expect(ayetstudios.wallUrl?.(ayetstudios.configure(settings), "w_ab12")).toBe(
      "https://www.ayetstudios.com/offers/web_offerwall/923?external_identifier=w_ab12",
    );
  });
});

describe("AdGate Media: unsigned, so a token of the operator's in the URL; state says approved, pending or rejected", () => {
  const settings = { WALL_CODE: "nq6Upw", POSTBACK_TOKEN: "tok-8f2a91c3d4e5f607" };
  const base: [string, string][] = [
    ["token", "tok-8f2a91c3d4e5f607"],
    ["conversion_id", "4d63afe33875ceeec17dd7eab41b8590a"],
    ["user_id", "w_77"],
    ["points", "250"],
    ["payout", "2.50"],
    ["offer_title", "Survey Star"],
  ];

  it("credits an approved conversion and reverses a rejected one by its conversion id", () => {
    expect(read(adgate, settings, get("/api/adgate/postback", [...base, ["state", "approved"]]))).toEqual({
      kind: "credit",
      transactionId: "4d63afe33875ceeec17dd7eab41b8590a",
      wallUserId: "w_77",
      coins: 250,
      payoutUsd: 2.5,
      offerId: null,
      offerName: "Survey Star",
    });
    expect(read(adgate, settings, get("/api/adgate/postback", [...base, ["state", "rejected"]]))).toMatchObject({
      kind: "reversal",
      transactionId: "4d63afe33875ceeec17dd7eab41b8590a",
      coins: 250,
    });
  });

  it("pays nothing for a pending one, and refuses a URL without {state} or with another token", () => {
    expect(read(adgate, settings, get("/api/adgate/postback", [...base, ["state", "pending"]]))).toMatchObject({
      kind: "ignored",
    });
    expect(read(adgate, settings, get("/api/adgate/postback", base))).toMatchObject({ status: 400 });
    const wrongToken: [string, string][] = [["token", "tok-0000000000000000"], ...base.slice(1), ["state", "approved"]];
    expect(read(adgate, settings, get("/api/adgate/postback", wrongToken))).toMatchObject({ status: 403 });
  });

  it("opens wall.adgaterewards.com/<wall code>/<wall id>", () => {
    expect(adgate.wallUrl?.(adgate.configure(settings), "w_77")).toBe("https://wall.adgaterewards.com/nq6Upw/w_77");
  });
});

describe("Torox: sig = md5(oid-user_id-secret), answered with 1", () => {
  const settings = { PUBLISHER_ID: "14", APP_ID: "5", SECRET: "mysecret" };
  const signed = (query: [string, string][], oid: string, user: string, secret = "mysecret") =>
    get("/api/torox/postback", [...query, ["sig", hash("md5", `${oid}-${user}-${secret}`)]]);

  it("signs the documentation's formula: md5 of 123-JohnSmith-mysecret", () => {
    expect(hash("md5", "123-JohnSmith-mysecret")).toBe("703a39f52a592b7b9eb4b6ea4f4693ab");
    const reading = read(
      torox,
      settings,
      get("/api/torox/postback", [
        ["id", "c-1"],
        ["oid", "123"],
        ["amount", "35"],
        ["user_id", "JohnSmith"],
        ["payout", "0.35"],
        ["o_name", "Quiz"],
        ["sig", "703a39f52a592b7b9eb4b6ea4f4693ab"],
      ]),
    );
    expect(reading).toEqual({
      kind: "credit",
      transactionId: "c-1",
      wallUserId: "JohnSmith",
      coins: 35,
      payoutUsd: 0.35,
      offerId: "123",
      offerName: "Quiz",
    });
    expect(torox.accepted).toEqual({ status: 200, body: "1" });
  });

  it("reads a negative amount as the reversal of the same conversion, and refuses another user or offer", () => {
    const query: [string, string][] = [
      ["id", "c-1"],
      ["oid", "123"],
      ["amount", "-35"],
      ["user_id", "w_1"],
    ];
    expect(read(torox, settings, signed(query, "123", "w_1"))).toMatchObject({
      kind: "reversal",
      transactionId: "c-1",
    });
    expect(read(torox, settings, signed(query, "123", "w_2"))).toMatchObject({ status: 403 });
    expect(read(torox, settings, signed(query, "124", "w_1"))).toMatchObject({ status: 403 });
  });
});

describe("Lootably: hash = sha256(userID + ip + revenue + currencyReward + secret)", () => {
  const SECRET = "j28eh8ahjsd2hjq8ashd829qyha8sdh2qha8sdhy";
  const settings = { PLACEMENT_ID: "pl_1", POSTBACK_SECRET: SECRET };
  function callback(query: [string, string][], status?: string): PostbackRequest {
    const params = new Map(query);
    const signed = ["userID", "ip", "revenue", "currencyReward"].map((name) => params.get(name) ?? "").join("");
    return get("/api/lootably/postback", [
      ...query,
      ...(status ? [["status", status] as [string, string]] : []),
      ["hash", hash("sha256", signed + SECRET)],
    ]);
  }

  it("matches the hash of the inputs of Lootably's own hash package", () => {
    expect(hash("sha256", `some userIDsome ip0.011${SECRET}`)).toBe(
      "523e0b07f3d46a5bd4b2c63d90871141c9b0b2e51739d78874082a363ef7d2e0",
    );
    const reading = read(
      lootably,
      settings,
      get("/api/lootably/postback", [
        ["userID", "some userID"],
        ["transactionID", "lt-9"],
        ["ip", "some ip"],
        ["revenue", "0.01"],
        ["currencyReward", "1"],
        ["hash", "523e0b07f3d46a5bd4b2c63d90871141c9b0b2e51739d78874082a363ef7d2e0"],
      ]),
    );
    expect(reading).toMatchObject({ kind: "credit", transactionId: "lt-9", wallUserId: "some userID", coins: 1 });
  });

  it("reads status 0 as a chargeback of the transaction, and refuses a changed reward", () => {
    const query: [string, string][] = [
      ["userID", "w_5"],
      ["transactionID", "lt-10"],
      ["ip", "203.0.113.9"],
      ["revenue", "0.5000"],
      ["currencyReward", "100.00"],
    ];
    expect(read(lootably, settings, callback(query, "0"))).toMatchObject({
      kind: "reversal",
      transactionId: "lt-10",
      coins: 100,
    });
    const good = callback(query, "1");
    const changed = good.query.map(
      ([key, value]) => [key, key === "currencyReward" ? "900.00" : value] as [string, string],
    );
    expect(read(lootably, settings, { ...good, query: changed })).toMatchObject({ status: 403 });
  });
});

describe("Revlum: signature = md5(subId + transId + reward + secret); status 2 is a chargeback; answered ok", () => {
  const settings = { APP_ID: "app-1", SECRET: "mysecret" };
  function postback(query: [string, string][]): PostbackRequest {
    const params = new Map(query);
    const signature = hash("md5", `${params.get("subId")}${params.get("transId")}${params.get("reward")}mysecret`);
    return get("/api/revlum/postback", [...query, ["signature", signature]]);
  }

  it("signs subId revlum1, transId REV-351, reward 25.0 as the formula says", () => {
    expect(hash("md5", "revlum1REV-35125.0mysecret")).toBe("3f03d13997c62db7b8de6fb72c35ae2d");
    const reading = read(
      revlum,
      settings,
      get("/api/revlum/postback", [
        ["subId", "revlum1"],
        ["transId", "REV-351"],
        ["reward", "25.0"],
        ["payout", "0.100000"],
        ["status", "1"],
        ["signature", "3f03d13997c62db7b8de6fb72c35ae2d"],
      ]),
    );
    expect(reading).toMatchObject({
      kind: "credit",
      transactionId: "REV-351",
      wallUserId: "revlum1",
      coins: 25,
      payoutUsd: 0.1,
    });
    expect(revlum.accepted.body).toBe("ok");
  });

  it("reads status 2 as the chargeback of the same transId; a test (debug=1) pays nothing; a POST form reads the same", () => {
    const query: [string, string][] = [
      ["subId", "w_3"],
      ["transId", "REV-400"],
      ["reward", "40.0"],
      ["status", "2"],
    ];
    expect(read(revlum, settings, postback(query))).toMatchObject({
      kind: "reversal",
      transactionId: "REV-400",
      coins: 40,
    });
    expect(read(revlum, settings, postback([...query.slice(0, 3), ["status", "1"], ["debug", "1"]]))).toMatchObject({
      kind: "ignored",
    });
    const asForm = postback(query);
    expect(read(revlum, settings, { ...asForm, method: "POST", body: asForm.query, query: [] })).toMatchObject({
      kind: "reversal",
    });
  });

  it("refuses a changed reward and a status other than 1 or 2", () => {
    const good = postback([
      ["subId", "w_3"],
      ["transId", "REV-401"],
      ["reward", "40.0"],
      ["status", "1"],
    ]);
    const changed = good.query.map(([key, value]) => [key, key === "reward" ? "400.0" : value] as [string, string]);
    expect(read(revlum, settings, { ...good, query: changed })).toMatchObject({ status: 403 });
    const oddStatus = good.query.map(([key, value]) => [key, key === "status" ? "3" : value] as [string, string]);
    expect(read(revlum, settings, { ...good, query: oddStatus })).toMatchObject({ status: 400 });
  });
});

describe("AdGem: verifier = hex HMAC-SHA256 of the whole postback URL, keyed with the Postback Key", () => {
  const settings = { APP_ID: "31", POSTBACK_KEY: "mykey" };
  /** A v2 postback to `path` as AdGem sends it: the query in this order, then `&verifier=`. */
  function postback(query: [string, string][], key = "mykey"): PostbackRequest {
    const unsigned = get("/api/adgem/postback", query);
    const verifier = hmac("sha256", key, unsigned.url);
    return { ...unsigned, url: `${unsigned.url}&verifier=${verifier}`, query: [...query, ["verifier", verifier]] };
  }
  const credit: [string, string][] = [
    ["amount", "150"],
    ["player_id", "w0123456789abcdef0123456789abcdef"],
    ["request_id", "abc"],
    ["transaction_id", "t1"],
    ["payout", "1.50"],
    ["offer_name", "Farm Story"],
  ];

  it("signs the formula's own illustration: mykey over https://example.com/pb?amount=150&player_id=user_1&request_id=abc&transaction_id=t1", () => {
    // AdGem prints no worked value; this is the documented formula (HMAC-SHA256 of the URL, lowercase hex) worked once.
    expect(
      hmac("sha256", "mykey", "https://example.com/pb?amount=150&player_id=user_1&request_id=abc&transaction_id=t1"),
    ).toBe("33037e4405ddecae8dee7fa21d9e79e345da22ba4d45bb6073981b367e760887");
  });

  it("reads a credit: the transaction, the player's wall id, whole coins, the dollars and the offer", () => {
    expect(read(adgem, settings, postback(credit))).toEqual({
      kind: "credit",
      transactionId: "t1",
      wallUserId: "w0123456789abcdef0123456789abcdef",
      coins: 150,
      payoutUsd: 1.5,
      offerId: null,
      offerName: "Farm Story",
    });
  });

  it("refuses another key's verifier, a changed amount, a verifier that is not last, a POST, and a negative amount (no reversal is documented)", () => {
    expect(read(adgem, settings, postback(credit, "other-key"))).toMatchObject({ kind: "refused", status: 403 });
    const signed = postback(credit);
    const changed = { ...signed, url: signed.url.replace("amount=150", "amount=15000") };
    expect(read(adgem, settings, changed)).toMatchObject({ kind: "refused", status: 403 });
    expect(read(adgem, settings, { ...signed, url: `${signed.url}&extra=1` })).toMatchObject({
      kind: "refused",
      status: 403,
    });
    expect(read(adgem, settings, { ...signed, method: "POST" })).toMatchObject({ kind: "refused", status: 400 });
    const negative: [string, string][] = credit.map(([key, value]) => [key, key === "amount" ? "-150" : value]);
    expect(read(adgem, settings, postback(negative))).toMatchObject({ kind: "refused", status: 400 });
  });

  it("pays nothing for a nonpayable install goal", () => {
    expect(read(adgem, settings, postback([...credit, ["nonpayable_install_goal", "true"]]))).toMatchObject({
      kind: "ignored",
      transactionId: "t1",
    });
  });

  it("opens api.adgem.com/v1/wall with the app id and the wall id as playerid, and builds no reversal to simulate", () => {
    const config = adgem.configure(settings);
    expect(adgem.wallUrl!(config, "w0123456789abcdef0123456789abcdef")).toBe(
      "https://api.adgem.com/v1/wall?appid=31&playerid=w0123456789abcdef0123456789abcdef",
    );
    expect(
      adgem.simulatedPostback(config, {
        kind: "reversal",
        transactionId: "t1",
        wallUserId: "w0",
        coins: 1,
        offerId: "o",
        offerName: "o",
        appUrl: APP,
      }),
    ).toBeNull();
  });
});

describe("CPX Research: secure_hash = md5(trans_id-secure hash); status 1 pays, 2 is an unsigned reversal", () => {
  const KEY = "cpx-app-secure-hash";
  const settings = { APP_ID: "1234", SECURE_HASH: KEY };
  const postback = (status: string, hash = hash_("md5", `cpx-77-${KEY}`)) =>
    get("/api/cpx/postback", [
      ["status", status],
      ["trans_id", "cpx-77"],
      ["user_id", "w_cpx"],
      ["amount_local", "45.00"],
      ["amount_usd", "0.45"],
      ["offer_id", "12"],
      ["type", "complete"],
      ["secure_hash", hash],
    ]);
  const hash_ = (algorithm: string, text: string) => hash(algorithm, text);

  it("reads a completion signed with md5 of the transaction id, a dash and the key", () => {
    expect(read(cpx, settings, postback("1"))).toEqual({
      kind: "credit",
      transactionId: "cpx-77",
      wallUserId: "w_cpx",
      coins: 45,
      payoutUsd: 0.45,
      offerId: "12",
      offerName: null,
    });
  });

  it("holds status 2 for an operator: the hash does not cover the status", () => {
    expect(read(cpx, settings, postback("2"))).toMatchObject({
      kind: "reversal",
      transactionId: "cpx-77",
      review: "CPX Research's status=2 is not covered by the signature",
    });
  });

  it("refuses another key's hash, and a status other than 1 or 2", () => {
    expect(read(cpx, settings, postback("1", hash_("md5", "cpx-77-other")))).toMatchObject({ status: 403 });
    expect(read(cpx, settings, postback("3"))).toMatchObject({ kind: "refused", status: 400 });
  });
});

describe("shapes checked before a concatenation is hashed", () => {
  it("Revlum: a signed reward that is not an absolute decimal, or a transId with a separator, is refused before its hash", () => {
    const settings = { APP_ID: "a", SECRET: "s" };
    const revlumPostback = (transId: string, reward: string) =>
      get("/api/revlum/postback", [
        ["subId", "w1"],
        ["transId", transId],
        ["reward", reward],
        ["status", "1"],
        ["signature", hash("md5", `w1${transId}${reward}s`)],
      ]);
    expect(read(revlum, settings, revlumPostback("REV-351", "25.0"))).toMatchObject({ kind: "credit", coins: 25 });
    expect(read(revlum, settings, revlumPostback("REV-351", "-25.0"))).toMatchObject({ kind: "refused", status: 400 });
    expect(read(revlum, settings, revlumPostback("REV 351", "25.0"))).toMatchObject({ kind: "refused", status: 400 });
  });

  it("Lootably: revenue and currencyReward must be plain decimals; a negative reward is a signed chargeback, status 0 alone is held", () => {
    const settings = { PLACEMENT_ID: "p", POSTBACK_SECRET: "s" };
    const lootablyPostback = (revenue: string, reward: string, status: string) =>
      get("/api/lootably/postback", [
        ["userID", "w1"],
        ["transactionID", "lt-1"],
        ["ip", "198.51.100.7"],
        ["revenue", revenue],
        ["currencyReward", reward],
        ["status", status],
        ["hash", hash("sha256", `w1198.51.100.7${revenue}${reward}s`)],
      ]);
    expect(read(lootably, settings, lootablyPostback("1.5e2", "100", "1"))).toMatchObject({ status: 400 });
    const signed = read(lootably, settings, lootablyPostback("-0.50", "-50", "0"));
    expect(signed).toMatchObject({ kind: "reversal", coins: 50 });
    expect(signed).not.toHaveProperty("review");
    expect(read(lootably, settings, lootablyPostback("0.50", "50", "0"))).toMatchObject({
      kind: "reversal",
      review: "Lootably's status=0 is not covered by the signature",
    });
  });

  it("the amount cap is refused with its own reason, not as an unreadable amount", () => {
    expect(
      creditOrReversal({
        reversal: false,
        transactionId: "t",
        wallUserId: "w",
        coins: { negative: false, coins: 10_000_001 },
      }),
    ).toEqual({ kind: "refused", status: 400, reason: "amount over the cap of 10,000,000 coins a postback" });
  });
});

describe("BitLabs: stateful offer callbacks (OFFER_STATE)", () => {
  const SECRET = "bitlabs-state-secret";
  const settings = { APP_TOKEN: "t", APP_SECRET: SECRET };
  function callback(query: [string, string][]): PostbackRequest {
    const request = get("/api/bitlabs/postback", query);
    const signature = hmac("sha1", SECRET, request.url);
    return { ...request, url: `${request.url}&hash=${signature}`, query: [...query, ["hash", signature]] };
  }
  const stateful = (state: string, type: string) =>
    callback([
      ["uid", "w1"],
      ["tx", "o55"],
      ["val", "60"],
      ["ref", ""],
      ["type", type],
      ["offer_state", state],
    ]);

  it("pays nothing for PENDING, pays COMPLETED, and reads RECONCILED (same tx, no ref, positive value) as its reversal", () => {
    expect(read(bitlabs, settings, stateful("PENDING", "COMPLETE"))).toMatchObject({ kind: "ignored" });
    expect(read(bitlabs, settings, stateful("COMPLETED", "COMPLETE"))).toMatchObject({
      kind: "credit",
      transactionId: "o55",
      coins: 60,
    });
    expect(read(bitlabs, settings, stateful("RECONCILED", "RECONCILIATION"))).toMatchObject({
      kind: "reversal",
      transactionId: "o55",
      coins: 60,
    });
    expect(read(bitlabs, settings, stateful("SOMETHING", "COMPLETE"))).toMatchObject({ kind: "refused", status: 400 });
  });

  it("reads a stateless reconciliation with an empty ref by its or-prefixed tx", () => {
    const reading = read(
      bitlabs,
      settings,
      callback([
        ["uid", "w1"],
        ["tx", "or55"],
        ["val", "-60"],
        ["ref", ""],
        ["type", "RECONCILIATION"],
      ]),
    );
    expect(reading).toMatchObject({ kind: "reversal", transactionId: "o55", coins: 60 });
  });
});

describe("the app's own protocol as one more network", () => {
  const settings = { SECRET: "example-postback-secret" };
  function signed(query: [string, string][]): PostbackRequest {
    return get("/api/custom/postback", [...query, ["sig", postbackSignature(new Map(query), settings.SECRET)]]);
  }

  it("credits, reverses (status reversed, or a negative amount), and refuses fractions, zero and a bad sig", () => {
    const query: [string, string][] = [
      ["user_id", "u1"],
      ["transaction_id", "tx-1"],
      ["amount", "250"],
      ["offer_id", "acme-2"],
    ];
    expect(read(custom, settings, signed(query))).toMatchObject({ kind: "credit", coins: 250, offerId: "acme-2" });
    expect(read(custom, settings, signed([...query, ["status", "reversed"]]))).toMatchObject({ kind: "reversal" });
    expect(read(custom, settings, signed([...query.slice(0, 2), ["amount", "-250"]]))).toMatchObject({
      kind: "reversal",
    });
    expect(read(custom, settings, signed([...query.slice(0, 2), ["amount", "2.5"]]))).toMatchObject({ status: 400 });
    expect(read(custom, settings, signed([...query.slice(0, 2), ["amount", "0"]]))).toMatchObject({ status: 400 });
    const forged = signed(query);
    expect(read(custom, settings, { ...forged, query: [...query, ["sig", "0".repeat(64)]] })).toMatchObject({
      status: 403,
    });
  });
});

describe("what every network shares", () => {
  it("reads amounts as whole coins rounded down, keeps the sign, and refuses anything else", () => {
    expect(parseCoins("500")).toEqual({ negative: false, coins: 500 });
    expect(parseCoins("500.99")).toEqual({ negative: false, coins: 500 });
    expect(parseCoins("-150.00")).toEqual({ negative: true, coins: 150 });
    for (const bad of ["", "1e3", "0x10", "12,5", " 5", "Infinity", "10000001", undefined])
      expect(parseCoins(bad)).toBeNull();
  });

  it("refuses a credit whose amount is negative on every network that reads the reversal elsewhere (a state, a status, a prefix), and takes a reversal's amount either way", () => {
    const parts = { transactionId: "t1", wallUserId: "w_1", payoutUsd: null, offerId: null, offerName: null };
    expect(creditOrReversal({ ...parts, reversal: false, coins: parseCoins("-250") })).toEqual({
      kind: "refused",
      status: 400,
      reason: "a negative amount on a postback that is no reversal",
    });
    for (const amount of ["-250", "250"]) {
      expect(creditOrReversal({ ...parts, reversal: true, coins: parseCoins(amount) })).toMatchObject({
        kind: "reversal",
        coins: 250,
      });
    }
    expect(creditOrReversal({ ...parts, reversal: false, coins: parseCoins("-0.5") })).toMatchObject({
      kind: "ignored",
    });
  });

  it("refuses an unsigned request that sends one parameter twice, on every network", () => {
    for (const network of [bitlabs, ayetstudios, adgate, torox, lootably, revlum, custom] as WallNetwork<unknown>[]) {
      const request = get(`/api/${network.name}/postback`, [
        ["a", "1"],
        ["a", "2"],
      ]);
      const reading = network.readPostback({ ...request, url: `${request.url}&hash=00` }, network.configure({}));
      expect(reading.kind, network.name).toBe("refused");
    }
  });
});

describe("simulatedPostback, the inverse of readPostback (npm run walls -- simulate)", () => {
  // Each network with settings it accepts, and the same settings with its secret changed.
  const NETWORKS: [WallNetwork<unknown>, Record<string, string>, Record<string, string>][] = [
    [bitlabs, { APP_TOKEN: "t", APP_SECRET: "bitlabs-secret" }, { APP_TOKEN: "t", APP_SECRET: "other-secret" }],
    [ayetstudios, { API_KEY: "ayet-key", ADSLOT_ID: "923" }, { API_KEY: "other-key", ADSLOT_ID: "923" }],
    [
      adgate,
      { WALL_CODE: "nq6Upw", POSTBACK_TOKEN: "tok-8f2a91c3d4e5f607" },
      { WALL_CODE: "nq6Upw", POSTBACK_TOKEN: "tok-0000000000000000" },
    ],
    [
      torox,
      { PUBLISHER_ID: "14", APP_ID: "5", SECRET: "torox-secret" },
      { PUBLISHER_ID: "14", APP_ID: "5", SECRET: "other" },
    ],
    [
      lootably,
      { PLACEMENT_ID: "pl_1", POSTBACK_SECRET: "lootably-secret" },
      { PLACEMENT_ID: "pl_1", POSTBACK_SECRET: "other" },
    ],
    [revlum, { APP_ID: "app-1", SECRET: "revlum-secret" }, { APP_ID: "app-1", SECRET: "other" }],
    [adgem, { APP_ID: "31", POSTBACK_KEY: "adgem-key" }, { APP_ID: "31", POSTBACK_KEY: "other-key" }],
    [cpx, { APP_ID: "1234", SECURE_HASH: "cpx-secure-hash" }, { APP_ID: "1234", SECURE_HASH: "other" }],
    [custom, { SECRET: "example-postback-secret" }, { SECRET: "another-postback-secret" }],
  ] as [WallNetwork<unknown>, Record<string, string>, Record<string, string>][];

  const postback = (kind: "credit" | "reversal"): SimulatedPostback => ({
    kind,
    transactionId: "sim-7f3a",
    wallUserId: "w0123456789abcdef0123456789abcdef",
    coins: 250,
    offerId: "simulated",
    offerName: "Test offer & more",
    appUrl: APP,
  });

  /** The postback as the app receives it (walls/postbacks.server.ts): its URL rebuilt on the public address. */
  function received(outgoing: OutgoingPostback): PostbackRequest {
    const url = new URL(`${APP}${outgoing.pathAndQuery}`);
    return {
      method: outgoing.method,
      url: `${APP}${url.pathname}${url.search}`,
      query: [...url.searchParams],
      body: outgoing.body === null ? [] : [...new URLSearchParams(outgoing.body)],
      headers: new Headers(outgoing.headers),
    };
  }

  /** The same request with the wall user id changed wherever it is sent. */
  function forWallUser(request: PostbackRequest, from: string, to: string): PostbackRequest {
    const swap = (pairs: readonly (readonly [string, string])[]) =>
      pairs.map(([key, value]) => [key, value === from ? to : value] as const);
    return { ...request, url: request.url.replaceAll(from, to), query: swap(request.query), body: swap(request.body) };
  }

  it("covers every network in the registry", () => {
    expect(NETWORKS.map(([network]) => network.name)).toEqual(WALL_NETWORKS.map((network) => network.name));
  });

  for (const [network, settings, otherSettings] of NETWORKS) {
    const config = network.configure(settings);
    const expected = (kind: "credit" | "reversal") => ({
      kind,
      transactionId: "sim-7f3a",
      wallUserId: "w0123456789abcdef0123456789abcdef",
      coins: 250,
    });

    // AdGem documents no reversal postback: it builds none.
    const kinds = network === adgem ? (["credit"] as const) : (["credit", "reversal"] as const);
    it(`${network.name}: reads back the same ${kinds.join(" and the same ")} it builds, at /api/${network.name}/postback`, () => {
      for (const kind of kinds) {
        const outgoing = network.simulatedPostback(config, postback(kind))!;
        expect(outgoing.pathAndQuery).toMatch(new RegExp(`^/api/${network.name}/postback(\\?|$)`));
        expect(network.readPostback(received(outgoing), config), kind).toMatchObject(expected(kind));
      }
    });

    it(`${network.name}: refuses its postback when the app holds another secret`, () => {
      const outgoing = network.simulatedPostback(config, postback("credit"))!;
      expect(network.readPostback(received(outgoing), network.configure(otherSettings))).toMatchObject({
        kind: "refused",
        status: 403,
      });
    });

    // AdGate signs nothing (its token is the whole check) and CPX signs the transaction alone, so
    // another user id is not a forgery they can see: their sender allowlist is required instead.
    if (network !== adgate && network !== cpx) {
      it(`${network.name}: refuses its postback once the wall user id in it is changed`, () => {
        const outgoing = network.simulatedPostback(config, postback("credit"))!;
        const tampered = forWallUser(received(outgoing), postback("credit").wallUserId, "w_someone_else");
        expect(network.readPostback(tampered, config)).toMatchObject({ kind: "refused", status: 403 });
      });
    }
  }
});
