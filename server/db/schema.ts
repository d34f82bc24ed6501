/** The database schema (drizzle). Migrations in `drizzle/` are generated from this file with drizzle-kit. */
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  serial,
  text,
  uniqueIndex,
  date,
} from 'drizzle-orm/pg-core';
import { organizationIdColumn, user, userIdColumn } from './authSchema';
import { createdAt, ts, updatedAt } from './columns';

// better-auth's tables (user, session, account, verification, organization, member, invitation).
export * from './authSchema';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array | Buffer }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (value instanceof Uint8Array ? value : new Uint8Array(value)),
});

/** A required reference to a publication: the row goes when the publication goes. */
const publicationIdColumn = () =>
  integer('publication_id')
    .notNull()
    .references(() => publications.id, { onDelete: 'cascade' });

/** A required reference to an edition: the row goes when the edition goes. */
const editionIdColumn = () =>
  integer('edition_id')
    .notNull()
    .references(() => editions.id, { onDelete: 'cascade' });

/** The first columns of a row a publication owns: its own serial id, then the publication's. */
const publicationRow = () => ({ id: serial('id').primaryKey(), publicationId: publicationIdColumn() });

/** The first columns of a row an edition owns: its own serial id, then the edition's. */
const editionRow = () => ({ id: serial('id').primaryKey(), editionId: editionIdColumn() });

/** What names an edition, in `editions` and in `edition_sources` alike: its publication, language and level (unique together). */
const editionKey = () => ({
  publicationId: publicationIdColumn(),
  language: text('language').notNull(),
  level: text('level').notNull(),
});

export const publications = pgTable(
  'publications',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull(),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    author: text('author').notNull(),
    thumbnailImageUrl: text('thumbnail_image_url').notNull(),
    badges: jsonb('badges').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    renderingMode: text('rendering_mode').$type<'DEFAULT' | 'ILLUSTRATED'>().notNull().default('DEFAULT'),
    defaultReader: jsonb('default_reader')
      .$type<{ left: { language: string; level: string }; right: { language: string; level: string } }>()
      .notNull(),
    /** Hash of the source files; an unchanged publication is skipped on import. */
    sourceHash: text('source_hash').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: updatedAt(),
    /**
     * The teacher who uploaded this text (server/uploads), or null for the public library. A publication with an
     * owner is private: out of the catalog, readable only by its owner and by holders of the owner's class code.
     */
    ownerUserId: text('owner_user_id').references(() => user.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('publications_slug_version').on(t.slug, t.version), index('publications_owner').on(t.ownerUserId)],
);

export const editions = pgTable(
  'editions',
  {
    id: serial('id').primaryKey(),
    ...editionKey(),
    passageCount: integer('passage_count').notNull(),
    audioEnabled: boolean('audio_enabled').notNull().default(false),
    decodeEnabled: boolean('decode_enabled').notNull().default(false),
    highlightModeEnabled: boolean('highlight_mode_enabled').notNull().default(false),
    audioTotalLength: real('audio_total_length').notNull().default(0),
    totalWords: integer('total_words').notNull(),
    uniqueWords: integer('unique_words').notNull(),
    lexile: text('lexile'),
    /** Our computed readability (server/readability): the formula's figure, rounded to 0.1, or null. Not a Lexile. */
    readabilityGrade: real('readability_grade'),
    /** The formula that gave readabilityGrade (its name says its scale), or null. */
    readabilityFormula: text('readability_formula'),
    /** 'content' (an edition file), 'source' (built on demand from sources/), or 'translation' (built by a provider). */
    origin: text('origin').$type<'content' | 'source' | 'translation'>().notNull().default('content'),
  },
  (t) => [uniqueIndex('editions_publication_language_level').on(t.publicationId, t.language, t.level)],
);

export const passages = pgTable(
  'passages',
  {
    ...editionRow(),
    position: integer('position').notNull(),
    text: text('text').notNull(),
    textDecoded: text('text_decoded'),
    imageUrl: text('image_url'),
    imageAlt: text('image_alt'),
    partName: text('part_name'),
    sectionName: text('section_name'),
    audioUrl: text('audio_url'),
    speechMarks: jsonb('speech_marks').$type<{ offset: number; time: number }[]>(),
    /** Length of the narration at audioUrl, ms (server/narration). Meaningful only while audioUrl is set. */
    audioDurationMs: integer('audio_duration_ms'),
  },
  (t) => [uniqueIndex('passages_edition_position').on(t.editionId, t.position)],
);

/** Edition sources imported but built only when a reader asks for them (POST …/sources/on-demand). */
export const editionSources = pgTable(
  'edition_sources',
  {
    id: serial('id').primaryKey(),
    ...editionKey(),
    /** The parsed edition (passages as HTML, shortcuts, word counts), ready to insert. */
    edition: jsonb('edition').$type<StoredEditionSource>().notNull(),
  },
  (t) => [uniqueIndex('edition_sources_publication_language_level').on(t.publicationId, t.language, t.level)],
);

