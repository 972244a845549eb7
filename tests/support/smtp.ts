import { simpleParser, type ParsedMail } from "mailparser";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { listenOnLoopback } from "./stand-in";

/**
 * A local SMTP server (smtp-server) that asks for a login, parses every message it accepts
 * (mailparser) and records it. It can go down and come back on the same port, and refuse chosen
 * recipients for good (550).
 */
export interface ReceivedEmail {
  /** The SMTP envelope: who the client said it was from and to. */
  envelope: { from: string | null; to: string[] };
  parsed: ParsedMail;
}

export async function startSmtpStandIn({ user = "mailer", password = "mail-pass" } = {}) {
  const received: ReceivedEmail[] = [];
  const refusedRecipients = new Set<string>();

  function create() {
    const server = new SMTPServer({
      // Plain SMTP on loopback: no STARTTLS (the built-in certificate is self-signed), login required.
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      authOptional: false,
      logger: false,
      closeTimeout: 1_000,
      onAuth(auth, _session, callback) {
        if (auth.username === user && auth.password === password) return callback(null, { user });
        return callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
      },
      onRcptTo(address, _session, callback) {
        if (refusedRecipients.has(address.address.toLowerCase())) {
          return callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
        }
        return callback();
      },
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((parsed) => {
            received.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
                to: session.envelope.rcptTo.map((recipient) => recipient.address),
              },
              parsed,
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    // Errors after it listens (a client that goes away) are the client's business.
    server.on("error", () => {});
    return server;
  }

  const { port, start, stop } = await listenOnLoopback(create, {
    address: (server) => server.server.address() as AddressInfo,
  });

  return {
    url: `smtp://${user}:${password}@127.0.0.1:${port}`,
    /** Every message accepted, in order. */
    received,
    /** The messages whose envelope was addressed to `address`. */
    mailTo: (address: string) =>
      received.filter((mail) => mail.envelope.to.some((to) => to.toLowerCase() === address.toLowerCase())),
    refuseRecipient: (address: string) => void refusedRecipients.add(address.toLowerCase()),
    /** Stops listening: connections are refused until `start`. */
    stop,
    /** Listens again on the same port. */
    start,
    close: stop,
  };
}

export type SmtpStandIn = Awaited<ReturnType<typeof startSmtpStandIn>>;
