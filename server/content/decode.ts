/** Decode a stored passage once and keep the result: the decode endpoint's work (SPEC §4 Decode). */
import { decodeText } from '../phonics';
import type { ContentStore } from './store';

type DecodablePassage = { id: number; editionId: number; position: number; text: string; textDecoded: string | null };

/** Requests for the same passage while it is being decoded share one job (per store, since ids are per database). */
const inFlight = new WeakMap<ContentStore, Map<number, Promise<string>>>();

/** The passage's decoded text: stored already, or made now, stored, and the passage's cached answer dropped. */
export function decodedText(store: ContentStore, passage: DecodablePassage): Promise<string> {
  if (passage.textDecoded !== null) return Promise.resolve(passage.textDecoded);
  let jobs = inFlight.get(store);
  if (!jobs) inFlight.set(store, (jobs = new Map()));
  const running = jobs.get(passage.id);
  if (running) return running;
  const job = (async () => {
    const textDecoded = await decodeText(passage.text, 'html');
    await store.saveDecoded(passage, textDecoded);
    return textDecoded;
  })().finally(() => jobs.delete(passage.id));
  jobs.set(passage.id, job);
  return job;
}
