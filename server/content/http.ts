/**
 * The content routes (SPEC §7): the catalog, a publication, an excerpt, an edition on demand, passages, decode, QR
 * codes, and the library's media under /media. Their rules are ./service.ts; the gates are server/access.
 */
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { audioAccess, decodeAccess, isTitleLocked, passageAccess } from '../../src/domain/access';
import { PASSAGE_NOT_FOUND } from '../../src/domain/constants';
import {
  DecodeQuerySchema,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SORT,
  ExcerptQuerySchema,
  OnDemandEditionBodySchema,
  PassageQuerySchema,
  PublicationListQuerySchema,
  PublicationQuerySchema,
  QrCodeSchema,
  SlugSchema,
  type PublicationList,
} from '../../src/domain/schemas';
import { ACTOR_VARY, accessActorFor, actorHeaders, assertAllowed, gate, hasCredentials, isFreeFor, premiumContentError, requestActor, sendPrivateJson, type AccessDeps } from '../access';
import { badRequest, notFound } from '../kit/errors';
import { etagMatches } from '../kit/etag';
import type { Env } from '../kit/env';
import { jsonBody, param, query } from '../kit/validate';
import { DECODE_NOT_AVAILABLE } from '../phonics/legend';
import { decodedText } from './decode';
import { catalogEtag, catalogScope, editionOnDemand, gatedPassage, strippedPassage, withheld, type OnDemandDeps } from './service';
import type { Cached, ContentStore } from './store';

/** Content answers may be reused briefly, then revalidated with their ETag. Not in the spec. */
export const CONTENT_CACHE_CONTROL = 'public, max-age=60, must-revalidate';
/**
 * A title's page and the catalog change when an edition is created on demand (SPEC §7: "refreshes publication
 * lists and that publication version"): every use revalidates with the ETag, a 304 from memory when unchanged.
 */
export const TITLE_CACHE_CONTROL = 'public, no-cache';

export interface ContentDeps {
  store: ContentStore;
  access: AccessDeps;
  logger: OnDemandDeps['logger'];
  /** Build a missing edition (from a source, or through a translation provider). */
  onDemand?: OnDemandDeps['build'];
  /** Told when an edition was built on demand (narration queues it). */
  libraryChanged?: OnDemandDeps['libraryChanged'];
}

/** A cached answer with its ETag: 304 when the client has it already. */
function send<T>(c: Context, entry: Cached<T>, cacheControl = CONTENT_CACHE_CONTROL, vary?: string): Response {
  const headers: Record<string, string> = { ETag: entry.etag, 'Cache-Control': cacheControl, 'Content-Type': 'application/json; charset=utf-8' };
  if (vary) headers.Vary = vary;
  if (etagMatches(c.req.header('if-none-match'), entry.etag)) return c.body(null, 304, headers);
  return c.body(entry.json, 200, headers);
}

