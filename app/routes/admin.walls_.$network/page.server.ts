import { randomUUID } from "node:crypto";
import { data } from "@remix-run/node";
import { roleAtLeast, signedInRecently } from "~/domain/operator-roles";
import {
  clearField,
  HELD_POSTBACK_MESSAGES,
  settingField,
  WALL_FORM_MESSAGES,
  type PostbackLogFilters,
} from "~/domain/operator-walls";
import { auditRefusal } from "~/server/operator/refusals.server";
import { requireOperator } from "~/server/operator/access.server";
import { confirmRecentSignIn } from "~/server/operator/recent-sign-in.server";
import {
  checkWallChange,
  consoleNetwork,
  decideHeldPostback,
  readHeldPostbacks,
  readPostbackLog,
  resetWall,
  saveWall,
  sendTestPostback,
  wallDetail,
  type WallChange,
} from "~/server/operator/walls.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { bannerErrors, parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import { wallFormSchema, type FormSetting } from "./wall-forms";

// An entry id as the page's `before` carries it: a positive whole number (a bigint in SQL).
const ENTRY_ID = /^[1-9][0-9]{0,17}$/;

/** The log's filters as the URL carries them; a `before` that is no entry id starts at the newest. */
function readFilters(params: URLSearchParams): PostbackLogFilters {
  const before = params.get("before");
  return {
    refused: params.get("refused") === "1",
    user: (params.get("user") ?? "").trim().slice(0, 320),
    tx: (params.get("tx") ?? "").trim().slice(0, 400),
    before: before !== null && ENTRY_ID.test(before) ? Number(before) : null,
  };
}

/**
 * A wall's page (docs/operator-console.md, "Walls"): its configuration and where each value comes
 * from, the postback log filtered by URL, and for an owner the forms that change it, give it back
 * to the environment and send a test postback. Every role reads it; a name that is no network the
 * app knows answers 404 inside the console.
 */
export async function loadWall(request: Request, name: string | undefined) {
  const operator = await requireOperator(request, "support");
  const network = consoleNetwork(name);
  if (!network) return data({ found: false as const, name: name ?? "" }, { status: 404 });
  const url = new URL(request.url);
  const filters = readFilters(url.searchParams);
  const [detail, log, held] = await Promise.all([
    wallDetail(operator.uid, network, url.origin),
    readPostbackLog(operator.uid, network, filters),
    readHeldPostbacks(operator.uid, network),
  ]);
  const owner = roleAtLeast(operator.role, "owner");
  const finance = roleAtLeast(operator.role, "finance");
  return {
    found: true as const,
    view: detail.view,
    // The forms are the owner's alone: other roles are not shown them.
    form: owner ? detail.form : null,
    // A new one for each page: the test postback's transaction id, which a form sent twice repeats.
    testTransaction: owner ? `sim-${randomUUID()}` : null,
    // Changing a wall or crediting an account asks for the password after 15 minutes (as money actions do).
    needsPassword: finance && !signedInRecently(operator.authTime),
    filters,
    log,
    held,
    // Finance and owners approve or reject held postbacks; support reads them.
    canDecideHeld: finance,
    operatorId: operator.uid,
  };
}

const notFound = () => new Response("Not Found", { status: 404 });

/**
 * The owner's forms on a wall's page, by `intent`: save the configuration, give it back to the
 * environment, send a test postback. Others get the 404 every console URL gives them. Each needs a
 * sign-in within the last 15 minutes (a wall's secret, or a test credit, moves money).
 */
