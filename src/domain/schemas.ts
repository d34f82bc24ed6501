/**
 * The API's wire types, as zod schemas shared by the server (which validates its input and documents its
 * output with them) and the client (which infers its types from them). One place for each shape.
 *
 * Written in the part of zod's API that its classic and mini builds share, with the same meaning (schemas made by
 * functions, `z.optional(x)`, `z.pipe(a, b)`; rules through `.check(z.minLength(1), …)`): the server runs them on
 * classic zod, which the OpenAPI document needs, and the client's build on zod/mini (scripts/zod-mini-for-client.ts).
 * `npm run typecheck` holds src/ to that subset (tsconfig.client-zod.json).
 */
import { z } from 'zod';
import { LANGUAGE_CODES } from './languages';
import { LEVELS } from './levels';
import { LevelSchema } from './levelSchema';
import { MAX_PAGE_SIZE, MAX_SEARCH_LENGTH, PAGE_SIZE } from './constants';
import { ACTIVITY_SERIES_DAYS, ACTIVITY_TOP_TITLES } from './classActivity';

import {
  CATALOG_FILTERS,
  CONTENT_TYPES,
  DEFAULT_SORT,
  FREE_TRIAL_LICENSE_KIND,
  LICENSE_KINDS,
  ORGANIZATION_ROLES,
  RENDERING_MODES,
  SORT_KEYS,
  TITLE_STATUSES,
  USER_ROLES,
  type CatalogFilter,
  type LicenseKind,
  type SortKey,
} from './wireValues';

// The plain values live in wireValues.ts (no zod), so entry code can import them without zod; re-exported here.
export { CATALOG_FILTERS, CONTENT_TYPES, DEFAULT_SORT, ORGANIZATION_ROLES, RENDERING_MODES, SORT_KEYS, TITLE_STATUSES, USER_ROLES };
export type { CatalogFilter, SortKey };
export { FREE_TRIAL_LICENSE_KIND, LICENSE_KINDS, type LicenseKind };

export const LanguageCodeSchema = z.enum(LANGUAGE_CODES);
export { LevelSchema };

export const LanguageSchema = z.object({
  code: LanguageCodeSchema,
  name: z.string(),
  rightToLeft: z.boolean(),
});
export type Language = z.infer<typeof LanguageSchema>;

export const ShortcutSchema = z.object({ name: z.string(), passage: z.int().check(z.positive()) });
export type Shortcut = z.infer<typeof ShortcutSchema>;

export const InfoSectionSchema = z.object({ title: z.string(), body: z.string() });
export type InfoSection = z.infer<typeof InfoSectionSchema>;

export const ReaderRefSchema = z.object({ language: LanguageCodeSchema, level: LevelSchema });
export type ReaderRef = z.infer<typeof ReaderRefSchema>;

export const EditionSchema = z.object({
  id: z.int(),
  language: LanguageSchema,
  level: LevelSchema,
  passageCount: z.int().check(z.nonnegative()),
  audioEnabled: z.boolean(),
  decodeEnabled: z.boolean(),
  highlightModeEnabled: z.boolean(),
  /** Seconds of narration for the whole edition; 0 until narrated. */
  audioTotalLength: z.number().check(z.nonnegative()),
  metadata: z.object({ totalWords: z.int().check(z.nonnegative()), uniqueWords: z.int().check(z.nonnegative()) }),
  /** A measured Lexile figure supplied with the content, or null. Never computed. */
  lexileLevelFormatted: z.nullable(z.string()),
  shortcuts: z.array(ShortcutSchema),
  /**
   * Our computed readability (docs/readability.md), rounded to 0.1, or null for a language without a formula. Its
   * scale is the formula's: a US school grade for 'Flesch–Kincaid grade level', a reading ease (0–100, higher is
   * easier) for the Spanish, Russian and Portuguese formulas. Not a Lexile measure.
   */
  readabilityGrade: z.nullable(z.number()),
  /** The name of the formula behind readabilityGrade, or null. */
  readabilityFormula: z.nullable(z.string()),
});
export type Edition = z.infer<typeof EditionSchema>;

