import type { SubmissionResult } from "@conform-to/react";
import type { FeedbackEntry } from "~/domain/support";
import { Form, Link } from "@remix-run/react";
import type { NotificationPreferences } from "~/domain/notifications";
import type { GoogleSignInConfig } from "~/lib/google-sign-in.client";
import { lazyComponent } from "~/lib/lazy-component";
import type { PushConfig } from "~/lib/push.client";
import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/Icon";
import { LinkTabs } from "~/components/ui/LinkTabs";
import { PageHeader } from "~/components/ui/PageHeader";
import { AccountManagement } from "~/components/account/AccountManagement";
import { NotificationSettings } from "~/components/account/NotificationSettings";
import { PersonalInformation } from "./PersonalInformation";
import type { ActivityItem } from "~/domain/activity";
import type { FaqEntry } from "~/content/faq";
import type { DeletionFacts } from "~/domain/account-deletion";
import { RecentActivity } from "./RecentActivity";

export type ProfileTab = "account" | "referrals" | "help";

export interface ProfileData {
  tab: ProfileTab;
  editing: boolean;
  confirmingDeactivation: boolean;
  profile: { displayName: string; email: string | null; referralCode: string | null; shareUrl: string | null };
  activity: ActivityItem[] | null;
  preferences: NotificationPreferences | null;
  signInMethods: { password: boolean; google: boolean } | null;
  /** The balance below zero, owed: deletion waits until it is paid back. */
  deletion: DeletionFacts;
  /** A code by email confirms the deletion (docs/decisions/092): where it went, and the amount given up. */
  deletionCode: { sentTo: string; giveUp: string } | null;
  feedback: FeedbackEntry[] | null;
  faq: FaqEntry[];
  pushConfig: PushConfig | null;
  googleConfig: GoogleSignInConfig;
}

// The other two tabs: their code comes when one is first opened.
const HelpAndSupport = lazyComponent(() => import("./HelpAndSupport").then((module) => module.HelpAndSupport));
const ProfileReferrals = lazyComponent(() => import("./ProfileReferrals").then((module) => module.ProfileReferrals));

const TABS: { id: ProfileTab; label: string }[] = [
  { id: "account", label: "My Account" },
  { id: "referrals", label: "Referrals" },
  { id: "help", label: "Help & Support" },
];

/** The header of the Profile screen (docs/product.md, "Profile"), also above its load failure. */
export function ProfileHeader({ name }: { name: string }) {
  return (
    <PageHeader
      title={`${name}'s Profile`}
      wrap
      action={
        <Link
          to="/settings"
          aria-label="Settings"
          className="inline-flex size-11 shrink-0 items-center justify-center rounded-full text-ink hover:bg-black/5 active:bg-black/10"
        >
          <Icon name="settings" className="size-5" />
        </Link>
      }
    />
  );
}

/** docs/product.md, "Profile": My Account, Referrals and Help & Support (`?tab=`). */
export function ProfileScreen({ data, lastResult }: { data: ProfileData; lastResult?: SubmissionResult<string[]> }) {
  return (
    <div className="space-y-4">
      <ProfileHeader name={data.profile.displayName} />
      <LinkTabs
        label="Profile sections"
        items={TABS.map((tab) => ({ ...tab, to: tab.id === "account" ? "/profile" : `/profile?tab=${tab.id}` }))}
        current={data.tab}
      />
      {data.tab === "account" ? (
        <>
          <PersonalInformation
            displayName={data.profile.displayName}
            email={data.profile.email}
            editing={data.editing}
            lastResult={lastResult}
          />
          <Form method="post" action="/logout">
            <button className={buttonClass({ tone: "secondary", block: true })}>
              <Icon name="logout" className="size-5" />
              Log out
            </button>
          </Form>
          <RecentActivity items={data.activity} />
          <NotificationSettings preferences={data.preferences} pushConfig={data.pushConfig} lastResult={lastResult} />
          <AccountManagement
            confirmingDeactivation={data.confirmingDeactivation}
            signInMethods={data.signInMethods}
            googleConfig={data.googleConfig}
            lastResult={lastResult}
            deletion={data.deletion}
            deletionCode={data.deletionCode}
          />
        </>
      ) : data.tab === "referrals" ? (
        <ProfileReferrals code={data.profile.referralCode} shareUrl={data.profile.shareUrl} />
      ) : (
        <HelpAndSupport
          feedback={data.feedback}
          faq={data.faq}
          name={data.profile.displayName}
          email={data.profile.email}
          lastResult={lastResult}
        />
      )}
    </div>
  );
}
