import type { SubmissionResult } from "@conform-to/react";
import { CashoutFeed, type FeedView } from "~/components/CashoutFeed";
import { Form, Link } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { formatDollars, type MoneyParts } from "~/domain/money";
import { approximateRupees, rateLine } from "~/domain/rupees";
import {
  AMOUNT_PATTERN,
  APPEAL_OF_PAUSED,
  holdAmountInput,
  METHOD_LABELS,
  OFFERED_METHODS,
  UPI_ID_HINT,
  WITHDRAWAL_MESSAGES,
  type PaymentMethod,
  type WithdrawalFields,
} from "~/domain/withdrawals";
import { useFormKey, useFormState, type FieldState } from "~/lib/use-form";
import { cardAmounts, countryName, type GiftCard } from "~/domain/giftcards";
import { BalanceCard } from "~/components/BalanceCard";
import { VerifyEmailCard } from "~/components/VerifyEmailCard";
import { Field, TextareaField } from "~/components/forms/Field";
import { FormBanner } from "~/components/forms/FormBanner";
import { ErrorList } from "~/components/forms/ErrorList";
import { RadioCards } from "~/components/forms/RadioCards";
import { SubmitButton } from "~/components/forms/SubmitButton";
import { Banner } from "~/components/ui/Banner";
import { Card } from "~/components/ui/Card";
import { Icon, type IconName } from "~/components/ui/Icon";
import { PageHeader } from "~/components/ui/PageHeader";
import { EmailCodeStep } from "~/components/forms/LazyEmailCodeStep";
import { WithdrawalCodeStep, type WithdrawalCodeStep as WithdrawalCodeStepData } from "./WithdrawalCodeStep";

const METHOD_ICONS: Record<PaymentMethod, IconName> = { paypal: "mail", upi: "app", bank: "bank", giftcard: "gift" };

const WITHDRAW_FIELDS = [
  "amount",
  "method",
  "paypalEmail",
  "upiId",
  "bankDetails",
  "giftcardProduct",
] as const satisfies readonly (keyof WithdrawalFields)[];

export interface WithdrawData {
  /** The balance card: what can be withdrawn now (the amount's bound), pending, locked bonus. */
  money: MoneyParts;
  coinsPerDollar: number;
  /**
   * Why nothing can be withdrawn now: a reversal left the balance below zero (docs/decisions/065),
   * an operator paused the account's cash-outs (docs/decisions/068, with the way to support), or
   * too little is available yet ("Wait until Dec 5", "Earn $1.00 more", issue 36).
   */
  cashOutNotice: { tone: "info" | "warning"; title: string | null; message: string; appealLink: boolean } | null;
  email: string | null;
  emailVerified: boolean;
  minimums: Record<PaymentMethod, number>;
  /** Rupees per dollar a UPI cash-out is paid at, fixed when asked for; null: no rate in force (dollars only). */
  inrRate: number | null;
  bankOffered: boolean;
  /** The last withdrawal's method and recipient, the form's starting values. */
  lastRecipient: { method: "paypal" | "upi" | "giftcard"; recipient: string } | null;
  /** The next cash-out waits for review as a first one: said beside the 24-48 hours. */
  reviewedFirst: boolean;
  /** Gift cards through Tremendous (decision 089), those of `country`; null: not offered here. */
  giftCards: { country: string; countries: readonly string[]; cards: GiftCard[]; chosen: boolean } | null;
  /** "Ask for a review" asked for (docs/decisions/090): of paused cash-outs, or of a refused withdrawal's id. */
  appeal: { of: string } | null;
}

