/**
 * The narration endpoints on a real server (in-memory PGlite, fixture library): answers and errors, the MP3
 * route with ranges and caching, edition audio fields, never narrating twice, reuse after a restart, and a
 * requested passage jumping a busy background queue.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/server';
import { entitledCookie, getJson as getJsonAnonymous, silentLogger, startFixtureServer, withEnv, writeFixtureLibrary } from './harness';
import { readMp3Info } from '../../server/narration/mp3';
import { speechMarkProblems } from '../../server/narration/speechMarks';
import { passagePlainText } from '../../src/domain/sanitize';
import { createApiClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { systemClock } from '../../src/adapters/common';
import { waitForNarration } from '../../src/domain/narrationPoll';

/**
 * Narration outside English, and Arabic and Filipino text, need a license (src/domain/access.ts; the matrix in
 * authorization.test.ts covers who gets what): these tests read as a teacher licensed with everything, one per
 * server.
 */
async function getJson(server: RunningServer, pathname: string, init: RequestInit = {}) {
  const headers = { ...(init.headers as Record<string, string> | undefined), Cookie: await entitledCookie(server) };
  return getJsonAnonymous(server, pathname, { ...init, headers });
}


/** The fixture library plus a title with a Filipino edition (unvoiced). */
function libraryWithFilipino(): string {
  const dir = writeFixtureLibrary(0);
  const pub = path.join(dir, 'bahay-kubo');
  fs.mkdirSync(path.join(pub, 'images'), { recursive: true });
  fs.copyFileSync(path.join(dir, 'alpha-owls/images/cover.svg'), path.join(pub, 'images/cover.svg'));
  fs.writeFileSync(
    path.join(pub, 'publication.yaml'),
    'slug: bahay-kubo\nversion: 1\ntitle: Bahay Kubo\nauthor: Lia Santos\ncreatedAt: 2026-02-01\ncover: images/cover.svg\ndefaultReader:\n  left: en:ORIGINAL\n  right: fil:ORIGINAL\n',
  );
  fs.writeFileSync(path.join(pub, 'en.ORIGINAL.md'), 'The little house stands in the field.');
  fs.writeFileSync(path.join(pub, 'fil.ORIGINAL.md'), 'Ang bahay kubo ay nasa bukid.');
  return dir;
}

async function editionsOf(server: RunningServer, slug: string) {
  return (await getJson(server, `/api/v1/publications/${slug}`)).body.editions as any[];
}

async function passageAt(server: RunningServer, editionId: number, position: number) {
  return (await getJson(server, `/api/v1/passages?editionId=${editionId}&position=${position}`)).body;
}

