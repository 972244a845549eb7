import { CONSOLE_CASES } from "../support/bad-input-console";
import { describeBadInput } from "../support/bad-input-run";

// The operator console's share of "bad input, everywhere" (tests/http/bad-input-pages.test.ts says how).
describeBadInput("the operator console", CONSOLE_CASES);
