// The words of the console's authenticator page (docs/decisions/093).
export const TWO_FACTOR_TEXTS = {
  enrolTitle: "Set up your authenticator",
  enrolWhy:
    "The operator console moves people's money. Besides your password, it asks for a code from an authenticator app on your phone (Google Authenticator, 1Password, Authy, Microsoft Authenticator).",
  scan: "Scan this QR code with the app:",
  typeKey: "Or type this key into the app:",
  verifyTitle: "Enter your authenticator code",
  verifyWhy: "Open your authenticator app and type the 6-digit code it shows for Rewards.",
  codeLabel: "6-digit code",
  wrongCode: "That code is not right, or was already used. Type the code the app shows now.",
  recoveryTitle: "Use a recovery code instead",
  recoveryLabel: "Recovery code",
  wrongRecoveryCode: "That is not one of your recovery codes, or it was already used.",
  savedTitle: "Save your recovery codes",
  savedWhy:
    "Each code opens the console once if you lose your phone. Keep them somewhere safe: they are shown only now. An owner can also reset your authenticator.",
} as const;
