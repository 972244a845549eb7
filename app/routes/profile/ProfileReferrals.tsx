import { Link } from "@remix-run/react";
import { useHydrated } from "~/lib/use-hydrated";
import { ReferralCodeBox } from "~/components/ReferralCodeBox";
import { buttonClass } from "~/components/shared";

/** Profile's Referrals tab (docs/product.md, "Profile: referrals tab"): the code with Copy and Share, and the way to Refer & Earn. */
export function ProfileReferrals({ code, shareUrl }: { code: string | null; shareUrl: string | null }) {
  const hydrated = useHydrated();
  return (
    <section className="rounded-3xl bg-gradient-to-br from-brand-600 to-brand-800 p-5 text-white shadow-xl shadow-brand-700/25">
      <ReferralCodeBox code={code} shareUrl={shareUrl} disabled={!hydrated || !code} />
      <div className="mt-4">
        <Link to="/referral" className={buttonClass({ tone: "light", block: true })}>
          Go to Referral Program
        </Link>
      </div>
    </section>
  );
}
