// `npm run payouts -- <command>`: the operator's payout command (docs/operations.md, "Paying out withdrawals").
// Bundled into build/payouts.js by scripts/build-operator.mjs; reads the same environment as the
// server. Operator mistakes end as one line on stderr and a non-zero exit, never a stack trace.
import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import { escapeHiddenCharacters } from "~/domain/hidden-characters";
import type { Database } from "~/server/db/core.server";
import { openDatabase } from "~/server/db/database.server";
import { checkEnv } from "~/server/runtime/env.server";
import { readWalls } from "~/server/walls/registry.server";
import {
  createOperator,
  OperatorError,
  PAYPAL_NOT_CONFIGURED,
  type ApproveResult,
  type BanResult,
  type NegativeAccount,
  type QueuedWithdrawal,
  type ReviewedWithdrawal,
  type SendResult,
  type SyncResult,
} from "~/server/withdrawals/payouts/operator.server";
import { createPayPalClient } from "~/server/withdrawals/payouts/paypal.server";
import { complain, runOperatorCommand, say, sayJson, table, UsageError, when } from "./lib/operator-output";

const USAGE = `Usage: npm run payouts -- <command> [options]

  list [--status pending|completed|failed|all] [--method paypal|upi|bank]
                             withdrawals to review, with account age, earnings by source and
                             other accounts paid to the same address (default: pending)
  negative                   accounts whose balance is below zero, with the reversals that
                             took back money already withdrawn
  review                     withdrawals waiting for review (a first cash-out, or a risk score
                             at or above the threshold): each score, its reasons, linked accounts
  approve <id...>            approve withdrawals waiting for review (then send or export-upi)
  reject <id> --reason R     refuse a withdrawal not yet sent: the money goes back to the
                             balance, and the owner is told R
  pause <account> --reason R stop an account's cash-outs (the person is told to contact support)
  resume <account>           let its cash-outs go again
  ban <account> --reason R   close an account: signing in refused, sessions ended, its unsent
                             withdrawals refused and refunded
  unban <account>            reopen it
  send <id...> | --all       pay approved PayPal withdrawals through PayPal Payouts (once each)
  sync                       read back PayPal's status of sent withdrawals and settle them
  export-upi                 pending UPI and bank withdrawals as CSV on stdout
  settle <id> completed [--reference R]
  settle <id> failed [--reason R]
                             settle by hand (failed returns the money to the balance);
                             --force for a withdrawal already sent to PayPal

  --json                     machine-readable output

Every review action is recorded with the operator's name: OPERATOR_NAME, else the system user.`;