/** docs/product.md, "Withdraw": balance, amount, method with its minimum, the method's recipient. */
export function WithdrawScreen({
  data,
  feed,
  lastResult,
  codeStep = null,
}: {
  data: WithdrawData;
  /** Recent cash-outs: the loader's list, or the newer one the events channel sent. */
  feed: FeedView | null;
  lastResult?: SubmissionResult<string[]>;
  /** A code by email is asked before this cash-out (docs/decisions/092): its step replaces the form. */
  codeStep?: WithdrawalCodeStepData | null;
}) {
  const formKey = useFormKey(lastResult);
  // The review asked for by the URL, or the one a refused post named (its words go on its form).
  const refusedAppeal = lastResult?.initialValue?.intent === "appeal" ? lastResult.initialValue.appealOf : undefined;
  const appealOf = data.appeal?.of ?? (typeof refusedAppeal === "string" ? refusedAppeal : null);
  return (
    <div className="space-y-4">
      <PageHeader
        title="Withdraw Money"
        action={
          <Link
            to="?history=1"
            preventScrollReset
            className="inline-flex h-11 min-w-11 items-center justify-center gap-1.5 rounded-full px-3 text-sm font-semibold text-brand-700 hover:bg-brand-50 active:bg-brand-100"
          >
            <Icon name="history" className="size-4" />
            {/* Below 360 px the icon alone, so the title has the room. */}
            <span className="max-[359px]:sr-only">History</span>
          </Link>
        }
      />
      {appealOf !== null ? <AppealCard of={appealOf} lastResult={lastResult} /> : null}
      <BalanceCard money={data.money} coinsPerDollar={data.coinsPerDollar} />
      {data.cashOutNotice ? (
        <Banner tone={data.cashOutNotice.tone} title={data.cashOutNotice.title ?? undefined} id="cash-out-notice">
          {data.cashOutNotice.message}
          {data.cashOutNotice.appealLink && !data.appeal ? (
            <>
              {" "}
              <Link
                to={`?appeal=${APPEAL_OF_PAUSED}`}
                preventScrollReset
                className="font-semibold underline underline-offset-2"
              >
                Ask for a review
              </Link>
            </>
          ) : null}
        </Banner>
      ) : null}
      {codeStep ? (
        <WithdrawalCodeStep step={codeStep} />
      ) : data.emailVerified ? (
        // A new page (after a request went through) is a fresh form; a refused one keeps its values (useFormKey).
        <WithdrawForm key={formKey} data={data} lastResult={lastResult} blocked={!!data.cashOutNotice} />
      ) : (
        // Beyond the spec (docs/decisions/023): money leaves only for an account whose email is verified.
        <VerifyEmailCard
          title="Verify your email to cash out"
          email={data.email}
          checkAgainTo="/withdraw"
          lastResult={lastResult}
        >
          We only send money from accounts with a verified email address, so that nobody else can cash out your
          earnings.
        </VerifyEmailCard>
      )}
      <CashoutFeed feed={feed} />
    </div>
  );
}

/** The form starts where the last withdrawal went (server-side, so it works without JavaScript). */
function startingValues(
  last: WithdrawData["lastRecipient"],
  giftCards: WithdrawData["giftCards"],
): Partial<Record<keyof WithdrawalFields, string>> {
  // Another country's cards were asked for (a link on the form): the form opens on them.
  if (giftCards?.chosen) return { method: "giftcard" };
  if (!last) return { method: "paypal" };
  // The last card, when it is still offered here; else the form starts at PayPal.
  if (last.method === "giftcard")
    return giftCards?.cards.some((card) => card.id === last.recipient)
      ? { method: "giftcard", giftcardProduct: last.recipient }
      : { method: "paypal" };
  return { method: last.method, [last.method === "paypal" ? "paypalEmail" : "upiId"]: last.recipient };
}

