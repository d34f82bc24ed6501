/**
 * The content rules the routes of ./http.ts apply (SPEC §2, §3, §7): which titles a catalog request sees, the
 * catalog's ETag, the passage at a position gated on its text, what a passage answer withholds from whom, and an
 * edition built on demand for someone who could read it.
 */
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { passageAccess } from '../../src/domain/access';
import { PASSAGE_NOT_FOUND } from '../../src/domain/constants';
import type { LanguageCode } from '../../src/domain/languages';
import type { Level } from '../../src/domain/levels';
import type { Passage, PublicationList } from '../../src/domain/schemas';
import { assertAllowed, blockedPassage, gate, hasCredentials, roleOf, requestActor, sendPrivateJson, type AccessDeps, type Gated } from '../access';
import { INVALID_CLASS_CODE } from '../access/groupCode';
import { titleStatuses } from '../accounts/service';
import { HttpError, notFound } from '../kit/errors';
import { etagOf } from '../kit/etag';
import type { OnDemandResult } from './onDemand';
import type { Cached, ContentStore, EditionInfo } from './store';

/** The catalog's filters (SPEC §2): every title, or a teacher's assigned or unassigned ones. */
export type CatalogFilter = 'all' | 'assigned' | 'unassigned';

/**
 * Which titles a catalog request lists, or undefined for the free catalog (the same for everyone). A class-code
 * visitor sees the teacher's ASSIGNED titles whatever the filter; the assigned and unassigned filters are for
 * teachers (403 for anyone else); an X-Group-Code that does not resolve is a 403 `invalid_group_code`.
 */
export async function catalogScope(access: AccessDeps, c: Context, filter: CatalogFilter): Promise<((id: number) => boolean) | undefined> {
  // The free catalog needs no actor (and none is resolved without credentials).
  if (filter === 'all' && !hasCredentials(c)) return undefined;
  const actor = await requestActor(access, c);
  if (actor.kind === 'invalidGroupCode') throw new HttpError(403, [{ code: 'invalid_group_code', message: INVALID_CLASS_CODE }]);
  if (actor.kind === 'student') return (id) => actor.assigned.has(id);
  if (filter === 'all') return undefined;
  if ((await roleOf(access, actor)) !== 'TEACHER' || actor.kind !== 'user') {
    throw new HttpError(403, [{ code: 'forbidden', message: 'The assigned and unassigned filters are for teachers.' }]);
  }
  const assigned = new Set((await titleStatuses(access.accounts!.database.db, actor.userId, 'ASSIGNED')).map((r) => r.titleId));
  return filter === 'assigned' ? (id) => assigned.has(id) : (id) => !assigned.has(id);
}

/** The free catalog's ETag: weak, from the content revision and the titles listed. */
export function catalogEtag(contentRevision: number, list: PublicationList): string {
  return `W/"r${contentRevision}-${list.total}-${list.items.map((i) => i.id).join('.')}"`;
}

/** The passage as sent: decoded text and audio only for those who may have them (decodeAccess, audioAccess). */
export function withheld(passage: Passage, keepDecoded: boolean, keepAudio: boolean): Passage {
  if ((keepDecoded || passage.textDecoded === null) && (keepAudio || passage.audio === null)) return passage;
  return { ...passage, textDecoded: keepDecoded ? passage.textDecoded : null, audio: keepAudio ? passage.audio : null };
}

/** The anonymous answer of a free passage whose decoded text or narration needs features: those left out. */
const strippedPassages = new WeakMap<Cached<Passage>, Cached<Passage>>();
export function strippedPassage(entry: Cached<Passage>, keepAudio: boolean): Cached<Passage> {
  let hit = strippedPassages.get(entry);
  if (!hit) {
    const value = withheld(entry.value, false, keepAudio);
    const json = JSON.stringify(value);
    hit = { value, json, etag: etagOf(json) };
    strippedPassages.set(entry, hit);
  }
  return hit;
}

/**
 * The passage at a position of an edition, gated on its text (GET /passages and GET /passages/audioOnly): 404 at
 * position 0 or below, for an unknown edition ('Edition not found') and for a position it does not have. When the
 * asker may not read the text, `blocked` is the answer to send: the passage in its blocked state, private.
 */
export async function gatedPassage(
  store: ContentStore,
  access: AccessDeps,
  c: Context,
  editionId: number,
  position: number,
): Promise<{ blocked: Response } | { blocked: null; edition: EditionInfo; entry: Cached<Passage>; text: Gated }> {
  if (position <= 0) throw notFound(PASSAGE_NOT_FOUND);
  const edition = await store.edition(editionId);
  if (!edition) throw notFound('Edition not found');
  const entry = await store.passage(editionId, position);
  if (!entry) throw notFound(PASSAGE_NOT_FOUND);
  const text = await gate(access, c, passageAccess, edition);
  if (text.decision !== 'allowed') return { blocked: sendPrivateJson(c, JSON.stringify(blockedPassage(entry.value, text.decision))) };
  return { blocked: null, edition, entry, text };
}

export interface OnDemandDeps {
  store: ContentStore;
  access: AccessDeps;
  logger: Logger;
  /** Build a missing edition (from a source, or through a translation provider). */
  build?: (request: { slug: string; version: number; language: LanguageCode; level: Level }) => Promise<OnDemandResult>;
  /** Told when the library changed (narration queues the new edition). */
  libraryChanged?: () => Promise<void>;
}

/**
 * An edition made on demand (SPEC §7), built only for someone who could read it (src/domain/access.ts
 * passageAccess): the edition and whether it was made now. 404 when there is no builder, no such publication, or
 * nothing to build it from.
 */
export async function editionOnDemand(
  { store, access, logger, build, libraryChanged }: OnDemandDeps,
  c: Context,
  request: { slug: string; version: number; language: LanguageCode; level: Level },
) {
  const { slug, version, language, level } = request;
  if (!build) throw notFound(PASSAGE_NOT_FOUND);
  const target = await store.publication(slug, version);
  if (target) {
    const p = target.value;
    const owner = await store.privateOwner({ slug });
    assertAllowed(await gate(access, c, passageAccess, { publicationId: p.id, ownerUserId: owner, badges: p.badges, language, level }));
  }
  const result = await build(request);
  if (result.kind === 'no-publication') throw notFound('Publication not found');
  if (result.kind === 'unavailable') throw notFound(PASSAGE_NOT_FOUND);
  if (result.kind === 'built') {
    await store.refreshRevision();
    await libraryChanged?.();
    logger.info({ slug, languageCode: language, level, origin: result.origin }, 'edition built on demand');
  }
  const publication = await store.publication(slug, version);
  const edition = publication?.value.editions.find((e) => e.id === result.editionId);
  if (!edition) throw notFound(PASSAGE_NOT_FOUND);
  return { edition, created: result.kind === 'built' };
}
