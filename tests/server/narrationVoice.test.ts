/**
 * NARRATION_VOICE_EN on a real server: the audio answers name the voice that spoke, and a change of
 * English voice makes the English passages stale, so the background queue narrates them again at the next start;
 * the other languages' narrations are kept. One title, one short passage per language, so two servers stay quick.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server';
import { entitledCookie, getJson as getJsonAnonymous, startFixtureServer, withEnv } from './harness';
import { speechMarkProblems, wordsOf } from '../../server/narration/speechMarks';
import { passagePlainText } from '../../src/domain/sanitize';

const COVER = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 40"><rect width="30" height="40" fill="#103a3a"/></svg>';

function twoLanguageLibrary(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-voices-'));
  const pub = path.join(dir, 'two-voices');
  fs.mkdirSync(path.join(pub, 'images'), { recursive: true });
  fs.writeFileSync(path.join(pub, 'images/cover.svg'), COVER);
  fs.writeFileSync(
    path.join(pub, 'publication.yaml'),
    'slug: two-voices\nversion: 1\ntitle: Two Voices\nauthor: Ada Lark\ncreatedAt: 2026-04-01\ncover: images/cover.svg\ndefaultReader:\n  left: en:ORIGINAL\n  right: es:ORIGINAL\n',
  );
  fs.writeFileSync(path.join(pub, 'en.ORIGINAL.md'), 'Dr. Lee fed 3 owls at 7:30.');
  fs.writeFileSync(path.join(pub, 'es.ORIGINAL.md'), 'Los búhos duermen.');
  return dir;
}

async function getJson(server: RunningServer, pathname: string) {
  return getJsonAnonymous(server, pathname, { headers: { Cookie: await entitledCookie(server) } });
}

/** The first passage of each edition, and its audio answer. */
async function narrations(server: RunningServer) {
  const editions = (await getJson(server, '/api/v1/publications/two-voices')).body.editions as { id: number; language: { code: string } }[];
  const out: Record<string, { passage: any; audio: any }> = {};
  for (const e of editions) {
    const passage = (await getJson(server, `/api/v1/passages?editionId=${e.id}&position=1`)).body;
    const answer = await getJson(server, `/api/v1/passages/${passage.id}/audio?editionId=${e.id}`);
    expect(answer.status).toBe(200);
    out[e.language.code] = { passage, audio: answer.body.audio };
  }
  return out;
}

async function narratedLibrary(vars: Record<string, string>, dataDir: string, contentDir: string) {
  const server = await withEnv({ NARRATION_CONCURRENCY: '1', ...vars }, () => startFixtureServer({ dataDir, contentDir }));
  await server.narration.idle();
  return server;
}

describe('the English voice (NARRATION_VOICE_EN)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-voice-switch-'));
  const contentDir = twoLanguageLibrary();
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('names the voice in the audio answers, and narrates English again in the background when the voice changes', async () => {
    const before = await narratedLibrary({ NARRATION_VOICE_EN: 'espeak' }, dataDir, contentDir);
    let es: string;
    try {
      expect(before.narration.stats.synthesized).toBe(2);
      const first = await narrations(before);
      expect(first.en.audio.voice).toBe('espeak-en-us');
      expect(first.en.audio.url).toMatch(/^\/audio\/en-us-[0-9a-f]{32}\.mp3$/);
      expect(first.es.audio.voice).toBe('espeak-es');
      es = first.es.audio.url;
    } finally {
      await before.stop();
    }

    // The default voice: the English passage is stale and is narrated again at start, in the background queue.
    const after = await narratedLibrary({}, dataDir, contentDir);
    try {
      expect(after.narration.stats.synthesized).toBe(1);
      expect([...after.narration.stats.perKey.keys()]).toEqual([expect.stringMatching(/^flite-slt-/)]);
      const second = await narrations(after);
      expect(second.en.audio.voice).toBe('flite-slt');
      expect(second.en.audio.url).toMatch(/^\/audio\/flite-slt-[0-9a-f]{32}\.mp3$/);
      expect(second.en.passage.audio.url).toBe(second.en.audio.url);
      const plain = passagePlainText(second.en.passage.text);
      // One mark per word: Dr, Lee, fed, 3, owls, at, 7, 30.
      expect(second.en.audio.speechMarks.map((m: { offset: number }) => m.offset)).toEqual(wordsOf(plain, 'en').map((w) => w.start));
      expect(second.en.audio.speechMarks).toHaveLength(8);
      expect(speechMarkProblems(plain, second.en.audio.speechMarks, second.en.audio.duration, 'en')).toEqual([]);
      // Spanish kept its narration.
      expect(second.es.audio.url).toBe(es);
      expect(second.es.audio.voice).toBe('espeak-es');
    } finally {
      await after.stop();
    }
  }, 180_000);
});
