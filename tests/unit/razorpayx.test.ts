import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  payoutFromEntity,
  payoutRequestBody,
  razorpayxSignatureValid,
  rupeesToPaise,
} from "~/server/withdrawals/payouts/razorpayx.server";

// The RazorpayX protocol's pure parts (docs/rails/razorpayx.md): paise, the request, the payout
// entity, and the webhook signature over the body's exact bytes.
describe("RazorpayX", () => {
  it("writes rupees as whole paise, exactly, and refuses anything that is not an amount", () => {
    expect(rupeesToPaise("416.25")).toBe(41625);
    expect(rupeesToPaise(416.2)).toBe(41620);
    expect(rupeesToPaise("1")).toBe(100);
    expect(rupeesToPaise("0.07")).toBe(7);
    for (const bad of ["-1", "1.234", "1e3", "", "₹5"]) expect(rupeesToPaise(bad), bad).toBeNull();
  });

  it("builds the composite UPI payout of a withdrawal, and refuses less than a rupee", () => {
    const config = { accountNumber: "7878780080316316", queueIfLowBalance: false };
    const body = payoutRequestBody(
      { id: "w-1", user_id: "u-1", recipient_upi: "a@okaxis", payout_amount: "83.25" },
      config,
    );
    expect(body).toMatchObject({
      amount: 8325,
      currency: "INR",
      mode: "UPI",
      queue_if_low_balance: false,
      reference_id: "w-1",
    });
    expect(body.fund_account).toEqual({
      account_type: "vpa",
      vpa: { address: "a@okaxis" },
      contact: { name: "Rewards member", type: "customer", reference_id: "u-1" },
    });
    expect(() =>
      payoutRequestBody({ id: "w", user_id: "u", recipient_upi: "a@okaxis", payout_amount: "0.99" }, config),
    ).toThrow(/rupee amount/);
  });

  it("reads a payout entity's id, status, UTR, reference and reason, and nothing from what is not one", () => {
    expect(
      payoutFromEntity({
        id: "pout_1",
        status: "reversed",
        utr: null,
        reference_id: "w-1",
        status_details: { description: "Bank offline", source: "beneficiary_bank", reason: "bank_offline" },
      }),
    ).toEqual({ id: "pout_1", status: "reversed", utr: null, referenceId: "w-1", reason: "Bank offline" });
    expect(payoutFromEntity({ status: "processed" })).toBeNull();
    expect(payoutFromEntity("pout_1")).toBeNull();
  });

  it("accepts a webhook only with the hex HMAC-SHA256 of its exact bytes under the secret", () => {
    const body = new TextEncoder().encode('{"event":"payout.processed","payload":{}}');
    const signature = createHmac("sha256", "secret").update(body).digest("hex");
    expect(razorpayxSignatureValid(body, signature, "secret")).toBe(true);
    expect(razorpayxSignatureValid(body, signature.toUpperCase(), "secret")).toBe(true);
    expect(razorpayxSignatureValid(body, signature, "other")).toBe(false);
    const changed = new TextEncoder().encode('{"event":"payout.processed","payload":{} }');
    expect(razorpayxSignatureValid(changed, signature, "secret")).toBe(false);
    for (const bad of [null, "", signature.slice(0, 63), `${signature}00`, "z".repeat(64)])
      expect(razorpayxSignatureValid(body, bad, "secret"), String(bad)).toBe(false);
  });
});
