// The console's promo code forms (docs/decisions/095), checked by the server: the page posts plain
// HTML, with or without JavaScript.
import { discriminatedUnion, literal, object } from "zod/mini";
import { stepUp, trimmedText as text } from "~/domain/form-fields";

export const codesActionSchema = discriminatedUnion("intent", [
  object({
    intent: literal("create-code"),
    code: text,
    coins: text,
    uses: text,
    starts: text,
    ends: text,
    // A checkbox: "on" when ticked, nothing when not.
    newAccountsOnly: text,
    countries: text,
    reason: text,
    ...stepUp,
  }),
  object({ intent: literal("disable-code"), codeId: text, reason: text, ...stepUp }),
]);
