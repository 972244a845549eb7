import { Link } from "@remix-run/react";
import { Banner } from "~/components/ui/Banner";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/Card";
import { Icon } from "~/components/ui/Icon";
import { NumberedSteps } from "~/components/ui/NumberedSteps";
import { ScreenHero } from "~/components/ui/ScreenHero";

/** /join/CODE (docs/decisions/096): the invitation, what it pays and how, and Create account. */
export function JoinScreen({
  valid,
  signedIn,
  landing,
  firstOffer,
  coinRate,
  signUpHref,
}: {
  valid: boolean;
  signedIn: boolean;
  landing: { promise: string; steps: string[]; note: string };
  firstOffer: string | null;
  coinRate: string;
  signUpHref: string;
}) {
  return (
    <div className="flex min-h-[calc(100dvh-3.5rem)] flex-col justify-center gap-5 py-6">
      <ScreenHero icon="gift" eyebrow="Rewards" title={valid ? "You're invited" : "This invitation link is not valid"}>
        Earn coins for surveys, apps and games, and cash out with PayPal or UPI. {coinRate}.
      </ScreenHero>
      {signedIn ? (
        <Banner tone="info" title="You are signed in">
          An invitation is for new accounts. Your own invitation link is on Refer.
        </Banner>
      ) : null}
      {valid ? (
        <Card>
          <p className="font-semibold" data-testid="invitation-promise">
            {landing.promise}
          </p>
          <NumberedSteps steps={landing.steps} className="mt-4" />
          <p className="mt-4 rounded-xl bg-gray-50 p-3 text-xs leading-relaxed text-muted">{landing.note}</p>
        </Card>
      ) : (
        <Banner tone="warning">The code in this link belongs to no account. You can still create an account.</Banner>
      )}
      {firstOffer ? (
        <p className="flex items-center justify-center gap-2 rounded-xl bg-emerald-50 px-4 py-2.5 text-center text-sm font-semibold text-emerald-800">
          <Icon name="coins" className="size-4 shrink-0" />
          {firstOffer}
        </p>
      ) : null}
      {signedIn ? (
        <Link to="/" className={buttonClass({ block: true })}>
          Go to Home
        </Link>
      ) : (
        <div className="space-y-3">
          <Link to={signUpHref} className={buttonClass({ block: true })}>
            Create account
          </Link>
          <p className="text-center text-sm text-muted">
            Already have an account?{" "}
            <Link to="/auth" className="font-semibold text-brand-700 hover:underline">
              Sign in
            </Link>
          </p>
        </div>
      )}
    </div>
  );
}
