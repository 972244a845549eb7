// Refer & Earn (docs/product.md, "Refer", "Refer: the rules" and "Refer: messages"): names and the share texts. Pure and client-safe.

export const REFERRAL_MESSAGES = {
  // docs/product.md, "Refer" and "Refer: messages", word for word.
  banner: "Share your code and earn $5 for each friend who joins",
  loading: "Loading referrals...",
  empty: "No referrals yet. Start sharing your code!",
  loadFailed: "Could not load referrals, please try again later",
  copied: "Referral code copied to clipboard!",
  copyFailed: "Failed to copy referral code",
  shared: "Thanks for sharing!",
  copiedForManualShare: "Referral code copied! You can now share it manually",
  shareFailed: "Failed to share referral code",
  noCode: "No referral code available to share",
} as const;

/** docs/product.md, "Refer: the rules": display name, else username, else "Unknown User". */
export function referralName(row: { display_name: string | null; username: string | null }): string {
  return row.display_name?.trim() || row.username?.trim() || "Unknown User";
}

/** "Joined today", "Joined 1 day ago", "Joined 12 days ago". */
export function joinedLabel(days: number): string {
  if (days <= 0) return "Joined today";
  return `Joined ${days} ${days === 1 ? "day" : "days"} ago`;
}

export function shareText(code: string, link: string): string {
  return `Join me on Rewards and earn coins for surveys, videos and games. Use my referral code ${code}: ${link}`;
}

/**
 * Plain links that share the code without any script (docs/product.md, "Refer"): an email, a
 * WhatsApp message and a text message, each holding shareText.
 */
export function shareLinks(code: string, link: string): { label: string; href: string }[] {
  const text = encodeURIComponent(shareText(code, link));
  return [
    { label: "Email", href: `mailto:?subject=${encodeURIComponent("Join me on Rewards")}&body=${text}` },
    { label: "WhatsApp", href: `https://wa.me/?text=${text}` },
    // "?&body=" is read by both Android and iOS messaging apps.
    { label: "SMS", href: `sms:?&body=${text}` },
  ];
}
