import http from "node:http";
import { fallbackTasks } from "~/domain/tasks";
import { HttpClient, uniqueEmail } from "./http";

/** Raw SQL against the app's database (a pg pool, or PGlite opened by the test while the app is down). */
export type Sql = <R = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<R[]>;

/**
 * How one request of a load ended: answered as a success (the app's success message), refused
 * (a 400 with the rule's message), 503 (the database was going away), a fault (any other answer),
 * never answered (in flight when the server died), or never sent (the load stopped first).
 */
export type Outcome = "success" | "refused" | "unavailable" | "fault" | "unanswered" | "unsent";

type Kind = "checkin" | "task" | "withdrawal";

export interface Operation {
  kind: Kind;
  userId: string;
  client: HttpClient;
  path: string;
  form: Record<string, string>;
  /** What the database holds if it happened: one check-in per user, one completion per task, one withdrawal per recipient. */
  key: string;
  outcome: Outcome;
  status?: number;
  /** What a fault answered, or why no answer came, for the failure message. */
  detail?: string;
}

export interface LoadUser {
  id: string;
  email: string;
  client: HttpClient;
}

const PASSWORD = "s3cret-pass";
/** Each user's starting money, enough for every withdrawal of the workload. */
export const STARTING_COINS = 2_000;
const WITHDRAWALS_PER_USER = 6; // one more than the five an hour allowed: the last is refused

/** Signs up `count` accounts through the app, ten at a time (as a returning visitor each). */
export async function signUpUsers(baseUrl: string, count: number, prefix: string) {
  const users: { email: string; client: HttpClient }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < count) {
        next += 1;
        const client = new HttpClient(baseUrl);
        client.cookies.set("hasSeenOnboarding", "true");
        const email = uniqueEmail(prefix);
        const response = await client.post("/auth?tab=signup", { intent: "signup", email, password: PASSWORD });
        if (response.status !== 302) throw new Error(`sign-up failed with ${response.status}`);
        users.push({ email, client });
      }
    }),
  );
  return users;
}

/**
 * Arranges, in SQL, what the workload needs of each user: a verified email, STARTING_COINS, and
 * every fallback task started a minute ago (so that completing it now is allowed).
 */
