/**
 * The messages Lectern sends, in the product's voice: plain text plus simple HTML (no images, no tracking, one
 * link). Each names Lectern and, when the person belongs to one, their school.
 */
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { member, organization } from '../db/authSchema';
import { PRODUCT_NAME } from '../../src/domain/constants';
import type { MailMessage } from './mailer';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The name of the first school (organization) the user joined, or null. */
export async function schoolOf(database: Database, userId: string): Promise<string | null> {
  const [row] = await database.db
    .select({ name: organization.name })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(eq(member.userId, userId))
    .orderBy(asc(member.createdAt))
    .limit(1);
  return row?.name ?? null;
}

/** A message of a few paragraphs and one button-like link, as text and HTML. */
function compose(options: { to: string; subject: string; greeting: string; paragraphs: string[]; action?: string; link?: string; after: string[] }): MailMessage {
  const { action, link } = options;
  const text = [
    options.greeting,
    '',
    ...options.paragraphs.flatMap((p) => [p, '']),
    ...(action && link ? [`${action}:`, link, ''] : []),
    ...options.after.flatMap((p) => [p, '']),
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const p = (t: string) => `<p style="margin:0 0 16px">${escapeHtml(t)}</p>`;
  const html = [
    '<!doctype html>',
    `<html><body style="font-family:Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#1f2937;max-width:560px;margin:0 auto;padding:24px">`,
    p(options.greeting),
    ...options.paragraphs.map(p),
    ...(action && link
      ? [
          `<p style="margin:24px 0"><a href="${escapeHtml(link)}" style="background:#1d4ed8;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block">${escapeHtml(action)}</a></p>`,
          `<p style="margin:0 0 16px;font-size:14px;color:#4b5563">Or copy this address into your browser: ${escapeHtml(link)}</p>`,
        ]
      : []),
    ...options.after.map(p),
    `<p style="margin:24px 0 0;color:#4b5563">— ${escapeHtml(PRODUCT_NAME)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: options.to, subject: options.subject, text, html, link };
}

/** The password reset mail. `expiresInMinutes` is the link's lifetime. */
export function passwordResetMessage(options: { to: string; name: string; school: string | null; link: string; expiresInMinutes: number }): MailMessage {
  const where = options.school ? `your ${PRODUCT_NAME} account at ${options.school}` : `your ${PRODUCT_NAME} account`;
  const hours = options.expiresInMinutes % 60 === 0 ? options.expiresInMinutes / 60 : null;
  const lifetime = hours ? `${hours} hour${hours === 1 ? '' : 's'}` : `${options.expiresInMinutes} minutes`;
  return compose({
    to: options.to,
    subject: `Reset your ${PRODUCT_NAME} password`,
    greeting: `Hello ${options.name || 'there'},`,
    paragraphs: [`Someone asked to reset the password of ${where} (${options.to}).`],
    action: 'Choose a new password',
    link: options.link,
    after: [
      `The link works once, for the next ${lifetime}. Setting a new password signs you out everywhere else.`,
      `If you did not ask for this, ignore this message: your password stays as it is.`,
    ],
  });
}

function lifetimeText(minutes: number): string {
  const hours = minutes % 60 === 0 ? minutes / 60 : null;
  return hours ? `${hours} hour${hours === 1 ? '' : 's'}` : `${minutes} minutes`;
}

/** To the new address of an email change: the change applies when the link is opened. */
export function emailChangeMessage(options: { to: string; name: string; oldEmail: string; school: string | null; link: string; expiresInMinutes: number }): MailMessage {
  const where = options.school ? `your ${PRODUCT_NAME} account at ${options.school}` : `your ${PRODUCT_NAME} account`;
  return compose({
    to: options.to,
    subject: `Confirm your new ${PRODUCT_NAME} email`,
    greeting: `Hello ${options.name || 'there'},`,
    paragraphs: [`Someone asked to change the email of ${where} from ${options.oldEmail} to this address, ${options.to}.`],
    action: 'Confirm this email',
    link: options.link,
    after: [
      `Nothing changes until the link is opened. It works for the next ${lifetimeText(options.expiresInMinutes)}.`,
      `If you did not ask for this, ignore this message.`,
    ],
  });
}

/** To the old address, once an email change has applied. */
export function emailChangedNotice(options: { to: string; name: string; newEmail: string; school: string | null }): MailMessage {
  const where = options.school ? `your ${PRODUCT_NAME} account at ${options.school}` : `your ${PRODUCT_NAME} account`;
  return compose({
    to: options.to,
    subject: `Your ${PRODUCT_NAME} email was changed`,
    greeting: `Hello ${options.name || 'there'},`,
    paragraphs: [`The email of ${where} was changed from this address, ${options.to}, to ${options.newEmail}. Sign in with the new address from now on.`],
    after: [`If you did not do this, tell your school's ${PRODUCT_NAME} administrator at once: someone else may be using your account.`],
  });
}

/** An invitation to join a school (an organization): the link to accept it. */
export function invitationMessage(options: { to: string; school: string; inviter: string; role: string; link: string; expiresInDays: number }): MailMessage {
  const as = options.role === 'admin' ? ' as an administrator' : '';
  return compose({
    to: options.to,
    subject: `Join ${options.school} on ${PRODUCT_NAME}`,
    greeting: 'Hello,',
    paragraphs: [`${options.inviter} invited you (${options.to}) to join ${options.school} on ${PRODUCT_NAME}${as}.`],
    action: 'Accept the invitation',
    link: options.link,
    after: [
      `Sign in or sign up with this address to accept it. The link works for ${options.expiresInDays} days.`,
      `If you did not expect this, ignore this message.`,
    ],
  });
}

/**
 * Confirm the address an invitation was made for: the link proves the address, and brings the
 * person back to the invitation to accept it.
 */
export function addressConfirmationMessage(options: { to: string; name: string; school: string; link: string; expiresInMinutes: number }): MailMessage {
  return compose({
    to: options.to,
    subject: `Confirm your email to join ${options.school}`,
    greeting: `Hello ${options.name || 'there'},`,
    paragraphs: [
      `You have an invitation to join ${options.school} on ${PRODUCT_NAME}. Before you can accept it, confirm that ${options.to} is your address.`,
    ],
    action: 'Confirm my email',
    link: options.link,
    after: [
      `The link works for ${lifetimeText(options.expiresInMinutes)} and brings you back to the invitation.`,
      `If you did not sign up for ${PRODUCT_NAME}, ignore this message.`,
    ],
  });
}