/** Mount the content routes on the /api/v1 router. */
export function registerContentApi(api: Hono<Env>, deps: ContentDeps): void {
  const { store, access } = deps;
  const onDemandDeps: OnDemandDeps = { store, access, logger: deps.logger, build: deps.onDemand, libraryChanged: deps.libraryChanged };

  api.get('/publications', async (c) => {
    const q = query(c, PublicationListQuerySchema);
    const listQuery = {
      search: q.search?.trim() || undefined,
      sort: q.sort ?? DEFAULT_SORT,
      page: q.page ?? 1,
      pageSize: q.pageSize ?? DEFAULT_PAGE_SIZE,
      // The Language and Level filters (SPEC §2), for everyone.
      languages: q.languages,
      levels: q.levels,
    };
    const only = await catalogScope(access, c, q.filter ?? 'all');
    const list: PublicationList = await store.list({ ...listQuery, only });
    if (only) return c.json(list, 200, actorHeaders());
    const etag = catalogEtag(store.contentRevision, list);
    // Vary: a class code turns the same address into the classroom's list.
    const headers = { ETag: etag, 'Cache-Control': TITLE_CACHE_CONTROL, Vary: 'X-Group-Code' };
    if (etagMatches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    return c.json(list, 200, headers);
  });

  const slugParam = (c: Context) => param(z.object({ publicationSlug: SlugSchema }), { publicationSlug: c.req.param('slug') }).publicationSlug;
  const versionNumber = (v: string | undefined) => (v === undefined ? undefined : Number(v.slice(1)));

  api.get('/publications/:slug', async (c) => {
    const slug = slugParam(c);
    const { publicationVersion } = query(c, PublicationQuerySchema);
    const entry = await store.publication(slug, versionNumber(publicationVersion));
    if (!entry) throw notFound('Publication not found');
    if (!isTitleLocked(entry.value, [])) return send(c, entry, TITLE_CACHE_CONTROL);
    // A premium title needs LEVELS (src/domain/access.ts isTitleLocked).
    const actor = accessActorFor(await requestActor(access, c), { publicationId: entry.value.id, ownerUserId: null });
    if (isTitleLocked(entry.value, actor.features)) throw premiumContentError();
    return sendPrivateJson(c, entry.json);
  });

  api.get('/publications/:slug/editions/passage', async (c) => {
    const slug = slugParam(c);
    const q = query(c, ExcerptQuerySchema);
    const result = await store.excerpt(slug, { version: versionNumber(q.publicationVersion), language: q.language, level: q.level, position: q.position });
    if (result === null) throw notFound('Publication not found');
    if (result === 'no-edition') throw notFound('Edition not found');
    if (result === 'no-passage') throw notFound(PASSAGE_NOT_FOUND);
    const edition = await store.edition(result.value.editionId);
    if (!edition) throw notFound('Edition not found');
    const gated = await gate(access, c, passageAccess, edition);
    assertAllowed(gated);
    return gated.actorDependent ? sendPrivateJson(c, result.json) : send(c, result);
  });

  api.post('/publications/:slug/sources/on-demand', async (c) => {
    const slug = slugParam(c);
    const { version, languageCode, level } = await jsonBody(c, OnDemandEditionBodySchema, '{version, languageCode, level}');
    const { edition, created } = await editionOnDemand(onDemandDeps, c, { slug, version: Number(version.slice(1)), language: languageCode, level });
    return c.json({ edition, created }, created ? 201 : 200);
  });

  api.get('/passages', async (c) => {
    const { editionId, position } = query(c, PassageQuerySchema);
    const found = await gatedPassage(store, access, c, editionId, position);
    if (found.blocked) return found.blocked;
    const { edition, entry, text } = found;
    const passage = entry.value;
    const audioIsFree = passage.audio === null || isFreeFor(audioAccess, edition);
    if (!text.actorDependent) {
      // Free text: the cached answer as it is, unless it holds decode markup or narration that need features.
      if (passage.textDecoded === null && audioIsFree) return send(c, entry);
      if (!hasCredentials(c)) return send(c, strippedPassage(entry, audioIsFree), CONTENT_CACHE_CONTROL, ACTOR_VARY);
    }
    const actor = accessActorFor(await requestActor(access, c), edition);
    const keepDecoded = decodeAccess(edition, edition, actor) === 'allowed';
    const keepAudio = audioAccess(edition, edition, actor) === 'allowed';
    return sendPrivateJson(c, keepDecoded && keepAudio ? entry.json : JSON.stringify(withheld(passage, keepDecoded, keepAudio)));
  });

  // Decode mode (SPEC §4 Decode): the passage with phonics cues, English only; made on first request and stored.
  api.get('/passages/:passageId/decode', async (c) => {
    const passageId = c.req.param('passageId');
    if (!/^\d{1,9}$/.test(passageId)) throw badRequest('passageId is required');
    const q = query(c, DecodeQuerySchema);
    const passage = await store.passageForDecode(Number(passageId));
    if (!passage) throw notFound(PASSAGE_NOT_FOUND);
    if ((q.editionId !== undefined && q.editionId !== passage.editionId) || (q.position !== undefined && q.position !== passage.position)) {
      throw notFound(PASSAGE_NOT_FOUND);
    }
    if (passage.language !== 'en') throw notFound(DECODE_NOT_AVAILABLE);
    const edition = await store.edition(passage.editionId);
    if (!edition) throw notFound(PASSAGE_NOT_FOUND);
    // Decode needs DECODE, and the text itself must be readable (src/domain/access.ts decodeAccess).
    assertAllowed(await gate(access, c, decodeAccess, edition));
    const textDecoded = await decodedText(store, passage);
    store.forgetPassage(passage.editionId, passage.position);
    return c.json({ passageId: passage.id, textDecoded }, 200, actorHeaders());
  });
  for (const missing of ['/passages/decode', '/passages//decode']) {
    api.get(missing, () => {
      throw badRequest('passageId is required');
    });
  }

  api.get('/qr/:qrCode', async (c) => {
    const { qrCode } = param(z.object({ qrCode: QrCodeSchema }), { qrCode: c.req.param('qrCode') });
    const url = await store.qr(qrCode);
    if (!url) throw notFound('QR code not found');
    return c.json({ url }, 200, { 'Cache-Control': 'no-cache' });
  });
}

/** Mount /media/* (a title's images and other assets, outside the API) on the app. */
export function registerMedia(app: Hono<Env>, store: ContentStore): void {
  app.get('/media/*', async (c) => {
    let rel: string;
    try {
      rel = decodeURIComponent(c.req.path.slice('/media/'.length));
    } catch {
      throw notFound('Media not found');
    }
    if (!/^[a-z0-9-]+\/v\d+\/[A-Za-z0-9_./-]+$/.test(rel) || rel.includes('..')) throw notFound('Media not found');
    const asset = await store.asset(rel);
    if (!asset) throw notFound('Media not found');
    const headers = {
      'Content-Type': asset.contentType,
      ETag: asset.etag,
      'Cache-Control': 'public, max-age=86400',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      'X-Content-Type-Options': 'nosniff',
    };
    if (etagMatches(c.req.header('if-none-match'), asset.etag)) return c.body(null, 304, headers);
    return c.body(asset.data as Uint8Array<ArrayBuffer>, 200, headers);
  });
}
