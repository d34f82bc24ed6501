/**
 * GET /api/v1/publications/{slug}/editions/epub?publicationVersion=&language=&level=: the edition as an EPUB 3 with
 * media overlays (docs/epub.md). The reader's gates decide it, through the same functions: text the asker may not
 * read is 403 license_required / group_code_required (never an empty book); narration the asker may not hear is
 * left out, and the book is the text alone.
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { audioAccess, passageAccess } from '../../src/domain/access';
import { LanguageCodeSchema, SlugSchema, VersionSchema } from '../../src/domain/schemas';
import { LevelSchema } from '../../src/domain/levelSchema';
import { ACTOR_CACHE_CONTROL, ACTOR_VARY, assertAllowed, gate, type AccessDeps } from '../access';
import type { ContentStore } from '../content/store';
import { notFound } from '../kit/errors';
import type { Env } from '../kit/env';
import { param, query } from '../kit/validate';
import type { NarrationService } from '../narration/queue';
import { buildEpub, EPUB_MEDIA_TYPE } from './build';
import { epubFileName, epubSource, findEdition, NarrationPendingError } from './source';

/** How long the export waits for narration it had to make before answering 503. Not in the spec. @default 120000 */
export const EPUB_NARRATION_WAIT_MS = 120_000;
/** Seconds to wait before asking again after 503 narration_generating. */
const RETRY_AFTER_S = 30;

/** The query: language and level name the edition; publicationVersion defaults to the latest. */
export const EpubQuerySchema = z.object({
  publicationVersion: VersionSchema.optional(),
  language: z.string({ error: 'language is required' }).pipe(LanguageCodeSchema),
  level: z
    .string({ error: 'level is required' })
    .transform((l) => l.toUpperCase())
    .pipe(LevelSchema),
});

export interface EpubDeps {
  store: ContentStore;
  access: AccessDeps;
  narration?: NarrationService;
  /** @default EPUB_NARRATION_WAIT_MS */
  narrationWaitMs?: number;
}

/** Mount the EPUB export on the /api/v1 router. */
export function registerEpubApi(api: Hono<Env>, deps: EpubDeps): void {
  api.get('/publications/:slug/editions/epub', async (c: Context) => {
    const slug = param(z.object({ publicationSlug: SlugSchema }), { publicationSlug: c.req.param('slug') }).publicationSlug;
    const q = query(c, EpubQuerySchema);
    const found = await findEdition(deps.store, { slug, version: q.publicationVersion ? Number(q.publicationVersion.slice(1)) : undefined, language: q.language, level: q.level });
    if (found.kind === 'no-publication') throw notFound('Publication not found');
    if (found.kind === 'no-edition') throw notFound('Edition not found');
    const text = await gate(deps.access, c, passageAccess, found.info);
    assertAllowed(text);
    const audio = await gate(deps.access, c, audioAccess, found.info);
    let source;
    try {
      source = await epubSource(found, {
        store: deps.store,
        narration: deps.narration,
        mode: audio.decision === 'allowed' ? 'make' : 'none',
        deadline: Date.now() + (deps.narrationWaitMs ?? EPUB_NARRATION_WAIT_MS),
      });
    } catch (error) {
      if (!(error instanceof NarrationPendingError)) throw error;
      const body = JSON.stringify({ errors: [{ code: 'narration_generating', message: error.message }] });
      return c.body(body, 503, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': String(RETRY_AFTER_S) });
    }
    const book = buildEpub(source);
    const name = epubFileName(slug, q.language, q.level);
    const headers: Record<string, string> = {
      'Content-Type': EPUB_MEDIA_TYPE,
      'Content-Disposition': `attachment; filename="${name}"`,
      'Content-Length': String(book.bytes.length),
      'Cache-Control': text.actorDependent || audio.actorDependent ? ACTOR_CACHE_CONTROL : 'no-cache',
    };
    if (text.actorDependent || audio.actorDependent) headers.Vary = ACTOR_VARY;
    return c.body(book.bytes as Uint8Array<ArrayBuffer>, 200, headers);
  });
}