export const PublicationSummarySchema = z.object({
  id: z.int(),
  slug: z.string(),
  version: z.string(),
  title: z.string(),
  author: z.string(),
  thumbnailImageUrl: z.string(),
  badges: z.array(z.string()),
  createdAt: z.string(),
  renderingMode: z.enum(RENDERING_MODES),
  levels: z.array(LevelSchema),
  languages: z.array(LanguageSchema),
});
export type PublicationSummary = z.infer<typeof PublicationSummarySchema>;

export const PublicationSchema = z.object({
  ...PublicationSummarySchema.shape,
  /** Every edition, English and other languages. */
  editions: z.array(EditionSchema),
  /** The English editions only, easiest level first. */
  englishEditions: z.array(EditionSchema),
  shortcuts: z.array(ShortcutSchema),
  infoData: z.array(InfoSectionSchema),
  defaultReader: z.object({ left: ReaderRefSchema, right: ReaderRefSchema }),
});
export type Publication = z.infer<typeof PublicationSchema>;

export const PublicationListSchema = z.object({
  items: z.array(PublicationSummarySchema),
  total: z.int().check(z.nonnegative()),
  page: z.int().check(z.positive()),
  pageSize: z.int().check(z.positive()),
});
export type PublicationList = z.infer<typeof PublicationListSchema>;

export const SpeechMarkSchema = z.object({ offset: z.int().check(z.nonnegative()), time: z.number().check(z.nonnegative()) });

export const PassageSchema = z.object({
  id: z.int(),
  editionId: z.int(),
  position: z.int().check(z.positive()),
  /** HTML paragraphs. */
  text: z.string(),
  textDecoded: z.nullable(z.string()),
  imageUrl: z.nullable(z.string()),
  /** The illustration's alt text, written with the content. */
  imageAlt: z.nullable(z.string()),
  partName: z.nullable(z.string()),
  sectionName: z.nullable(z.string()),
  audio: z.nullable(z.object({ url: z.string(), speechMarks: z.array(SpeechMarkSchema) })),
  groupCodeRequired: z.boolean(),
  licenseRequired: z.boolean(),
});
export type Passage = z.infer<typeof PassageSchema>;

/** GET /passages/{passageId}/decode: the passage as decode-mode markup (English only; docs/phonics.md). */
export const DecodeResponseSchema = z.object({
  passageId: z.int(),
  /** The passage's HTML with each word wrapped in spans whose classes carry its phonics cues. */
  textDecoded: z.string(),
});
export type DecodeResponse = z.infer<typeof DecodeResponseSchema>;

export const ExcerptSchema = z.object({
  publicationSlug: z.string(),
  version: z.string(),
  editionId: z.int(),
  language: LanguageSchema,
  level: LevelSchema,
  position: z.int().check(z.positive()),
  passageCount: z.int().check(z.positive()),
  /** Plain text: the passage with its tags stripped. */
  text: z.string(),
  sectionName: z.nullable(z.string()),
});
export type Excerpt = z.infer<typeof ExcerptSchema>;

export const QrTargetSchema = z.object({ url: z.string() });
export type QrTarget = z.infer<typeof QrTargetSchema>;

export const PingSchema = z.object({ ok: z.literal(true), time: z.string() });

export const ApiErrorItemSchema = z.object({ code: z.string(), message: z.string() });
export const ApiErrorBodySchema = z.object({ errors: z.array(ApiErrorItemSchema).check(z.minLength(1)) });
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;

// ---- request parameters ----

/** A positive integer carried in a query string. */
const queryInt = (name: string) =>
  z.pipe(
    z.string({ error: `${name} is required` }).check(z.regex(/^\d{1,9}$/, { error: `${name} must be a whole number` })),
    z.transform(Number),
  );

/** An optional query parameter of digits (a sign too, with a signed pattern), as a number. */
const optionalWholeNumber = (name: string, pattern = /^\d{1,9}$/) =>
  z.optional(z.pipe(z.string().check(z.regex(pattern, { error: `${name} must be a whole number` })), z.transform(Number)));

/** A level in a query or body, in any case: 'gold' is GOLD. */
const levelParam = z.pipe(z.pipe(z.string(), z.transform((l: string) => l.toUpperCase())), LevelSchema);

