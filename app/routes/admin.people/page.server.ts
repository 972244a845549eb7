import { requireOperator } from "~/server/operator/access.server";
import { findPeople, MAX_SEARCH_LENGTH } from "~/server/operator/people.server";

/**
 * The people search (docs/operator-console.md, "People"): `?q=` names an account by its id, email,
 * canonical email, referral code, wall id or a payout address. Every role may search.
 */
export async function loadPeopleSearch(request: Request) {
  const operator = await requireOperator(request, "support");
  const term = (new URL(request.url).searchParams.get("q") ?? "").trim();
  if (term === "") return { term, people: null, problem: null };
  if (term.length > MAX_SEARCH_LENGTH) {
    return {
      term: term.slice(0, MAX_SEARCH_LENGTH),
      people: null,
      problem: `Search for at most ${MAX_SEARCH_LENGTH} characters.`,
    };
  }
  return { term, people: await findPeople(operator.uid, term), problem: null };
}
