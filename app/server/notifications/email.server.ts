import type { TimeZone } from "~/domain/dates";
import type { Transporter } from "nodemailer";
import { noticeLinkPath, noticeMessage, type UserNotice } from "~/domain/notices";
import type { Env } from "../runtime/env.server";

/** Email through any SMTP server (SMTP_URL: smtp://user:pass@host:587, or smtps:// for TLS from the start). */
export type EmailConfig = NonNullable<Env["notifications"]["email"]>;

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

export type EmailResult =
  | { outcome: "sent"; messageId: string }
  /** `retry: false` when the server refused the recipient for good (a 5xx to RCPT TO). */
  | { outcome: "failed"; detail: string; retry: boolean };

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/**
 * The email for a notice: its words (app/domain/notices.ts), a greeting, a link and why it was sent.
 * The greeting names no one: a display name is whatever the account's maker typed, and the account
 * may have been made with someone else's address.
 */
export function emailForNotice(
  notice: Pick<UserNotice, "kind" | "data">,
  publicUrl: string | null,
  zone: TimeZone = null,
): EmailContent {
  const { title, description = "" } = noticeMessage(notice, new Date(), zone);
  const greeting = "Hi there,";
  const link = publicUrl ? new URL(noticeLinkPath(notice), publicUrl).toString() : null;
  const settings = publicUrl ? new URL("/profile", publicUrl).toString() : null;
  const why = "You get this email because email notifications are on for your Rewards account.";
  const turnOff = "You can turn them off under Notification Settings on your Profile page";
  const text = [
    greeting,
    "",
    description,
    ...(link ? ["", `Open Rewards: ${link}`] : []),
    "",
    "--",
    why,
    `${turnOff}${settings ? `: ${settings}` : "."}`,
    "",
  ].join("\n");
  const paragraph = (content: string, style = "") => `<p${style ? ` style="${style}"` : ""}>${content}</p>`;
  const small = "color:#6b7280;font-size:12px";
  const html = [
    "<!doctype html>",
    '<html><body style="font-family:system-ui,-apple-system,sans-serif;line-height:1.5;color:#111827">',
    `<h1 style="font-size:20px">${escapeHtml(title)}</h1>`,
    paragraph(escapeHtml(greeting)),
    // A reply keeps its line breaks.
    paragraph(escapeHtml(description).replaceAll("\n", "<br>")),
    ...(link ? [paragraph(`<a href="${escapeHtml(link)}">Open Rewards</a>`)] : []),
    "<hr>",
    paragraph(escapeHtml(why), small),
    paragraph(
      settings ? `${escapeHtml(turnOff)}: <a href="${escapeHtml(settings)}">Profile</a>.` : `${escapeHtml(turnOff)}.`,
      small,
    ),
    "</body></html>",
  ].join("\n");
  return { subject: title, text, html };
}

/**
 * One connection per email: a mail server that was down is simply reached again on the next try.
 * nodemailer is loaded with the first email, not with the server (0.1 s of every start).
 */
export function createMailer(config: EmailConfig) {
  let transport: Promise<Transporter> | undefined;
  const transportOf = () =>
    (transport ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport(
        {
          url: config.smtpUrl,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        },
        { from: config.from },
      ),
    ));
  return {
    /** Sends one email. Never throws: every failure is an outcome. */
    async send(to: string, content: EmailContent): Promise<EmailResult> {
      try {
        const info = await (await transportOf()).sendMail({ to, ...content });
        return { outcome: "sent", messageId: String(info.messageId ?? "") };
      } catch (error) {
        const { code, permanent, message } = error as { code?: string; permanent?: boolean; message?: string };
        return {
          outcome: "failed",
          detail: `SMTP: ${message ?? String(error)}`,
          // A recipient refused for good stays refused; anything else (down, busy, login) may pass later.
          retry: !(code === "EENVELOPE" && permanent === true),
        };
      }
    },
    close: async () => (await transport)?.close(),
  };
}
