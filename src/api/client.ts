/**
 * The typed API client (SPEC §7): ky with a base URL from config, the X-Client-Id header, an optional bearer
 * token and group-code header, undefined query parameters dropped, and no retries. Responses are validated
 * with the shared zod schemas, so a server that drifts from the contract fails loudly. Each call names its schema
 * as a pick from the validation module (`(v) => v.PassageSchema`), which is loaded lazily (`loadValidation`: the
 * import starts next to the request and is awaited before parsing), so zod stays out of the catalog's entry JS.
 * A body the page was primed with is used at once and checked when the module is in (`primedAnswer`).
 */
import ky, { type KyInstance } from 'ky';
import type { z } from 'zod';
import type { OnDemandEditionBody, PassageAudio, TitleStatus, UserRole, PublicationListQuery } from '../domain/schemas';
import type { LanguageCode } from '../domain/languages';
import type { AnalyticsBatchBody } from '../domain/analyticsSchema';
import type { PlatformProvider } from '../domain/sso';
import { ApiError, toApiError } from './apiError';
import { loadValidation, type Validation } from './loadValidation';
import { NO_PRIMED_RESPONSES, type PrimedResponses } from './primed';
import { primedKey } from '../domain/primed';

export const API_PREFIX = '/api/v1';

export interface ApiClientConfig {
  /** Origin plus prefix, e.g. 'http://127.0.0.1:3000/api/v1' or '/api/v1' in the browser. */
  baseUrl: string;
  /** The client id sent with every request (a UUID generated once and stored by the caller). */
  clientId: () => string;
  /** A bearer access token, when signed in. */
  accessToken?: () => string | undefined | null;
  /** The class (group) code, when one is set. */
  groupCode?: () => string | undefined | null;
  /** An alternative fetch, for tests and other runtimes. */
  fetch?: typeof fetch;
  /**
   * Answers the page arrived with (src/domain/primed.ts). A GET takes its primed body instead of asking the server,
   * once, and only without a class code: the server primed the page as the visitor is without one.
   */
  primed?: PrimedResponses;
  /**
   * A primed body turned out not to match its schema, after it was used (a primed body is checked once the
   * validation module is in: `primedAnswer`). The app loads again without primed answers (src/ui/platform/api.ts).
   */
  onPrimedMismatch?: (path: string, error: z.core.$ZodError) => void;
}

export type QueryParams = Record<string, string | number | boolean | undefined | null>;

/** Drop undefined and null values; stringify the rest. */
export function cleanParams(params: QueryParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    out[key] = String(value);
  }
  return out;
}

export interface RequestOptions {
  /** Marks a prefetch, so the server can log it apart. */
  background?: boolean;
  signal?: AbortSignal;
  /** A class code for this call only (X-Group-Code), instead of the configured one. */
  groupCode?: string;
}

/** The per-call headers of RequestOptions, or undefined when there are none. */
function callHeaders(options: RequestOptions): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  if (options.background) headers['X-Background-Request'] = 'true';
  if (options.groupCode) headers['X-Group-Code'] = options.groupCode;
  return Object.keys(headers).length ? headers : undefined;
}