/**
 * A comma-separated list of `allowed` values in a query ('es,ar'), in any case (`normalize`), duplicates and empty
 * items dropped; an empty list is no filter. One unknown value is a 400 naming the parameter.
 */
const commaListParam = <T extends string>(name: string, allowed: readonly T[], normalize: (item: string) => string) =>
  z.pipe(
    z.string().check(z.maxLength(MAX_LIST_PARAM_LENGTH, { error: `${name} must be at most ${MAX_LIST_PARAM_LENGTH} characters` })),
    // The issue goes straight into the payload's list: the context's addIssue() exists only in zod's classic build.
    z.transform((value: string, ctx): T[] => {
      const items = [...new Set(value.split(',').map((item) => normalize(item.trim())).filter(Boolean))];
      if (items.some((item) => !(allowed as readonly string[]).includes(item))) {
        ctx.issues.push({ code: 'custom', message: `${name} must be comma-separated values from ${allowed.join(', ')}`, input: value });
        return z.NEVER;
      }
      return items as T[];
    }),
  );
const MAX_LIST_PARAM_LENGTH = 200;

export const PublicationListQuerySchema = z.object({
  search: z.optional(z.string().check(z.maxLength(MAX_SEARCH_LENGTH, { error: `search must be at most ${MAX_SEARCH_LENGTH} characters` }))),
  sort: z.optional(z.enum(SORT_KEYS, { error: `sort must be one of ${SORT_KEYS.join(', ')}` })),
  page: z.optional(z.pipe(queryInt('page'), z.number().check(z.gte(1, { error: 'page must be at least 1' })))),
  pageSize: z.optional(
    z.pipe(
      queryInt('pageSize'),
      z.number().check(z.gte(1, { error: 'pageSize must be at least 1' }), z.lte(MAX_PAGE_SIZE, { error: `pageSize must be at most ${MAX_PAGE_SIZE}` })),
    ),
  ),
  /**
   * Teacher-only catalog filter (SPEC §3 Catalog filter values): `assigned` and `unassigned` narrow the list to the
   * signed-in teacher's ASSIGNED titles or the rest; `all` (the default) changes nothing. Anyone who is not a
   * signed-in teacher gets 403 for `assigned`/`unassigned`. A class-code visitor (valid X-Group-Code, no session)
   * always gets the teacher's ASSIGNED titles, whatever the filter.
   */
  filter: z.optional(z.enum(CATALOG_FILTERS, { error: `filter must be one of ${CATALOG_FILTERS.join(', ')}` })),
  /**
   * The Language filter (SPEC §2 `languages`), for everyone: comma-separated language codes ('ar,es'). With
   * `levels`, a title matches when one of its editions is in a chosen language and at a chosen level.
   */
  languages: z.optional(commaListParam('languages', LANGUAGE_CODES, (item) => item.toLowerCase())),
  /** The Level filter (SPEC §2 `levels`), for everyone: comma-separated levels in any case ('GOLD,silver'). */
  levels: z.optional(commaListParam('levels', LEVELS, (item) => item.toUpperCase())),
});
/** The query as the client sends it: `languages` and `levels` comma-separated (src/domain/catalog.ts filterParams). */
export type PublicationListQuery = {
  search?: string;
  sort?: SortKey;
  page?: number;
  pageSize?: number;
  filter?: CatalogFilter;
  languages?: string;
  levels?: string;
};
export const DEFAULT_PAGE_SIZE = PAGE_SIZE;

export const SlugSchema = z
  .string()
  .check(z.minLength(1), z.maxLength(120), z.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'publicationSlug must be lowercase letters, digits and dashes' }));

export const VersionSchema = z.pipe(
  z.string().check(z.regex(/^v\d{1,6}$/i, { error: "publicationVersion must be 'v' followed by digits" })),
  z.transform((v: string) => v.toLowerCase()),
);

export const PublicationQuerySchema = z.object({ publicationVersion: z.optional(VersionSchema) });

