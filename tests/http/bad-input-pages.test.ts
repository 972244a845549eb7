import { API_CASES } from "../support/bad-input-api";
import { CONSOLE_CASES, CONSOLE_SCHEMA_CASES } from "../support/bad-input-console";
import { PAGE_CASES, PAGE_SCHEMA_CASES } from "../support/bad-input-pages";
import { describeBadInput, describeCaseCoverage } from "../support/bad-input-run";

// Issue 10, "Bad input, everywhere": malformed requests to every route module that has an action
// and to every resource route, generated from tables (route → forms and intents → fields → bad
// values), in three files so that they run side by side: the pages people use (here), the operator
// console and the APIs. Each answer is checked for its status (never a 5xx), the route's message for
// that field or form (on a page: in the text a person sees, not only in the page's data) and that no
// markup comes back unescaped. The ledger audit, and everything else bad input must not touch, is
// taken before and after each route's cases and must not change. A swept value (a number, unicode,
// markup) that a page's schema refuses is checked against that schema in
// tests/unit/form-schemas.test.ts; over HTTP go, for each field, the values that show the route says
// what its schema says, and every value the schema lets through (tests/support/bad-input.ts,
// `splitBySchema`).

// A route added to the app without cases fails here, whichever group it would belong to.
describeCaseCoverage([...PAGE_CASES, ...CONSOLE_CASES, ...API_CASES], [...PAGE_SCHEMA_CASES, ...CONSOLE_SCHEMA_CASES]);
describeBadInput("the pages", PAGE_CASES);
