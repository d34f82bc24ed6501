/** The audio store, the narration key and the Range header parser. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FsAudioStore, readAll, readMeta, writeNarration } from '../../server/narration/storage';
import { parseRange } from '../../server/narration/http';
import { NARRATION_KEY_RE, narrationKey } from '../../server/narration/pipeline';
import { narrationSettings } from '../../server/narration/queue';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('FsAudioStore', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-audio-test-'));
  dirs.push(dir);
  const store = new FsAudioStore(dir);
  const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);

  it('puts, stats, reads whole and by range', async () => {
    expect(await store.has('a.mp3')).toBe(false);
    expect(await store.get('a.mp3')).toBeNull();
    await store.put('a.mp3', bytes);
    expect(await store.has('a.mp3')).toBe(true);
    expect(await store.stat('a.mp3')).toBe(1000);
    expect(await readAll(store, 'a.mp3')).toEqual(bytes);
    const part = await store.get('a.mp3', { start: 10, end: 19 });
    const chunks: number[] = [];
    for await (const c of part!.body as unknown as AsyncIterable<Uint8Array>) chunks.push(...c);
    expect(part!.size).toBe(1000);
    expect(chunks).toEqual([...bytes.slice(10, 20)]);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses names that could leave its directory', async () => {
    await expect(store.put('../x.mp3', bytes)).rejects.toThrow(/Bad audio object name/);
    await expect(store.put('a/../../x', bytes)).rejects.toThrow(/Bad audio object name/);
  });

  it('keeps the marks beside the MP3', async () => {
    const key = narrationKey('Hello.', 'en-us');
    await writeNarration(store, { key, voice: 'en-us', durationMs: 900, speechMarks: [{ offset: 0, time: 50 }], createdAt: 'now' }, bytes);
    expect((await readMeta(store, key))?.speechMarks).toEqual([{ offset: 0, time: 50 }]);
    expect(await readMeta(store, narrationKey('Other.', 'en-us'))).toBeNull();
  });
});

describe('narrationKey', () => {
  it('names the voice and hashes the text', () => {
    const key = narrationKey('The owl.', 'en-us');
    expect(key).toMatch(NARRATION_KEY_RE);
    expect(key.startsWith('en-us-')).toBe(true);
    expect(narrationKey('The owl.', 'en-us')).toBe(key);
    expect(narrationKey('The owls.', 'en-us')).not.toBe(key);
    expect(narrationKey('The owl.', 'es')).not.toBe(key);
  });
});

describe('parseRange', () => {
  it('reads single byte ranges', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
  });

  it('serves the whole file for other units and several ranges', () => {
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
  });

  it('calls out unsatisfiable and malformed ranges', () => {
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=50-10', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=abc', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-', 100)).toBe('unsatisfiable');
  });
});

describe('narrationSettings', () => {
  it('narrates in the background by default only where the results persist', () => {
    expect(narrationSettings({}, false).concurrency).toBe(0);
    expect(narrationSettings({}, true).concurrency).toBeGreaterThan(0);
    expect(narrationSettings({ NARRATION_CONCURRENCY: '3' }, false).concurrency).toBe(3);
    expect(narrationSettings({ NARRATION_CONCURRENCY: '0' }, true).concurrency).toBe(0);
    expect(narrationSettings({}, true).waitMs).toBe(1800);
    expect(() => narrationSettings({ NARRATION_CONCURRENCY: 'two' }, true)).toThrow(/NARRATION_CONCURRENCY/);
  });

  it('holds narration jobs for NARRATION_LEASE_MS (30 s by default, at least 1 s)', () => {
    expect(narrationSettings({}, true).leaseMs).toBe(30_000);
    expect(narrationSettings({ NARRATION_LEASE_MS: '5000' }, true).leaseMs).toBe(5000);
    expect(narrationSettings({ NARRATION_LEASE_MS: '5000' }, true, { leaseMs: 200 }).leaseMs).toBe(200);
    expect(() => narrationSettings({ NARRATION_LEASE_MS: '10' }, true)).toThrow(/NARRATION_LEASE_MS/);
  });
});
