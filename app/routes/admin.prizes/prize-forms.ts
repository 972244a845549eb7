// The console's prize decisions (docs/decisions/097), checked by the server: the page posts plain
// HTML, with or without JavaScript.
import { discriminatedUnion, literal, object } from "zod/mini";
import { stepUp, trimmedText as text } from "~/domain/form-fields";

export const prizeActionSchema = discriminatedUnion("intent", [
  object({ intent: literal("pay-prize"), month: text, place: text, reason: text, ...stepUp }),
  object({ intent: literal("refuse-prize"), month: text, place: text, reason: text, ...stepUp }),
]);