/** Ask for a passage's audio until it is ready (the server answers 202 while it narrates). */
async function audioWhenReady(server: RunningServer, pathname: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await getJson(server, pathname);
    if (res.status !== 202 || Date.now() > until) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function expectError(res: { status: number; body: any }, status: number, message: string | RegExp) {
  expect(res.status).toBe(status);
  expect(Array.isArray(res.body.errors)).toBe(true);
  expect(res.body.errors[0].message).toMatch(message);
}

describe('narration endpoints', () => {
  let server: RunningServer;
  let en: number;
  let fil: number;
  let ar: number;

  beforeAll(async () => {
    // The background queue is off (the default for in-memory servers); a request does not wait, so the first
    // answer is 202 'generating' and the test polls.
    server = await withEnv({ NARRATION_CONCURRENCY: '0', NARRATION_WAIT_MS: '0' }, () => startFixtureServer({ contentDir: libraryWithFilipino() }));
    const owls = await editionsOf(server, 'alpha-owls');
    en = owls.find((e) => e.language.code === 'en' && e.level === 'ORIGINAL').id;
    ar = owls.find((e) => e.language.code === 'ar').id;
    fil = (await editionsOf(server, 'bahay-kubo')).find((e) => e.language.code === 'fil').id;
  });
  afterAll(() => server?.stop());

  it('marks voiced editions audio- and highlight-enabled from the start, and Filipino not', async () => {
    for (const e of [...(await editionsOf(server, 'alpha-owls')), ...(await editionsOf(server, 'bahay-kubo'))]) {
      const voiced = e.language.code !== 'fil';
      expect(e.audioEnabled, e.language.code).toBe(voiced);
      expect(e.highlightModeEnabled, e.language.code).toBe(voiced);
      expect(e.audioTotalLength).toBe(0);
    }
  });

  it('answers 202 generating, then the audio with its speech marks; GET /passages carries it from then on', async () => {
    const passage = await passageAt(server, en, 1);
    expect(passage.audio).toBeNull();
    const first = await getJson(server, `/api/v1/passages/${passage.id}/audio?editionId=${en}`);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ passageId: passage.id, status: 'generating' });
    expect(first.headers.get('cache-control')).toBe('no-store');

    const ready = await audioWhenReady(server, `/api/v1/passages/${passage.id}/audio?editionId=${en}`);
    expect(ready.status).toBe(200);
    expect(ready.body.passageId).toBe(passage.id);
    expect(ready.body.status).toBe('ready');
    const { url, speechMarks, duration, voice } = ready.body.audio;
    // English is Flite's slt by default (NARRATION_VOICE_EN), and the answer names it.
    expect(url).toMatch(/^\/audio\/flite-slt-[0-9a-f]{32}\.mp3$/);
    expect(voice).toBe('flite-slt');
    expect(duration).toBeGreaterThan(1000);
    const plain = passagePlainText(passage.text);
    expect(speechMarks.length).toBe(plain.split(/\s+/).length);
    expect(speechMarkProblems(plain, speechMarks, duration, 'en')).toEqual([]);

    expect((await passageAt(server, en, 1)).audio).toEqual({ url, speechMarks });
    const marks = await getJson(server, `/api/v1/passages/${passage.id}/speechMarks`);
    expect(marks.status).toBe(200);
    expect(marks.body).toEqual({ passageId: passage.id, speechMarks });

    const edition = (await editionsOf(server, 'alpha-owls')).find((e) => e.id === en);
    expect(edition.audioTotalLength).toBeCloseTo(duration / 1000, 3);
  });

  it('revalidates ready answers with their ETag', async () => {
    const passage = await passageAt(server, en, 1);
    const res = await audioWhenReady(server, `/api/v1/passages/${passage.id}/audio`);
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const again = await fetch(`${server.url}/api/v1/passages/${passage.id}/audio`, { headers: { 'If-None-Match': etag!, Cookie: await entitledCookie(server) } });
    expect(again.status).toBe(304);
  });

  it('answers for a position with GET /passages/audioOnly and starts any passage with …/audioOnly/onDemand', async () => {
    const byPosition = await audioWhenReady(server, `/api/v1/passages/audioOnly?editionId=${en}&position=1`);
    expect(byPosition.status).toBe(200);
    expect(byPosition.body.status).toBe('ready');
    const second = await passageAt(server, ar, 2);
    const onDemand = await audioWhenReady(server, `/api/v1/passages/${second.id}/audioOnly/onDemand?editionId=${ar}&voice=default`);
    expect(onDemand.status).toBe(200);
    expect(onDemand.body.audio.url).toMatch(/^\/audio\/ar-/);
    expect(onDemand.body.audio.voice).toBe('espeak-ar');
    expect(speechMarkProblems(passagePlainText(second.text), onDemand.body.audio.speechMarks, onDemand.body.audio.duration, 'ar')).toEqual([]);
  });

  it("answers 404 'Audio not available' for an unvoiced language", async () => {
    const passage = await passageAt(server, fil, 1);
    expectError(await getJson(server, `/api/v1/passages/${passage.id}/audio?editionId=${fil}`), 404, 'Audio not available');
    expectError(await getJson(server, `/api/v1/passages/${passage.id}/speechMarks`), 404, 'Audio not available');
    expectError(await getJson(server, `/api/v1/passages/audioOnly?editionId=${fil}&position=1`), 404, 'Audio not available');
  });

  it("answers 400 'passageId is required' for a missing or malformed passage id", async () => {
    for (const id of ['abc', '%20', '', '1.5', '-3']) {
      for (const tail of ['audio', 'speechMarks', 'audioOnly/onDemand']) {
        expectError(await getJson(server, `/api/v1/passages/${id}/${tail}`), 400, /^passageId is required$/);
      }
    }
  });

  it("answers 400 'editionId is required' for audioOnly without an edition, and checks its parameters", async () => {
    expectError(await getJson(server, '/api/v1/passages/audioOnly?position=1'), 400, /^editionId is required$/);
    expectError(await getJson(server, `/api/v1/passages/audioOnly?editionId=${en}`), 400, /^position is required$/);
    expectError(await getJson(server, '/api/v1/passages/audioOnly?editionId=x&position=1'), 400, /editionId must be a whole number/);
    expectError(await getJson(server, '/api/v1/passages/1/audio?editionId=x'), 400, /editionId must be a whole number/);
  });

  it("answers 404 for passages and editions that do not exist", async () => {
    const passage = await passageAt(server, en, 1);
    expectError(await getJson(server, '/api/v1/passages/999999/audio'), 404, 'Passage not found');
    expectError(await getJson(server, '/api/v1/passages/999999/speechMarks'), 404, 'Passage not found');
    expectError(await getJson(server, `/api/v1/passages/${passage.id}/audio?editionId=${ar}`), 404, 'Passage not found');
    expectError(await getJson(server, `/api/v1/passages/audioOnly?editionId=${en}&position=0`), 404, 'Passage not found');
    expectError(await getJson(server, `/api/v1/passages/audioOnly?editionId=${en}&position=99`), 404, 'Passage not found');
    expectError(await getJson(server, '/api/v1/passages/audioOnly?editionId=999999&position=1'), 404, 'Edition not found');
  });

  describe('GET /audio/{key}.mp3', () => {
    let url: string;
    let bytes: Uint8Array;
    beforeAll(async () => {
      const passage = await passageAt(server, en, 1);
      url = (await audioWhenReady(server, `/api/v1/passages/${passage.id}/audio`)).body.audio.url;
      const res = await fetch(server.url + url);
      bytes = new Uint8Array(await res.arrayBuffer());
    });

    it('serves the MP3 with long immutable caching', async () => {
      const res = await fetch(server.url + url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('audio/mpeg');
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
      await res.arrayBuffer();
      const info = readMp3Info(bytes);
      expect(info).not.toBeNull();
      expect(info!.durationMs).toBeGreaterThan(1000);
      const head = await fetch(server.url + url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(Number(head.headers.get('content-length'))).toBe(bytes.length);
      const revalidated = await fetch(server.url + url, { headers: { 'If-None-Match': res.headers.get('etag')! } });
      expect(revalidated.status).toBe(304);
    });

    it('answers range requests with 206 and the bytes asked for', async () => {
      const res = await fetch(server.url + url, { headers: { Range: 'bytes=100-199' } });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.slice(100, 200));
      const open = await fetch(server.url + url, { headers: { Range: `bytes=${bytes.length - 10}-` } });
      expect(open.status).toBe(206);
      expect(new Uint8Array(await open.arrayBuffer())).toEqual(bytes.slice(-10));
      const suffix = await fetch(server.url + url, { headers: { Range: 'bytes=-5' } });
      expect(suffix.headers.get('content-range')).toBe(`bytes ${bytes.length - 5}-${bytes.length - 1}/${bytes.length}`);
      expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(bytes.slice(-5));
    });

    it('answers 416 for ranges it cannot satisfy', async () => {
      for (const range of [`bytes=${bytes.length}-`, 'bytes=50-10', 'bytes=abc']) {
        const res = await fetch(server.url + url, { headers: { Range: range } });
        expect(res.status, range).toBe(416);
        expect(res.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
        expect((await res.json()).errors[0].code).toBe('range_not_satisfiable');
      }
    });

    it('answers 404 with the error shape for unknown or malformed names', async () => {
      expectError(await getJson(server, `/audio/en-us-${'0'.repeat(32)}.mp3`), 404, 'Audio not found');
      expectError(await getJson(server, '/audio/..%2Fsecret.mp3'), 404, 'Audio not found');
      expectError(await getJson(server, url.replace('.mp3', '.wav')), 404, 'Audio not found');
    });
  });

  it('reads narration through the API client (speech marks wait out 202 generating through the one narration wait)', async () => {
    const cookie = await entitledCookie(server);
    const client = createApiClient({
      baseUrl: `${server.url}/api/v1`,
      clientId: () => 'narration-test',
      fetch: (input, init) => {
        const request = new Request(input, init);
        request.headers.set('Cookie', cookie);
        return fetch(request);
      },
    });
    const passage = await passageAt(server, en, 3);
    const generating = await client.getPassageAudio(passage.id, en);
    expect(generating).toEqual({ passageId: passage.id, status: 'generating' });
    const answer = await waitForNarration(() => client.getSpeechMarks(passage.id), { clock: systemClock });
    if (!('speechMarks' in answer)) throw new Error(`speech marks still generating: ${JSON.stringify(answer)}`);
    const marks = answer.speechMarks;
    expect(marks.length).toBeGreaterThan(3);
    const ready = await client.getAudioOnly(en, 3);
    expect(ready.status === 'ready' && ready.audio.speechMarks).toEqual(marks);
    const onDemand = await client.getAudioOnDemand(passage.id, en);
    expect(onDemand.status).toBe('ready');
    const fil1 = await passageAt(server, fil, 1);
    await expect(client.getSpeechMarks(fil1.id)).rejects.toBeInstanceOf(ApiError);
    await expect(client.getPassageAudio(fil1.id, fil)).rejects.toMatchObject({ status: 404, message: 'Audio not available' });
  });

  it('never narrates a passage twice, however many ask at once', async () => {
    const passage = await passageAt(server, en, 2);
    const before = server.narration.stats.synthesized;
    const asks = [
      `/api/v1/passages/${passage.id}/audio`,
      `/api/v1/passages/${passage.id}/audio?editionId=${en}`,
      `/api/v1/passages/${passage.id}/speechMarks`,
      `/api/v1/passages/${passage.id}/audioOnly/onDemand`,
      `/api/v1/passages/audioOnly?editionId=${en}&position=2`,
    ];
    await Promise.all([...asks, ...asks].map((p) => getJson(server, p)));
    const answers = await Promise.all(asks.map((p) => audioWhenReady(server, p)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(server.narration.stats.synthesized - before).toBe(1);
    expect([...server.narration.stats.perKey.values()].every((n) => n === 1)).toBe(true);
  });
});

describe('narration across restarts', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-narration-restart-'));
  const contentDir = writeFixtureLibrary(0);
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keeps the audio in DATA_DIR: a restart, or a fresh database on the same audio, narrates nothing again', async () => {
    const ask = async (server: RunningServer) => {
      const es = (await editionsOf(server, 'alpha-owls')).find((e) => e.language.code === 'es').id;
      const passage = await passageAt(server, es, 1);
      return { passage, res: await audioWhenReady(server, `/api/v1/passages/${passage.id}/audio`) };
    };

    const first = await withEnv({ NARRATION_CONCURRENCY: '0' }, () => startFixtureServer({ dataDir, contentDir }));
    let url: string;
    try {
      const { res } = await ask(first);
      expect(res.status).toBe(200);
      url = res.body.audio.url;
      expect(first.narration.stats.synthesized).toBe(1);
      expect(fs.existsSync(path.join(dataDir, 'audio', url.slice('/audio/'.length)))).toBe(true);
    } finally {
      await first.stop();
    }

    const second = await withEnv({ NARRATION_CONCURRENCY: '0' }, () => startFixtureServer({ dataDir, contentDir }));
    try {
      const { passage, res } = await ask(second);
      expect(res.status).toBe(200);
      expect(res.body.audio.url).toBe(url);
      expect(passage.audio.url).toBe(url);
      expect(second.narration.stats.synthesized).toBe(0);
      expect((await fetch(second.url + url)).status).toBe(200);
    } finally {
      await second.stop();
    }

    // A new, empty database (in memory) over the same audio directory takes the narration from the store.
    const third = await withEnv({ NARRATION_CONCURRENCY: '0', NARRATION_WAIT_MS: '5000' }, () =>
      startServer({ port: 0, host: '127.0.0.1', dataDir: 'memory://', contentDir, translationProvider: null, logger: silentLogger(), narration: { audioDir: path.join(dataDir, 'audio') } }),
    );
    try {
      const { res } = await ask(third);
      expect(res.status).toBe(200);
      expect(res.body.audio.url).toBe(url);
      expect(third.narration.stats.synthesized).toBe(0);
      expect(third.narration.stats.reused).toBe(1);
    } finally {
      await third.stop();
    }
  }, 120_000);
});