const OPTIONS = {
  status: { type: "string" },
  method: { type: "string" },
  all: { type: "boolean" },
  reference: { type: "string" },
  reason: { type: "string" },
  force: { type: "boolean" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type OptionName = keyof typeof OPTIONS;

const COMMAND_OPTIONS: Record<string, OptionName[]> = {
  list: ["status", "method"],
  negative: [],
  review: [],
  approve: [],
  reject: ["reason"],
  pause: ["reason"],
  resume: [],
  ban: ["reason"],
  unban: [],
  send: ["all"],
  sync: [],
  "export-upi": [],
  settle: ["reference", "reason", "force"],
};

const NEEDS_PAYPAL = new Set(["send", "sync"]);

// ------------------------------------------------------------------------------------------------
// Output (through say and complain: scripts/lib/operator-output.ts)

/** "$12.50", "-$10.00" (a reversal, a negative balance). */
const money = (amount: number) => `${Number(amount) < 0 ? "-" : ""}$${Math.abs(Number(amount)).toFixed(2)}`;

function age(since: string, now = Date.now()): string {
  const days = Math.floor((now - Date.parse(since)) / 86_400_000);
  return days < 1 ? "less than a day old" : `${days} ${days === 1 ? "day" : "days"} old`;
}

function earnings(bySource: Record<string, number>): string {
  const sources = Object.entries(bySource).sort(([, a], [, b]) => b - a);
  return sources.length === 0
    ? "nothing earned"
    : sources.map(([source, amount]) => `${source} ${money(amount)}`).join(", ");
}

function paypalState(withdrawal: ReviewedWithdrawal): string {
  if (withdrawal.payment_method !== "paypal") return "-";
  return withdrawal.sent_at ? `sent, ${withdrawal.payout_status ?? "no status"}` : "not sent";
}

/** The lines under a withdrawal that help decide whether to pay it. */
function signals(withdrawal: ReviewedWithdrawal): string[] {
  const account = `${withdrawal.email ?? "no email"}${withdrawal.email_verified ? "" : ", unverified"}`;
  const lines = [
    `account ${withdrawal.user_id} <${account}>, ${age(withdrawal.account_created_at)}`,
    `earned: ${earnings(withdrawal.earnings_by_source)}`,
  ];
  const others = withdrawal.same_address_accounts;
  if (others.length > 0) {
    const noun = others.length === 1 ? "account" : "accounts";
    lines.push(`!! same address as ${others.length} other ${noun}: ${others.join(", ")}`);
  }
  if (withdrawal.balance < 0) {
    lines.push(`!! balance ${money(withdrawal.balance)}: a reversal took back money already withdrawn (see negative)`);
  }
  if (withdrawal.status === "pending") {
    const state = withdrawal.review_state === "review" ? "waiting for review" : "approved";
    lines.push(`${state}, risk score ${withdrawal.risk_score ?? "-"}`);
  }
  if (withdrawal.reference) lines.push(`reference ${withdrawal.reference}`);
  if (withdrawal.failure_reason) lines.push(`failed: ${withdrawal.failure_reason}`);
  return lines.map((line) => `    ${line}`);
}

function printList(withdrawals: ReviewedWithdrawal[], status: string | null) {
  const noun = `${status ?? ""} withdrawal${withdrawals.length === 1 ? "" : "s"}`.trim();
  if (withdrawals.length === 0) return say(`No ${noun}.`);
  const [header, ...rows] = table(
    ["ID", "REQUESTED", "AMOUNT", "METHOD", "RECIPIENT", "STATUS", "PAYPAL"],
    withdrawals.map((withdrawal) => [
      withdrawal.id,
      when(withdrawal.created_at),
      money(withdrawal.amount),
      withdrawal.payment_method,
      // Bank details are free text: one line (its line breaks shown as \n), and the CSV export has
      // them in full.
      escapeHiddenCharacters(withdrawal.recipient).replace(/\s+/g, " ").slice(0, 40),
      withdrawal.status,
      paypalState(withdrawal),
    ]),
  );
  say(`${withdrawals.length} ${noun}`, "", header!);
  withdrawals.forEach((withdrawal, index) => say(rows[index]!, ...signals(withdrawal)));
}

/** "review  58  first withdrawal" and a line per reason, linked accounts named. */
function printReview(queue: QueuedWithdrawal[]) {
  if (queue.length === 0) return say("No withdrawal waits for review.");
  say(
    `${queue.length} withdrawal${queue.length === 1 ? "" : "s"} waiting for review (approve <id...> or reject <id> --reason R)`,
    "",
  );
  for (const withdrawal of queue) {
    const flags = [
      withdrawal.first_withdrawal ? "first withdrawal" : null,
      withdrawal.payouts_paused ? "cash-outs paused" : null,
      withdrawal.banned ? "account closed" : null,
    ].filter(Boolean);
    say(
      `${withdrawal.id}  ${money(withdrawal.amount)} ${withdrawal.payment_method} to ${escapeHiddenCharacters(withdrawal.recipient).replace(/\s+/g, " ").slice(0, 40)}  ${when(withdrawal.created_at)}`,
      `    score ${withdrawal.risk_score ?? "-"}${flags.length > 0 ? `  (${flags.join(", ")})` : ""}`,
      `    account ${withdrawal.user_id} <${withdrawal.email ?? "no email"}>, ${age(withdrawal.account_created_at)}`,
      ...withdrawal.risk_reasons.map(
        (reason) =>
          `    +${String(reason.points).padStart(2)}  ${reason.detail}${reason.accounts.length > 0 ? `: ${reason.accounts.join(", ")}` : ""}`,
      ),
    );
  }
}

function printApprove(results: ApproveResult[]) {
  const words: Record<ApproveResult["result"], string> = {
    approved: "approved",
    already_approved: "was already approved",
    not_pending: "is not waiting for review (settled or refused): nothing changed",
    not_found: "not found",
    payouts_paused: "not approved: the account's cash-outs are paused (resume them first)",
    account_banned: "not approved: the account is closed",
    own_account: "not approved: it is the approving operator's own cash-out",
  };
  for (const result of results) say(`${result.id}  ${words[result.result]}`);
}

function printBan(result: BanResult) {
  say(result.changed ? `Account ${result.user_id} is closed.` : `Account ${result.user_id} was already closed.`);
  if (result.rejected.length > 0) say(`Refused and refunded: ${result.rejected.join(", ")}`);
  if (result.still_sent.length > 0) {
    say(`Already sent to PayPal (run sync; PayPal settles them): ${result.still_sent.join(", ")}`);
  }
}

function printNegative(accounts: NegativeAccount[]) {
  if (accounts.length === 0) return say("No account has a negative balance.");
  const noun = accounts.length === 1 ? "account has" : "accounts have";
  say(`${accounts.length} ${noun} a negative balance (no withdrawal is accepted until earnings pay it back)`, "");
  for (const account of accounts) {
    say(`${account.user_id} <${account.email ?? "no email"}>  balance ${money(account.balance)}`);
    const reversals = account.reversals.map(
      (reversal) =>
        `    reversed ${money(reversal.amount)}  ${reversal.provider} ${reversal.transaction_id}  ${when(reversal.created_at)}`,
    );
    say(...(reversals.length > 0 ? reversals : ["    no reversal recorded"]));
  }
}

function printSend(results: SendResult[]) {
  if (results.length === 0)
    return say(
      "Nothing to send: no approved PayPal withdrawal waits to be sent (review lists those waiting for review).",
    );
  for (const result of results) {
    switch (result.result) {
      case "sent":
        say(
          `sent          ${result.id}  ${money(result.amount)} to ${result.receiver}, batch ${result.batchId} (${result.batchStatus})`,
        );
        break;
      case "already_sent":
        say(`already sent  ${result.id}  batch ${result.batchId ?? "?"}: run sync for its status`);
        break;
      case "refused":
        say(`refused       ${result.id}  ${result.error}`);
        break;
      case "error":
        say(`not sent      ${result.id}  ${result.error}`);
        break;
    }
  }
  const count = (kind: SendResult["result"]) => results.filter((result) => result.result === kind).length;
  say(
    "",
    `${count("sent")} sent, ${count("already_sent")} already sent, ${count("refused")} refused by PayPal, ${count("error")} not sent (try again)`,
  );
}

function printSync(results: SyncResult[]) {
  if (results.length === 0) return say("Nothing to sync: no sent PayPal withdrawal is pending.");
  for (const result of results) {
    if (result.result === "error") {
      say(`error      ${result.id}  ${result.error}`);
      continue;
    }
    const detail =
      result.result === "completed"
        ? `reference ${result.reference ?? "-"}`
        : result.result === "failed"
          ? `money returned: ${result.reason}`
          : result.result === "pending"
            ? "waiting for PayPal"
            : "already settled";
    const note = result.result !== "pending" && !result.changed ? " (no change)" : "";
    say(`${result.result.padEnd(9)}  ${result.id}  ${result.payoutStatus.padEnd(9)}  ${detail}${note}`);
  }
}

// ------------------------------------------------------------------------------------------------
// Commands

function parse(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [command, ...rest] = parsed.positionals;
  const values = parsed.values as Partial<Record<OptionName, string | boolean>>;
  if (command && !Object.hasOwn(COMMAND_OPTIONS, command)) throw new UsageError(`Unknown command "${command}"`);
  if (command) {
    const allowed = new Set<OptionName>([...COMMAND_OPTIONS[command]!, "json", "help"]);
    const stray = (Object.keys(values) as OptionName[]).find((name) => !allowed.has(name));
    if (stray) throw new UsageError(`--${stray} does not go with ${command}`);
  }
  return { command, rest, values };
}

async function run(command: string, rest: string[], values: Partial<Record<OptionName, string | boolean>>) {
  const json = values.json === true;
  const print = sayJson;
  process.env.APP_ROLE = "operator";
  const env = checkEnv(readWalls(process.env).problems);
  if (NEEDS_PAYPAL.has(command) && !env.paypal) throw new OperatorError(PAYPAL_NOT_CONFIGURED);
  if (command === "send" && values.all === true && rest.length > 0) {
    throw new UsageError("send takes withdrawal ids or --all, not both");
  }
  if (command === "send" && values.all !== true && rest.length === 0) {
    throw new UsageError("send needs withdrawal ids, or --all");
  }
  if (command === "settle" && rest.length !== 2) throw new UsageError("settle takes a withdrawal id and a status");
  if (["approve"].includes(command) && rest.length === 0) throw new UsageError("approve needs withdrawal ids");
  if (["reject", "pause", "resume", "ban", "unban"].includes(command) && rest.length !== 1) {
    throw new UsageError(`${command} takes one ${command === "reject" ? "withdrawal" : "account"} id`);
  }
  if (["list", "negative", "review", "sync", "export-upi"].includes(command) && rest.length > 0) {
    throw new UsageError(`${command} takes no arguments, got "${rest[0]}"`);
  }

  // Who did it, in the operator log (operator_actions).
  const actor = { name: process.env.OPERATOR_NAME?.trim() || userInfo().username, userId: null };
  const db: Database = await openDatabase(env);
  try {
    const operator = createOperator({
      db,
      paypal: env.paypal ? createPayPalClient(env.paypal) : null,
      rupeeUpiByRail: env.razorpayx !== null,
    });
    switch (command) {
      case "list": {
        const status = typeof values.status === "string" ? (values.status === "all" ? null : values.status) : "pending";
        const method = typeof values.method === "string" && values.method !== "all" ? values.method : null;
        const withdrawals = await operator.list({ status, method });
        if (json) print(withdrawals);
        else printList(withdrawals, status);
        return 0;
      }
      case "negative": {
        const accounts = await operator.negative();
        if (json) print(accounts);
        else printNegative(accounts);
        return 0;
      }
      case "review": {
        const queue = await operator.reviewQueue();
        if (json) print(queue);
        else printReview(queue);
        return 0;
      }
      case "approve": {
        const results = await operator.approve(rest, actor);
        if (json) print(results);
        else printApprove(results);
        return results.every((result) => result.result === "approved" || result.result === "already_approved") ? 0 : 1;
      }
      case "reject": {
        const result = await operator.reject(rest[0]!, values.reason as string | undefined, actor);
        if (json) print(result);
        else if (result.changed)
          say(`Withdrawal ${result.id} is refused; ${money(result.amount)} is back in the balance.`);
        else say(`Withdrawal ${result.id} was already ${result.status}: nothing changed.`);
        return 0;
      }
      case "pause":
      case "resume": {
        const paused = command === "pause";
        const result = await operator.setPaused(rest[0]!, paused, values.reason as string | undefined, actor);
        if (json) print(result);
        else
          say(
            `Cash-outs of ${result.user_id} ${result.changed ? "are now" : "were already"} ${paused ? "paused" : "allowed"}.`,
          );
        return 0;
      }
      case "ban": {
        const result = await operator.ban(rest[0]!, values.reason as string | undefined, actor);
        if (json) print(result);
        else printBan(result);
        return 0;
      }
      case "unban": {
        const result = await operator.unban(rest[0]!, actor);
        if (json) print(result);
        else
          say(
            result.changed ? `Account ${result.user_id} is open again.` : `Account ${result.user_id} was not closed.`,
          );
        return 0;
      }
      case "send": {
        const results = await operator.send(values.all === true ? "all" : rest);
        if (json) print(results);
        else printSend(results);
        return results.every((result) => result.result === "sent" || result.result === "already_sent") ? 0 : 1;
      }
      case "sync": {
        const results = await operator.sync();
        if (json) print(results);
        else printSync(results);
        return results.some((result) => result.result === "error") ? 1 : 0;
      }
      case "export-upi": {
        const { csv, withdrawals } = await operator.exportUpi();
        if (json) print(withdrawals);
        else process.stdout.write(csv);
        complain(`${withdrawals.length} pending UPI and bank withdrawal(s) to pay by hand, then settle.`);
        return 0;
      }
      case "settle": {
        const [id, status] = rest as [string, string];
        const result = await operator.settle(id, status, {
          reference: values.reference as string | undefined,
          reason: values.reason as string | undefined,
          force: values.force === true,
          actor,
        });
        if (json) print(result);
        else if (result.changed) say(`Withdrawal ${result.id} is now ${result.status}.`);
        else say(`Withdrawal ${result.id} was already ${result.status}: nothing changed.`);
        return 0;
      }
    }
    throw new UsageError(`Unknown command "${command}"`);
  } finally {
    await db.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const { command, rest, values } = parse(argv);
  if (!command || values.help) {
    (command || values.help ? console.log : console.error)(USAGE);
    return command || values.help ? 0 : 2;
  }
  return run(command, rest, values);
}

await runOperatorCommand("payouts", () => main(process.argv.slice(2)));