export interface StoredEditionSource {
  passages: { position: number; html: string; imageUrl: string | null; imageAlt: string | null; partName: string | null; sectionName: string | null }[];
  shortcuts: { name: string; passage: number }[];
  totalWords: number;
  uniqueWords: number;
  lexile: string | null;
}

export const shortcuts = pgTable(
  'shortcuts',
  {
    ...editionRow(),
    name: text('name').notNull(),
    passage: integer('passage').notNull(),
  },
  (t) => [index('shortcuts_edition').on(t.editionId)],
);

export const infoSections = pgTable(
  'info_sections',
  {
    ...publicationRow(),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
  },
  (t) => [index('info_sections_publication').on(t.publicationId)],
);

export const qrCodes = pgTable('qr_codes', {
  code: text('code').primaryKey(),
  publicationId: publicationIdColumn(),
  url: text('url').notNull(),
});

/** Images from the library, served at /media/<slug>/v<version>/<path>. */
export const assets = pgTable('assets', {
  path: text('path').primaryKey(),
  publicationId: publicationIdColumn(),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  sha256: text('sha256').notNull(),
});

/** One row: bumped on every import that changes something, so other server processes can drop their caches. */
export const contentRevision = pgTable('content_revision', {
  id: integer('id').primaryKey(),
  revision: integer('revision').notNull(),
  updatedAt: updatedAt(),
});

// ---------------------------------------------------------------------------------------------------------------
// Accounts: roles, school licenses, class codes and title visibility. better-auth owns the user,
// organization and member rows; these tables hang off them and go when they go.

/** The reading role a user picked (SPEC §3 User.role): 'INDIVIDUAL' or 'TEACHER'. No row means no role yet. */
export const userRoles = pgTable('user_roles', {
  userId: userIdColumn().primaryKey(),
  role: text('role').$type<'INDIVIDUAL' | 'TEACHER'>().notNull(),
  updatedAt: updatedAt(),
});

