import { lazyComponent } from "~/lib/lazy-component";

/**
 * The code step (EmailCodeStep), downloaded when it is first shown: every screen shows it only after
 * an action asked for a code, so its code is not part of any page's first download.
 */
export const EmailCodeStep = lazyComponent(() => import("./EmailCodeStep").then((module) => module.EmailCodeStep));