/** `blocked`: the balance is negative (decision 065) or cash-outs are paused (068); the notice above says why, so the form stays visible but cannot be sent. */
function WithdrawForm({
  data,
  lastResult,
  blocked,
}: {
  data: WithdrawData;
  lastResult?: SubmissionResult<string[]>;
  blocked: boolean;
}) {
  const [form, fields] = useFormState({
    id: "withdraw",
    fields: WITHDRAW_FIELDS,
    lastResult: lastResult?.initialValue?.intent === "withdraw" ? lastResult : undefined,
    defaultValue: startingValues(data.lastRecipient, data.giftCards),
  });
  const methods: PaymentMethod[] = [
    ...OFFERED_METHODS,
    ...(data.giftCards ? (["giftcard"] as const) : []),
    ...(data.bankOffered ? (["bank"] as const) : []),
  ];
  // The amount as typed, for its rupees beside it (with JavaScript; without, the rate is shown).
  const [typedAmount, setTypedAmount] = useState(fields.amount.initialValue ?? "");
  return (
    <Card>
      {/* A cash-out may be asked for a code by email: the step's code downloads while this one is sent. */}
      <Form method="post" {...form.props} onSubmitCapture={EmailCodeStep.preload} className="withdraw-form">
        <fieldset
          disabled={blocked}
          aria-describedby={blocked ? "cash-out-notice" : undefined}
          className="min-w-0 space-y-5 disabled:opacity-60"
        >
          <FormBanner id={form.errorId} title={WITHDRAWAL_MESSAGES.failed} errors={form.errors} />
          <Field
            field={fields.amount}
            label="Amount (USD)"
            icon="earn"
            inputProps={{
              placeholder: "0.00",
              inputMode: "decimal",
              autoComplete: "off",
              // Without JavaScript the browser marks a wrong form; with it, nothing else can be typed.
              pattern: AMOUNT_PATTERN,
              title: "Digits, with at most two decimals, such as 12.50",
              onInput: (event: FormEvent<HTMLInputElement>) => {
                const held = holdAmountInput(event.currentTarget.value);
                if (held !== event.currentTarget.value) event.currentTarget.value = held;
                setTypedAmount(held);
              },
            }}
          />
          {data.inrRate ? <RupeesBeside amount={typedAmount} rate={data.inrRate} /> : null}
          <RadioCards
            field={fields.method}
            legend="Payment method"
            options={methods.map((method) => ({
              value: method,
              label: METHOD_LABELS[method],
              detail: `Min. ${formatDollars(data.minimums[method])}${
                method === "upi" && data.inrRate ? ` (${approximateRupees(data.minimums.upi, data.inrRate)})` : ""
              }`,
              icon: METHOD_ICONS[method],
            }))}
          />
          <div data-method="paypal">
            <Field
              field={fields.paypalEmail}
              label="PayPal email"
              type="email"
              icon="mail"
              inputProps={{ placeholder: "you@example.com", autoComplete: "email" }}
            />
          </div>
          <div data-method="upi">
            <Field
              field={fields.upiId}
              label="UPI ID"
              hint={UPI_ID_HINT}
              inputProps={{ placeholder: "name@okhdfcbank", autoComplete: "off", autoCapitalize: "none" }}
            />
          </div>
          {data.giftCards ? (
            <div data-method="giftcard">
              <GiftCardChoice
                field={fields.giftcardProduct}
                giftCards={data.giftCards}
                email={data.email}
                inrRate={data.inrRate}
              />
            </div>
          ) : null}
          <div data-method="bank">
            <TextareaField
              field={fields.bankDetails}
              label="Bank account details"
              hint="Account holder, account number and bank code (IFSC, IBAN or routing number)."
            />
          </div>
          <Banner tone="info">
            {WITHDRAWAL_MESSAGES.processingNotice}
            {data.reviewedFirst ? <span className="block">{WITHDRAWAL_MESSAGES.reviewedFirst}</span> : null}
          </Banner>
          <SubmitButton intent="withdraw" pendingText="Processing..." look={{ block: true }}>
            Withdraw Funds
          </SubmitButton>
        </fieldset>
      </Form>
    </Card>
  );
}

/**
 * With UPI chosen (the form's CSS shows it then): what the amount comes to in rupees, "≈ ₹415.20",
 * and the rate; before an amount is typed (and without JavaScript), the rate alone. The rupees are
 * fixed when the request is sent (create_withdrawal), and the history shows them.
 */
