/**
 * The first sentence first: an English (Flite) narration is said head first, and a requested passage's head is
 * served while the rest is made. The seam: the head's marks are the whole narration's first marks, time for time;
 * the head's MP3 is the whole MP3's first bytes but for the encoder's last frames; and the API's 202 carries the
 * head (`partial`) until the whole is ready.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server';
import { entitledCookie, getJson as getJsonAnonymous, startFixtureServer, withEnv, writeFixtureLibrary } from './harness';
import { fliteHeadEnd, narrate, FLITE_HEAD_MIN_CHARS, type NarrationHead } from '../../server/narration/pipeline';
import { readMp3Info } from '../../server/narration/mp3';
import { speechMarkProblems } from '../../server/narration/speechMarks';
import { passagePlainText } from '../../src/domain/sanitize';
import { AudioGeneratingSchema, PassageAudioReadySchema } from '../../src/domain/schemas';

const STORY = [
  'The fox ran across the snowy field at dawn.',
  'Her tracks made a long, crooked line between the pines, and the crows called after her from the bare branches.',
  'By noon she was asleep in her den, warm and round, with her tail over her nose.',
].join(' ');

/** Frames of the MP3 (16 kHz, 32 kbps: 144 bytes, 36 ms each) that LAME's flush at the end of a stream may change. */
const FLUSH_BYTES = 6 * 144;

describe('a Flite narration said head first', () => {
  it('ends the head at the first clause or sentence past the minimum, and says a short passage whole', () => {
    expect(fliteHeadEnd(STORY, 'en')).toBe(STORY.indexOf('dawn.') + 'dawn.'.length);
    expect(fliteHeadEnd(STORY, 'en')).toBeGreaterThanOrEqual(FLITE_HEAD_MIN_CHARS);
    // A short first sentence takes the next one with it.
    const short = 'It snowed. The fox ran across the snowy field at dawn. Then she slept.';
    expect(short.slice(0, fliteHeadEnd(short, 'en'))).toBe('It snowed. The fox ran across the snowy field at dawn.');
    // A clause will do; a short one takes the next with it.
    const clauses = 'When winter came, the fox ran across the field. Then she slept.';
    expect(clauses.slice(0, fliteHeadEnd(clauses, 'en'))).toBe('When winter came, the fox ran across the field.');
    const clause = 'When the long winter came, the fox ran across the field. Then she slept.';
    expect(clause.slice(0, fliteHeadEnd(clause, 'en'))).toBe('When the long winter came,');
    // A heading without a full stop ends at its paragraph.
    const heading = 'The Long Winter of the Red Fox and Her Cubs\nThe fox ran across the field.';
    expect(heading.slice(0, fliteHeadEnd(heading, 'en'))).toBe('The Long Winter of the Red Fox and Her Cubs');
    // One sentence, or nothing said after the head: the passage is said whole.
    expect(fliteHeadEnd('The fox ran across the snowy field at dawn.', 'en')).toBe('The fox ran across the snowy field at dawn.'.length);
    expect(fliteHeadEnd('The fox ran across the snowy field at dawn. 東京', 'en')).toBe('The fox ran across the snowy field at dawn. 東京'.length);
  });

  it("gives a head whose marks and audio are the start of the whole narration's", async () => {
    const heads: NarrationHead[] = [];
    const whole = await narrate(STORY, 'en', { onHead: (h) => heads.push(h) });
    expect(heads).toHaveLength(1);
    const [head] = heads;
    const headPlain = STORY.slice(0, fliteHeadEnd(STORY, 'en'));

    // Marks: one per word of the head, the same offsets and times as the whole's first marks, all before the seam.
    expect(head.speechMarks).toHaveLength(headPlain.split(/\s+/).length);
    expect(whole.speechMarks.slice(0, head.speechMarks.length)).toEqual(head.speechMarks);
    expect(whole.speechMarks).toHaveLength(STORY.split(/\s+/).length);
    expect(speechMarkProblems(headPlain, head.speechMarks, head.durationMs, 'en')).toEqual([]);
    expect(speechMarkProblems(STORY, whole.speechMarks, whole.durationMs, 'en')).toEqual([]);
    expect(head.speechMarks.at(-1)!.time).toBeLessThan(head.seamMs);
    expect(whole.speechMarks[head.speechMarks.length].time).toBeGreaterThanOrEqual(Math.round(head.seamMs));

    // Audio: the head's MP3 is the whole's first bytes, but for the frames LAME's flush rewrites at its end.
    let same = 0;
    while (same < head.mp3.length && head.mp3[same] === whole.mp3[same]) same++;
    expect(same).toBeGreaterThanOrEqual(head.mp3.length - FLUSH_BYTES);
    expect(head.durationMs).toBe(Math.floor(readMp3Info(head.mp3)!.durationMs));
    expect(head.durationMs).toBeGreaterThanOrEqual(head.seamMs);
    expect(whole.durationMs).toBeGreaterThan(head.durationMs);

    // Said again without asking for the head: the same marks (the head is part of how every Flite narration is said).
    const again = await narrate(STORY, 'en');
    expect(again.speechMarks.slice(0, head.speechMarks.length)).toEqual(head.speechMarks);
    expect(again.speechMarks).toHaveLength(whole.speechMarks.length);
  }, 60_000);

  it('makes no head for a passage said whole, nor for an espeak voice', async () => {
    const heads: NarrationHead[] = [];
    await narrate('The fox ran across the snowy field at dawn.', 'en', { onHead: (h) => heads.push(h) });
    await narrate(STORY, 'en', { voice: 'espeak-en-us', onHead: (h) => heads.push(h) });
    expect(heads).toEqual([]);
  }, 60_000);
});

