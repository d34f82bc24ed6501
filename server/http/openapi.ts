/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests and type the client.
 *
 * Every operation lists every status it can send, each with its schema (tests/server/contract.test.ts sends every
 * operation's examples and a table of malformed requests, and checks each answer against this document). What
 * every operation shares is added by `operation()` below: the X-Client-Id header (400 invalid_header), the input
 * rule (400 invalid_parameter), the CSRF check of state-changing methods (403 csrf_rejected), 415 for a body that
 * is not of a documented media type, and 500.
 */
import { CLIENT_ID_RE } from '../kit/headers';
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig, type ZodContentObject } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  ApiErrorBodySchema,
  ExcerptSchema,
  PassageSchema,
  PingSchema,
  PublicationListSchema,
  PublicationSchema,
  QrTargetSchema,
  OnDemandEditionResultSchema,
  SORT_KEYS,
  CATALOG_FILTERS,
  DecodeResponseSchema,
  PassageAudioReadySchema,
  AudioGeneratingSchema,
  SpeechMarksReadySchema,
  CurrentUserSchema,
  UpdateRoleBodySchema,
  FeaturesSchema,
  GroupCodeResponseSchema,
  VisitorSchema,
  UserTitleSchema,
  UserTitlesSchema,
  TitleVisibilityBodySchema,
  AuthResultSchema,
  UploadSchema,
  UploadListSchema,
  ClassActivitySchema,
  SlugSchema,
  QrCodeSchema,
} from '../../src/domain/schemas';
import { LANGUAGE_CODES } from '../../src/domain/languages';
import { AnalyticsBatchSchema } from '../../src/domain/analyticsSchema';
import { SsoLinkBodySchema, SsoProvidersSchema, SsoRedirectSchema, SsoSignInBodySchema } from '../../src/domain/sso';
import { ROSTER_MEDIA_TYPES, RosterOrganizationIdSchema, RosterReportSchema, RosterStaffListSchema } from '../../src/domain/rosterSchemas';
import { MAX_SEARCH_LENGTH } from '../../src/domain/constants';
import { HealthSchema, ReadySchema } from './health';
import { LEVELS } from '../../src/domain/levels';
import { GROUP_CODE_REQUIRED_MESSAGE, LICENSE_REQUIRED_MESSAGE, PREMIUM_CONTENT_MESSAGE } from '../../src/domain/access';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../auth/passwords';
import { CSRF_MESSAGE } from './security';
import {
  MAX_EMAIL_LENGTH,
  MAX_IDENTIFIER_LENGTH,
  MAX_NAME_LENGTH,
  MAX_NESTING_DEPTH,
  MAX_TEXT_LENGTH,
  MAX_TOKEN_LENGTH,
  MAX_URL_LENGTH,
} from '../../src/domain/textRules';
import { EDGE_MAX_BODY_BYTES } from '../kit/edgeInput';

/** X-Client-Id as server/http/app.ts checks it on every /api/v1 request. */
const CLIENT_ID_PATTERN = CLIENT_ID_RE;

/** The session cookie (server/auth/auth.ts; `__Secure-lectern.session_token` over HTTPS). */
const SESSION_COOKIE = 'lectern.session_token';

const STATE_CHANGING = new Set(['post', 'put', 'patch', 'delete']);

type Method = 'get' | 'post' | 'patch' | 'delete';

/** One operation as registered here; `operation()` adds what every operation shares. */
interface Operation {
  method: Method;
  path: string;
  summary: string;
  description?: string;
  /** 'required': answers 401 without the session cookie; 'optional': the session changes the answer. */
  session?: 'required' | 'optional';
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: Record<string, z.ZodType>;
  body?: { content: ZodContentObject; required?: boolean; description?: string };
  responses: Record<number, ResponseConfig>;
}

let document: object | null = null;

