/**
 * The mail port: how the server sends a message (a password reset link, …).
 *
 * - `SMTP_URL` set (`smtp://user:pass@host:587`, `smtps://user:pass@host:465`): through nodemailer's SMTP transport.
 * - Not set: to the outbox, `DATA_DIR/outbox/`, one RFC 822 `.eml` file per message (nodemailer composes it just as
 *   it would for SMTP), and the server log names the file and the link it carries. `npm run admin -- outbox` lists
 *   them (server/mail/outbox.ts). A school can run Lectern without a mail server and still reset a password.
 *
 * `MAIL_FROM` is the sender, by default "Lectern <no-reply@localhost>". Both are validated with zod at start.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { z } from 'zod';
import { PRODUCT_NAME } from '../../src/domain/constants';

/** The sender when MAIL_FROM is not set. */
export const DEFAULT_MAIL_FROM = `${PRODUCT_NAME} <no-reply@localhost>`;
/** The outbox's folder in DATA_DIR. */
export const OUTBOX_DIR = 'outbox';
/** The header that names a message's link in an outbox file, for `npm run admin -- outbox`. */
export const LINK_HEADER = 'X-Lectern-Link';

const MailEnvSchema = z.object({
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: 'SMTP_URL must be an smtp:// or smtps:// address, e.g. smtps://user:pass@mail.example.org:465' })
    .optional(),
  MAIL_FROM: z.string().trim().min(3, { error: 'MAIL_FROM must be an address, e.g. "Lectern <no-reply@school.example>"' }).default(DEFAULT_MAIL_FROM),
});

export interface MailSettings {
  smtpUrl?: string;
  from: string;
}

/** SMTP_URL and MAIL_FROM from the environment; throws "Invalid environment: …" on a bad value. */
export function mailSettings(env: NodeJS.ProcessEnv = process.env): MailSettings {
  const parsed = MailEnvSchema.safeParse({ SMTP_URL: env.SMTP_URL || undefined, MAIL_FROM: env.MAIL_FROM || undefined });
  if (!parsed.success) throw new Error(`Invalid environment:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  return { smtpUrl: parsed.data.SMTP_URL, from: parsed.data.MAIL_FROM };
}

/** One message: plain text and simple HTML. `link` is the address it asks the reader to open, for the log and the outbox. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  link?: string;
}

export interface SentMail {
  /** 'smtp', or 'outbox' with the file it was written to. */
  via: 'smtp' | 'outbox';
  file?: string;
  messageId?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<SentMail>;
  close(): void;
}

/** The addresses a log line may show: the domain, not the person. */
function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return at > 0 ? `…${address.slice(at)}` : '…';
}

/** Through SMTP (nodemailer). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly transport: ReturnType<typeof nodemailer.createTransport>;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
    this.logger.info({ to: maskAddress(message.to), subject: message.subject, messageId: info.messageId }, 'mail: sent through SMTP');
    return { via: 'smtp', messageId: info.messageId };
  }

  close(): void {
    this.transport.close();
  }
}

/** To DATA_DIR/outbox/ as .eml files, composed by nodemailer's stream transport. */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox' as const;
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  constructor(
    readonly dir: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {}

  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      headers: message.link ? { [LINK_HEADER]: message.link } : undefined,
    });
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // Sortable by time; the random part keeps two messages of one millisecond apart.
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.eml`;
    const file = path.join(this.dir, name);
    // The file may hold a live reset link: readable by the server's user only.
    fs.writeFileSync(file, info.message as Buffer, { mode: 0o600 });
    this.logger.info(
      { file, to: maskAddress(message.to), subject: message.subject, link: message.link },
      `mail: no SMTP_URL, so the message went to the outbox: ${file}${message.link ? ` (link: ${message.link})` : ''}`,
    );
    return { via: 'outbox', file, messageId: info.messageId };
  }

  close(): void {}
}

/**
 * The outbox folder: DATA_DIR/outbox, or for an in-memory database (tests, a demo) a folder of this process in the
 * system's temporary directory.
 */
export function outboxDir(dataDir: string | null): string {
  return dataDir ? path.join(dataDir, OUTBOX_DIR) : path.join(os.tmpdir(), `lectern-outbox-${process.pid}`);
}

/** The mailer the environment asks for: SMTP with SMTP_URL, else the outbox. */
export function createMailer(options: { env?: NodeJS.ProcessEnv; dataDir: string | null; logger: Logger }): Mailer {
  const settings = mailSettings(options.env);
  return settings.smtpUrl
    ? new SmtpMailer(settings.smtpUrl, settings.from, options.logger)
    : new OutboxMailer(outboxDir(options.dataDir), settings.from, options.logger);
}
