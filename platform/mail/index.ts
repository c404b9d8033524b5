/**
 * Mail that leaves the service (docs/decisions/0401): over SMTP with nodemailer when SMTP_URL is
 * set, else written to the log so an install without a mail server can still hand out the link a
 * mail carries. nodemailer is loaded on the first send: a role that never mails never loads it.
 *
 * A send never throws for the mail server's sake: a refusal, a closed port or a server that stops
 * answering is a `{ delivered: false, error }` the caller can act on (offer the link to copy),
 * and every wait on the server is bounded by `timeoutMs`.
 */
import type { Transporter } from 'nodemailer';
import type { Config } from '../config/index.js';
import type { Logger } from '../logger.js';
import { onFirstUse } from '../on-first-use.js';

export interface MailMessage {
  /** One address; a display name or a list is refused (MailAddressError). */
  to: string;
  /** Control characters (line breaks) become spaces: a subject carries names, which may contain anything. */
  subject: string;
  text: string;
  html?: string;
}

export type SendResult =
  /** The mail server accepted the mail. */
  | { delivered: true }
  /** No SMTP_URL: the mail, link included, is in the log (info). */
  | { delivered: false; logged: true }
  /** The mail server refused it, could not be reached, or did not answer in time; `error` says which. */
  | { delivered: false; logged: false; error: string };

export interface Mailer {
  send(message: MailMessage): Promise<SendResult>;
}

/** The recipient is not one plain address (CR/LF, several addresses, a display name): the caller's input was not checked. */
export class MailAddressError extends Error {
  override name = 'MailAddressError';
  readonly code = 'invalid_recipient';
}

/** Each wait on the SMTP server (DNS, connecting, its greeting, any later silence) by default. */
const DEFAULT_TIMEOUT_MS = 10_000;

/** One address, no display name: local part and domain without whitespace, commas, brackets, quotes or a second @. */
const ONE_ADDRESS = /^[^\s@,;:<>()[\]"\\]+@[^\s@,;:<>()[\]"\\]+$/u;
const CONTROL = /[\p{Cc}\u2028\u2029]+/gu;

export function createMailer(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>,
  logger: Logger,
  { timeoutMs = DEFAULT_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Mailer {
  const smtpUrl = config.SMTP_URL;
  const transport = onFirstUse<Transporter>(async () => {
    const { createTransport } = await import('nodemailer');
    return createTransport({
      url: smtpUrl,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      dnsTimeout: timeoutMs,
    });
  });

  return {
    async send(message) {
      const to = recipient(message.to);
      const subject = message.subject.replace(CONTROL, ' ').trim();
      if (!smtpUrl) {
        logger.info({ mail: { to, subject, text: message.text } }, 'mail not sent (no SMTP_URL); here it is');
        return { delivered: false, logged: true };
      }
      try {
        await (await transport()).sendMail({ from: config.MAIL_FROM, to, subject, text: message.text, html: message.html });
        return { delivered: true };
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        logger.warn({ mail: { to, subject }, err: error }, 'mail not sent: the SMTP server refused it or did not answer');
        return { delivered: false, logged: false, error };
      }
    },
  };
}

function recipient(to: string): string {
  if (!ONE_ADDRESS.test(to)) throw new MailAddressError('A mail goes to one plain address (no line breaks, names or lists)');
  return to;
}