export const PassageQuerySchema = z.object({
  editionId: z.pipe(
    z.string({ error: 'editionId is required' }).check(z.regex(/^\d{1,9}$/, { error: 'editionId must be a whole number' })),
    z.transform(Number),
  ),
  position: z.pipe(
    z.string({ error: 'position is required' }).check(z.regex(/^-?\d{1,9}$/, { error: 'position must be a whole number' })),
    z.transform(Number),
  ),
});

export const ExcerptQuerySchema = z.object({
  publicationVersion: z.optional(VersionSchema),
  language: z.optional(LanguageCodeSchema),
  level: z.optional(levelParam),
  position: z.optional(z.pipe(queryInt('position'), z.number().check(z.gte(1, { error: 'position must be at least 1' })))),
});

/** GET /passages/{passageId}/decode: editionId and position are optional checks that the id is the one meant. */
export const DecodeQuerySchema = z.object({
  editionId: optionalWholeNumber('editionId'),
  position: optionalWholeNumber('position', /^-?\d{1,9}$/),
});

/** POST /publications/{slug}/sources/on-demand: ask for a missing edition to be built. */
export const OnDemandEditionBodySchema = z.object({
  version: z.pipe(
    z.union([
      z.string(),
      z.pipe(z.int().check(z.positive()), z.transform((n: number) => `v${n}`)),
    ]),
    VersionSchema,
  ),
  languageCode: LanguageCodeSchema,
  level: levelParam,
});
export type OnDemandEditionBody = z.input<typeof OnDemandEditionBodySchema>;

export const OnDemandEditionResultSchema = z.object({ edition: EditionSchema, created: z.boolean() });

export const QrCodeSchema = z
  .string()
  .check(z.minLength(1), z.maxLength(64), z.regex(/^[A-Za-z0-9-]+$/, { error: 'qrCode must be letters, digits and dashes' }));

// ---- narration (server/narration, docs/narration.md) ----

/** A passage id in a path: digits. Anything else, or nothing, is 'passageId is required' (SPEC §5). */
export const PassageIdParamSchema = z.pipe(
  z.string({ error: 'passageId is required' }).check(z.regex(/^\d{1,9}$/, { error: 'passageId is required' })),
  z.transform(Number),
);

/** GET /passages/{passageId}/audio and …/audioOnly/onDemand: editionId, when sent, must be the passage's. */
export const PassageAudioQuerySchema = z.object({ editionId: optionalWholeNumber('editionId') });

/** GET /passages/audioOnly: editionId and position are both required. */
export const AudioOnlyQuerySchema = PassageQuerySchema;

export const PassageAudioReadySchema = z.object({
  passageId: z.int(),
  status: z.literal('ready'),
  audio: z.object({
    /** The MP3, served with range requests and immutable caching. */
    url: z.string(),
    speechMarks: z.array(SpeechMarkSchema),
    /** Length of the MP3, ms. Every speech-mark time is below it. */
    duration: z.number().check(z.nonnegative()),
    /**
     * The voice that spoke: 'flite-slt' (English) or 'espeak-<voice>' ('espeak-en-us', 'espeak-es', …). The server
     * always sends it; an answer stored offline before it did has none (src/domain/narrationVoice.ts reads the
     * voice from the url then).
     */
    voice: z.optional(z.string().check(z.minLength(1))),
  }),
});
export type PassageAudioReady = z.infer<typeof PassageAudioReadySchema>;

/**
 * The head of a narration still being made: an MP3 of its own whose audio and speech marks are the start of the whole
 * narration's, time for time, up to `seam` (ms), where the whole goes on. A client may play it while it asks again.
 */
export const PartialAudioSchema = z.object({ ...PassageAudioReadySchema.shape.audio.shape, seam: z.number().check(z.nonnegative()) });
export type PartialAudio = z.infer<typeof PartialAudioSchema>;

/**
 * 202: narration has started and is not ready yet; ask again shortly. `partial`, when the audio routes have it, is
 * the narration's head (clients that do not know it keep asking, as before).
 */
export const AudioGeneratingSchema = z.object({ passageId: z.int(), status: z.literal('generating'), partial: z.optional(PartialAudioSchema) });

