// Codes by email (docs/decisions/092): what a code is for, its length and life, and the words the
// code steps use. Client-safe: the sign-in, Withdraw and Settings screens read them.

export const EMAIL_CODE_LENGTH = 6;
export const EMAIL_CODE_MINUTES = 10;
/** A code as typed, once spaces and dashes are taken out. */
export const EMAIL_CODE_PATTERN = new RegExp(`^[0-9]{${EMAIL_CODE_LENGTH}}$`);

export type EmailCodePurpose = "signin" | "withdrawal" | "delete_account" | "signin_code_off";

/** The code field's name in every form that takes one. */
export const EMAIL_CODE_FIELD = "emailCode";

export const EMAIL_CODE_TEXTS = {
  title: "Check your email",
  sent: (to: string) =>
    `We sent a ${EMAIL_CODE_LENGTH}-digit code to ${to}. It works for ${EMAIL_CODE_MINUTES} minutes.`,
  label: "Code from the email",
  verify: "Verify",
  verifying: "Checking…",
  resend: "Send a new code",
  resending: "Sending…",
  resent: "A new code is on its way. Only the newest code works.",
  lostEmail: "Can't get the code?",
  lostEmailHelp:
    "Look in your spam folder, or send a new code. If you can no longer open this mailbox, write to us: we will check it is your account and answer at the address you give.",
  lockedWhy: "Too many wrong codes were typed. Send yourself a new code to go on.",
  signInWhy: "You are signing in on a device this account has not used. The code shows it is really you.",
  withdrawalWhy: {
    new_address: "This payout address is new for your account. Confirm it with the code we emailed you.",
    new_device:
      "You are cashing out from a device we have not seen confirm a code. Confirm it's you with the code we emailed you.",
    code_age: "It has been a while since you last confirmed a code. Confirm it's you with the code we emailed you.",
    again: "Type the code we emailed you to confirm this cash-out.",
  },
} as const;

/** The page of the email's link that ends every session (routes/end-sessions). */
export const END_SESSIONS_TEXTS = {
  ask: "Someone asked for a code for your account. If it was not you, end every session now: whoever is signed in is signed out, and the code they are waiting for stops working.",
  ended: "Every session of your account has ended",
  endedDetail:
    "Everyone signed in to your account, you too, is signed out, and the code that was asked for no longer works. Someone knows your password: choose a new one now.",
  invalid: "This link is not valid, or is older than 7 days. Sign in and use Settings to sign out of every device.",
} as const;
