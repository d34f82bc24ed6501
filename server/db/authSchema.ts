/**
 * better-auth's tables (core + organization plugin), written by hand to match what its drizzle adapter expects
 * in 1.7.25 (`generateDrizzleSchema` with provider 'pg', singular names, snake_case columns). The adapter looks
 * tables up by these export names and columns by their property names; `authSchema` is what it is given.
 * Regenerate by comparing with `@better-auth/drizzle-adapter`'s generator after a better-auth upgrade.
 */
import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, ts, updatedAt } from './columns';

/** A required reference to a user (`user_id` unless named): the row goes when the user goes. */
export const userIdColumn = (name = 'user_id') => text(name).notNull().references(() => user.id, { onDelete: 'cascade' });

/** A required reference to an organization: the row goes when the organization goes. */
export const organizationIdColumn = () =>
  text('organization_id')
    .notNull()
    .references(() => organization.id, { onDelete: 'cascade' });

/** `updated_at` without a database default: drizzle fills it on insert and on every update (`$onUpdate`). */
const touchedAt = () => ts('updated_at').$onUpdate(() => new Date()).notNull();

export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').default(false).notNull(),
  image: text('image'),
  createdAt: createdAt(),
  updatedAt: updatedAt().$onUpdate(() => new Date()),
});

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: ts('expires_at').notNull(),
    token: text('token').notNull().unique(),
    createdAt: createdAt(),
    updatedAt: touchedAt(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: userIdColumn(),
    activeOrganizationId: text('active_organization_id'),
  },
  (t) => [index('session_userId_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: userIdColumn(),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: ts('access_token_expires_at'),
    refreshTokenExpiresAt: ts('refresh_token_expires_at'),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: touchedAt(),
  },
  (t) => [index('account_userId_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt().$onUpdate(() => new Date()),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

export const organization = pgTable(
  'organization',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    logo: text('logo'),
    createdAt: ts('created_at').notNull(),
    metadata: text('metadata'),
  },
  (t) => [uniqueIndex('organization_slug_uidx').on(t.slug)],
);

export const member = pgTable(
  'member',
  {
    id: text('id').primaryKey(),
    organizationId: organizationIdColumn(),
    userId: userIdColumn(),
    role: text('role').default('member').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('member_organizationId_idx').on(t.organizationId), index('member_userId_idx').on(t.userId)],
);

export const invitation = pgTable(
  'invitation',
  {
    id: text('id').primaryKey(),
    organizationId: organizationIdColumn(),
    email: text('email').notNull(),
    role: text('role'),
    status: text('status').default('pending').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
    inviterId: userIdColumn('inviter_id'),
  },
  (t) => [index('invitation_organizationId_idx').on(t.organizationId), index('invitation_email_idx').on(t.email)],
);

/** The object handed to better-auth's drizzle adapter. */
export const authSchema = { user, session, account, verification, organization, member, invitation };
