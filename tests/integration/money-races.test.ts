import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbError } from "~/server/db/core.server";
import { openTestPostgres, type TestDatabase } from "../support/db";
import { endHolds } from "../support/holds";
import { ledgerAudit } from "../support/ledger-audit";
import { provisionMember, recordPostback } from "../support/arrange";

// Races of money on the production settings (issue 17, "Proof"): holds of 7 days, bonus money
// unlocked one dollar per cleared earned dollar (docs/decisions/066), on a Postgres server where the
// calls really run at once. Whatever the interleaving, no withdrawal takes more than was available
// when it was accepted, and every balance still equals its ledger.

describe("money races on the production settings, on Postgres", () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await openTestPostgres(40, "production");
    // The hourly allowance would stop a race at five; these tests are about the money.
    await t.sql("update app_config set withdrawals_per_hour = 1000, provider_hold_days = '{\"instant\": 0}'");
  });
  afterAll(async () => {
    await t?.close();
  });

  const provision = ({ bonusCoins = 0 } = {}) =>
    provisionMember(t, { prefix: "race", name: "Racer", coins: bonusCoins });
  const postback = (
    userId: string,
    transactionId: string,
    coins: number,
    options?: { reversal?: boolean; provider?: string },
  ) => recordPostback(t, userId, transactionId, coins, options);

  /** Resolves to the amount withdrawn, or 0 when refused for the money (any other refusal fails the test). */
  function withdraw(userId: string, amount: number): Promise<number> {
    return t.db
      .rpc("create_withdrawal", {
        p_user_id: userId,
        amount_param: amount,
        payment_method_param: "upi",
        recipient_upi_param: "racer@upi",
      })
      .then(
        () => amount,
        (error: unknown) => {
          const hint = error instanceof DbError ? error.hint : null;
          if (hint === "amount_exceeds_balance" || hint === "negative_balance") return 0;
          throw error;
        },
      );
  }

  async function money(userId: string) {
    const summary = await t.db.rpc<{ balance: number; available: number }>("get_user_summary", { p_user_id: userId });
    return { balance: Number(summary.balance), available: Number(summary.available) };
  }

  const total = (amounts: number[]) => Math.round(amounts.reduce((sum, amount) => sum + amount, 0) * 100) / 100;

  async function expectCleanAudit() {
    expect((await ledgerAudit(t.sql)).problems).toEqual([]);
  }

  it("50 parallel withdrawals take exactly the available money: cleared earnings and the bonus they unlock, not the locked rest", async () => {
    // $50.00 of bonus, $30.00 of cleared offer earnings: $30.00 of the bonus is unlocked.
    const userId = await provision({ bonusCoins: 5000 });
    await postback(userId, `${userId}-offer`, 3000);
    await endHolds(t, userId);
    expect(await money(userId)).toEqual({ balance: 80, available: 60 });

    const taken = await Promise.all(Array.from({ length: 50 }, () => withdraw(userId, 2)));
    expect(total(taken)).toBe(60);
    expect(await money(userId)).toEqual({ balance: 20, available: 0 });
    await expectCleanAudit();
  });

  it("a postback that unlocks bonus money, racing 20 withdrawals: none takes what the credit had not yet unlocked", async () => {
    // $20.00 of bonus, all locked; the instant provider's $10.00 clears at once and unlocks $10.00.
    const userId = await provision({ bonusCoins: 2000 });
    expect(await money(userId)).toEqual({ balance: 20, available: 0 });

    const [, ...taken] = await Promise.all([
      postback(userId, `${userId}-unlock`, 1000, { provider: "instant" }),
      ...Array.from({ length: 20 }, () => withdraw(userId, 2)),
    ]);
    const withdrawn = total(taken as number[]);
    expect(withdrawn).toBeLessThanOrEqual(20);
    // What stays locked stays: $10.00 of bonus is still not withdrawable.
    expect(await money(userId)).toEqual({ balance: 30 - withdrawn, available: 20 - withdrawn });
    await expectCleanAudit();
  });

  it("a reversal in the hold racing withdrawals: the pending money was never withdrawable, so the balance never goes below zero", async () => {
    const userId = await provision();
    await postback(userId, `${userId}-cleared`, 1000);
    await endHolds(t, userId);
    await postback(userId, `${userId}-held`, 1000);
    expect(await money(userId)).toEqual({ balance: 20, available: 10 });

    const [, ...taken] = await Promise.all([
      postback(userId, `${userId}-held`, 1000, { reversal: true }),
      ...Array.from({ length: 10 }, () => withdraw(userId, 2)),
    ]);
    const withdrawn = total(taken as number[]);
    expect(withdrawn).toBe(10);
    expect(await money(userId)).toEqual({ balance: 0, available: 0 });
    await expectCleanAudit();
  });
});
