import { REFERRAL_MESSAGES, shareText } from "~/domain/referrals";
import { showToast } from "./toasts";

async function copy(text: string, success: string) {
  try {
    await navigator.clipboard.writeText(text);
    showToast({ kind: "success", title: success });
  } catch {
    showToast({ kind: "error", title: REFERRAL_MESSAGES.copyFailed });
  }
}

/** docs/product.md, "Refer: messages": the copy button's toasts. */
export function copyReferralCode(code: string | null) {
  if (!code) return showToast({ kind: "error", title: REFERRAL_MESSAGES.noCode });
  return copy(code, REFERRAL_MESSAGES.copied);
}

/**
 * docs/product.md, "Refer: messages": "Share with Friends" opens the device's share sheet (Web Share API); a device without
 * one gets the text copied instead. Cancelling the sheet is the person's choice: no toast.
 */
export async function shareReferral(code: string | null, link: string | null) {
  if (!code || !link) return showToast({ kind: "error", title: REFERRAL_MESSAGES.noCode });
  const text = shareText(code, link);
  if (typeof navigator.share !== "function") return copy(text, REFERRAL_MESSAGES.copiedForManualShare);
  try {
    await navigator.share({ title: "Join me on Rewards", text, url: link });
    showToast({ kind: "success", title: REFERRAL_MESSAGES.shared });
  } catch (error) {
    if ((error as { name?: string }).name === "AbortError") return;
    showToast({ kind: "error", title: REFERRAL_MESSAGES.shareFailed });
  }
}