export async function prepareUsers(sql: Sql, signedUp: { email: string; client: HttpClient }[]): Promise<LoadUser[]> {
  const users: LoadUser[] = [];
  for (const { email, client } of signedUp) {
    const [row] = await sql<{ id: string }>("select id from user_profiles where email = $1", [email]);
    if (!row) throw new Error(`no profile for ${email}`);
    await sql("select record_email_verified($1)", [row.id]);
    await sql("select add_user_coins($1, $2)", [row.id, STARTING_COINS]);
    for (const task of fallbackTasks()) {
      await sql(
        "select start_task(p_user_id => $1, p_task_id => $2, p_title => $3, p_reward => $4, p_provider => null)",
        [row.id, task.id, task.title, task.reward],
      );
    }
    await sql("update task_starts set started_at = now() - interval '1 minute' where user_id = $1", [row.id]);
    users.push({ id: row.id, email, client });
  }
  return users;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * Every user's check-in (twice: one must be refused), every fallback task's completion (one of them
 * twice) and six UPI withdrawals, each to its own recipient (the sixth is over the hourly limit),
 * in random order.
 */
export function workload(users: LoadUser[]): Operation[] {
  const operations: Operation[] = [];
  const add = (user: LoadUser, kind: Kind, path: string, form: Record<string, string>, key: string) =>
    operations.push({ kind, userId: user.id, client: user.client, path, form, key, outcome: "unsent" });
  users.forEach((user, u) => {
    for (let i = 0; i < 2; i++) add(user, "checkin", "/?index", { intent: "checkin" }, `checkin:${user.id}`);
    const tasks = fallbackTasks();
    for (const task of [...tasks, tasks[u % tasks.length]!]) {
      add(user, "task", "/earn", { intent: "complete", taskId: task.id }, `task:${user.id}:${task.id}`);
    }
    for (let i = 1; i <= WITHDRAWALS_PER_USER; i++) {
      const recipient = `load${u}x${i}.${user.id.slice(0, 8).replace(/[^a-zA-Z0-9]/g, "")}@okbank`.toLowerCase();
      add(
        user,
        "withdrawal",
        "/withdraw",
        { intent: "withdraw", amount: `1.${String(i).padStart(2, "0")}`, method: "upi", upiId: recipient },
        `withdrawal:${recipient}`,
      );
    }
  });
  return shuffle(operations);
}

const SUCCESS_TITLES: Record<Kind, RegExp> = {
  checkin: /^Checked in!$/,
  task: /^Task Completed$/,
  withdrawal: /^Withdrawal request submitted/,
};

/** The one-time message a redirect carries (the signed `__flash` cookie's JSON). */
function flashOf(setCookies: string[]): { kind?: string; title?: string } | null {
  const cookie = setCookies.find((header) => header.startsWith("__flash="));
  if (!cookie) return null;
  const value = decodeURIComponent(cookie.slice("__flash=".length).split(";")[0]!);
  const data = value.slice(0, value.lastIndexOf("."));
  const session = JSON.parse(Buffer.from(data, "base64").toString("utf8")) as {
    flash?: { kind?: string; title?: string };
  };
  return session.flash ?? null;
}

interface Answer {
  status: number;
  setCookies: string[];
  body: string;
}

/** One request over `agent` (kept-alive connections); rejects when the connection fails before an answer. */
function request(agent: http.Agent, url: URL, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<Answer>((resolve, reject) => {
    const sent = http.request(url, { method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      const done = () =>
        resolve({
          status: response.statusCode ?? 0,
          setCookies: response.headers["set-cookie"] ?? [],
          body: Buffer.concat(chunks).toString("utf8"),
        });
      // The status line came, then the server died: the answer still says what happened.
      response.on("end", done);
      response.on("error", done);
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

async function send(agent: http.Agent, operation: Operation): Promise<void> {
  let answer: Answer;
  try {
    // No cookies are learnt from the answer: each user's client is shared by many requests at once.
    answer = await request(
      agent,
      new URL(operation.path, operation.client.baseUrl),
      "POST",
      {
        "content-type": "application/x-www-form-urlencoded",
        origin: new URL(operation.client.baseUrl).origin,
        "sec-fetch-site": "same-origin",
        cookie: [...operation.client.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
      },
      new URLSearchParams(operation.form).toString(),
    );
  } catch (error) {
    operation.outcome = "unanswered";
    operation.detail = `no answer: ${(error as { code?: string }).code ?? String(error)}`;
    return;
  }
  operation.status = answer.status;
  const flash = answer.status === 302 ? flashOf(answer.setCookies) : null;
  if (flash?.kind === "success" && SUCCESS_TITLES[operation.kind].test(flash.title ?? "")) {
    operation.outcome = "success";
  } else if (answer.status === 400) {
    operation.outcome = "refused";
  } else if (answer.status === 503) {
    operation.outcome = "unavailable";
  } else {
    // Anything else is a fault the test reports (a 500, a sign-out, a success of the wrong kind).
    operation.outcome = "fault";
    operation.detail = `${answer.status} ${JSON.stringify(flash)} ${answer.body.slice(0, 120)}`;
  }
}

/**
 * Sends `operations` with `concurrency` requests in flight at all times, until all are answered or
 * `stopAfter` answers have come (the server is then being killed): from then on nothing new is
 * sent, and the requests in flight end as they end. `onStop` runs once, at that moment.
 *
 * The requests go over `concurrency` kept-alive connections opened (and answered once) before the
 * load starts, so every request of the load reaches a connection the server has accepted: none
 * waits in the kernel's accept queue, whose connections a closing listener resets unread.
 */
export async function runLoad(
  baseUrl: string,
  operations: Operation[],
  { concurrency, stopAfter, onStop }: { concurrency: number; stopAfter?: number; onStop?: () => void | Promise<void> },
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  await Promise.all(Array.from({ length: concurrency }, () => request(agent, new URL("/healthz", baseUrl), "GET", {})));
  let next = 0;
  let answered = 0;
  let stopped = false;
  const stopping: Promise<void>[] = [];
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!stopped && next < operations.length) {
        const operation = operations[next++]!;
        await send(agent, operation);
        if (operation.outcome !== "unanswered") answered += 1;
        if (!stopped && stopAfter !== undefined && answered >= stopAfter) {
          stopped = true;
          if (onStop) stopping.push(Promise.resolve(onStop()));
        }
      }
    }),
  );
  await Promise.all(stopping);
  agent.destroy();
  return { seconds: (Date.now() - started) / 1000, counts: countOutcomes(operations) };
}

function countOutcomes(operations: Operation[]): Record<Outcome, number> {
  const counts: Record<Outcome, number> = {
    success: 0,
    refused: 0,
    unavailable: 0,
    fault: 0,
    unanswered: 0,
    unsent: 0,
  };
  for (const operation of operations) counts[operation.outcome] += 1;
  return counts;
}

/** The rows the database holds for each key of the workload (check-ins, completions, withdrawals). */
async function rowsByKey(sql: Sql, users: LoadUser[]): Promise<Map<string, number>> {
  const ids = users.map((user) => user.id);
  const rows = await sql<{ key: string; n: number }>(
    `select 'checkin:' || user_id as key, count(*)::int as n from daily_checkins where user_id = any($1) group by user_id
     union all
     select 'task:' || user_id || ':' || task_id, count(*)::int from completed_tasks where user_id = any($1) group by user_id, task_id
     union all
     select 'withdrawal:' || recipient_upi, count(*)::int from withdrawals where user_id = any($1) and recipient_upi is not null group by recipient_upi`,
    [ids],
  );
  return new Map(rows.map((row) => [row.key, row.n]));
}

/**
 * What the database must hold after the load, whatever happened to the server: every operation
 * answered as a success is there exactly once; a key is there only if one of its operations was
 * answered as a success or never answered (it may have committed just before the crash); nothing
 * refused, answered 503 or never sent is there; and no answer was a fault. Returns the breaches.
 */
export async function breaches(sql: Sql, users: LoadUser[], operations: Operation[]): Promise<string[]> {
  const found = await rowsByKey(sql, users);
  const problems: string[] = [];
  const byKey = new Map<string, Operation[]>();
  for (const operation of operations) {
    if (operation.outcome === "fault") problems.push(`${operation.key}: answered ${operation.detail}`);
    byKey.set(operation.key, [...(byKey.get(operation.key) ?? []), operation]);
  }
  for (const [key, keyed] of byKey) {
    const rows = found.get(key) ?? 0;
    const outcomes = keyed.map((operation) => operation.outcome);
    if (rows > 1) problems.push(`${key}: ${rows} rows`);
    if (outcomes.includes("success") && rows !== 1) problems.push(`${key}: answered as a success but ${rows} rows`);
    if (rows > 0 && !outcomes.some((outcome) => outcome === "success" || outcome === "unanswered")) {
      problems.push(`${key}: present although its requests were only ${outcomes.join(", ")}`);
    }
  }
  for (const key of found.keys()) if (!byKey.has(key)) problems.push(`${key}: present but never requested`);
  return problems;
}

/**
 * The ledger audit: verify_all_balances() (every balance and total earned equals its ledger) is
 * empty, and every check-in, completed fallback task and withdrawal has exactly its one ledger row.
 */
export async function ledgerAudit(sql: Sql): Promise<unknown[]> {
  const [audit] = await sql<{ result: unknown[] }>("select verify_all_balances() as result");
  const unmatched = await sql(
    `select 'checkins' as what, c.user_id, c.n as rows, coalesce(l.n, 0) as ledger_rows
       from (select user_id, count(*)::int as n from daily_checkins group by user_id) c
       left join (select user_id, count(*)::int as n from transaction_history where transaction_type = 'checkin' group by user_id) l
         using (user_id)
      where c.n <> coalesce(l.n, 0)
     union all
     select 'tasks', c.user_id, c.n, coalesce(l.n, 0)
       from (select user_id, count(*)::int as n from completed_tasks where provider is null group by user_id) c
       left join (select user_id, count(*)::int as n from transaction_history where transaction_type = 'task' group by user_id) l
         using (user_id)
      where c.n <> coalesce(l.n, 0)
     union all
     select 'withdrawal ' || w.id, w.user_id, 1, count(t.id)::int
       from withdrawals w left join transaction_history t on t.withdrawal_id = w.id and t.amount = -w.amount
      group by w.id, w.user_id having count(t.id) <> 1`,
  );
  return [...(audit?.result ?? []), ...unmatched];
}