export async function wallAction(request: Request, name: string | undefined) {
  const operator = await requireOperator(request, "finance");
  const network = consoleNetwork(name);
  if (!network) throw notFound();
  const settings: FormSetting[] = network.settings
    .filter((setting) => !setting.url)
    .map((setting) => ({ suffix: setting.suffix, secret: setting.secret === true }));
  // What was typed into a secret's field never goes back into the page.
  const hideFields = settings.filter((setting) => setting.secret).map((setting) => settingField(setting.suffix));
  const submission = await parseForm(request, wallFormSchema(settings));
  if (submission.status !== "success") {
    return rejectForm(submission, { formErrors: bannerErrors(submission, SHOWN_FIELDS(settings)), hideFields });
  }
  const page = `/admin/walls/${network.name}`;
  const value = submission.value as Record<string, unknown> & { intent: string };
  // Deciding a held postback is finance's; every other form is the owner's alone.
  if (value.intent !== "held" && !roleAtLeast(operator.role, "owner")) throw notFound();
  const change = value.intent === "save" ? wallChange(value, settings) : null;
  // The checks a person can fix come before the password, so a wrong value costs no password attempt.
  const wrong = change ? checkWallChange(network, change) : {};
  if (Object.keys(wrong).length > 0) return rejectForm(submission, { fieldErrors: wrong, hideFields });
  const signIn = await confirmRecentSignIn(request, operator, {
    password: String(value.password ?? ""),
    totpCode: String(value.totpCode ?? ""),
  });
  if (!signIn.ok) {
    return rejectForm(submission, { fieldErrors: { password: [signIn.problem] }, hideFields }, signIn.status);
  }
  const renewed: HeadersInit = signIn.setCookie ? { "Set-Cookie": signIn.setCookie } : {};
  try {
    if (value.intent === "held") {
      const approve = value.decision === "approve";
      await decideHeldPostback(operator, { id: value.held as number, approve, reason: value.reason as string });
      return redirectWithFlash(
        page,
        { kind: "success", title: approve ? HELD_POSTBACK_MESSAGES.approved : HELD_POSTBACK_MESSAGES.rejected },
        renewed,
      );
    }
    if (value.intent === "reset") {
      const { changed } = await resetWall(operator, network, value.reason as string);
      return redirectWithFlash(
        page,
        { kind: "success", title: changed ? WALL_FORM_MESSAGES.reset : WALL_FORM_MESSAGES.resetNothing },
        renewed,
      );
    }
    if (change) {
      const result = await saveWall(operator, network, change);
      if (!result.saved) return rejectForm(submission, { ...result, hideFields });
      return redirectWithFlash(
        page,
        {
          kind: "success",
          title: result.changed ? WALL_FORM_MESSAGES.saved : WALL_FORM_MESSAGES.unchanged,
          description: result.changed ? `${network.label}: the change is recorded in the audit log.` : undefined,
        },
        renewed,
      );
    }
    const transactionId = value.transaction as string;
    const sent = await sendTestPostback(operator, network, {
      email: value.email as string,
      coins: value.coins as number,
      transactionId,
    });
    const withTransaction = `${page}?tx=${encodeURIComponent(transactionId)}`;
    if (!sent.sent) {
      if (sent.alreadySent) {
        return redirectWithFlash(withTransaction, { kind: "info", title: sent.message }, renewed);
      }
      return rejectForm(
        submission,
        sent.field ? { fieldErrors: { [sent.field]: [sent.message] } } : { formErrors: [sent.message] },
      );
    }
    // The app's own answer (a few words, such as "OK" or "Invalid signature"), and its log entry below.
    const answer = `${sent.status} ${sent.body.slice(0, 200)}`;
    return redirectWithFlash(
      withTransaction,
      {
        kind: sent.accepted ? "success" : "error",
        title: sent.accepted
          ? `Test postback taken: ${value.coins as number} test coins to ${sent.email} (not withdrawable)`
          : "Test postback refused",
        description: `The app answered ${answer}. Its log entry is below.`,
      },
      renewed,
    );
  } catch (error) {
    await auditRefusal(operator, `wall_${value.intent}`, error, { recordKind: "wall", recordId: network.name });
    return replyWithDbError(submission, error, {
      fields: { invalid_hold_days: "holdDays", account_not_found: "email", operator_self_action: "email" },
      fallback: WALL_FORM_MESSAGES.failed,
      context: `console, wall ${network.name}`,
      hideFields,
    });
  }
}

/** The save form's values as the server module takes them. */
function wallChange(value: Record<string, unknown>, settings: readonly FormSetting[]): WallChange {
  return {
    enabled: value.enabled as WallChange["enabled"],
    holdDays: value.holdDays as number | undefined,
    allowedAddresses: value.allowedAddresses as string | undefined,
    settings: Object.fromEntries(
      settings.map((setting) => [setting.suffix, value[settingField(setting.suffix)] as string | undefined]),
    ),
    clear: settings
      .filter((setting) => setting.secret && value[clearField(setting.suffix)] === "on")
      .map((setting) => setting.suffix),
    reason: value.reason as string,
  };
}

/** The fields with an input on the page (their errors show there; the rest go to the form's banner). */
const SHOWN_FIELDS = (settings: readonly FormSetting[]) => [
  "decision",
  "enabled",
  "holdDays",
  "allowedAddresses",
  "reason",
  "email",
  "coins",
  "password",
  ...settings.map((setting) => settingField(setting.suffix)),
];