/** A school license: one per organization, granting SPEC §3 content types to its members until it expires. */
export const schoolLicenses = pgTable('school_licenses', {
  organizationId: organizationIdColumn().primaryKey(),
  /** Content types (AUDIO, DECODE, GROUP_CODES, LANGUAGES, LEVELS, USER_UPLOAD). */
  features: text('features').array().notNull(),
  /**
   * The kind of license: 'standard', or 'ar-free-trial' (SPEC §3's free-trial identifier) for a trial that
   * `npm run admin -- license grant … --trial` creates with an expiry 30 days out by default.
   */
  kind: text('kind').$type<'standard' | 'ar-free-trial'>().notNull().default('standard'),
  /** The last day the license is valid (inclusive, UTC); null for no expiry. */
  expiresOn: date('expires_on', { mode: 'string' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A teacher's class code: 8 upper-case letters and digits from a CSPRNG, unique, replaced on rotation. */
export const classCodes = pgTable('class_codes', {
  userId: userIdColumn().primaryKey(),
  code: text('code').notNull().unique(),
  createdAt: createdAt(),
});

/** A teacher's choice for one title (SPEC §4 Title visibility). No row means not assigned. */
export const titleVisibility = pgTable(
  'title_visibility',
  {
    id: serial('id').primaryKey(),
    userId: userIdColumn(),
    publicationId: publicationIdColumn(),
    status: text('status').$type<'ASSIGNED' | 'BLOCKED'>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('title_visibility_user_publication').on(t.userId, t.publicationId)],
);

// ---------------------------------------------------------------------------------------------------------------
// Shared by every server process on one database: rate-limit counters and the narration queue.

/**
 * Rate-limit counters (server/auth/rateLimit.ts): one fixed window per rule and key (`<rule>:<key>`), counted with
 * an atomic upsert so that several servers on one PostgreSQL share one budget. Rows whose window has ended are
 * swept.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    /** When the window ends; from then on the row counts for nothing and may be swept. */
    resetAt: ts('reset_at').notNull(),
  },
  (t) => [index('rate_limits_reset_at').on(t.resetAt)],
);

/**
 * The narration queue (server/narration/jobs.ts): one job per passage whose narration is missing or stale. A server
 * claims a job with `FOR UPDATE SKIP LOCKED` and holds a lease on it (renewed while it narrates); a crashed server's
 * jobs come back when their lease runs out. A job is deleted when its passage is narrated.
 */
export const narrationJobs = pgTable(
  'narration_jobs',
  {
    passageId: integer('passage_id')
      .primaryKey()
      .references(() => passages.id, { onDelete: 'cascade' }),
    /** The narration key of the passage's text when the job was queued; a new text gets a fresh job. */
    key: text('key').notNull(),
    /** Higher first: 0 the background scan, 1 the next passage of someone reading, 2 a passage someone asked for. */
    priority: integer('priority').notNull().default(0),
    /** Lower first within a priority: the passage's position (every edition's first passages first). */
    rank: integer('rank').notNull().default(0),
    /** Claims so far; the background queue gives up on a job at the service's maximum. */
    attempts: integer('attempts').notNull().default(0),
    /** Not claimed by the background queue before this (the backoff after a failure). */
    runAfter: ts('run_after').defaultNow().notNull(),
    /** While in the future, the job belongs to `leasedBy`. */
    leaseUntil: ts('lease_until'),
    /** The worker (a NarrationService) holding the lease. */
    leasedBy: text('leased_by'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [index('narration_jobs_order').on(t.priority, t.rank, t.passageId), index('narration_jobs_key').on(t.key)],
);

// ---------------------------------------------------------------------------------------------------------------
// First-party analytics: SPEC §4's tracked events, counted without identifying anyone.

/**
 * One tracked event (SPEC §4) as the browser sent it to `POST /api/v1/events`. No IP address, no user id and no free
 * text: the client id is a random id the browser made for itself. `classOwnerId` is the teacher whose class code the
 * reader used (from X-Group-Code), so that the teacher's class activity can be counted without naming a student.
 * Rows older than 180 days are deleted by a daily job.
 */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** When the event happened (the client's time, clamped to the server's window of trust). */
    at: ts('at').notNull(),
    /** The SPEC §4 event name ('Viewed Passage', 'Paused Audio', …). */
    name: text('name').notNull(),
    /** The browser's random analytics id (not a user id). */
    clientId: text('client_id').notNull(),
    publicationId: integer('publication_id').references(() => publications.id, { onDelete: 'set null' }),
    editionId: integer('edition_id').references(() => editions.id, { onDelete: 'set null' }),
    /** The passage position, where the event has one. */
    position: integer('position'),
    /** Seconds of audio heard, on the events that end a stretch of listening ('Paused Audio', 'Closed Audio Player'). */
    seconds: integer('seconds'),
    /** The teacher whose class code the reader used, if any. */
    classOwnerId: text('class_owner_id').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('analytics_events_at').on(t.at),
    index('analytics_events_class_owner_at').on(t.classOwnerId, t.at),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Schools' own sign-in and staff roster: single sign-on providers per organization, and the staff a
// OneRoster import pre-provisions.

/**
 * An organization's OpenID Connect provider (server/sso), added by the operator with `npm run admin -- sso add`.
 * One per organization. Its id is the provider id better-auth's callback carries (`/auth/callback/<id>`).
 * `domains` are the organization's verified email domains: a sign-in with such an address goes to this provider,
 * and a first sign-in (by any provider) with a verified address there joins the organization.
 */
export const ssoProviders = pgTable('sso_providers', {
  /** `sso-<organization slug>`. */
  id: text('id').primaryKey(),
  organizationId: organizationIdColumn().unique(),
  /** The issuer; discovery reads `<issuer>/.well-known/openid-configuration`. */
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  /** The client secret, encrypted (AES-256-GCM, key derived from the auth secret; server/sso/secrets.ts). */
  clientSecret: text('client_secret').notNull(),
  /** Lower-case email domains, e.g. ['school.org']. */
  domains: jsonb('domains').$type<string[]>().notNull(),
  /** Accept the provider's addresses as verified even without `email_verified: true`. Off unless asked for. */
  trustEmail: boolean('trust_email').notNull().default(false),
  /** The reading role a first sign-in gets when the roster does not say: 'TEACHER', or null for none. */
  defaultRole: text('default_role').$type<'TEACHER'>(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * A staff member of an organization as its OneRoster import knows them (server/roster). A row is keyed by the
 * roster's `sourcedId`, so a re-import updates it. It is claimed (`userId`) when a user with its email signs in with
 * a verified address: the membership and role follow. A disabled row removes the membership it gave.
 */
export const rosterStaff = pgTable(
  'roster_staff',
  {
    id: serial('id').primaryKey(),
    organizationId: organizationIdColumn(),
    sourcedId: text('sourced_id').notNull(),
    email: text('email').notNull(),
    givenName: text('given_name').notNull(),
    familyName: text('family_name').notNull(),
    /** 'teacher' (TEACHER role, member) or 'admin' (org admin). */
    role: text('role').$type<'teacher' | 'admin'>().notNull(),
    enabled: boolean('enabled').notNull(),
    /** The user this row was claimed by, or null until they first sign in. */
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('roster_staff_org_sourced_id').on(t.organizationId, t.sourcedId),
    index('roster_staff_email').on(sql`lower(${t.email})`),
  ],
);
