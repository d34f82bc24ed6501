/**
 * Mail in e2e tests: the e2e server has no SMTP_URL, so its mail goes to DATA_DIR/outbox/ (server/mail), and
 * `npm run admin -- outbox` lists it with each message's link, as an operator would read it.
 */
import { expect } from '@playwright/test';
import { admin } from './admin';

/**
 * The link of the newest outbox message to `email` with `subject`, once it is there (the server writes it after
 * answering). Each look runs the admin CLI, which takes seconds to start on a busy machine.
 */
export async function linkMailedTo(email: string, subject: string): Promise<string> {
  let link = '';
  await expect
    .poll(async () => {
      const lines = (await admin('outbox', '--last', '10')).split('\n');
      const at = lines.findLastIndex((line) => line.includes(`to ${email}  "${subject}"`));
      link = at >= 0 ? (lines[at + 1] ?? '').trim() : '';
      return link;
    }, { timeout: 60_000 })
    .toMatch(/^https?:\/\//);
  return link;
}

/** Wait until the outbox holds a message to `email` with `subject` (one without a link, such as a notice). */
export async function expectMailTo(email: string, subject: string): Promise<void> {
  await expect
    .poll(async () => (await admin('outbox', '--last', '10')).includes(`to ${email}  "${subject}"`), { timeout: 60_000 })
    .toBe(true);
}

/** How many of the newest 20 outbox messages went to `email` with `subject`. */
export async function mailCountTo(email: string, subject: string): Promise<number> {
  return (await admin('outbox', '--last', '20')).split('\n').filter((line) => line.includes(`to ${email}  "${subject}"`)).length;
}
