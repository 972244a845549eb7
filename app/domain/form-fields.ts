// Fields the forms share (their pages post plain HTML, with or without JavaScript).
import { optional, pipe, string, transform } from "zod/mini";

/** A text field, trimmed; missing is empty (the form's own checks say what is required). */
export const trimmedText = pipe(
  optional(string()),
  transform((value) => (value ?? "").trim()),
);

/**
 * The operator's password, asked for while the sign-in is older than 15 minutes: checked as typed
 * (spaces are part of it); missing is empty, which the server refuses only when it is asked for.
 */
export const stepUpPassword = pipe(
  optional(string()),
  transform((value) => value ?? ""),
);

/**
 * The step-up's fields (every form that moves money or changes policy or access): the password,
 * and, where the console asks for its authenticator, a code from it (docs/decisions/093).
 */
export const stepUp = { password: stepUpPassword, totpCode: stepUpPassword };
