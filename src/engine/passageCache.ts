/**
 * The engine's passage cache: one entry per (edition, position), requests in flight shared, and room for the
 * data that arrives later (speech marks, decoded text) to be merged into the cached passage (SPEC §4).
 */
import type { Passage } from '../domain/schemas';
import type { ApiPort } from './ports';

export const passageKey = (editionId: number, position: number) => `${editionId}:${position}`;

/** Most passages the engine keeps. Not in the spec. @default 400 */
export const ENGINE_PASSAGE_CACHE_SIZE = 400;

export class PassageCache {
  private readonly entries = new Map<string, Passage>();
  private readonly inFlight = new Map<string, Promise<Passage>>();

  constructor(private readonly api: ApiPort) {}

  get(editionId: number, position: number): Passage | undefined {
    return this.entries.get(passageKey(editionId, position));
  }

  /** Fetch (or join the fetch of) a passage; `background` marks prefetches. */
  load(editionId: number, position: number, background = false): Promise<Passage> {
    const key = passageKey(editionId, position);
    const hit = this.entries.get(key);
    if (hit) return Promise.resolve(hit);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const request = this.api
      .getPassage(editionId, position, { background })
      .then((passage) => {
        this.put(passage);
        return passage;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, request);
    return request;
  }

  /** Start fetching without waiting; failures of a prefetch are ignored. */
  prefetch(editionId: number, position: number): void {
    this.load(editionId, position, true).catch(() => undefined);
  }

  /** Merge later data (speech marks, decoded text) into the cached passage. */
  merge(editionId: number, position: number, patch: Partial<Passage>): Passage | undefined {
    const key = passageKey(editionId, position);
    const current = this.entries.get(key);
    if (!current) return undefined;
    const next = { ...current, ...patch };
    this.entries.set(key, next);
    return next;
  }

  private put(passage: Passage) {
    const key = passageKey(passage.editionId, passage.position);
    this.entries.delete(key);
    this.entries.set(key, passage);
    if (this.entries.size > ENGINE_PASSAGE_CACHE_SIZE) this.entries.delete(this.entries.keys().next().value as string);
  }

  clear() {
    this.entries.clear();
  }
}
