// @ts-check
// `npm run mutation-check`: breaks five rules on purpose, one at a time (a limit, a signature check,
// a role check, a race guard, a message), runs the test files that should notice, and prints which
// tests failed. Each break is undone whatever happens. A break that no test notices ends the run
// with exit code 1: the suite would have let it land.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

/**
 * @typedef {{ rule: string, file: string, from: string, to: string, tests: string[] }} Mutation
 * `from` must occur exactly once in `file`; it is replaced by `to`.
 */

/** @type {Mutation[]} */
const MUTATIONS = [
  {
    rule: "a limit: a withdrawal may take $5.00 more than the available balance",
    file: "supabase/migrations/20261201000000_withdrawals_reviewed_by_risk.sql",
    from: "if amount_param > (money_available(p_user_id) ->> 'available')::numeric then",
    to: "if amount_param > (money_available(p_user_id) ->> 'available')::numeric + 5 then",
    // The Withdraw page checks the balance before the database does; what it read can be stale, so
    // the SQL check decides under races and for every other caller.
    tests: ["tests/integration/cash-out.test.ts", "tests/http/pooler.test.ts"],
  },
  {
    rule: "a signature check: BitLabs' callback hash is no longer compared",
    file: "app/server/walls/networks/bitlabs.server.ts",
    from: "if (!sameHex(hash, bitlabsHash(appSecret, request.url.slice(0, marker)))) {",
    to: "if (hash === null && !sameHex(hash, bitlabsHash(appSecret, request.url.slice(0, marker)))) {",
    tests: ["tests/http/walls.test.ts"],
  },
  {
    rule: "a role check: any operator role passes every console page's minimum role",
    file: "app/server/operator/access.server.ts",
    from: "if (recorded !== user.role || !roleAtLeast(user.role, minimumRole)) throw notFound();",
    to: 'if (recorded !== user.role || !roleAtLeast(user.role, "support")) throw notFound();',
    tests: ["tests/http/admin-access.test.ts"],
  },
  {
    rule: "a race guard: settling a withdrawal reads it without locking its row",
    file: "supabase/migrations/20261204000000_no_operator_moves_money_alone.sql",
    from: "hint = 'invalid_settlement_status';\n  end if;\n  select * into v_withdrawal from withdrawals where id = p_withdrawal_id for update;",
    to: "hint = 'invalid_settlement_status';\n  end if;\n  select * into v_withdrawal from withdrawals where id = p_withdrawal_id;",
    tests: ["tests/http/pooler.test.ts"],
  },
  {
    rule: "a message: the second check-in of a day says something other than the spec's words",
    file: "app/domain/rules.ts",
    from: 'already_checked_in: "Already checked in today!",',
    to: 'already_checked_in: "You already checked in.",',
    tests: ["tests/http/earning.test.ts", "tests/unit/forms.test.ts"],
  },
];

/**
 * Runs `npm test -- <files>` and returns its exit code and the tests it listed as failed.
 * @param {string[]} files
 * @returns {Promise<{ code: number, failed: string[] }>}
 */
function runTests(files) {
  return new Promise((resolve) => {
    const child = spawn("node", ["scripts/test.mjs", ...files], { stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.once("close", (code) => {
      const listed = output.split("\nFailed:\n")[1] ?? "";
      const failed = listed
        .split("\n")
        .filter((line) => line.startsWith("  ✘ "))
        .map((line) => line.slice(4));
      resolve({ code: code ?? 1, failed });
    });
  });
}

const only = process.argv.slice(2);
let missed = 0;
for (const [index, mutation] of MUTATIONS.entries()) {
  if (only.length > 0 && !only.includes(String(index + 1))) continue;
  const original = readFileSync(mutation.file, "utf8");
  if (original.split(mutation.from).length !== 2) {
    console.log(`✘ ${index + 1}. ${mutation.rule}: the text to break is not in ${mutation.file} exactly once`);
    missed += 1;
    continue;
  }
  writeFileSync(mutation.file, original.replace(mutation.from, mutation.to));
  let result;
  try {
    result = await runTests(mutation.tests);
  } finally {
    writeFileSync(mutation.file, original);
  }
  if (result.failed.length > 0) {
    console.log(`✔ ${index + 1}. ${mutation.rule}: caught by`);
    for (const test of result.failed) console.log(`    ${test}`);
  } else if (result.code !== 0) {
    // A crash (a service that did not start) proves nothing either way.
    console.log(`✘ ${index + 1}. ${mutation.rule}: the run failed before any test did (its error is above)`);
    missed += 1;
  } else {
    console.log(`✘ ${index + 1}. ${mutation.rule}: no test in ${mutation.tests.join(", ")} failed`);
    missed += 1;
  }
}
process.exit(missed === 0 ? 0 : 1);
