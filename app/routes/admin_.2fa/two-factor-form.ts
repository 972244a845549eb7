// The authenticator page's forms (docs/decisions/093): a code from the app, or a recovery code.
import { discriminatedUnion, literal, object, optional, string } from "zod/mini";

export const twoFactorFormSchema = discriminatedUnion("intent", [
  object({ intent: literal("totp-code"), code: optional(string()) }),
  object({ intent: literal("totp-recovery"), recoveryCode: optional(string()) }),
]);
