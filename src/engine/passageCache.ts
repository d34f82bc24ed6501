/**
 * The engine's passage cache: one entry per (edition, position), requests in flight shared, and room for the
 * data that arrives later (speech marks, decoded text) to be kept with the cached passage (SPEC §4). A gated
 * answer (licenseRequired, groupCodeRequired) is never kept: it depends on who asks, and a reader who signs in or
 * enters a class code must get the passage itself when it is asked for again.
 */
import { fromPromise, type PromiseActorLogic, type PromiseSnapshot } from 'xstate';
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

  /** The passages before and after a position, in the background. */
  prefetchNeighbours(editionId: number, position: number, passageCount: number): void {
    for (const p of [position + 1, position - 1]) if (p >= 1 && p <= passageCount) this.prefetch(editionId, p);
  }

  /** Keep a passage that gained data later (speech marks, decoded text), when it is cached. */
  update(passage: Passage): void {
    if (this.entries.has(passageKey(passage.editionId, passage.position))) this.put(passage);
  }

  private put(passage: Passage) {
    if (passage.licenseRequired || passage.groupCodeRequired) return;
    const key = passageKey(passage.editionId, passage.position);
    this.entries.delete(key);
    this.entries.set(key, passage);
    if (this.entries.size > ENGINE_PASSAGE_CACHE_SIZE) this.entries.delete(this.entries.keys().next().value as string);
  }

  clear() {
    this.entries.clear();
  }
}

export interface PassageLoadInput {
  editionId: number;
  position: number;
  passageCount: number;
}

/**
 * The reader system's passage load. A passage already in the cache is answered at once: the actor starts done, so
 * its parent has the passage within the same event (a prefetched page turn renders in the frame of its key press,
 * docs/performance.md "Page turn"). Any other passage is fetched, as a promise actor. The neighbours are the reader
 * system's to ask for (its `passages.prefetch`, after the frame).
 */
export function passageLoadActor(cache: PassageCache): PromiseActorLogic<Passage, PassageLoadInput> {
  const fetched = fromPromise<Passage, PassageLoadInput>(({ input }) => cache.load(input.editionId, input.position));
  return {
    ...fetched,
    getInitialSnapshot: (scope, input) => {
      const cached = cache.get(input.editionId, input.position);
      if (!cached) return fetched.getInitialSnapshot(scope, input);
      const done: PromiseSnapshot<Passage, PassageLoadInput> = { status: 'done', output: cached, error: undefined, input };
      return done;
    },
  };
}