export function createApiClient(config: ApiClientConfig) {
  const http: KyInstance = ky.create({
    prefixUrl: config.baseUrl,
    retry: 0,
    timeout: 30_000,
    fetch: config.fetch,
    hooks: {
      beforeRequest: [
        (request) => {
          request.headers.set('X-Client-Id', config.clientId());
          const token = config.accessToken?.();
          if (token) request.headers.set('Authorization', `Bearer ${token}`);
          const groupCode = config.groupCode?.();
          // A call may name its own code (getVisitor checks a newly typed one); otherwise the stored one is sent.
          if (groupCode && !request.headers.has('X-Group-Code')) request.headers.set('X-Group-Code', groupCode);
        },
      ],
    },
  });

  /** Which schema a call validates its response with, picked from the lazily loaded validation module. */
  type SchemaPick<S extends z.core.$ZodType> = (validation: Validation) => S;

  /**
   * Run a request while the validation module loads, then parse its JSON body with the picked schema. Any
   * failure (an error status, the network, a body that does not match) becomes an ApiError.
   */
  async function validated<S extends z.core.$ZodType>(schema: SchemaPick<S>, request: () => Promise<unknown>): Promise<z.infer<S>> {
    const validation = loadValidation(); // starts now, next to the request
    try {
      const body = await request();
      const v = await validation;
      return v.parse(schema(v), body);
    } catch (error) {
      throw await toApiError(error);
    }
  }

  const primed = config.primed ?? NO_PRIMED_RESPONSES;

  /**
   * A primed body is the answer the server gave this visitor for this GET, sent inside the page it serves
   * (server/http/page.ts). It is used at once, so the page's first data waits neither for the validation module
   * (zod and the schemas, a chunk of its own) nor for its evaluation, and it is checked as soon as that module is in:
   * one that does not match its schema goes to `onPrimedMismatch`. Response schemas do not transform, so a valid
   * answer parses to itself (tests/server/page.test.ts checks the primed ones): the body used is what parsing gives.
   */
  function primedAnswer<S extends z.core.$ZodType>(schema: SchemaPick<S>, path: string, body: unknown): Promise<z.infer<S>> {
    loadValidation().then(
      (validation) => {
        const checked = validation.safeParse(schema(validation), body);
        if (!checked.success) config.onPrimedMismatch?.(path, checked.error);
      },
      // The module could not be fetched: the next request that needs it loads it again and reports the failure.
      () => undefined,
    );
    return Promise.resolve(body as z.infer<S>);
  }

  /** The body the page was primed with for this GET, when it applies to this call. */
  function primedBody(path: string, searchParams: Record<string, string>, options: RequestOptions): unknown {
    if (options.groupCode || config.groupCode?.()) return undefined;
    return primed.take(primedKey(path, searchParams));
  }

  function get<S extends z.core.$ZodType>(schema: SchemaPick<S>, path: string, params: QueryParams = {}, options: RequestOptions = {}): Promise<z.infer<S>> {
    const searchParams = cleanParams(params);
    const body = primedBody(path, searchParams, options);
    if (body !== undefined) return primedAnswer(schema, path, body);
    return validated(schema, () =>
      http
        .get(path.replace(/^\//, ''), {
          searchParams,
          signal: options.signal,
          headers: callHeaders(options),
        })
        .json(),
    );
  }

  function post<S extends z.core.$ZodType>(schema: SchemaPick<S>, path: string, json: unknown, options: RequestOptions = {}): Promise<z.infer<S>> {
    return validated(schema, () => http.post(path.replace(/^\//, ''), { json, signal: options.signal }).json());
  }

  function send<S extends z.core.$ZodType>(
    method: 'post' | 'patch',
    schema: SchemaPick<S>,
    path: string,
    json: unknown,
    options: RequestOptions = {},
  ): Promise<z.infer<S>> {
    return validated(schema, () =>
      http(path.replace(/^\//, ''), { method, json, signal: options.signal, headers: callHeaders(options) }).json(),
    );
  }

  return {
    /**
     * A call validated with a schema the caller brings (an API module that keeps its zod schemas out of the shared
     * validation chunk, such as `organization.ts`): GET with query parameters, or POST with a JSON body. Failures
     * become an ApiError, as with every other call.
     */
    call: <S extends z.core.$ZodType>(method: 'get' | 'post', schema: S, path: string, input: { params?: QueryParams; json?: unknown } = {}, options?: RequestOptions) =>
      method === 'get' ? get(() => schema, path, input.params, options) : send('post', () => schema, path, input.json ?? {}, options),
    /**
     * POST a file's bytes as they are (a roster zip), with the client's headers, and validate the answer with the
     * caller's schema. `timeout` replaces the 30 s default for work that takes long on the server.
     */
    postBytes: <S extends z.core.$ZodType>(
      schema: S,
      path: string,
      input: { body: Blob; contentType: string; params?: QueryParams; timeout?: number },
      options: RequestOptions = {},
    ) =>
      validated(
        () => schema,
        () =>
          http
            .post(path.replace(/^\//, ''), {
              body: input.body,
              searchParams: cleanParams(input.params ?? {}),
              timeout: input.timeout,
              signal: options.signal,
              headers: { ...callHeaders(options), 'Content-Type': input.contentType },
            })
            .json(),
      ),
    ping: (options?: RequestOptions) => get((v) => v.PingSchema, 'ping', {}, options),
    /**
     * SPEC §7 GET /publications. `filter` (all/assigned/unassigned) is for signed-in teachers; with a class code
     * (configured or `options.groupCode`) the server answers the teacher's ASSIGNED titles, or 403 'Invalid Class Code'.
     */
    listPublications: (query: PublicationListQuery, options?: RequestOptions) =>
      get((v) => v.PublicationListSchema, 'publications', { ...query }, options),
    getPublication: (slug: string, publicationVersion?: string, options?: RequestOptions) =>
      get((v) => v.PublicationSchema, `publications/${encodeURIComponent(slug)}`, { publicationVersion }, options),
    getExcerpt: (
      slug: string,
      params: { publicationVersion?: string; language?: string; level?: string; position?: number } = {},
      options?: RequestOptions,
    ) => get((v) => v.ExcerptSchema, `publications/${encodeURIComponent(slug)}/editions/passage`, params, options),
    getPassage: (editionId: number, position: number, options?: RequestOptions) =>
      get((v) => v.PassageSchema, 'passages', { editionId, position }, options),
    /** Decode-mode markup for an English passage (SPEC §7 decode); 404 'Decode Mode not available' otherwise. */
    getDecodedText: async (passageId: number, editionId: number, position: number, options?: RequestOptions): Promise<string> =>
      (await get((v) => v.DecodeResponseSchema, `passages/${encodeURIComponent(String(passageId))}/decode`, { editionId, position }, options)).textDecoded,
    /** A passage's narration (SPEC §7): `{status:'ready', audio:{url, speechMarks, duration}}` or 202 `{status:'generating'}`. */
    getPassageAudio: (passageId: number, editionId: number, options?: RequestOptions) =>
      get((v) => v.PassageAudioSchema, `passages/${encodeURIComponent(String(passageId))}/audio`, { editionId }, options),
    /**
     * The narration of the passage at a position (SPEC §7 audioOnly). When the asker may not read the passage the
     * server answers its blocked state, as GET /passages gives it; that is raised here as the ApiError the other
     * narration routes answer with (403 license_required or group_code_required), so callers see one shape.
     */
    getAudioOnly: async (editionId: number, position: number, options?: RequestOptions): Promise<PassageAudio> => {
      const answer = await get((v) => v.AudioOnlyAnswerSchema, 'passages/audioOnly', { editionId, position }, options);
      if ('status' in answer) return answer;
      throw new ApiError(403, [
        answer.groupCodeRequired
          ? { code: 'group_code_required', message: 'Enter Class Code or Sign In' }
          : { code: 'license_required', message: 'This content requires a School License' },
      ]);
    },
    /** Start (or fetch) a passage's narration (SPEC §7 audioOnly/onDemand). */
    getAudioOnDemand: (passageId: number, editionId: number, options?: RequestOptions) =>
      get((v) => v.PassageAudioSchema, `passages/${encodeURIComponent(String(passageId))}/audioOnly/onDemand`, { editionId }, options),
    /**
     * A passage's speech marks (SPEC §7): `{passageId, speechMarks}`, or 202 `{status:'generating'}` while the server
     * is still narrating. One ask: a caller that waits does so through src/domain/narrationPoll.ts.
     */
    getSpeechMarks: (passageId: number, options?: RequestOptions) =>
      get((v) => v.SpeechMarksResponseSchema, `passages/${encodeURIComponent(String(passageId))}/speechMarks`, {}, options),
    getQrTarget: (qrCode: string, options?: RequestOptions) =>
      get((v) => v.QrTargetSchema, `qr/${encodeURIComponent(qrCode)}`, {}, options),
    /** Ask the server to build a missing edition (SPEC §7 sources/on-demand). 404 'Passage not found' when it cannot. */
    createEdition: (slug: string, body: OnDemandEditionBody, options?: RequestOptions) =>
      post((v) => v.OnDemandEditionResultSchema, `publications/${encodeURIComponent(slug)}/sources/on-demand`, body, options),

    // Accounts. The session is a cookie, so these work in the browser on the app's own origin.
    /** Create an account and sign in (better-auth). Errors: 409 email_taken, 400 weak_password, 429 rate_limited. */
    signUp: (body: { email: string; password: string; name: string }, options?: RequestOptions) =>
      send('post', (v) => v.AuthResultSchema, 'auth/sign-up/email', body, options),
    /** Sign in (better-auth). Errors: 401 invalid_credentials, 429 rate_limited. */
    signIn: (body: { email: string; password: string }, options?: RequestOptions) =>
      send('post', (v) => v.AuthResultSchema, 'auth/sign-in/email', body, options),
    /** Single sign-on: which "Continue with …" buttons to show, and the school of a signed-in user's address. */
    getSsoProviders: (options?: RequestOptions) => get((v) => v.SsoProvidersSchema, 'sso/providers', {}, options),
    /**
     * Start a single sign-on: a school address (routed by its domain) or a platform provider. Answers the provider's
     * address to navigate to in full. Errors: 404 sso_not_configured, 503 sso_provider_unavailable, 429 rate_limited.
     */
    startSso: (body: { email: string; redirectUrl?: string } | { provider: PlatformProvider; redirectUrl?: string }, options?: RequestOptions) =>
      send('post', (v) => v.SsoRedirectSchema, 'sso/sign-in', body, options),
    /** Link a provider's account to the signed-in one (the school of its address without `provider`); back to Manage Account. */
    linkSso: (body: { provider?: PlatformProvider }, options?: RequestOptions) => send('post', (v) => v.SsoRedirectSchema, 'sso/link', body, options),
    /** First-party analytics: one batch of tracked events (202). The beacon path is src/adapters/browser.ts. */
    postEvents: async (batch: AnalyticsBatchBody, options?: RequestOptions): Promise<void> => {
      await send('post', (v) => v.IgnoredBodySchema, 'events', batch, options);
    },
    /** End the session on the server and clear its cookie. */
    signOut: async (options?: RequestOptions): Promise<void> => {
      await send('post', (v) => v.IgnoredBodySchema, 'auth/sign-out', {}, options);
    },
    /** better-auth's session, or null when signed out (200 either way, so an anonymous check logs no error). */
    getSession: (options?: RequestOptions) =>
      get((v) => v.SessionSchema, 'auth/get-session', {}, options),
    /** How the signed-in user signs in (better-auth list-accounts): provider ids, 'credential' for a password. */
    listSignInMethods: async (options?: RequestOptions): Promise<string[]> =>
      (await get((v) => v.SignInMethodsSchema, 'auth/list-accounts', {}, options)).map((account) => account.providerId),
    /** Change the signed-in user's name (better-auth update-user). */
    updateName: async (name: string, options?: RequestOptions): Promise<void> => {
      await send('post', (v) => v.IgnoredBodySchema, 'auth/update-user', { name }, options);
    },
    /**
     * Ask to change the signed-in user's email (better-auth change-email): a link goes to the new address, and the
     * change applies when it is opened, which then leads to Manage Account. Errors: 429 rate_limited.
     */
    changeEmail: async (newEmail: string, options?: RequestOptions): Promise<void> => {
      await send('post', (v) => v.IgnoredBodySchema, 'auth/change-email', { newEmail, callbackURL: '/account' }, options);
    },
    /** Change the password (better-auth change-password). 401 invalid_credentials for a wrong current password, 400 weak_password. */
    changePassword: async (body: { currentPassword: string; newPassword: string }, options?: RequestOptions): Promise<void> => {
      await send('post', (v) => v.IgnoredBodySchema, 'auth/change-password', { ...body, revokeOtherSessions: true }, options);
    },
    /**
     * Forgot password: mail a reset link to `email` when it has an account. The answer is the same either way.
     * Errors: 400 invalid_parameter, 429 rate_limited.
     */
    requestPasswordReset: async (email: string, options?: RequestOptions): Promise<void> => {
      await send('post', (v) => v.IgnoredBodySchema, 'auth/request-password-reset', { email }, options);
    },
    /** Set a new password with a reset link's token; every session of the user ends. Errors: 400 invalid_token, weak_password. */
    resetPassword: async (body: { token: string; newPassword: string }, options?: RequestOptions): Promise<void> => {
      await send('post', (v) => v.IgnoredBodySchema, 'auth/reset-password', body, options);
    },
    /** SPEC §7 GET /users/me: 401 when signed out. */
    getCurrentUser: (options?: RequestOptions) => get((v) => v.CurrentUserSchema, 'users/me', {}, options),
    /** SPEC §7 PATCH /users/me/role; answers the updated user. */
    updateRole: (role: UserRole, options?: RequestOptions) => send('patch', (v) => v.CurrentUserSchema, 'users/me/role', { role }, options),
    /** Replace the teacher's class code (needs GROUP_CODES); the old one stops working. */
    rotateGroupCode: (options?: RequestOptions) => send('post', (v) => v.GroupCodeResponseSchema, 'users/me/group-code', {}, options),
    /** GET /users/me/class-activity: the teacher's class activity, counts only. 401 signed out, 403 not a teacher. */
    getClassActivity: (options?: RequestOptions) => get((v) => v.ClassActivitySchema, 'users/me/class-activity', {}, options),
    /** SPEC §7 GET /features/me. */
    getFeatures: async (options?: RequestOptions) => (await get((v) => v.FeaturesSchema, 'features/me', {}, options)).features,
    /** SPEC §7 GET /users/titles: a teacher's titles with statuses, or a class's ASSIGNED titles for a class code. */
    getUserTitles: async (options?: RequestOptions) => (await get((v) => v.UserTitlesSchema, 'users/titles', {}, options)).items,
    /** SPEC §7 PATCH /users/titles/{titleId}/visibility (teachers). */
    setTitleVisibility: (titleId: number, status: TitleStatus, options?: RequestOptions) =>
      send('patch', (v) => v.UserTitleSchema, `users/titles/${encodeURIComponent(String(titleId))}/visibility`, { status }, options),
    // Uploads (USER_UPLOAD): a teacher's own text as a private publication.
    /** The signed-in user's uploads, whether they may upload, and the limits. 401 when signed out. */
    listUploads: (options?: RequestOptions) => get((v) => v.UploadListSchema, 'uploads', {}, options),
    /**
     * Upload a document: .txt or .md, .docx, .epub or .pdf (multipart/form-data). Errors carry the server's message:
     * 413 file_too_large, 415 unsupported_file_type / file_type_mismatch, 422 for a protected or scanned document,
     * 400 empty_file / too_many_passages / invalid_text / corrupt_file and the archive checks, 429 upload_limit, 403, 401.
     */
    uploadText: async (input: { file: File; title?: string; language?: LanguageCode }, options?: RequestOptions) => {
      const form = new FormData();
      form.set('file', input.file);
      if (input.title) form.set('title', input.title);
      if (input.language) form.set('language', input.language);
      return validated(
        (v) => v.UploadSchema,
        () => http.post('uploads', { body: form, signal: options?.signal, timeout: 120_000 }).json(),
      );
    },
    /** Remove one of the signed-in user's uploads. 404 'Upload not found'. */
    deleteUpload: async (slug: string, options?: RequestOptions): Promise<void> => {
      try {
        await http.delete(`uploads/${encodeURIComponent(slug)}`, { signal: options?.signal });
      } catch (error) {
        throw await toApiError(error);
      }
    },
    /** SPEC §7 GET /visitors/me with a class code (the given one, else the stored one). 429 after too many wrong codes. */
    getVisitor: async (params: { groupCode?: string } = {}, options?: RequestOptions) => {
      return validated(
        (v) => v.VisitorSchema,
        () => http.get('visitors/me', { signal: options?.signal, headers: params.groupCode ? { 'X-Group-Code': params.groupCode } : undefined }).json(),
      );
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
