/** An SMTP server for server tests: the real server sends real mail to it over a socket. */
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll } from 'vitest';
import { startFixtureServer, writeFixtureLibrary } from './harness';
import type { RunningServer } from '../../server/server';
import type { LimitRules } from '../../server/auth/limits';

/** An SMTP server in this process that keeps every message it receives, parsed. */
export async function startSmtp() {
  const received: ParsedMail[] = [];
  const waiters: { to: string; resolve: (mail: ParsedMail) => void }[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          const to = mail.to && !Array.isArray(mail.to) ? mail.to.text : '';
          for (const w of waiters.filter((w) => to.includes(w.to))) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The next message to `to` (or one already received). */
    mailTo(to: string): Promise<ParsedMail> {
      const found = received.find((m) => m.to && !Array.isArray(m.to) && m.to.text.includes(to));
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ to, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtp = Awaited<ReturnType<typeof startSmtp>>;

/**
 * For one describe block: an SMTP server, and a real server (fixture library, TRUST_PROXY on) that mails through
 * it; both started before the block and stopped after it. Read `.server` and `.smtp` inside the tests.
 */
export function serverWithSmtp(limits?: Partial<LimitRules>): { server: RunningServer; smtp: TestSmtp } {
  const fixture = {} as { server: RunningServer; smtp: TestSmtp };
  beforeAll(async () => {
    fixture.smtp = await startSmtp();
    fixture.server = await startFixtureServer({ contentDir: writeFixtureLibrary(0), accounts: { env: { SMTP_URL: fixture.smtp.url, TRUST_PROXY: 'true' }, limits } });
  });
  afterAll(async () => {
    await fixture.server?.stop();
    await fixture.smtp?.close();
  });
  return fixture;
}
