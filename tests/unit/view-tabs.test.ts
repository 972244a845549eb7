import { describe, expect, it } from "vitest";
import { viewTabsOf } from "~/components/operator/ViewTabs";
import { WITHDRAWAL_VIEWS, withdrawalFiltersQuery, type WithdrawalFilters } from "~/domain/operator-withdrawals";
import { TICKET_VIEWS, ticketFiltersQuery, type TicketFilters } from "~/domain/support";

// The console lists' view tabs (app/components/operator/ViewTabs.tsx): each tab is the list with
// that view, the other filters kept, and the view being shown is marked.

describe("the console's view tabs", () => {
  it("withdrawals: each tab keeps the method and age filters, the review queue (the default view) has no view in its link, the current view is marked, and the counts go to their views", () => {
    const filters: WithdrawalFilters = { view: "unpaid", method: "upi", minAgeHours: 24 };
    const tabs = viewTabsOf(
      WITHDRAWAL_VIEWS,
      filters.view,
      "/admin/withdrawals",
      (view) => withdrawalFiltersQuery({ ...filters, view }),
      { review: 3, unpaid: 1 },
    );
    expect(tabs.map((tab) => [tab.label, tab.to, tab.current, tab.badge])).toEqual([
      ["In review", "/admin/withdrawals?method=upi&age=24", false, 3],
      ["Approved, unpaid", "/admin/withdrawals?view=unpaid&method=upi&age=24", true, 1],
      ["Sent, not settled", "/admin/withdrawals?view=sent&method=upi&age=24", false, undefined],
      ["Paid", "/admin/withdrawals?view=paid&method=upi&age=24", false, undefined],
      ["Failed or refused", "/admin/withdrawals?view=failed&method=upi&age=24", false, undefined],
      ["All", "/admin/withdrawals?view=all&method=upi&age=24", false, undefined],
    ]);
  });

  it("tickets: with no other filter the open list's link is the bare path; the kind and mine filters are kept on every tab", () => {
    const bare = viewTabsOf(TICKET_VIEWS, "open", "/admin/support", (view) =>
      ticketFiltersQuery({ view, kind: null, mine: false }),
    );
    expect(bare.map((tab) => [tab.to, tab.current])).toEqual([
      ["/admin/support", true],
      ["/admin/support?view=waiting", false],
      ["/admin/support?view=resolved", false],
      ["/admin/support?view=all", false],
    ]);
    const filters: TicketFilters = { view: "all", kind: "missing_credit", mine: true };
    const kept = viewTabsOf(TICKET_VIEWS, filters.view, "/admin/support", (view) =>
      ticketFiltersQuery({ ...filters, view }),
    );
    expect(kept.map((tab) => tab.to)).toEqual([
      "/admin/support?kind=missing_credit&mine=1",
      "/admin/support?view=waiting&kind=missing_credit&mine=1",
      "/admin/support?view=resolved&kind=missing_credit&mine=1",
      "/admin/support?view=all&kind=missing_credit&mine=1",
    ]);
    expect(kept.filter((tab) => tab.current).map((tab) => tab.label)).toEqual(["All"]);
  });
});
