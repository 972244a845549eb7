import { MISSING_CREDIT_MAX_AGE_DAYS } from "~/domain/offer-credits";
import { ruleMessage } from "~/domain/rules";
import { requireUser } from "~/server/auth/session.server";
import { answerTicket } from "~/server/account/support.server";
import { getAppConfig } from "~/server/runtime/config.server";
import { optionalSection, readTogether, type RequestScope } from "~/server/db/reads.server";
import { redirectWithFlash } from "~/server/http/flash.server";
import { bannerErrors, parseForm, rejectForm, replyWithDbError } from "~/server/http/forms.server";
import {
  missingCreditReportsCall,
  networkLabels,
  offerCreditsCall,
  reportableNetworks,
  reportMissingCredit,
} from "~/server/walls/my-offers.server";
import { MISSING_CREDIT_FIELDS, MISSING_CREDIT_MESSAGES, missingCreditFormSchema } from "./missing-credit-form";

const MY_OFFERS = "/earn/offers";
const DAY_MS = 24 * 60 * 60 * 1000;

/** "2026-11-25": a day in UTC, as a date input and the database read it. */
const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * /earn/offers: the person's offer credits with their status, their missing-credit reports, and
 * (?report={network}) the report form for one network.
 */
export async function loadMyOffers(request: Request, scope?: RequestScope) {
  const user = await requireUser(request, scope);
  const [creditsRead, reportsRead] = readTogether(
    [offerCreditsCall(user.uid), missingCreditReportsCall(user.uid)],
    scope,
  );
  const [credits, reports, config] = await Promise.all([
    optionalSection("my offers: credits", creditsRead),
    optionalSection("my offers: reports", reportsRead),
    getAppConfig(),
  ]);
  const networks = await reportableNetworks();
  const reporting = new URL(request.url).searchParams.get("report");
  const now = Date.now();
  return {
    credits,
    reports,
    labels: networkLabels(networks),
    networks,
    reportingNetwork: networks.find((network) => network.name === reporting) ?? null,
    coinsPerDollar: config.coins_per_dollar,
    now: new Date(now).toISOString(),
    // The date input's bounds, as report_missing_credit checks them.
    today: utcDay(now),
    earliestDay: utcDay(now - MISSING_CREDIT_MAX_AGE_DAYS * DAY_MS),
  };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A missing-credit report: blanks and a network not on the page are the person's to fix; the rest
 * is report_missing_credit's. Or an answer to one of their reports (answer_ticket).
 */
export async function myOffersAction(request: Request) {
  const user = await requireUser(request);
  const submission = await parseForm(request, missingCreditFormSchema);
  if (submission.status !== "success") {
    return rejectForm(submission, { formErrors: bannerErrors(submission, [...MISSING_CREDIT_FIELDS, "body"]) });
  }
  if (submission.value.intent === "answer") return answerTicket(user, "missing_credit", submission.value, submission);
  const report = submission.value;
  const network = (await reportableNetworks()).find((candidate) => candidate.name === report.network);
  if (!network) return rejectForm(submission, { formErrors: [MISSING_CREDIT_MESSAGES.unknownNetwork] });
  const blank = MISSING_CREDIT_FIELDS.filter((field) => !report[field]);
  if (blank.length > 0) {
    return rejectForm(submission, {
      fieldErrors: Object.fromEntries(blank.map((field) => [field, [MISSING_CREDIT_MESSAGES.blank[field]]])),
    });
  }
  // A date the input cannot have sent (typed without JavaScript into an old browser's text box).
  if (!DAY.test(report.completedOn) || Number.isNaN(Date.parse(report.completedOn))) {
    return rejectForm(submission, {
      fieldErrors: { completedOn: [ruleMessage("missing_credit_date_out_of_range")] },
    });
  }
  try {
    await reportMissingCredit(user.uid, { ...report, network: network.name });
  } catch (error) {
    return replyWithDbError(submission, error, {
      fields: {
        missing_credit_date_out_of_range: "completedOn",
        missing_credit_too_long: "details",
      },
      fallback: MISSING_CREDIT_MESSAGES.failed,
      context: "missing credit report",
    });
  }
  return redirectWithFlash(MY_OFFERS, {
    kind: "success",
    title: MISSING_CREDIT_MESSAGES.sent,
    description: `We will look into your ${network.label} offer. Its status shows under Your reports.`,
  });
}