function RupeesBeside({ amount, rate }: { amount: string; rate: number }) {
  // What the field holds is digits with at most two decimals (holdAmountInput), or nothing.
  const dollars = Number(amount) || 0;
  return (
    <p data-method="upi" data-testid="rupees-beside" className="-mt-3 text-sm text-muted">
      {dollars > 0 ? <span className="font-semibold text-ink">{`${approximateRupees(dollars, rate)} `}</span> : null}
      {`Paid in rupees at ${rateLine(rate)}, fixed when you send the request.`}
    </p>
  );
}

/**
 * The gift cards of one country (decision 089), a radio card each with the amounts it takes in its
 * own money, and the other countries one link away (a page of their cards, with or without
 * JavaScript). The card is emailed to the verified address; its value is fixed when the request
 * is sent, and checked then against the card's amounts.
 */
function GiftCardChoice({
  field,
  giftCards,
  email,
  inrRate,
}: {
  field: FieldState;
  giftCards: NonNullable<WithdrawData["giftCards"]>;
  email: string | null;
  inrRate: number | null;
}) {
  const others = giftCards.countries.filter((country) => country !== giftCards.country);
  return (
    <div className="space-y-3">
      {giftCards.cards.length > 0 ? (
        <RadioCards
          field={field}
          legend={`Gift card (${countryName(giftCards.country)})`}
          options={giftCards.cards.map((card) => ({
            value: card.id,
            label: card.name,
            detail: cardAmounts(card),
            icon: "gift" as const,
          }))}
        />
      ) : (
        <div>
          <p className="text-sm text-muted">{`No gift cards for ${countryName(giftCards.country)} right now.`}</p>
          <ErrorList id={field.errorId} errors={field.errors} />
        </div>
      )}
      {others.length > 0 ? (
        <p className="text-sm text-muted">
          {"Cards for another country: "}
          {others.map((country, index) => (
            <span key={country}>
              {index > 0 ? ", " : null}
              <Link
                to={`?country=${country}`}
                preventScrollReset
                className="font-semibold text-brand-700 underline underline-offset-2"
              >
                {countryName(country)}
              </Link>
            </span>
          ))}
        </p>
      ) : null}
      <p className="text-sm text-muted">
        {giftCards.cards.some((card) => card.currency === "INR")
          ? `Enter the amount in dollars: cards sold in rupees are worth ${
              inrRate ? rateLine(inrRate) : "today's rate"
            }, fixed when you send the request. `
          : "Enter the amount in dollars. "}
        {`The card is emailed to ${email ?? "your verified address"}.`}
      </p>
    </div>
  );
}

const APPEAL_FIELDS = ["appealOf", "message"] as const;

/**
 * "Ask for a review" (docs/decisions/090): a message that opens a support conversation about paused
 * cash-outs or a refused withdrawal, followed in Help & Support. A plain form: it works without
 * JavaScript, and a refused post keeps what was typed.
 */
function AppealCard({ of, lastResult }: { of: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useFormState({
    id: "appeal",
    fields: APPEAL_FIELDS,
    lastResult: lastResult?.initialValue?.intent === "appeal" ? lastResult : undefined,
    defaultValue: { appealOf: of },
  });
  return (
    <Card>
      <Form method="post" {...form.props} className="space-y-4">
        <div>
          <h2 className="text-lg font-semibold text-ink">
            {of === APPEAL_OF_PAUSED
              ? "Ask for a review of your paused cash-outs"
              : "Ask for a review of this cash-out"}
          </h2>
          <p className="mt-1 text-sm text-muted">
            A person on our team reads it and answers in Profile, Help &amp; Support, where you can add to it.
          </p>
        </div>
        <FormBanner id={form.errorId} title="Your request was not sent" errors={form.errors} />
        <input type="hidden" name="appealOf" value={of} />
        <TextareaField
          field={fields.message}
          label="What should we know?"
          hint="For example what you did to earn it, or why the signals we found are yours."
        />
        <SubmitButton intent="appeal" pendingText="Sending..." look={{ block: true }}>
          Ask for a review
        </SubmitButton>
      </Form>
    </Card>
  );
}
