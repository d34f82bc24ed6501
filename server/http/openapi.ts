/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests and type the client. */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
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
} from '../../src/domain/schemas';
import { LANGUAGE_CODES } from '../../src/domain/languages';
import { AnalyticsBatchSchema } from '../../src/domain/analyticsSchema';
import { SsoLinkBodySchema, SsoProvidersSchema, SsoRedirectSchema, SsoSignInBodySchema } from '../../src/domain/sso';
import { ROSTER_MEDIA_TYPES, RosterReportSchema, RosterStaffListSchema } from '../../src/domain/rosterSchemas';
import { HealthSchema, ReadySchema } from './health';
import { LEVELS } from '../../src/domain/levels';
import { GROUP_CODE_REQUIRED_MESSAGE, LICENSE_REQUIRED_MESSAGE, PREMIUM_CONTENT_MESSAGE } from '../../src/domain/access';

let document: object | null = null;

export function buildOpenApiDocument(): object {
  if (document) return document;
  const registry = new OpenAPIRegistry();
  const ErrorBody = ApiErrorBodySchema.meta({ id: 'Errors' });
  const Publication = PublicationSchema.meta({ id: 'Publication' });
  const PublicationList = PublicationListSchema.meta({ id: 'PublicationList' });
  const Passage = PassageSchema.meta({ id: 'Passage' });
  const Excerpt = ExcerptSchema.meta({ id: 'Excerpt' });
  const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
  const errors = {
    400: json(ErrorBody, 'Invalid parameters; every problem is listed.'),
    404: json(ErrorBody, 'Not found.'),
    500: json(ErrorBody, 'Unexpected error; no internals are exposed.'),
  };
  const clientId = z.object({ 'x-client-id': z.string().optional() });
  // Gating (src/domain/access.ts, server/access; docs/api.md "Gating"): who asks is the session cookie, else a class
  // code in X-Group-Code (its teacher's features on the titles they ASSIGNED), else no one.
  const actorHeaders = z.object({
    'x-client-id': z.string().optional(),
    'x-group-code': z.string().optional().meta({ description: 'A class code; ignored when signed in. Wrong codes are rate-limited (429).' }),
  });
  const gated = {
    403: json(
      ErrorBody,
      `license_required ('${LICENSE_REQUIRED_MESSAGE}') when a feature is missing; group_code_required ('${GROUP_CODE_REQUIRED_MESSAGE}') for a class code that does not resolve.`,
    ),
    429: json(ErrorBody, 'rate_limited: too many wrong class codes, with Retry-After in seconds.'),
  };

  registry.registerPath({ method: 'get', path: '/ping', summary: 'Reachability', responses: { 200: json(PingSchema, 'The API is up.') } });
  // Health (server/http/health.ts, docs/operations.md): liveness, and readiness for load balancers.
  registry.registerPath({ method: 'get', path: '/health', summary: 'Liveness', responses: { 200: json(HealthSchema, 'The process serves HTTP.') } });
  registry.registerPath({
    method: 'get',
    path: '/health/ready',
    summary: 'Readiness: the database answers select 1 and the audio store is usable',
    responses: {
      200: json(ReadySchema, 'Ready for traffic.'),
      503: json(ErrorBody, 'Not ready: database_unavailable, audio_store_unavailable (one error per failed check), or shutting_down after SIGTERM.'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/publications',
    summary: 'The catalog: search, sort, Language and Level filters and server-side paging',
    request: {
      headers: actorHeaders,
      query: z.object({
        search: z.string().optional(),
        sort: z.enum(SORT_KEYS).optional(),
        page: z.number().int().min(1).optional(),
        pageSize: z.number().int().min(1).max(100).optional(),
        filter: z
          .enum(CATALOG_FILTERS)
          .optional()
          .meta({ description: "Signed-in teachers only: 'assigned' or 'unassigned' narrow the list to their ASSIGNED titles or the rest; 'all' (default) changes nothing." }),
        languages: z
          .string()
          .optional()
          .meta({
            description:
              "Language filter, for everyone: comma-separated codes ('ar,es'), any case. A title matches when one of its editions is in a chosen language (and, with levels, at a chosen level). Unknown codes: 400.",
          }),
        levels: z
          .string()
          .optional()
          .meta({ description: "Level filter, for everyone: comma-separated levels ('SILVER,GOLD'), any case. Unknown levels: 400." }),
      }),
    },
    responses: {
      200: json(PublicationList, 'One page of publications; with a valid class code and no session, only the teacher\'s ASSIGNED titles (private, no-store).'),
      400: errors[400],
      403: json(ErrorBody, "forbidden: assigned/unassigned asked by someone who is not a signed-in teacher; invalid_group_code ('Invalid Class Code') for a class code that does not resolve."),
      429: gated[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/publications/{publicationSlug}',
    summary: 'One publication with its editions',
    request: {
      headers: actorHeaders,
      params: z.object({ publicationSlug: z.string() }),
      query: z.object({ publicationVersion: z.string().regex(/^v\d+$/).optional() }),
    },
    responses: {
      200: json(Publication, 'The publication.'),
      ...errors,
      403: json(ErrorBody, `premium_content ('${PREMIUM_CONTENT_MESSAGE}'): a premium title for someone without LEVELS.`),
      429: gated[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/publications/{publicationSlug}/editions/passage',
    summary: 'A plain-text excerpt for the teaser page',
    request: {
      headers: actorHeaders,
      params: z.object({ publicationSlug: z.string() }),
      query: z.object({
        publicationVersion: z.string().optional(),
        language: z.enum(LANGUAGE_CODES).optional(),
        level: z.enum(LEVELS).optional(),
        position: z.number().int().min(1).optional(),
      }),
    },
    responses: { 200: json(Excerpt, 'The excerpt.'), ...errors, ...gated },
  });
  registry.registerPath({
    method: 'post',
    path: '/publications/{publicationSlug}/sources/on-demand',
    summary: "Build a missing edition from a source in the library or through a translation provider; 404 'Passage not found' when neither exists",
    request: {
      headers: actorHeaders,
      params: z.object({ publicationSlug: z.string() }),
      body: { content: { 'application/json': { schema: z.object({ version: z.string(), languageCode: z.enum(LANGUAGE_CODES), level: z.enum(LEVELS) }) } } },
    },
    responses: {
      200: json(OnDemandEditionResultSchema, 'The edition already existed.'),
      201: json(OnDemandEditionResultSchema, 'The edition was built.'),
      ...errors,
      ...gated,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/passages',
    summary:
      "One passage of an edition. A position of 0 or less is 404 'Passage not found'. Gated text answers 200 with text '' and licenseRequired or groupCodeRequired; textDecoded and audio only for DECODE and AUDIO holders.",
    request: { headers: actorHeaders, query: z.object({ editionId: z.number().int(), position: z.number().int() }) },
    responses: { 200: json(Passage, 'The passage, or its blocked state (private, no-store when it depended on who asked).'), ...errors, 429: gated[429] },
  });
  const passageIdParam = z.object({ passageId: z.number().int() });
  const generating = json(AudioGeneratingSchema, "Narration is being made; ask again after Retry-After seconds.");
  // GET /passages/{passageId}/audio and its onDemand twin: the same question, the same answers.
  const narrationRequest = { headers: actorHeaders, params: passageIdParam, query: z.object({ editionId: z.number().int().optional() }) };
  // With AUDIO_STORE (docs/narration.md): a narration waited for that the object store could not keep.
  const storeUnavailable = { 503: json(ErrorBody, 'audio_store_unavailable: the audio store (AUDIO_STORE) failed; Retry-After says when to ask again.') };
  const narrationAnswers = { 200: json(PassageAudioReadySchema, 'The narration is ready.'), 202: generating, ...errors, ...gated, ...storeUnavailable };
  registry.registerPath({
    method: 'get',
    path: '/passages/{passageId}/decode',
    summary: 'Decode mode: the passage as markup with phonics classes (English only; docs/phonics.md).',
    request: { headers: actorHeaders, params: passageIdParam, query: z.object({ editionId: z.number().int().optional(), position: z.number().int().optional() }) },
    responses: { 200: json(DecodeResponseSchema, 'The decoded text (DECODE).'), ...errors, ...gated },
  });
  registry.registerPath({
    method: 'get',
    path: '/passages/{passageId}/audio',
    summary: "A passage's narration: the MP3 address, its duration and speech marks. 404 'Audio not available' for a language without a voice.",
    request: narrationRequest,
    responses: narrationAnswers,
  });
  registry.registerPath({
    method: 'get',
    path: '/passages/audioOnly',
    summary:
      'The narration of the passage at a position of an edition (the listen page). When the text itself is gated, 200 with the passage in its blocked state (as GET /passages); readable text with locked narration is 403 license_required.',
    request: { headers: actorHeaders, query: z.object({ editionId: z.number().int(), position: z.number().int() }) },
    responses: {
      200: json(z.union([PassageAudioReadySchema, Passage]), 'The narration is ready, or the blocked passage.'),
      202: generating,
      ...errors,
      ...gated,
      ...storeUnavailable,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/passages/{passageId}/audioOnly/onDemand',
    summary: 'The narration of one passage, made now if it is not made yet (it jumps the queue).',
    request: narrationRequest,
    responses: narrationAnswers,
  });
  registry.registerPath({
    method: 'get',
    path: '/passages/{passageId}/speechMarks',
    summary: 'Word speech marks: a JavaScript string offset into the served text and a time in ms, rising strictly.',
    request: { headers: actorHeaders, params: passageIdParam },
    responses: { 200: json(SpeechMarksReadySchema, 'The speech marks.'), 202: generating, ...errors, ...gated, ...storeUnavailable },
  });
  registry.registerPath({
    method: 'get',
    path: '/qr/{qrCode}',
    summary: 'Where a printed QR code leads',
    request: { params: z.object({ qrCode: z.string() }) },
    responses: { 200: json(QrTargetSchema, 'The target URL (same-origin path).'), ...errors },
  });

  // Accounts (issue 6). The session is the httpOnly cookie `lectern.session_token` (`__Secure-` over HTTPS).
  // Every POST, PUT, PATCH and DELETE must carry an Origin (or Referer) of this site when it sends cookies: 403 csrf_rejected.
  const CurrentUser = CurrentUserSchema.meta({ id: 'CurrentUser' });
  const UserTitle = UserTitleSchema.meta({ id: 'UserTitle' });
  const accountErrors = {
    400: errors[400],
    401: json(ErrorBody, 'Not signed in (unauthorized).'),
    403: json(ErrorBody, 'Forbidden: the role or license does not allow it, or csrf_rejected.'),
    429: json(ErrorBody, 'rate_limited, with Retry-After in seconds.'),
  };
  const body = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });
  const groupCodeHeader = z.object({ 'x-group-code': z.string().optional(), 'x-client-id': z.string().optional() });
  registry.registerPath({
    method: 'post',
    path: '/auth/sign-up/email',
    summary: 'Create an account and sign in (better-auth). The password has at least 8 characters and is not a common one.',
    request: { body: body(z.object({ email: z.string(), password: z.string(), name: z.string() })) },
    responses: {
      200: json(AuthResultSchema, 'Signed up and in; the session cookie is set.'),
      400: json(ErrorBody, 'weak_password or invalid_parameter.'),
      409: json(ErrorBody, 'email_taken.'),
      403: accountErrors[403],
      429: accountErrors[429],
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/auth/sign-in/email',
    summary: 'Sign in (better-auth). Failed attempts are limited per email and all attempts per IP address.',
    request: { body: body(z.object({ email: z.string(), password: z.string() })) },
    responses: {
      200: json(AuthResultSchema, 'Signed in; the session cookie is set.'),
      401: json(ErrorBody, 'invalid_credentials.'),
      403: accountErrors[403],
      429: accountErrors[429],
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/auth/sign-out',
    summary: 'End the session on the server and clear its cookie. The other better-auth endpoints (sessions, organization plugin) live under /auth/* too.',
    responses: { 200: json(z.object({ success: z.boolean() }), 'Signed out.'), 403: accountErrors[403] },
  });
  // Forgot password (issue 16, server/auth/passwordReset.ts).
  registry.registerPath({
    method: 'post',
    path: '/auth/request-password-reset',
    summary:
      'Mail a single-use link to /reset-password?token=… (1 hour) when the address has an account. The answer is the same for every address. Limited per email and per IP address.',
    request: { body: body(z.object({ email: z.string() })) },
    responses: {
      200: json(z.object({ status: z.literal(true), message: z.string() }), "'If an account exists for that address, we sent a link.'"),
      400: json(ErrorBody, 'invalid_parameter (not an email address).'),
      403: accountErrors[403],
      429: accountErrors[429],
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/auth/reset-password',
    summary: "Set a new password with a reset link's token (sign-up's rules). The token is spent and every session of the user ends.",
    request: { body: body(z.object({ token: z.string(), newPassword: z.string() })) },
    responses: {
      200: json(z.object({ status: z.literal(true) }), 'Changed; sign in with the new password.'),
      400: json(ErrorBody, 'invalid_token (used, expired or unknown) or weak_password.'),
      403: accountErrors[403],
    },
  });
  // Verified invitations (issue 16 item 3, server/auth/addressConfirmation.ts).
  registry.registerPath({
    method: 'post',
    path: '/invitations/{invitationId}/confirmation-email',
    summary:
      "Mail the signed-in invitee a new link that confirms their address (24 hours); opening it verifies the email and comes back to /accept-invitation/{invitationId}, where accept-invitation then works (it answers 403 email_not_verified before). Limited per address and per IP address.",
    request: { params: z.object({ invitationId: z.string() }) },
    responses: {
      200: json(z.object({ status: z.literal(true), email: z.string() }), 'Sent to the invited address.'),
      401: accountErrors[401],
      403: json(ErrorBody, 'not_invitation_recipient (the invitation is for another email), or csrf_rejected.'),
      404: json(ErrorBody, 'invitation_not_found: unknown, cancelled, accepted or expired.'),
      409: json(ErrorBody, 'email_already_verified: accept the invitation instead.'),
      429: accountErrors[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/users/me',
    summary: 'The signed-in user: role, features (from valid school licenses), class code, organization memberships (org:admin for admins).',
    responses: { 200: json(CurrentUser, 'The user.'), 401: accountErrors[401] },
  });
  registry.registerPath({
    method: 'patch',
    path: '/users/me/role',
    summary: 'Set the role: INDIVIDUAL or TEACHER.',
    request: { body: body(UpdateRoleBodySchema) },
    responses: { 200: json(CurrentUser, 'The updated user.'), 400: accountErrors[400], 401: accountErrors[401], 403: accountErrors[403] },
  });
  registry.registerPath({
    method: 'post',
    path: '/users/me/group-code',
    summary: "Replace the teacher's class code (teachers with GROUP_CODES); the old code stops working at once.",
    responses: { 200: json(GroupCodeResponseSchema, 'The new code.'), 401: accountErrors[401], 403: accountErrors[403] },
  });
  registry.registerPath({
    method: 'get',
    path: '/users/me/class-activity',
    summary:
      "The teacher's class activity, counts only (issue 15): passages read (one per reader, passage and UTC day) and seconds listened, this week (the last 7 UTC days, today included) and last week (the 7 before), by readers who used the teacher's class code; the five most-read titles of the last 28 days; passages read per UTC day over 28 days, zeros filled in.",
    responses: {
      200: json(ClassActivitySchema.meta({ id: 'ClassActivity' }), 'The counts.'),
      401: accountErrors[401],
      403: json(ErrorBody, "forbidden: 'Only teachers can see class activity.'"),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/features/me',
    summary: "The signed-in user's features.",
    responses: { 200: json(FeaturesSchema, 'The features.'), 401: accountErrors[401] },
  });
  registry.registerPath({
    method: 'get',
    path: '/visitors/me',
    summary: 'Check the class code in X-Group-Code: groupCodeValid and the features it carries. Wrong codes are limited per client id and IP.',
    request: { headers: groupCodeHeader },
    responses: { 200: json(VisitorSchema, 'The visitor.'), 400: accountErrors[400], 429: accountErrors[429] },
  });
  registry.registerPath({
    method: 'get',
    path: '/users/titles',
    summary: "A teacher's titles with their statuses; or, for a class code (X-Group-Code) and no session, the class's ASSIGNED titles.",
    request: { headers: groupCodeHeader },
    responses: {
      200: json(UserTitlesSchema, 'The titles.'),
      401: accountErrors[401],
      403: json(ErrorBody, "invalid_group_code: 'Invalid Class Code'."),
      429: accountErrors[429],
    },
  });
  registry.registerPath({
    method: 'patch',
    path: '/users/titles/{titleId}/visibility',
    summary: 'Show a title to students (ASSIGNED) or hide it (BLOCKED). Teachers only; titleId is the publication id.',
    request: { params: z.object({ titleId: z.number().int() }), body: body(TitleVisibilityBodySchema) },
    responses: { 200: json(UserTitle, 'The title and its status.'), ...accountErrors, 404: errors[404] },
  });

  // Uploads (issue 7 §5, USER_UPLOAD): a teacher's text as a private publication (server/uploads). Private
  // publications answer the content routes only for their owner and the owner's class code; others get 404.
  const Upload = UploadSchema.meta({ id: 'Upload' });
  registry.registerPath({
    method: 'post',
    path: '/uploads',
    summary:
      'Upload a .txt or .md file (UTF-8) as a private publication with one ORIGINAL edition, split into passages (docs/content-format.md). Teachers with USER_UPLOAD.',
    request: {
      body: {
        content: {
          'multipart/form-data': {
            schema: z.object({
              file: z.string().meta({ format: 'binary', description: 'The text file (field `file`).' }),
              title: z.string().max(200).optional(),
              language: z.enum(LANGUAGE_CODES).optional(),
            }),
          },
        },
      },
    },
    responses: {
      201: json(Upload, 'The upload; read it at readerUrl.'),
      400: json(ErrorBody, 'empty_file, missing_file, too_many_passages, invalid_text (one error per problem), invalid_parameter.'),
      401: accountErrors[401],
      403: json(ErrorBody, 'forbidden (not a teacher with USER_UPLOAD) or csrf_rejected.'),
      413: json(ErrorBody, 'file_too_large.'),
      415: json(ErrorBody, 'unsupported_file_type (not UTF-8 text, not .txt/.md) or unsupported_media_type (not multipart).'),
      429: json(ErrorBody, 'upload_limit: the teacher keeps the most uploads allowed.'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/uploads',
    summary: "The signed-in user's uploads (newest first), whether they may upload, and the limits.",
    responses: { 200: json(UploadListSchema.meta({ id: 'UploadList' }), 'The uploads.'), 401: accountErrors[401] },
  });
  registry.registerPath({
    method: 'delete',
    path: '/uploads/{slug}',
    summary: "Delete one of the signed-in user's uploads, with its passages.",
    request: { params: z.object({ slug: z.string() }) },
    responses: { 204: { description: 'Deleted.' }, 401: accountErrors[401], 403: accountErrors[403], 404: json(ErrorBody, "'Upload not found'.") },
  });

  // First-party analytics (issue 15, server/analytics): the tracked events of SPEC §4, without IP, user id or free text.
  registry.registerPath({
    method: 'post',
    path: '/events',
    summary:
      'Store a batch of tracked events (SPEC §4) from one browser. JSON, also sent as text/plain by sendBeacon. At most one request a second per clientId and 10 KB. The class owner comes from X-Group-Code (or the body\'s groupCode).',
    request: {
      headers: actorHeaders,
      body: { content: { 'application/json': { schema: AnalyticsBatchSchema.meta({ id: 'AnalyticsBatch' }) } } },
    },
    responses: {
      202: json(z.object({ accepted: z.number().int() }), 'Stored; accepted is the number of events.'),
      400: json(ErrorBody, 'invalid_parameter: an unknown event name, an unknown key, a malformed clientId, time or slug (every problem listed).'),
      413: json(ErrorBody, 'payload_too_large: the body is over 10 KB.'),
      415: json(ErrorBody, 'unsupported_media_type: neither application/json nor text/plain.'),
      429: json(ErrorBody, 'rate_limited: a second batch from the same clientId within a second (Retry-After).'),
    },
  });

  // Single sign-on (issue 28 §1, server/sso, docs/sso.md). The provider comes back to better-auth's
  // GET /auth/callback/{providerId}, which redirects to the page asked for or to /sign-in?error=<code>.
  registry.registerPath({
    method: 'get',
    path: '/sso/providers',
    summary: 'Which platform sign-ins are configured (Continue with Google / Microsoft); for a signed-in user, the school whose provider their address routes to.',
    responses: { 200: json(SsoProvidersSchema.meta({ id: 'SsoProviders' }), 'The providers.') },
  });
  registry.registerPath({
    method: 'post',
    path: '/sso/sign-in',
    summary:
      "Start a single sign-on: a school address (routed by its domain to its organization's OpenID provider) or a platform provider. Answers the provider's address (authorization code flow, PKCE S256, state and nonce) and sets the state cookie; the browser navigates there in full.",
    request: { body: body(SsoSignInBodySchema) },
    responses: {
      200: json(SsoRedirectSchema.meta({ id: 'SsoRedirect' }), "The provider's address."),
      400: json(ErrorBody, "invalid_parameter: not an address, an unknown provider, or a redirectUrl on another domain ('Navigation to a different domain is blocked.')."),
      403: json(ErrorBody, 'csrf_rejected: a cross-site request.'),
      404: json(ErrorBody, "sso_not_configured: no provider for this address's domain, or the platform provider is not configured."),
      429: accountErrors[429],
      503: json(ErrorBody, "sso_provider_unavailable: the school's provider did not answer its discovery; or rate_limit_unavailable."),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/sso/link',
    summary: "Link a provider's account to the signed-in one (Manage Account): the school of the account's address, or a platform provider. Answers the provider's address; the round trip ends at /account?linked=<provider> or /account?error=<code>.",
    request: { body: body(SsoLinkBodySchema) },
    responses: {
      200: json(SsoRedirectSchema, "The provider's address."),
      400: errors[400],
      401: accountErrors[401],
      403: json(ErrorBody, 'csrf_rejected: a cross-site request.'),
      404: json(ErrorBody, 'sso_not_configured: no provider for this account.'),
      503: json(ErrorBody, "sso_provider_unavailable: the school's provider did not answer."),
    },
  });
  // Staff rosters (issue 28 §2, server/roster, docs/rostering.md): OneRoster CSV zips, for the organization's admins.
  const rosterParams = z.object({ organizationId: z.string() });
  const rosterAuth = {
    401: accountErrors[401],
    403: json(ErrorBody, "forbidden: not an admin (owner or admin) of the organization, or an unknown organization; or csrf_rejected."),
  };
  registry.registerPath({
    method: 'post',
    path: '/organizations/{organizationId}/roster',
    summary:
      "Check (dryRun=true) or import a OneRoster 1.2 CSV zip of the organization's staff (1.1 accepted). Teachers and administrators become pre-provisioned members who complete at their first sign-in with a verified address; students are not imported. A zip with any problem changes nothing.",
    request: {
      params: rosterParams,
      query: z.object({ dryRun: z.enum(['true', 'false']).optional().meta({ description: "'true': report what an import would do and change nothing." }) }),
      body: { content: Object.fromEntries(ROSTER_MEDIA_TYPES.map((type) => [type, { schema: z.string().meta({ format: 'binary', description: 'The zip (at most 10 MB).' }) }])) },
    },
    responses: {
      200: json(RosterReportSchema.meta({ id: 'RosterReport' }), 'The plan (dryRun: problems listed, nothing applied) or what was applied.'),
      400: json(ErrorBody, 'roster_invalid: not a readable zip, a zip bomb, an unsafe path in the zip, or an empty body; invalid_parameter.'),
      ...rosterAuth,
      413: json(ErrorBody, 'payload_too_large: the zip is over 10 MB.'),
      415: json(ErrorBody, 'unsupported_media_type: not application/zip, application/x-zip-compressed or application/octet-stream.'),
      422: json(ErrorBody, "roster_invalid, one error per problem ('users.csv line 4: …'): nothing was applied."),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/organizations/{organizationId}/roster',
    summary: "The organization's roster staff, sorted by familyName, givenName: active (signed in), pending (not yet) or disabled.",
    request: { params: rosterParams },
    responses: { 200: json(RosterStaffListSchema.meta({ id: 'RosterStaffList' }), 'The staff.'), ...rosterAuth },
  });

  document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Lectern API', version: '1.0.0', description: 'Errors always have the shape {errors:[{code,message}]}.' },
    servers: [{ url: '/api/v1' }],
  });
  return document;
}