export const PassageAudioSchema = z.discriminatedUnion('status', [PassageAudioReadySchema, AudioGeneratingSchema]);
export type PassageAudio = z.infer<typeof PassageAudioSchema>;

export const SpeechMarksReadySchema = z.object({ passageId: z.int(), speechMarks: z.array(SpeechMarkSchema) });
export const SpeechMarksResponseSchema = z.union([SpeechMarksReadySchema, AudioGeneratingSchema]);
export type SpeechMarksResponse = z.infer<typeof SpeechMarksResponseSchema>;

// --- Accounts: users, features, class codes, title visibility ---------------------------------------

export const ContentTypeSchema = z.enum(CONTENT_TYPES);
export type ContentType = z.infer<typeof ContentTypeSchema>;

export const UserRoleSchema = z.enum(USER_ROLES);
export type UserRole = z.infer<typeof UserRoleSchema>;

/** An organization's school license as its members see it (Manage Organization's license status). */
export const OrganizationLicenseSchema = z.object({
  features: z.array(ContentTypeSchema),
  /** 'standard', or 'ar-free-trial' for a free trial (SPEC §3's free-trial identifier). */
  kind: z._default(z.enum(LICENSE_KINDS), 'standard'),
  /** The last valid day, YYYY-MM-DD, or null for no expiry. */
  expiresOn: z.nullable(z.string()),
  /** False once the expiry day has passed: its members no longer get the features. */
  valid: z.boolean(),
});
export type OrganizationLicense = z.infer<typeof OrganizationLicenseSchema>;

export const OrganizationMembershipSchema = z.object({
  role: z.enum(ORGANIZATION_ROLES),
  organization: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  /** The organization's license, or null when it has none. */
  license: z.nullable(OrganizationLicenseSchema),
});
export type OrganizationMembership = z.infer<typeof OrganizationMembershipSchema>;

/** A class code: exactly 8 letters or digits (SPEC §5); the server compares it upper-cased. */
export const GroupCodeSchema = z.string().check(z.regex(/^[A-Za-z0-9]{8}$/, { error: 'A class code is 8 letters or digits' }));