/** The fixture library plus a title whose one passage is STORY. */
function libraryWithStory(): string {
  const dir = writeFixtureLibrary(0);
  const pub = path.join(dir, 'fox-in-snow');
  fs.mkdirSync(path.join(pub, 'images'), { recursive: true });
  fs.copyFileSync(path.join(dir, 'alpha-owls/images/cover.svg'), path.join(pub, 'images/cover.svg'));
  fs.writeFileSync(
    path.join(pub, 'publication.yaml'),
    'slug: fox-in-snow\nversion: 1\ntitle: Fox in Snow\nauthor: Ida Frost\ncreatedAt: 2026-02-02\ncover: images/cover.svg\ndefaultReader:\n  left: en:ORIGINAL\n',
  );
  fs.writeFileSync(path.join(pub, 'en.ORIGINAL.md'), STORY);
  return dir;
}

describe('the audio routes while a requested passage is narrated', () => {
  let server: RunningServer;
  let cookie: string;
  const getJson = (pathname: string) => getJsonAnonymous(server, pathname, { headers: { Cookie: cookie } });

  beforeAll(async () => {
    // The request waits long enough for the whole narration: the head comes first and answers it.
    server = await withEnv({ NARRATION_CONCURRENCY: '0', NARRATION_WAIT_MS: '30000' }, () => startFixtureServer({ contentDir: libraryWithStory() }));
    cookie = await entitledCookie(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers 202 with the head, serves its MP3, then the whole narration starts with the same marks', async () => {
    const editions = (await getJson('/api/v1/publications/fox-in-snow')).body.editions as { id: number }[];
    const editionId = editions[0].id;
    const passage = (await getJson(`/api/v1/passages?editionId=${editionId}&position=1`)).body;
    expect(passagePlainText(passage.text)).toBe(STORY);

    const first = await getJson(`/api/v1/passages/${passage.id}/audio?editionId=${editionId}`);
    expect(first.status).toBe(202);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('retry-after')).toBe('1');
    const generating = AudioGeneratingSchema.parse(first.body);
    const partial = generating.partial!;
    expect(partial.url).toMatch(/^\/audio\/head-flite-slt-[0-9a-f]{32}\.mp3$/);
    expect(partial.voice).toBe('flite-slt');
    // One mark per word of the first sentence.
    const firstSentence = 'The fox ran across the snowy field at dawn.';
    expect(partial.speechMarks.map((m) => m.offset)).toEqual([...firstSentence.matchAll(/\w+/g)].map((m) => m.index));
    expect(partial.seam).toBeLessThanOrEqual(partial.duration);

    const headMp3 = await fetch(server.url + partial.url);
    expect(headMp3.status).toBe(200);
    expect(headMp3.headers.get('content-type')).toBe('audio/mpeg');
    const headBytes = new Uint8Array(await headMp3.arrayBuffer());
    expect(Math.floor(readMp3Info(headBytes)!.durationMs)).toBe(partial.duration);

    let ready = await getJson(`/api/v1/passages/${passage.id}/audio?editionId=${editionId}`);
    for (let i = 0; ready.status === 202 && i < 100; i++) ready = await getJson(`/api/v1/passages/${passage.id}/audio?editionId=${editionId}`);
    expect(ready.status).toBe(200);
    const { audio } = PassageAudioReadySchema.parse(ready.body);
    expect(audio.speechMarks.slice(0, partial.speechMarks.length)).toEqual(partial.speechMarks);
    const wholeBytes = new Uint8Array(await (await fetch(server.url + audio.url)).arrayBuffer());
    let same = 0;
    while (same < headBytes.length && headBytes[same] === wholeBytes[same]) same++;
    expect(same).toBeGreaterThanOrEqual(headBytes.length - FLUSH_BYTES);

    // Once ready, the answer is the whole narration only.
    const again = await getJson(`/api/v1/passages/${passage.id}/audio?editionId=${editionId}`);
    expect(again.status).toBe(200);
    expect(again.body.partial).toBeUndefined();
  }, 90_000);
});
