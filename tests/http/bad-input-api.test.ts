import { API_CASES } from "../support/bad-input-api";
import { describeBadInput } from "../support/bad-input-run";

// The APIs' and resource routes' share of "bad input, everywhere" (tests/http/bad-input-pages.test.ts says how).
describeBadInput("the APIs and resource routes", API_CASES);
