/**
 * The outbox (server/mail/mailer.ts): reading back the `.eml` files the server wrote to DATA_DIR/outbox/ when it
 * has no SMTP_URL. `npm run admin -- outbox [--last N]` (server/admin/commands.ts) lists them with their links.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LINK_HEADER } from './mailer';

export interface OutboxEntry {
  file: string;
  date: string;
  to: string;
  subject: string;
  link: string | null;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) as text. */
export function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*(?==\?)?/g, (_m, _charset: string, encoding: string, data: string) => {
    if (encoding.toUpperCase() === 'B') return Buffer.from(data, 'base64').toString('utf8');
    const bytes = data.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  });
}

/** The headers of a message (names in lower case), unfolded and decoded. */
export function parseHeaders(raw: string): Map<string, string> {
  const end = raw.search(/\r?\n\r?\n/);
  const head = (end < 0 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, decodeWords(line.slice(colon + 1).trim()));
  }
  return headers;
}

/** The messages in an outbox folder, oldest first (their names start with the time they were written). */
export function readOutbox(dir: string): OutboxEntry[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.eml'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.sort().map((name) => {
    const file = path.join(dir, name);
    const headers = parseHeaders(fs.readFileSync(file, 'utf8'));
    return {
      file,
      date: headers.get('date') ?? '',
      to: headers.get('to') ?? '',
      subject: headers.get('subject') ?? '',
      link: headers.get(LINK_HEADER.toLowerCase()) ?? null,
    };
  });
}
