/**
 * What an edition's EPUB is made of, read from the content store and the narration service: the title, the
 * edition's passages and images, and each passage's narration (its MP3 from the audio store, its speech marks and
 * duration). Narration is reused where it is made; a passage without it is narrated the way the reader's audio
 * request narrates it (NarrationService.audioFor: the passage's job jumps the queue and runs in the priority
 * lane), and the export waits for it up to a deadline.
 */
import type { LanguageCode } from '../../src/domain/languages';
import type { Level } from '../../src/domain/levels';
import type { Edition, Publication } from '../../src/domain/schemas';
import type { ContentStore, EditionInfo } from '../content/store';
import type { NarrationService, ReadyAudio } from '../narration/queue';
import { mp3Name, readAll } from '../narration/storage';
import { SEGMENTER_LOCALES } from '../narration/voices';
import type { EpubImage, EpubInput, EpubNarration, EpubPassage } from './build';

/** How the export gets each passage's narration. */
export type NarrationMode =
  /** Narrate what is missing, and wait for it. */
  | 'make'
  /** Only narration that is made already; passages without it have no overlay. */
  | 'existing'
  /** No narration at all (the asker may not hear it, or the language has no voice). */
  | 'none';

/** The narration of an edition was not ready by the deadline (it goes on being made in the background). */
export class NarrationPendingError extends Error {
  override name = 'NarrationPendingError';
  constructor(readonly ready: number, readonly total: number) {
    super(`The narration of this edition is still being made (${ready} of ${total} passages ready): try again in a minute.`);
  }
}

export interface EditionRef {
  slug: string;
  version?: number;
  language: LanguageCode;
  level: Level;
}

export type FoundEdition = { kind: 'found'; publication: Publication; edition: Edition; info: EditionInfo } | { kind: 'no-publication' } | { kind: 'no-edition' };

/** The publication and edition a request names, as the sibling routes find them. */
export async function findEdition(store: ContentStore, ref: EditionRef): Promise<FoundEdition> {
  const entry = await store.publication(ref.slug, ref.version);
  if (!entry) return { kind: 'no-publication' };
  const edition = entry.value.editions.find((e) => e.language.code === ref.language && e.level === ref.level);
  const info = edition && (await store.edition(edition.id));
  if (!edition || !info) return { kind: 'no-edition' };
  return { kind: 'found', publication: entry.value, edition, info };
}

/** `/media/<slug>/v<n>/<file>` → the asset path and the file inside the title's folder. */
function mediaPath(url: string): { asset: string; file: string } | null {
  const m = /^\/media\/([a-z0-9-]+\/v\d+)\/(.+)$/.exec(url);
  return m ? { asset: `${m[1]}/${m[2]}`, file: m[2] } : null;
}

async function image(store: ContentStore, url: string | null): Promise<{ file: string; image: EpubImage } | null> {
  const where = url ? mediaPath(url) : null;
  const asset = where ? await store.asset(where.asset) : null;
  return where && asset ? { file: where.file, image: { bytes: asset.data, mediaType: asset.contentType } } : null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ask until the passage's narration is ready, or null when the deadline passes (or the passage has no voice). */
async function readyAudio(narration: NarrationService, passageId: number, editionId: number, mode: NarrationMode, deadline: number): Promise<ReadyAudio | null | 'pending'> {
  for (;;) {
    const answer = await narration.audioFor(passageId, { editionId, wait: mode === 'make' });
    if (answer.kind === 'ready') return answer.audio;
    if (answer.kind !== 'generating' || mode !== 'make') return null;
    if (Date.now() >= deadline) return 'pending';
    await sleep(100);
  }
}

async function narrationOf(narration: NarrationService, audio: ReadyAudio): Promise<EpubNarration | null> {
  const key = /^\/audio\/([^/]+)\.mp3$/.exec(audio.url)?.[1];
  const mp3 = key ? await readAll(narration.audioStore, mp3Name(key)) : null;
  return mp3 ? { mp3, durationMs: audio.duration, speechMarks: audio.speechMarks, voice: audio.voice } : null;
}

export interface SourceOptions {
  store: ContentStore;
  narration?: NarrationService;
  mode: NarrationMode;
  /** When 'make' stops waiting, ms since the epoch. */
  deadline?: number;
  /** dcterms:modified. @default now */
  modified?: Date;
}

/** Everything buildEpub needs for one edition. Throws NarrationPendingError when 'make' runs past its deadline. */
export async function epubSource(found: Extract<FoundEdition, { kind: 'found' }>, options: SourceOptions): Promise<EpubInput> {
  const { publication, edition } = found;
  const { store, narration } = options;
  const mode = narration && edition.audioEnabled ? options.mode : 'none';
  const deadline = options.deadline ?? Number.POSITIVE_INFINITY;
  const entries = [];
  for (let position = 1; position <= edition.passageCount; position++) {
    const entry = await store.passage(edition.id, position);
    if (entry) entries.push(entry.value);
  }
  const wanted = mode === 'existing' ? entries.filter((p) => p.audio !== null) : mode === 'make' ? entries : [];
  // Start every missing narration at once (each joins the priority lane), then collect them in order.
  if (mode === 'make') await Promise.all(wanted.map((p) => narration!.audioFor(p.id, { editionId: edition.id, wait: false })));
  const audio = new Map<number, EpubNarration>();
  let pending = 0;
  for (const p of wanted) {
    const ready = await readyAudio(narration!, p.id, edition.id, mode, deadline);
    if (ready === 'pending') pending++;
    else if (ready) {
      const n = await narrationOf(narration!, ready);
      if (n) audio.set(p.id, n);
    }
  }
  if (pending) throw new NarrationPendingError(wanted.length - pending, wanted.length);

  const images = new Map<string, EpubImage>();
  const passages: EpubPassage[] = [];
  for (const p of entries) {
    const illustration = await image(store, p.imageUrl);
    if (illustration) images.set(illustration.file, illustration.image);
    passages.push({
      position: p.position,
      html: p.text,
      partName: p.partName,
      sectionName: p.sectionName,
      image: illustration ? { file: illustration.file, alt: p.imageAlt ?? '' } : null,
      narration: audio.get(p.id) ?? null,
    });
  }
  return {
    slug: publication.slug,
    version: Number(publication.version.replace(/^v/, '')),
    title: publication.title,
    author: publication.author,
    language: edition.language.code,
    level: edition.level,
    createdAt: publication.createdAt.slice(0, 10),
    modified: options.modified ?? new Date(),
    cover: await image(store, publication.thumbnailImageUrl),
    images,
    passages,
    segmenterLocale: SEGMENTER_LOCALES[edition.language.code],
  };
}

/** The file name of an edition's book: `<slug>.<lang>.<LEVEL>.epub`. */
export function epubFileName(slug: string, language: string, level: string): string {
  return `${slug}.${language}.${level}.epub`;
}