/** GET /users/me (SPEC §3 User). firstName is the first word of the name, lastName the rest. */
export const CurrentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  /** Whether the email is proven (a confirmation link was opened); accepting an invitation needs it. */
  emailVerified: z.boolean(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** null until the user picks one (the role modal). */
  role: z.nullable(UserRoleSchema),
  features: z.array(ContentTypeSchema),
  /** The teacher's class code when they have GROUP_CODES, else null. */
  groupCode: z.nullable(z.string()),
  organizationMemberships: z.array(OrganizationMembershipSchema),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

/** PATCH /users/me/role. */
export const UpdateRoleBodySchema = z.object({ role: UserRoleSchema });
export type UpdateRoleBody = z.infer<typeof UpdateRoleBodySchema>;

/** GET /features/me. */
export const FeaturesSchema = z.object({ features: z.array(ContentTypeSchema) });

/** POST /users/me/group-code (rotation). */
export const GroupCodeResponseSchema = z.object({ groupCode: z.string() });

/** GET /visitors/me (SPEC §3 Visitor result). */
export const VisitorSchema = z.object({
  groupCodeValid: z.boolean(),
  features: z.array(ContentTypeSchema),
  /**
   * The titles the code opens (the teacher's ASSIGNED titles and own uploads): the features apply to these only
   * (src/domain/access.ts classCodeFeatures). Empty when the code is not valid.
   */
  titleIds: z.array(z.int()),
});
export type Visitor = z.infer<typeof VisitorSchema>;

export const TitleStatusSchema = z.enum(TITLE_STATUSES);
export type TitleStatus = z.infer<typeof TitleStatusSchema>;

/** SPEC §3 UserTitle: titleId is the publication id; title is its catalog summary. */
export const UserTitleSchema = z.object({
  id: z.int(),
  titleId: z.int(),
  status: TitleStatusSchema,
  title: PublicationSummarySchema,
});
export type UserTitle = z.infer<typeof UserTitleSchema>;

/** GET /users/titles. */
export const UserTitlesSchema = z.object({ items: z.array(UserTitleSchema) });
export type UserTitles = z.infer<typeof UserTitlesSchema>;

/** PATCH /users/titles/{titleId}/visibility. */
export const TitleVisibilityBodySchema = z.object({ status: TitleStatusSchema });
export type TitleVisibilityBody = z.infer<typeof TitleVisibilityBodySchema>;

export const TitleIdParamSchema = z.pipe(
  z.string().check(z.regex(/^\d{1,9}$/, { error: 'titleId must be a whole number' })),
  z.transform(Number),
);

/** What sign-up and sign-in answer (better-auth): the user; the session itself travels as an httpOnly cookie. */
export const AuthResultSchema = z.looseObject({
  user: z.looseObject({ id: z.string(), email: z.string(), name: z.string() }),
});
export type AuthResult = z.infer<typeof AuthResultSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Uploads (USER_UPLOAD): a teacher's own text, read as a private publication.

/** The form fields of POST /uploads besides the file (multipart/form-data; the file is the field `file`). */
export const UploadFieldsSchema = z.object({
  title: z.optional(z.string().check(z.trim(), z.maxLength(200, { error: 'title must be at most 200 characters' }))),
  language: z._default(LanguageCodeSchema, 'en'),
});
export type UploadFields = z.infer<typeof UploadFieldsSchema>;

/** One upload as POST /uploads answers it and GET /uploads lists it. */
export const UploadSchema = z.object({
  id: z.int(),
  slug: z.string(),
  title: z.string(),
  language: LanguageCodeSchema,
  editionId: z.int(),
  passageCount: z.int(),
  totalWords: z.int(),
  createdAt: z.string(),
  /** Where the reader opens it, e.g. /upload-3k9x2a7qfp/v1/en:original/1. */
  readerUrl: z.string(),
  /**
   * What the upload left out of the file, e.g. `{code:'images_dropped', message:'2 pictures were left out: …'}`.
   * Only in POST /uploads's 201 answer (empty for a text file); the list does not repeat them.
   */
  notes: z.optional(z.array(z.object({ code: z.string(), message: z.string() }))),
});
export type Upload = z.infer<typeof UploadSchema>;

/** GET /uploads: the signed-in teacher's uploads, newest first, with the limits that apply. */
export const UploadListSchema = z.object({
  items: z.array(UploadSchema),
  /** Whether this user may upload now (a TEACHER whose features include USER_UPLOAD). */
  canUpload: z.boolean(),
  /** maxBytes for a text file, maxDocumentBytes for a Word, EPUB or PDF document. */
  limits: z.object({ maxBytes: z.int(), maxDocumentBytes: z.int(), maxPassages: z.int(), maxUploads: z.int() }),
});
export type UploadList = z.infer<typeof UploadListSchema>;

/** A UTC day, 'YYYY-MM-DD'. */
const UtcDaySchema = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

/** One week of class activity (src/domain/classActivity.ts says what counts). */
export const ActivityWeekSchema = z.object({
  /** The week's first UTC day. */
  from: UtcDaySchema,
  /** The week's last UTC day (inclusive). */
  to: UtcDaySchema,
  /** 'Viewed Passage' events, one per reader, passage and day. */
  passagesRead: z.int().check(z.nonnegative()),
  /** The seconds of 'Paused Audio' and 'Closed Audio Player' events. */
  secondsListened: z.int().check(z.nonnegative()),
});

/** GET /users/me/class-activity: the teacher's class activity, as counts only. */
export const ClassActivitySchema = z.object({
  thisWeek: ActivityWeekSchema,
  lastWeek: ActivityWeekSchema,
  /** The most-read titles over the series' days, most read first. */
  topTitles: z
    .array(z.object({ title: z.string(), slug: z.string(), passagesRead: z.int().check(z.positive()) }))
    .check(z.maxLength(ACTIVITY_TOP_TITLES)),
  /** Passages read per UTC day, oldest first, today last; zero for days with none. */
  days: z.array(z.object({ date: UtcDaySchema, passagesRead: z.int().check(z.nonnegative()) })).check(z.length(ACTIVITY_SERIES_DAYS)),
});
export type ClassActivity = z.infer<typeof ClassActivitySchema>;