describe('the background queue', () => {
  /** One title whose English edition has `count` passages of about 110 words: enough to keep two workers busy. */
  function busyLibrary(count: number): string {
    const dir = writeFixtureLibrary(0);
    const pub = path.join(dir, 'long-road');
    fs.mkdirSync(path.join(pub, 'images'), { recursive: true });
    fs.copyFileSync(path.join(dir, 'alpha-owls/images/cover.svg'), path.join(pub, 'images/cover.svg'));
    fs.writeFileSync(
      path.join(pub, 'publication.yaml'),
      'slug: long-road\nversion: 1\ntitle: The Long Road\nauthor: Ned Fallow\ncreatedAt: 2026-03-01\ncover: images/cover.svg\ndefaultReader:\n  left: en:ORIGINAL\n',
    );
    const passage = (n: number) =>
      `Day ${n}. The road went on over the hills and down into the green valley, where a river ran fast and cold. ` +
      'The children walked beside their grandmother, who told them the names of the birds and the trees. ' +
      'When the sun was low they stopped by a stone wall, ate bread and cheese, and watched the clouds turn pink and gold. ' +
      'Tomorrow, she said, we will reach the town by the sea, and you will hear the bells ring across the harbour at noon.';
    fs.writeFileSync(path.join(pub, 'en.ORIGINAL.md'), Array.from({ length: count }, (_, i) => passage(i + 1)).join('\n\n---\n\n'));
    return dir;
  }

  it('narrates the library in the background, and a requested passage jumps the queue', async () => {
    const server = await withEnv({ NARRATION_CONCURRENCY: '2' }, () => startFixtureServer({ contentDir: busyLibrary(24) }));
    try {
      const edition = (await editionsOf(server, 'long-road'))[0];
      const last = await passageAt(server, edition.id, edition.passageCount);
      // Let the background workers get going (however long the machine takes to start them).
      while (server.narration.stats.synthesized < 2) await new Promise((r) => setTimeout(r, 50));
      expect(server.narration.pending).toBeGreaterThan(4);

      const t0 = performance.now();
      const res = await audioWhenReady(server, `/api/v1/passages/${last.id}/audio?editionId=${edition.id}`);
      const ms = performance.now() - t0;
      console.log(`requested passage ready in ${ms.toFixed(0)} ms with ${server.narration.pending} background passages left`);
      expect(res.status).toBe(200);
      // It jumped the queue: it was the last passage, yet it is ready while others still wait (the time is for the
      // bench, not an assertion: tests assert behaviour, never timings).
      expect(server.narration.pending).toBeGreaterThan(0);

      await server.narration.idle();
      const stats = server.narration.stats;
      expect(stats.failed).toBe(0);
      expect([...stats.perKey.values()].every((n) => n === 1)).toBe(true);
      const total = (await editionsOf(server, 'long-road'))[0].audioTotalLength;
      expect(total).toBeGreaterThan(24 * 20);
      for (let position = 1; position <= edition.passageCount; position += 7) {
        expect((await passageAt(server, edition.id, position)).audio).not.toBeNull();
      }
    } finally {
      await server.stop();
    }
  }, 120_000);
});