export function buildOpenApiDocument(): object {
  if (document) return document;
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: "better-auth's httpOnly session cookie, set by sign-up, sign-in and single sign-on (`__Secure-lectern.session_token` over HTTPS).",
  });

  const ErrorBody = ApiErrorBodySchema.meta({ id: 'Errors' });
  const Publication = PublicationSchema.meta({ id: 'Publication' });
  const PublicationList = PublicationListSchema.meta({ id: 'PublicationList' });
  const Passage = PassageSchema.meta({ id: 'Passage' });
  const Excerpt = ExcerptSchema.meta({ id: 'Excerpt' });
  const json = (schema: z.ZodType, description: string): ResponseConfig => ({ description, content: { 'application/json': { schema } } });
  const err = (description: string) => json(ErrorBody, description);
  const jsonBody = (schema: z.ZodType, example: unknown) => ({ content: { 'application/json': { schema, example } }, required: true });
  const noContent = (description: string): ResponseConfig => ({ description });

  const clientIdHeader = z
    .string()
    .regex(CLIENT_ID_PATTERN)
    .optional()
    .meta({ description: 'Names the client in the logs: 1 to 64 letters, digits or dashes; anything else is 400 invalid_header.', example: 'reader-7f3a' });
  const groupCodeHeader = z
    .string()
    .optional()
    .meta({ description: 'A class code; ignored when signed in. A malformed or unknown code counts as a wrong code, and wrong codes are rate-limited (429).' });
  const ifNoneMatch = z.string().optional().meta({ description: 'An ETag of an earlier answer: 304 when it still matches.' });
  const notModified = noContent('Not Modified: If-None-Match matched the ETag.');

  /** Register an operation with what every one shares (see the file's comment). */
  function operation(op: Operation): void {
    const responses: Record<number, ResponseConfig> = { ...op.responses };
    const statePath = op.path.startsWith('/auth/');
    const invalidHeader = 'invalid_header: X-Client-Id is not 1 to 64 letters, digits or dashes.';
    const inputRule = 'invalid_parameter: a parameter or field is malformed, too long, or holds U+0000, a lone surrogate or a control character.';
    responses[400] = err(responses[400]?.description ? `${responses[400].description} Also ${invalidHeader}` : `${inputRule} Or ${invalidHeader}`);
    if (STATE_CHANGING.has(op.method)) {
      const csrf = `csrf_rejected ('${CSRF_MESSAGE}'): a cross-site request${statePath ? "; better-auth's own check answers missing_or_null_origin or invalid_origin" : ''}.`;
      const given = responses[403]?.description;
      responses[403] = err(given ? (given.includes('csrf_rejected') ? given : `${given} Or ${csrf}`) : csrf);
    }
    const mediaTypes = Object.keys(op.body?.content ?? {});
    if (mediaTypes.length && !responses[415]) {
      responses[415] = err(`unsupported_media_type: the body is not ${mediaTypes.join(' or ')}.`);
    }
    if (STATE_CHANGING.has(op.method)) {
      // The edge reads every JSON, text and form body up to EDGE_MAX_BODY_BYTES (server/kit/edgeInput.ts).
      const tooLarge = `payload_too_large: a JSON, text or form body over ${EDGE_MAX_BODY_BYTES / (1024 * 1024)} MB.`;
      const given = responses[413]?.description;
      responses[413] = err(given ? `${given} Or ${tooLarge}` : tooLarge);
    }
    responses[500] = err('internal_error: an unexpected fault; no internals are exposed.');
    const headers = z.object({ 'x-client-id': clientIdHeader, ...op.headers });
    const config: RouteConfig = {
      method: op.method,
      path: op.path,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(op.session === 'required' ? { security: [{ session: [] }] } : op.session === 'optional' ? { security: [{}, { session: [] }] } : {}),
      request: { headers, params: op.params, query: op.query, body: op.body },
      responses,
    };
    registry.registerPath(config);
  }

  // ---- service -------------------------------------------------------------------------------------------------
  operation({ method: 'get', path: '/ping', summary: 'Reachability', responses: { 200: json(PingSchema, 'The API is up.') } });
  operation({
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    responses: { 200: json(z.looseObject({ openapi: z.literal('3.1.0') }), 'The OpenAPI 3.1 document.') },
  });
  // Health (server/http/health.ts, docs/operations.md): liveness, and readiness for load balancers.
  operation({ method: 'get', path: '/health', summary: 'Liveness', responses: { 200: json(HealthSchema, 'The process serves HTTP.') } });
  operation({
    method: 'get',
    path: '/health/ready',
    summary: 'Readiness: the database answers select 1 and the audio store is usable',
    responses: {
      200: json(ReadySchema, 'Ready for traffic.'),
      503: err('Not ready: database_unavailable, audio_store_unavailable (one error per failed check), shutting_down after SIGTERM, or not_ready (no checks configured).'),
    },
  });

  // ---- content -------------------------------------------------------------------------------------------------
  // Gating (src/domain/access.ts, server/access; docs/api.md "Gating"): who asks is the session cookie, else a class
  // code in X-Group-Code (its teacher's features on the titles they ASSIGNED), else no one. Checking a class code
  // counts wrong ones against limits that fail closed (server/auth/limits.ts).
  const classCode = {
    429: err('rate_limited: too many wrong class codes, with Retry-After in seconds.'),
    503: err('rate_limit_unavailable: a class code was sent and its attempts cannot be counted right now (Retry-After: 60).'),
  };
  const gated = {
    403: err(
      `license_required ('${LICENSE_REQUIRED_MESSAGE}') when a feature is missing; group_code_required ('${GROUP_CODE_REQUIRED_MESSAGE}') for a class code that does not resolve.`,
    ),
    ...classCode,
  };
  const actorHeaders = { 'x-group-code': groupCodeHeader };
  const cachedHeaders = { ...actorHeaders, 'if-none-match': ifNoneMatch };
  const slugParams = z.object({ publicationSlug: SlugSchema.meta({ example: 'alpha-owls' }) });
  const versionParam = z.string().regex(/^[vV]\d{1,6}$/);
  const wholeNumber = z.number().int().min(0).max(999_999_999);

  operation({
    method: 'get',
    path: '/publications',
    summary: 'The catalog: search, sort, Language and Level filters and server-side paging',
    session: 'optional',
    headers: cachedHeaders,
    query: z.object({
      search: z.string().max(MAX_SEARCH_LENGTH).optional().meta({ example: 'owls' }),
      sort: z.enum(SORT_KEYS).optional().meta({ example: 'title_a_z' }),
      page: z.number().int().min(1).max(999_999_999).optional().meta({ example: 1 }),
      pageSize: z.number().int().min(1).max(100).optional().meta({ example: 16 }),
      filter: z
        .enum(CATALOG_FILTERS)
        .optional()
        .meta({
          description: "Signed-in teachers only: 'assigned' or 'unassigned' narrow the list to their ASSIGNED titles or the rest; 'all' (default) changes nothing.",
          example: 'all',
        }),
      languages: z
        .string()
        .max(200)
        .optional()
        .meta({
          description:
            "Language filter, for everyone: comma-separated codes ('ar,es'), any case. A title matches when one of its editions is in a chosen language (and, with levels, at a chosen level). Unknown codes: 400.",
          example: 'en,es',
        }),
      levels: z
        .string()
        .max(200)
        .optional()
        .meta({ description: "Level filter, for everyone: comma-separated levels ('SILVER,GOLD'), any case. Unknown levels: 400.", example: 'ORIGINAL,GOLD' }),
    }),
    responses: {
      200: json(PublicationList, "One page of publications; with a valid class code and no session, only the teacher's ASSIGNED titles (private, no-store)."),
      304: notModified,
      400: err('invalid_parameter: a bad page, pageSize, sort, filter, an unknown language or level, or a search over 200 characters.'),
      403: err("forbidden: assigned/unassigned asked by someone who is not a signed-in teacher; invalid_group_code ('Invalid Class Code') for a class code that does not resolve."),
      ...classCode,
    },
  });
  operation({
    method: 'get',
    path: '/publications/{publicationSlug}',
    summary: 'One publication with its editions',
    session: 'optional',
    headers: cachedHeaders,
    params: slugParams,
    query: z.object({ publicationVersion: versionParam.optional().meta({ example: 'v1' }) }),
    responses: {
      200: json(Publication, 'The publication.'),
      304: notModified,
      400: err('invalid_parameter: a malformed slug or version.'),
      403: err(`premium_content ('${PREMIUM_CONTENT_MESSAGE}'): a premium title for someone without LEVELS.`),
      404: err("not_found: 'Publication not found' (also another teacher's upload)."),
      ...classCode,
    },
  });
  operation({
    method: 'get',
    path: '/publications/{publicationSlug}/editions/passage',
    summary: 'A plain-text excerpt for the teaser page',
    session: 'optional',
    headers: cachedHeaders,
    params: slugParams,
    query: z.object({
      publicationVersion: versionParam.optional().meta({ example: 'v1' }),
      language: z.enum(LANGUAGE_CODES).optional().meta({ example: 'en' }),
      level: z.enum(LEVELS).optional().meta({ example: 'ORIGINAL' }),
      position: z.number().int().min(1).max(999_999_999).optional().meta({ example: 1 }),
    }),
    responses: {
      200: json(Excerpt, 'The excerpt.'),
      304: notModified,
      404: err("not_found: 'Publication not found', 'Edition not found' or 'Passage not found'."),
      ...gated,
    },
  });
  operation({
    method: 'get',
    path: '/publications/{publicationSlug}/editions/epub',
    summary:
      'The edition as an EPUB 3 with media overlays (docs/epub.md): sentence ids, SMIL clips of the narration MP3s, accessibility metadata. Narration the asker may not hear is left out; missing narration is made first',
    session: 'optional',
    headers: actorHeaders,
    params: slugParams,
    query: z.object({
      publicationVersion: versionParam.optional().meta({ example: 'v1' }),
      language: z.enum(LANGUAGE_CODES).meta({ example: 'en' }),
      level: z.enum(LEVELS).meta({ example: 'ORIGINAL' }),
    }),
    responses: {
      200: { description: 'The book, as an attachment named <slug>.<language>.<LEVEL>.epub.', content: { 'application/epub+zip': { schema: z.string().meta({ format: 'binary' }) } } },
      404: err("not_found: 'Publication not found' or 'Edition not found'."),
      ...gated,
      503: err(
        'narration_generating: the narration is still being made after two minutes (Retry-After: 30); or rate_limit_unavailable: a class code was sent and its attempts cannot be counted right now (Retry-After: 60).',
      ),
    },
  });
  operation({
    method: 'post',
    path: '/publications/{publicationSlug}/sources/on-demand',
    summary: "Build a missing edition from a source in the library or through a translation provider; 404 'Passage not found' when neither exists",
    session: 'optional',
    headers: actorHeaders,
    params: slugParams,
    body: jsonBody(
      z.object({ version: z.union([versionParam, z.number().int().min(1)]), languageCode: z.enum(LANGUAGE_CODES), level: z.enum(LEVELS) }),
      { version: 'v1', languageCode: 'es', level: 'GOLD' },
    ),
    responses: {
      200: json(OnDemandEditionResultSchema, 'The edition already existed.'),
      201: json(OnDemandEditionResultSchema, 'The edition was built.'),
      404: err("not_found: 'Publication not found', or 'Passage not found' when the edition cannot be built."),
      ...gated,
    },
  });
  operation({
    method: 'get',
    path: '/passages',
    summary:
      "One passage of an edition. A position of 0 or less is 404 'Passage not found'. Gated text answers 200 with text '' and licenseRequired or groupCodeRequired; textDecoded and audio only for DECODE and AUDIO holders.",
    session: 'optional',
    headers: cachedHeaders,
    query: z.object({ editionId: wholeNumber.meta({ example: 3 }), position: z.number().int().min(-999_999_999).max(999_999_999).meta({ example: 1 }) }),
    responses: {
      200: json(Passage, 'The passage, or its blocked state (private, no-store when it depended on who asked).'),
      304: notModified,
      400: err("invalid_parameter: 'editionId is required', 'position is required', or not whole numbers."),
      404: err("not_found: 'Passage not found', 'Edition not found'."),
      ...classCode,
    },
  });
  const passageIdParam = z.object({ passageId: wholeNumber.meta({ example: 7 }) });
  const generating = json(AudioGeneratingSchema, 'Narration is being made; ask again after Retry-After seconds.');
  // With AUDIO_STORE (docs/narration.md): a narration waited for that the object store could not keep.
  const narrationUnavailable = {
    503: err('audio_store_unavailable: the audio store (AUDIO_STORE) failed; or rate_limit_unavailable: a class code was sent and its attempts cannot be counted. Retry-After says when to ask again.'),
  };
  const narrationErrors = {
    404: err("not_found: 'Passage not found' (or not in editionId), 'Audio not available' for a language without a voice or a server without narration."),
    ...gated,
    ...narrationUnavailable,
  };
  /** A narration route's answers other than its 200: being made (202), unchanged (304), or an error. */
  const narrationAnswers = { 202: generating, 304: notModified, ...narrationErrors };
  const passageNarration = { 200: json(PassageAudioReadySchema, 'The narration is ready.'), ...narrationAnswers };
  const optionalEditionId = z.object({ editionId: wholeNumber.optional().meta({ example: 3 }) });
  operation({
    method: 'get',
    path: '/passages/{passageId}/decode',
    summary: 'Decode mode: the passage as markup with phonics classes (English only; docs/phonics.md).',
    session: 'optional',
    headers: actorHeaders,
    params: passageIdParam,
    query: z.object({ editionId: wholeNumber.optional().meta({ example: 3 }), position: z.number().int().min(-999_999_999).max(999_999_999).optional().meta({ example: 1 }) }),
    responses: {
      200: json(DecodeResponseSchema, 'The decoded text (DECODE).'),
      404: err("not_found: 'Passage not found' (or not at editionId and position), or decode not available for the passage's language."),
      ...gated,
    },
  });
  /** What the two routes of a passage's narration by its id share (…/audio and …/audioOnly/onDemand). */
  const passageNarrationRoute = {
    method: 'get',
    session: 'optional',
    headers: cachedHeaders,
    params: passageIdParam,
    query: optionalEditionId,
    responses: passageNarration,
  } as const;
  operation({
    ...passageNarrationRoute,
    path: '/passages/{passageId}/audio',
    summary: "A passage's narration: the MP3 address, its duration and speech marks. 404 'Audio not available' for a language without a voice.",
  });
  operation({
    method: 'get',
    path: '/passages/audioOnly',
    summary:
      'The narration of the passage at a position of an edition (the listen page). When the text itself is gated, 200 with the passage in its blocked state (as GET /passages); readable text with locked narration is 403 license_required.',
    session: 'optional',
    headers: cachedHeaders,
    query: z.object({ editionId: wholeNumber.meta({ example: 3 }), position: z.number().int().min(-999_999_999).max(999_999_999).meta({ example: 1 }) }),
    responses: {
      200: json(z.union([PassageAudioReadySchema, Passage]), 'The narration is ready, or the blocked passage.'),
      ...narrationAnswers,
      404: err("not_found: 'Passage not found', 'Edition not found', 'Audio not available'."),
    },
  });
  operation({
    ...passageNarrationRoute,
    path: '/passages/{passageId}/audioOnly/onDemand',
    summary: 'The narration of one passage, made now if it is not made yet (it jumps the queue).',
  });
  operation({
    method: 'get',
    path: '/passages/{passageId}/speechMarks',
    summary: 'Word speech marks: a JavaScript string offset into the served text and a time in ms, rising strictly.',
    session: 'optional',
    headers: cachedHeaders,
    params: passageIdParam,
    responses: { 200: json(SpeechMarksReadySchema, 'The speech marks.'), ...narrationAnswers },
  });
  operation({
    method: 'get',
    path: '/qr/{qrCode}',
    summary: 'Where a printed QR code leads',
    params: z.object({ qrCode: QrCodeSchema.meta({ example: 'owls-1' }) }),
    responses: {
      200: json(QrTargetSchema, 'The target URL (same-origin path).'),
      400: err('invalid_parameter: not 1 to 64 letters, digits or dashes.'),
      404: err("not_found: 'QR code not found'."),
    },
  });

  // ---- accounts: better-auth under /auth/* (server/auth/http.ts rewrites its errors into our shape) --------------
  // Every POST, PUT, PATCH and DELETE must carry an Origin (or Referer) of this site when it sends cookies: 403 csrf_rejected.
  const CurrentUser = CurrentUserSchema.meta({ id: 'CurrentUser' });
  const UserTitle = UserTitleSchema.meta({ id: 'UserTitle' });
  const unauthorized = err('unauthorized: not signed in.');
  const rateLimited = (what: string) => err(`rate_limited: ${what}, with Retry-After in seconds.`);
  const countersDown = err('rate_limit_unavailable: the attempts cannot be counted right now, so the request is refused (Retry-After: 60).');
  const email = z.email().max(MAX_EMAIL_LENGTH);
  const password = z.string().min(MIN_PASSWORD_LENGTH).max(MAX_PASSWORD_LENGTH);
  const id = z.string().min(1).max(MAX_IDENTIFIER_LENGTH);
  const url = z.string().max(MAX_URL_LENGTH);
  const AuthUser = z.looseObject({ id: z.string(), email: z.string(), name: z.string(), emailVerified: z.boolean() });
  const Invitation = z
    .looseObject({
      id: z.string(),
      email: z.string(),
      role: z.string(),
      status: z.enum(['pending', 'accepted', 'canceled', 'rejected']),
      organizationId: z.string(),
      inviterId: z.string(),
      expiresAt: z.string(),
      createdAt: z.string(),
    })
    .meta({ id: 'Invitation' });
  const Member = z
    .looseObject({
      id: z.string(),
      organizationId: z.string(),
      userId: z.string(),
      role: z.string(),
      createdAt: z.string(),
      user: z.looseObject({ id: z.string(), name: z.string(), email: z.string(), image: z.string().nullable() }),
    })
    .meta({ id: 'Member' });
  const organizationAdmin = err("forbidden: not an admin (owner or admin) of the organization ('Only an admin of this organization can manage its members and invitations.').");
  const organizationQuery = z.object({
    organizationId: id.optional().meta({ description: "The organization; without it, the session's active organization (400 when there is none).", example: 'org-id' }),
  });

  operation({
    method: 'post',
    path: '/auth/sign-up/email',
    summary: `Create an account and sign in (better-auth). The password has ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters and is not a common one; the name at most ${MAX_NAME_LENGTH}.`,
    body: jsonBody(z.object({ email, password, name: z.string().min(1).max(MAX_NAME_LENGTH) }), {
      email: 'grace@example.org',
      password: 'violet-harbor-lantern',
      name: 'Grace Hopper',
    }),
    responses: {
      200: json(AuthResultSchema, 'Signed up and in; the session cookie is set.'),
      400: err('weak_password, or invalid_parameter (email, name, a password over the longest allowed).'),
      409: err("email_taken: 'An account with this email already exists. Sign in instead.'"),
      429: rateLimited('too many sign-ups from this network'),
    },
  });
  operation({
    method: 'post',
    path: '/auth/sign-in/email',
    summary: 'Sign in (better-auth). Failed attempts are limited per email and per IP address.',
    body: jsonBody(z.object({ email, password: z.string().min(1).max(MAX_PASSWORD_LENGTH), rememberMe: z.boolean().optional() }), {
      email: 'ada@example.org',
      password: 'violet-harbor-lantern',
    }),
    responses: {
      200: json(AuthResultSchema, 'Signed in; the session cookie is set.'),
      400: err('invalid_parameter: a missing or malformed email or password.'),
      401: err("invalid_credentials: 'The email or password is incorrect.'"),
      429: rateLimited('too many failed sign-ins for this email or from this address'),
      503: countersDown,
    },
  });
  operation({
    method: 'post',
    path: '/auth/sign-out',
    summary: 'End the session on the server and clear its cookie; no body is needed. Without a session it answers the same.',
    responses: {
      200: json(z.object({ success: z.boolean() }), 'Signed out.'),
      415: err('unsupported_media_type: a body that is not application/json.'),
    },
  });
  operation({
    method: 'get',
    path: '/auth/get-session',
    summary: 'The session and its user, or null when signed out. session.activeOrganizationId is the organization a new session starts in.',
    session: 'optional',
    responses: {
      200: json(
        z
          .object({
            session: z.looseObject({ id: z.string(), userId: z.string(), expiresAt: z.string(), activeOrganizationId: z.string().nullable().optional() }),
            user: AuthUser,
          })
          .nullable(),
        'The session, or null.',
      ),
    },
  });
  // Forgot password (server/auth/passwordReset.ts).
  operation({
    method: 'post',
    path: '/auth/request-password-reset',
    summary:
      'Mail a single-use link to /reset-password?token=… (1 hour) when the address has an account. The answer is the same for every address. Limited per email and per IP address.',
    body: jsonBody(z.object({ email }), { email: 'ada@example.org' }),
    responses: {
      200: json(z.object({ status: z.literal(true), message: z.string() }), "'If an account exists for that address, we sent a link.'"),
      400: err('invalid_parameter: not an email address.'),
      429: rateLimited('too many password reset requests for this address or from this network'),
      503: countersDown,
    },
  });
  operation({
    method: 'post',
    path: '/auth/reset-password',
    summary: "Set a new password with a reset link's token (sign-up's rules). The token is spent and every session of the user ends.",
    body: jsonBody(z.object({ token: z.string().min(1).max(MAX_TOKEN_LENGTH), newPassword: password }), { token: 'reset-token-from-the-mail', newPassword: 'amber-meadow-compass' }),
    responses: {
      200: json(z.object({ status: z.literal(true) }), 'Changed; sign in with the new password.'),
      400: err('invalid_token (used, expired or unknown), weak_password, or invalid_parameter.'),
    },
  });
  // Verified email change (server/auth/emailChange.ts).
  operation({
    method: 'post',
    path: '/auth/change-email',
    summary:
      'Ask to change the email: nothing changes yet; a link to GET /auth/verify-email (24 hours) goes to the new address. A taken address gets the same answer and no mail.',
    session: 'required',
    body: jsonBody(z.object({ newEmail: email, callbackURL: url.optional() }), { newEmail: 'ada.lovelace@example.org', callbackURL: '/account' }),
    responses: {
      200: json(z.object({ status: z.literal(true) }), 'The link was sent (or the address is taken).'),
      400: err('invalid_parameter: not an email address.'),
      401: unauthorized,
      429: rateLimited('too many email change requests for this address or from this network'),
      503: countersDown,
    },
  });
  operation({
    method: 'get',
    path: '/auth/verify-email',
    summary:
      "The link of an email change's mail: applies the change and redirects to callbackURL (an invitee's confirmation link marks the email verified instead). A bad or expired token redirects to callbackURL?error=INVALID_TOKEN (or TOKEN_EXPIRED) and changes nothing.",
    query: z.object({
      token: z.string().max(MAX_TOKEN_LENGTH).meta({ description: 'The signed token of the link; a bad one (also an empty one) redirects with error=INVALID_TOKEN.', example: 'token-from-the-mail' }),
      callbackURL: url.optional().meta({ example: '/account' }),
    }),
    responses: {
      302: noContent('To callbackURL: applied; or to callbackURL?error=INVALID_TOKEN or TOKEN_EXPIRED.'),
      400: err("invalid_token: without callbackURL, a bad or expired token ('This email confirmation link is no longer valid: …')."),
    },
  });
  operation({
    method: 'post',
    path: '/auth/change-password',
    summary: "Change the password (Manage Account): the current one, and a new one by sign-up's rules. revokeOtherSessions ends every other session.",
    session: 'required',
    body: jsonBody(
      z.object({ currentPassword: z.string().min(1).max(MAX_PASSWORD_LENGTH), newPassword: password, revokeOtherSessions: z.boolean().optional() }),
      { currentPassword: 'violet-harbor-lantern', newPassword: 'amber-meadow-compass', revokeOtherSessions: true },
    ),
    responses: {
      200: json(z.looseObject({ token: z.string().nullable(), user: AuthUser }), 'Changed; with revokeOtherSessions a new session cookie is set.'),
      400: err("invalid_credentials ('The password is incorrect.'), weak_password, or invalid_parameter."),
      401: unauthorized,
    },
  });
  operation({
    method: 'post',
    path: '/auth/update-user',
    summary: `Change the account's name (Manage Account), at most ${MAX_NAME_LENGTH} characters. The email changes only through change-email.`,
    session: 'required',
    body: jsonBody(z.object({ name: z.string().min(1).max(MAX_NAME_LENGTH) }), { name: 'Ada Lovelace' }),
    responses: {
      200: json(z.object({ status: z.literal(true) }), 'Changed.'),
      400: err('invalid_parameter, or email_can_not_be_updated (an email in the body).'),
      401: unauthorized,
    },
  });
  operation({
    method: 'get',
    path: '/auth/list-accounts',
    summary: "How the signed-in user signs in (Manage Account's Password section): one entry per way, providerId 'credential' for a password, 'sso-<org slug>', 'google' or 'microsoft' for single sign-on.",
    session: 'required',
    responses: {
      200: json(z.array(z.looseObject({ id: z.string(), providerId: z.string(), accountId: z.string() })), 'The ways in.'),
      401: unauthorized,
    },
  });

  // Manage Organization: better-auth's organization plugin, with our checks in front (server/auth/organizations.ts).
  operation({
    method: 'get',
    path: '/auth/organization/list-members',
    summary: "The organization's members with their users (admins only).",
    session: 'required',
    query: organizationQuery,
    responses: {
      200: json(z.looseObject({ members: z.array(Member), total: z.number().int() }), 'The members.'),
      400: err('invalid_parameter: no organizationId and no active organization.'),
      401: unauthorized,
      403: organizationAdmin,
    },
  });
  operation({
    method: 'get',
    path: '/auth/organization/list-invitations',
    summary: "Every invitation of the organization, with its status (admins only).",
    session: 'required',
    query: organizationQuery,
    responses: {
      200: json(z.array(Invitation), 'The invitations.'),
      400: err('invalid_parameter: no organizationId and no active organization.'),
      401: unauthorized,
      403: organizationAdmin,
    },
  });
  operation({
    method: 'post',
    path: '/auth/organization/invite-member',
    summary: "Invite an address as member or admin (admins only); the invitation is mailed with its link /accept-invitation/{id}. A pending invitation for the same email is cancelled.",
    session: 'required',
    body: jsonBody(z.object({ email, role: z.enum(['member', 'admin']), organizationId: id.optional() }), {
      email: 'grace@example.org',
      role: 'member',
      organizationId: 'org-id',
    }),
    responses: {
      200: json(Invitation, "The invitation, status 'pending'."),
      400: err('invalid_parameter: the email, the role, or no organization.'),
      401: unauthorized,
      403: organizationAdmin,
      409: err('already_member, or already_invited.'),
    },
  });
  operation({
    method: 'post',
    path: '/auth/organization/cancel-invitation',
    summary: 'Cancel an invitation (admins only).',
    session: 'required',
    body: jsonBody(z.object({ invitationId: id }), { invitationId: 'invitation-id' }),
    responses: {
      200: json(Invitation, "The invitation, status 'canceled'."),
      400: err('invalid_parameter: no invitationId.'),
      401: unauthorized,
      403: organizationAdmin,
      404: err('invitation_not_found.'),
    },
  });
  operation({
    method: 'post',
    path: '/auth/organization/remove-member',
    summary: "Remove a member, by member id or email (admins only); they lose the organization's features at once.",
    session: 'required',
    body: jsonBody(z.object({ memberIdOrEmail: id, organizationId: id.optional() }), { memberIdOrEmail: 'grace@example.org', organizationId: 'org-id' }),
    responses: {
      200: json(z.looseObject({ member: Member }), 'The removed member.'),
      400: err('invalid_parameter, or cannot_remove_yourself.'),
      401: unauthorized,
      403: organizationAdmin,
      404: err('member_not_found.'),
    },
  });
  operation({
    method: 'get',
    path: '/auth/organization/get-invitation',
    summary: 'An invitation for the signed-in invitee (Accept Invitation), with the school and the inviter.',
    session: 'required',
    query: z.object({ id: id.meta({ example: 'invitation-id' }) }),
    responses: {
      200: json(Invitation.extend({ organizationName: z.string(), organizationSlug: z.string(), inviterEmail: z.string() }), 'The invitation.'),
      400: err('invalid_parameter: no id.'),
      401: unauthorized,
      403: err('not_invitation_recipient: the invitation is for another email.'),
      404: err('invitation_not_found: unknown, cancelled, accepted or expired.'),
    },
  });
  operation({
    method: 'post',
    path: '/auth/organization/accept-invitation',
    summary: "Accept an invitation (the invited account, with a verified email): the user becomes a member and holds the license's features; the session's active organization is this one.",
    session: 'required',
    body: jsonBody(z.object({ invitationId: id }), { invitationId: 'invitation-id' }),
    responses: {
      200: json(z.looseObject({ invitation: Invitation, member: z.looseObject({ id: z.string(), userId: z.string(), organizationId: z.string(), role: z.string() }) }), 'Accepted.'),
      400: err('invalid_parameter: no invitationId.'),
      401: unauthorized,
      403: err("not_invitation_recipient, or email_not_verified ('Confirm your email address to accept this invitation: …')."),
      404: err('invitation_not_found: unknown, cancelled, accepted or expired.'),
    },
  });
  // Verified invitations (server/auth/addressConfirmation.ts).
  operation({
    method: 'post',
    path: '/invitations/{invitationId}/confirmation-email',
    summary:
      "Mail the signed-in invitee a new link that confirms their address (24 hours); opening it verifies the email and comes back to /accept-invitation/{invitationId}, where accept-invitation then works (it answers 403 email_not_verified before). Limited per address and per IP address.",
    session: 'required',
    params: z.object({ invitationId: id.meta({ example: 'invitation-id' }) }),
    responses: {
      200: json(z.object({ status: z.literal(true), email: z.string() }), 'Sent to the invited address.'),
      400: err('invalid_parameter: a malformed invitation id.'),
      401: unauthorized,
      403: err('not_invitation_recipient: the invitation is for another email.'),
      404: err('invitation_not_found: unknown, cancelled, accepted or expired.'),
      409: err('email_already_verified: accept the invitation instead.'),
      429: rateLimited('too many confirmation emails for this address or from this network'),
      503: countersDown,
    },
  });

  // ---- users (server/users/http.ts) ------------------------------------------------------------------------------
  operation({
    method: 'get',
    path: '/users/me',
    summary: 'The signed-in user: role, features (from valid school licenses), class code, organization memberships (org:admin for admins).',
    session: 'required',
    responses: { 200: json(CurrentUser, 'The user.'), 401: unauthorized },
  });
  operation({
    method: 'patch',
    path: '/users/me/role',
    summary: 'Set the role: INDIVIDUAL or TEACHER.',
    session: 'required',
    body: jsonBody(UpdateRoleBodySchema, { role: 'TEACHER' }),
    responses: { 200: json(CurrentUser, 'The updated user.'), 400: err('invalid_parameter: not a role.'), 401: unauthorized },
  });
  operation({
    method: 'post',
    path: '/users/me/group-code',
    summary: "Replace the teacher's class code (teachers with GROUP_CODES); the old code stops working at once.",
    session: 'required',
    responses: {
      200: json(GroupCodeResponseSchema, 'The new code.'),
      401: unauthorized,
      403: err('forbidden: not a teacher with a school license that includes GROUP_CODES.'),
    },
  });
  operation({
    method: 'get',
    path: '/users/me/class-activity',
    summary:
      "The teacher's class activity, counts only: passages read (one per reader, passage and UTC day) and seconds listened, this week (the last 7 UTC days, today included) and last week (the 7 before), by readers who used the teacher's class code; the five most-read titles of the last 28 days; passages read per UTC day over 28 days, zeros filled in.",
    session: 'required',
    responses: {
      200: json(ClassActivitySchema.meta({ id: 'ClassActivity' }), 'The counts.'),
      401: unauthorized,
      403: err("forbidden: 'Only teachers can see class activity.'"),
    },
  });
  operation({
    method: 'get',
    path: '/features/me',
    summary: "The signed-in user's features.",
    session: 'required',
    responses: { 200: json(FeaturesSchema, 'The features.'), 401: unauthorized },
  });
  const exampleCode = { 'x-group-code': groupCodeHeader.meta({ example: 'K7Q2M9XD' }) };
  operation({
    method: 'get',
    path: '/visitors/me',
    summary:
      'Check the class code in X-Group-Code: groupCodeValid and the features it carries ({groupCodeValid:false} for a missing, malformed, unknown or retired code). Wrong codes are limited per client id and IP.',
    headers: exampleCode,
    responses: { 200: json(VisitorSchema, 'The visitor.'), ...classCode },
  });
  operation({
    method: 'get',
    path: '/users/titles',
    summary: "A teacher's titles with their statuses; or, for a class code (X-Group-Code) and no session, the class's ASSIGNED titles.",
    session: 'optional',
    headers: exampleCode,
    responses: {
      200: json(UserTitlesSchema, 'The titles.'),
      401: err('unauthorized: neither a session nor a class code.'),
      403: err("invalid_group_code: 'Invalid Class Code'."),
      ...classCode,
    },
  });
  operation({
    method: 'patch',
    path: '/users/titles/{titleId}/visibility',
    summary: 'Show a title to students (ASSIGNED) or hide it (BLOCKED). Teachers only; titleId is the publication id.',
    session: 'required',
    params: z.object({ titleId: wholeNumber.meta({ example: 1 }) }),
    body: jsonBody(TitleVisibilityBodySchema, { status: 'ASSIGNED' }),
    responses: {
      200: json(UserTitle, 'The title and its status.'),
      400: err('invalid_parameter: a bad titleId or status.'),
      401: unauthorized,
      403: err("forbidden: 'Only teachers can change title visibility.'"),
      404: err("not_found: 'Publication not found'."),
    },
  });

  // ---- uploads (USER_UPLOAD): a teacher's text as a private publication (server/uploads) ------------
  // Private publications answer the content routes only for their owner and the owner's class code; others get 404.
  const Upload = UploadSchema.meta({ id: 'Upload' });
  operation({
    method: 'post',
    path: '/uploads',
    summary:
      'Upload a document (.txt or .md in UTF-8, .docx, .epub, or a .pdf with a text layer) as a private publication with one ORIGINAL edition, split into passages (docs/content-format.md says what is kept from each format). Teachers with USER_UPLOAD.',
    session: 'required',
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: z.object({
            file: z.string().meta({ format: 'binary', description: 'The document (field `file`), named .txt, .md, .markdown, .docx, .epub or .pdf.' }),
            title: z.string().max(200).optional(),
            language: z.enum(LANGUAGE_CODES).optional(),
          }),
          example: { file: 'The Lighthouse\n\nThe keeper climbed the stairs at dusk.\n\nThe lamp turned all night.', title: 'The Lighthouse', language: 'en' },
        },
      },
    },
    responses: {
      201: json(Upload, 'The upload; read it at readerUrl. `notes` says what was left out (images in a Word document).'),
      400: err('empty_file, missing_file, too_many_passages, invalid_text (one error per problem), invalid_parameter, corrupt_file, archive_too_large, unsafe_archive, document_too_long.'),
      401: unauthorized,
      403: err('forbidden: not a teacher with USER_UPLOAD.'),
      413: err('file_too_large (over MAX_UPLOAD_BYTES for text, MAX_DOCUMENT_BYTES for a document).'),
      415: err('unsupported_file_type (a type not taken, an old .doc, text not in UTF-8), file_type_mismatch (the content is not what its name or type says) or unsupported_media_type (not multipart/form-data).'),
      422: err('drm_protected (an EPUB with DRM), encrypted_file or password_protected (an encrypted document), no_text_layer (a scanned PDF).'),
      429: err('upload_limit: the teacher keeps the most uploads allowed.'),
    },
  });
  operation({
    method: 'get',
    path: '/uploads',
    summary: "The signed-in user's uploads (newest first), whether they may upload, and the limits.",
    session: 'required',
    responses: { 200: json(UploadListSchema.meta({ id: 'UploadList' }), 'The uploads.'), 401: unauthorized },
  });
  operation({
    method: 'get',
    path: '/uploads/cover.svg',
    summary: 'The cover every upload shows.',
    responses: { 200: { description: 'An SVG image.', content: { 'image/svg+xml': { schema: z.string() } } } },
  });
  operation({
    method: 'delete',
    path: '/uploads/{slug}',
    summary: "Delete one of the signed-in user's uploads, with its passages.",
    session: 'required',
    params: z.object({ slug: SlugSchema.meta({ example: 'the-lighthouse' }) }),
    responses: {
      204: noContent('Deleted.'),
      400: err('invalid_parameter: a malformed slug.'),
      401: unauthorized,
      404: err("not_found: 'Upload not found' (also another teacher's)."),
    },
  });

  // ---- first-party analytics (server/analytics): the tracked events of SPEC §4, without IP, user id or free text.
  const AnalyticsBatch = AnalyticsBatchSchema.meta({ id: 'AnalyticsBatch' });
  const eventsExample = {
    clientId: '0b6f8a52-3c1d-4f7e-9a2b-5d4c3b2a1f0e',
    events: [
      { name: 'Viewed Passage', at: '2026-03-02T09:15:00Z', publication: 'alpha-owls', editionId: 3, position: 1 },
      { name: 'Paused Audio', at: '2026-03-02T09:16:30Z', publication: 'alpha-owls', editionId: 3, position: 1, seconds: 42 },
    ],
  };
  operation({
    method: 'post',
    path: '/events',
    summary:
      "Store a batch of tracked events (SPEC §4) from one browser. JSON, also sent as text/plain by sendBeacon. At most one request a second per clientId and 10 KB. The class owner comes from X-Group-Code (or the body's groupCode).",
    headers: { 'x-group-code': groupCodeHeader },
    body: {
      required: true,
      content: {
        'application/json': { schema: AnalyticsBatch, example: eventsExample },
        'text/plain': { schema: AnalyticsBatch, example: eventsExample },
      },
    },
    responses: {
      202: json(z.object({ accepted: z.number().int() }), 'Stored; accepted is the number of events.'),
      400: err('invalid_parameter: an unknown event name, an unknown key, a malformed clientId, time or slug, seconds on an event other than the listening ones (every problem listed).'),
      413: err('payload_too_large: the body is over 10 KB.'),
      415: err('unsupported_media_type: neither application/json nor text/plain.'),
      429: rateLimited('a second batch from the same clientId within a second'),
    },
  });

  // ---- single sign-on (server/sso, docs/sso.md) ----------------------------------------------------
  // The provider comes back to better-auth's GET /auth/callback/{providerId}, which redirects to the page asked for or to /sign-in?error=<code>.
  operation({
    method: 'get',
    path: '/sso/providers',
    summary: 'Which platform sign-ins are configured (Continue with Google / Microsoft); for a signed-in user, the school whose provider their address routes to.',
    session: 'optional',
    responses: { 200: json(SsoProvidersSchema.meta({ id: 'SsoProviders' }), 'The providers.') },
  });
  operation({
    method: 'post',
    path: '/sso/sign-in',
    summary:
      "Start a single sign-on: a school address (routed by its domain to its organization's OpenID provider) or a platform provider. Answers the provider's address (authorization code flow, PKCE S256, state and nonce) and sets the state cookie; the browser navigates there in full.",
    body: jsonBody(SsoSignInBodySchema, { provider: 'google', redirectUrl: '/catalog' }),
    responses: {
      200: json(SsoRedirectSchema.meta({ id: 'SsoRedirect' }), "The provider's address."),
      400: err("invalid_parameter: not an address, an unknown provider, an extra field, or a redirectUrl on another domain ('Navigation to a different domain is blocked.')."),
      404: err("sso_not_configured: no provider for this address's domain, or the platform provider is not configured."),
      429: rateLimited('too many single sign-on starts from this network'),
      503: err("sso_provider_unavailable: the school's provider did not answer its discovery."),
    },
  });
  operation({
    method: 'post',
    path: '/sso/link',
    summary:
      "Link a provider's account to the signed-in one (Manage Account): the school of the account's address, or a platform provider. Answers the provider's address; the round trip ends at /account?linked=<provider> or /account?error=<code>.",
    session: 'required',
    body: jsonBody(SsoLinkBodySchema, { provider: 'google' }),
    responses: {
      200: json(SsoRedirectSchema, "The provider's address."),
      400: err('invalid_parameter: an unknown provider or an extra field.'),
      401: unauthorized,
      404: err('sso_not_configured: no provider for this account.'),
      503: err("sso_provider_unavailable: the school's provider did not answer."),
    },
  });

  // ---- staff rosters (server/roster, docs/rostering.md): OneRoster CSV zips, for the organization's admins.
  const rosterParams = z.object({ organizationId: RosterOrganizationIdSchema.meta({ example: 'org-id' }) });
  const rosterAuth = {
    400: err('invalid_parameter: a malformed organization id.'),
    401: unauthorized,
    403: err("forbidden: not an admin (owner or admin) of the organization, or an unknown organization."),
  };
  operation({
    method: 'post',
    path: '/organizations/{organizationId}/roster',
    summary:
      "Check (dryRun=true) or import a OneRoster 1.2 CSV zip of the organization's staff (1.1 accepted). Teachers and administrators become pre-provisioned members who complete at their first sign-in with a verified address; students are not imported. A zip with any problem changes nothing.",
    session: 'required',
    params: rosterParams,
    query: z.object({ dryRun: z.enum(['true', 'false']).optional().meta({ description: "'true': report what an import would do and change nothing.", example: 'true' }) }),
    body: {
      required: true,
      content: Object.fromEntries(ROSTER_MEDIA_TYPES.map((type) => [type, { schema: z.string().meta({ format: 'binary', description: 'The zip (at most 10 MB).' }) }])),
    },
    responses: {
      200: json(RosterReportSchema.meta({ id: 'RosterReport' }), 'The plan (dryRun: problems listed, nothing applied) or what was applied.'),
      ...rosterAuth,
      400: err("roster_invalid: not a readable zip, a zip bomb, an unsafe path in the zip, or an empty body; invalid_parameter: dryRun other than true or false, a malformed organization id."),
      413: err('payload_too_large: the zip is over 10 MB.'),
      415: err('unsupported_media_type: not application/zip, application/x-zip-compressed or application/octet-stream.'),
      422: err("roster_invalid, one error per problem ('users.csv line 4: …'): nothing was applied."),
    },
  });
  operation({
    method: 'get',
    path: '/organizations/{organizationId}/roster',
    summary: "The organization's roster staff, sorted by familyName, givenName: active (signed in), pending (not yet) or disabled.",
    session: 'required',
    params: rosterParams,
    responses: { 200: json(RosterStaffListSchema.meta({ id: 'RosterStaffList' }), 'The staff.'), ...rosterAuth },
  });

  document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Lectern API',
      version: '1.0.0',
      description: [
        'Errors always have the shape {errors:[{code,message}]} (the Errors schema), first error first.',
        'No string the API accepts may hold U+0000 or a lone surrogate, nor control characters where they make no sense (names, emails, codes, tokens, slugs, every path segment and query parameter): 400 invalid_parameter.',
        `Every string has a maximum length: a name ${MAX_NAME_LENGTH} characters, an email ${MAX_EMAIL_LENGTH}, an id or slug ${MAX_IDENTIFIER_LENGTH}, a token ${MAX_TOKEN_LENGTH}, an address ${MAX_URL_LENGTH}, anything else (every path segment and query parameter too) ${MAX_TEXT_LENGTH}; a JSON body nests at most ${MAX_NESTING_DEPTH} deep.`,
        'Any other address under /api/ (another version, an unknown path, a path with dot segments) answers 404 not_found in that shape.',
        `State-changing requests (POST, PUT, PATCH, DELETE) need an Origin (or Referer) of this site when they carry cookies: 403 csrf_rejected.`,
      ].join(' '),
    },
    servers: [{ url: '/api/v1' }],
  });
  return document;
}
