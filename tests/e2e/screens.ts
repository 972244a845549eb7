// Every screen of the app, for the suites that must visit them all (tests/e2e/accessibility.spec.ts).
// The list is checked against app/routes: each route module is either drawn by at least one screen
// here or named in NOT_SCREENS with the reason, so a new page fails that check until it is added.

/**
 * Who looks at the screen: a first visit, a visitor who has seen the onboarding, an account (with a
 * verified email or not), or an owner of the operator console.
 */
export type Viewer = "first-visit" | "visitor" | "member" | "verified-member" | "operator";

export interface Screen {
  /** The route module that draws it, relative to app/routes ("withdraw/route.tsx", "offline.ts"). */
  route: string;
  name: string;
  path: string;
  viewer: Viewer;
  /** Reached by a form another site posts (the app's 403 page), rather than by opening `path`. */
  crossSitePost?: boolean;
}

export const SCREENS: readonly Screen[] = [
  { route: "_index/route.tsx", name: "onboarding, first slide", path: "/", viewer: "first-visit" },
  { route: "_index/route.tsx", name: "onboarding, last slide", path: "/?slide=2", viewer: "first-visit" },
  { route: "_index/route.tsx", name: "Home", path: "/", viewer: "member" },
  { route: "auth/route.tsx", name: "Sign In", path: "/auth", viewer: "visitor" },
  { route: "auth/route.tsx", name: "Sign Up", path: "/auth?tab=signup", viewer: "visitor" },
  { route: "auth/route.tsx", name: "Sign Up from a share link", path: "/auth?ref=ABCD2345", viewer: "visitor" },
  { route: "join.$code/route.tsx", name: "An invitation link, not valid", path: "/join/ABCD234", viewer: "visitor" },
  { route: "earn/route.tsx", name: "Earn Rewards", path: "/earn", viewer: "member" },
  {
    route: "earn_.walls.$network/route.tsx",
    name: "Offer wall (BitLabs)",
    path: "/earn/walls/bitlabs",
    viewer: "member",
  },
  { route: "earn_.offers/route.tsx", name: "My offers", path: "/earn/offers", viewer: "member" },
  {
    route: "earn_.offers/route.tsx",
    name: "My offers, reporting a missing BitLabs credit",
    path: "/earn/offers?report=bitlabs",
    viewer: "member",
  },
  {
    // It only redirects to a listed offer's network (BitLabs lists none), so what it draws is its 404.
    route: "earn_.walls.$network_.offers.$offerId/route.tsx",
    name: "Offer wall offer, not listed (404)",
    path: "/earn/walls/bitlabs/offers/none",
    viewer: "member",
  },
  {
    route: "earn/route.tsx",
    name: "Earn Rewards, filtered with no match",
    path: "/earn?q=zzzz&type=survey",
    viewer: "member",
  },
  { route: "earn/route.tsx", name: "the task dialog", path: "/earn?task=task-001", viewer: "member" },
  { route: "leaderboard/route.tsx", name: "Leaderboard", path: "/leaderboard", viewer: "member" },
  { route: "notices/route.tsx", name: "Notices", path: "/notices", viewer: "member" },
  { route: "levels/route.tsx", name: "Levels", path: "/levels", viewer: "member" },
  { route: "withdraw/route.tsx", name: "Withdraw, email not verified", path: "/withdraw", viewer: "member" },
  { route: "withdraw/route.tsx", name: "Withdraw", path: "/withdraw", viewer: "verified-member" },
  {
    route: "withdraw/route.tsx",
    name: "Withdraw, bank transfer offered",
    path: "/withdraw?method=bank",
    viewer: "verified-member",
  },
  {
    route: "withdraw/route.tsx",
    name: "the withdrawal history sheet",
    path: "/withdraw?history=1",
    viewer: "verified-member",
  },
  { route: "referral/route.tsx", name: "Refer & Earn", path: "/referral", viewer: "member" },
  { route: "profile/route.tsx", name: "Profile, My Account", path: "/profile", viewer: "member" },
  {
    route: "profile/route.tsx",
    name: "Profile, editing the display name",
    path: "/profile?tab=account&edit=1",
    viewer: "member",
  },
  {
    route: "profile/route.tsx",
    name: "Profile, confirming deactivation",
    path: "/profile?tab=account&confirm=deactivate",
    viewer: "member",
  },
  { route: "profile/route.tsx", name: "Profile, Referrals", path: "/profile?tab=referrals", viewer: "member" },
  { route: "profile/route.tsx", name: "Profile, Help & Support", path: "/profile?tab=help", viewer: "member" },
  { route: "settings/route.tsx", name: "Settings", path: "/settings", viewer: "member" },
  {
    route: "settings/route.tsx",
    name: "Settings, confirming deactivation",
    path: "/settings?confirm=deactivate",
    viewer: "member",
  },
  { route: "legal/route.tsx", name: "Terms", path: "/legal", viewer: "visitor" },
  { route: "legal/route.tsx", name: "Privacy", path: "/legal?tab=privacy", viewer: "visitor" },
  { route: "$/route.tsx", name: "the 404 page", path: "/no/such/page", viewer: "visitor" },
  {
    route: "logout/route.tsx",
    name: "the 403 page (a log out posted from another site)",
    path: "/logout",
    viewer: "member",
    crossSitePost: true,
  },
  { route: "offline.ts", name: "the offline page", path: "/offline", viewer: "visitor" },
  // The email's link that ends every session (docs/decisions/092), opened with a link it did not make.
  { route: "end-sessions/route.tsx", name: "End every session", path: "/end-sessions?link=1.x", viewer: "visitor" },
  // The operator console (docs/operator-console.md): its frame and pages as an owner sees them, and
  // the 404 page it answers a member.
  { route: "admin._index/route.tsx", name: "Operator console, dashboard", path: "/admin", viewer: "operator" },
  // Its authenticator's set-up (docs/decisions/093), as an operator who has none sees it.
  {
    route: "admin_.2fa/route.tsx",
    name: "Operator console, setting up the authenticator",
    path: "/admin/2fa",
    viewer: "operator",
  },
  { route: "admin.audit/route.tsx", name: "Operator console, audit log", path: "/admin/audit", viewer: "operator" },
  {
    route: "admin.settings/route.tsx",
    name: "Operator console, settings",
    path: "/admin/settings",
    viewer: "operator",
  },
  {
    route: "admin.people/route.tsx",
    name: "Operator console, people found by a search",
    path: `/admin/people?q=${encodeURIComponent(process.env.E2E_OPERATOR_EMAIL ?? "")}`,
    viewer: "operator",
  },
  {
    route: "admin.people_.$userId/route.tsx",
    name: "Operator console, a person's page",
    path: `/admin/people/${process.env.E2E_PERSON_ID ?? "unknown"}`,
    viewer: "operator",
  },
  {
    route: "admin.withdrawals/route.tsx",
    name: "Operator console, the review queue",
    path: "/admin/withdrawals",
    viewer: "operator",
  },
  {
    route: "admin.withdrawals_.$withdrawalId/route.tsx",
    name: "Operator console, a withdrawal in review",
    path: `/admin/withdrawals/${process.env.E2E_REVIEW_WITHDRAWAL_ID ?? "unknown"}`,
    viewer: "operator",
  },
  {
    route: "admin.support/route.tsx",
    name: "Operator console, the support inbox",
    path: "/admin/support",
    viewer: "operator",
  },
  {
    route: "admin.support_.$kind.$ticketId/route.tsx",
    name: "Operator console, a feedback ticket",
    path: `/admin/support/feedback/${process.env.E2E_TICKET_ID ?? "0"}`,
    viewer: "operator",
  },
  // BitLabs is turned on by the browser suites' environment (scripts/test.mjs).
  { route: "admin.walls/route.tsx", name: "Operator console, walls", path: "/admin/walls", viewer: "operator" },
  { route: "admin.codes/route.tsx", name: "Operator console, promo codes", path: "/admin/codes", viewer: "operator" },
  { route: "admin.prizes/route.tsx", name: "Operator console, prizes", path: "/admin/prizes", viewer: "operator" },
  {
    route: "admin.walls_.$network/route.tsx",
    name: "Operator console, a wall's page (BitLabs)",
    path: "/admin/walls/bitlabs",
    viewer: "operator",
  },
  { route: "admin/route.tsx", name: "Operator console to a member: the 404 page", path: "/admin", viewer: "member" },
];

/** Route modules that draw no screen of their own, and why. */
export const NOT_SCREENS: Readonly<Record<string, string>> = {
  "admin.withdrawals[.csv].ts": "the CSV file of unpaid UPI and bank withdrawals",
  "api.$provider.complete.ts": "JSON API for the offer provider's client",
  "api.$provider.offers.ts": "JSON API for the offer provider's client",
  "api.$provider.postback.ts": "plain-text answers to the offer provider's server",
  "api.events.ts": "the live-refresh event stream",
  "api.paypal.webhook.ts": "PayPal's webhook",
  "api.razorpayx.webhook.ts": "RazorpayX's webhook",
  "api.tremendous.webhook.ts": "Tremendous's webhook",
  "api.push-tokens.ts": "JSON API for web push tokens",
  "api.referral-codes.$code.ts": "JSON API checking a referral code",
  "healthz.ts": "plain-text health check",
  "offer-images.$id.ts": "an offer wall's image, served through the app",
  "service-worker[.]js.ts": "the service worker's script",
};
