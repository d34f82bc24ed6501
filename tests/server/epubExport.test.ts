/**
 * The EPUB export on a real server over the real library (content/): the route's answers and gates, the media
 * overlays against the passage API's own speech marks, the accessibility metadata, and EPUBCheck on every edition.
 *
 * Every edition: each edition file under content/ and each on-demand source, built first as a licensed reader asks.
 *
 * Which books carry narration in the EPUBCheck run: making narration for the whole library (about 690 passages)
 * takes many CPU minutes, too slow for a test on two cores. So one edition of every voiced language is narrated
 * (English with Flite and images, and both right-to-left languages, Arabic and Urdu, among them) and checked with
 * its overlays; every other edition is built with whatever narration exists by then (`mode: 'existing'`), which
 * checks its text, navigation, images and metadata. The overlay markup is the same code for every language, so the
 * narrated set covers each script's sentence and word segmentation.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server';
import { buildEpub, A11Y_CONFORMANCE, ACTIVE_CLASS } from '../../server/epub/build';
import { epubSource, findEdition, type NarrationMode } from '../../server/epub/source';
import { passagePlainText } from '../../src/domain/sanitize';
import type { LanguageCode } from '../../src/domain/languages';
import type { Level } from '../../src/domain/levels';
import { entitledCookie, getJson, startFixtureServer } from './harness';

const root = path.resolve(import.meta.dirname, '../..');
const CONTENT_DIR = path.join(root, 'content');
const EPUBCHECK_JAR = '/usr/share/java/epubcheck.jar';
const BATCH = path.join(import.meta.dirname, 'epubcheckBatch.java');

let server: RunningServer;

beforeAll(async () => {
  server = await startFixtureServer({ contentDir: CONTENT_DIR });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const decoder = new TextDecoder();
const text = (files: Record<string, Uint8Array>, name: string) => {
  const bytes = files[name];
  if (!bytes) throw new Error(`${name} is not in the book (it has ${Object.keys(files).join(', ')})`);
  return decoder.decode(bytes);
};

async function download(pathname: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + pathname, { headers });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** The property values of a package document's `<meta property=…>` elements, without refines. */
function metaValues(opf: string, property: string): string[] {
  return [...opf.matchAll(/<meta property="([^"]+)"(?: refines="[^"]*")?>([^<]*)<\/meta>/g)].filter((m) => m[1] === property && !m[0].includes('refines=')).map((m) => m[2]);
}

describe('GET /publications/{slug}/editions/epub', () => {
  it('answers a free edition as an EPUB attachment whose first entry is the stored mimetype', async () => {
    const res = await download('/api/v1/publications/pip-and-the-paper-moon/editions/epub?language=en&level=ORIGINAL');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/epub+zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="pip-and-the-paper-moon.en.ORIGINAL.epub"');
    // The OCF rule: a local file header for 'mimetype' first, compression method 0, no extra field.
    const view = new DataView(res.bytes.buffer, res.bytes.byteOffset);
    expect(view.getUint32(0, true)).toBe(0x04034b50);
    expect(view.getUint16(8, true)).toBe(0);
    const nameLength = view.getUint16(26, true);
    expect(view.getUint16(28, true)).toBe(0);
    expect(decoder.decode(res.bytes.subarray(30, 30 + nameLength))).toBe('mimetype');
    expect(decoder.decode(res.bytes.subarray(30 + nameLength, 30 + nameLength + 20))).toBe('application/epub+zip');
  }, 120_000);

  it('answers 400 in the error shape for a missing or malformed query', async () => {
    const missing = await getJson(server, '/api/v1/publications/pip-and-the-paper-moon/editions/epub?language=en');
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toEqual({ code: 'invalid_parameter', message: 'level is required' });
    const noLanguage = await getJson(server, '/api/v1/publications/pip-and-the-paper-moon/editions/epub?level=GOLD');
    expect(noLanguage.status).toBe(400);
    expect(noLanguage.body.errors[0].message).toBe('language is required');
    for (const q of ['language=xx&level=GOLD', 'language=en&level=PLATINUM', 'language=en&level=GOLD&publicationVersion=1']) {
      const bad = await getJson(server, `/api/v1/publications/pip-and-the-paper-moon/editions/epub?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.errors[0].code, q).toBe('invalid_parameter');
    }
  });

  it('answers 404 for an unknown title or edition, as the sibling routes do', async () => {
    const title = await getJson(server, '/api/v1/publications/no-such-title/editions/epub?language=en&level=ORIGINAL');
    expect(title.status).toBe(404);
    expect(title.body).toEqual({ errors: [{ code: 'not_found', message: 'Publication not found' }] });
    const edition = await getJson(server, '/api/v1/publications/pip-and-the-paper-moon/editions/epub?language=ru&level=ORIGINAL');
    expect(edition.status).toBe(404);
    expect(edition.body).toEqual({ errors: [{ code: 'not_found', message: 'Edition not found' }] });
    const version = await getJson(server, '/api/v1/publications/pip-and-the-paper-moon/editions/epub?language=en&level=ORIGINAL&publicationVersion=v9');
    expect(version.status).toBe(404);
  });

  it('keeps gated text locked: 403 license_required or group_code_required, never a book', async () => {
    const level = await getJson(server, '/api/v1/publications/pip-and-the-paper-moon/editions/epub?language=en&level=GOLD');
    expect(level.status).toBe(403);
    expect(level.body).toEqual({ errors: [{ code: 'license_required', message: 'This content requires a School License' }] });
    const premium = await getJson(server, '/api/v1/publications/the-long-journey-of-paper/editions/epub?language=en&level=ORIGINAL');
    expect(premium.status).toBe(403);
    expect(premium.body.errors[0].code).toBe('license_required');
    const wrongCode = await getJson(server, '/api/v1/publications/pip-and-the-paper-moon/editions/epub?language=en&level=SILVER', { headers: { 'X-Group-Code': 'nosuchcode' } });
    expect(wrongCode.status).toBe(403);
    expect(wrongCode.body).toEqual({ errors: [{ code: 'group_code_required', message: 'Enter Class Code or Sign In' }] });
  });

  it('leaves out narration the asker may not hear: free Spanish text without its licensed narration', async () => {
    const res = await download('/api/v1/publications/pip-and-the-paper-moon/editions/epub?language=es&level=ORIGINAL');
    expect(res.status).toBe(200);
    const files = unzipSync(res.bytes);
    expect(Object.keys(files).filter((f) => f.endsWith('.smil') || f.endsWith('.mp3'))).toEqual([]);
    const opf = text(files, 'EPUB/package.opf');
    expect(metaValues(opf, 'schema:accessMode')).toEqual(['textual', 'visual']);
    expect(metaValues(opf, 'schema:accessibilityFeature')).not.toContain('synchronizedAudioText');
    expect(text(files, 'EPUB/text/section-001.xhtml')).toContain('xml:lang="es" lang="es" dir="ltr"');
  });

  it("pairs each sentence with the clip that speaks it: every par starts at its sentence's first word's speech mark", async () => {
    const res = await download('/api/v1/publications/pip-and-the-paper-moon/editions/epub?language=en&level=ORIGINAL');
    const files = unzipSync(res.bytes);
    const publication = (await getJson(server, '/api/v1/publications/pip-and-the-paper-moon')).body;
    const edition = publication.editions.find((e: any) => e.language.code === 'en' && e.level === 'ORIGINAL');
    const smils = Object.keys(files).filter((f) => f.endsWith('.smil'));
    expect(smils.length).toBeGreaterThan(0);
    let pars = 0;
    for (const smilName of smils) {
      const smil = text(files, smilName);
      for (const m of smil.matchAll(/<text src="\.\.\/(text\/[^"#]+)#(s(\d+)-\d+)"\/><audio src="\.\.\/(audio\/[^"]+)" clipBegin="([\d.]+)s" clipEnd="([\d.]+)s"\/>/g)) {
        const [, doc, sentenceId, position, audio, begin, end] = m;
        pars++;
        expect(files[`EPUB/${audio}`]?.length, audio).toBeGreaterThan(0);
        const passage = (await getJson(server, `/api/v1/passages?editionId=${edition.id}&position=${position}`)).body;
        const plain = passagePlainText(passage.text);
        const marks = passage.audio.speechMarks as { offset: number; time: number }[];
        const xhtml = text(files, `EPUB/${doc}`);
        const at = xhtml.indexOf(`<span class="sentence" id="${sentenceId}">`);
        expect(at, sentenceId).toBeGreaterThan(-1);
        // The sentence's first spoken word: the first word span after its start (a par exists only for a spoken sentence).
        const firstWord = /<span id="w\d+-(\d+)">(.*?)<\/span>/.exec(xhtml.slice(at))!;
        const mark = marks[Number(firstWord[1]) - 1];
        const word = firstWord[2].replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
        // The word span holds the word the mark points at, and the clip starts at the mark's time.
        expect(plain.slice(mark.offset, mark.offset + word.length)).toBe(word);
        expect(Math.round(Number(begin) * 1000)).toBe(mark.time);
        expect(Number(end)).toBeGreaterThan(Number(begin));
      }
    }
    expect(pars).toBeGreaterThan(10);
  }, 120_000);

  it('states its accessibility: access modes, features, hazards, summary and the EPUB Accessibility 1.1 claim', async () => {
    const res = await download('/api/v1/publications/pip-and-the-paper-moon/editions/epub?language=en&level=ORIGINAL');
    const opf = text(unzipSync(res.bytes), 'EPUB/package.opf');
    expect(metaValues(opf, 'schema:accessMode')).toEqual(['textual', 'auditory', 'visual']);
    expect(metaValues(opf, 'schema:accessModeSufficient')).toEqual(['textual', 'textual,auditory']);
    expect(metaValues(opf, 'schema:accessibilityFeature')).toEqual(
      expect.arrayContaining(['synchronizedAudioText', 'structuralNavigation', 'tableOfContents', 'readingOrder', 'alternativeText']),
    );
    expect(metaValues(opf, 'schema:accessibilityHazard')).toEqual(['none']);
    expect(metaValues(opf, 'schema:accessibilitySummary')[0]).toMatch(/synchronized with narration/);
    expect(metaValues(opf, 'dcterms:conformsTo')).toEqual([A11Y_CONFORMANCE]);
    expect(metaValues(opf, 'media:active-class')).toEqual([ACTIVE_CLASS]);
    // Each overlay's duration, and the total as their sum.
    const perOverlay = [...opf.matchAll(/<meta property="media:duration" refines="#[^"]+">(\d+):(\d\d):([\d.]+)<\/meta>/g)].map((m) => Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]));
    const [total] = metaValues(opf, 'media:duration').map((v) => v.split(':').reduce((s, part) => s * 60 + Number(part), 0));
    expect(perOverlay.length).toBeGreaterThan(0);
    expect(total).toBeCloseTo(perOverlay.reduce((a, b) => a + b, 0), 3);
  }, 120_000);
});

/** EPUBCheck's summary line of each file, from runs of the batch launcher, `parallel` JVMs at a time. */
async function epubcheck(files: string[], parallel: number): Promise<Map<string, { summary: string; report: string }>> {
  const groups: string[][] = Array.from({ length: parallel }, () => []);
  files.forEach((f, i) => groups[i % parallel].push(f));
  const outputs = await Promise.all(
    groups
      .filter((g) => g.length)
      .map(
        (group) =>
          new Promise<string>((resolve, reject) => {
            const child = spawn('java', ['-Xss1024k', '-cp', EPUBCHECK_JAR, BATCH, ...group], { stdio: ['ignore', 'pipe', 'pipe'] });
            let out = '';
            child.stdout.on('data', (d) => (out += d));
            child.stderr.on('data', (d) => (out += d));
            child.on('error', reject);
            child.on('close', () => resolve(out));
          }),
      ),
  );
  const results = new Map<string, { summary: string; report: string }>();
  for (const out of outputs) {
    for (const block of out.split(/^=== (?=\/)/m).slice(1)) {
      const file = block.slice(0, block.indexOf('\n'));
      const summary = /Messages: .*/.exec(block)?.[0] ?? 'no summary';
      results.set(file, { summary, report: block });
    }
  }
  return results;
}

describe('EPUBCheck on every edition of the library', () => {
  it(
    'reports 0 fatals, 0 errors and 0 warnings for every edition, with overlays for one narrated edition of every voiced language',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-epub-'));
      const catalog = (await getJson(server, '/api/v1/publications?pageSize=100')).body;
      const editionFiles = fs
        .readdirSync(CONTENT_DIR)
        .flatMap((slug) => (fs.existsSync(path.join(CONTENT_DIR, slug, 'publication.yaml')) ? fs.readdirSync(path.join(CONTENT_DIR, slug)).filter((f) => /^[a-z]+\.[A-Z]+\.md$/.test(f)) : []));
      // On-demand sources (content/<slug>/sources/) become editions once asked for: build each, as a licensed reader would.
      const sources = fs
        .readdirSync(CONTENT_DIR)
        .flatMap((slug) => (fs.existsSync(path.join(CONTENT_DIR, slug, 'sources')) ? fs.readdirSync(path.join(CONTENT_DIR, slug, 'sources')).map((f) => ({ slug, f })) : []))
        .filter(({ f }) => /^[a-z]+\.[A-Z]+\.md$/.test(f));
      for (const { slug, f } of sources) {
        const [languageCode, level] = f.split('.');
        const built = await getJson(server, `/api/v1/publications/${slug}/sources/on-demand`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: server.url, Cookie: await entitledCookie(server) },
          body: JSON.stringify({ version: 'v1', languageCode, level }),
        });
        expect(built.status, `${slug} ${f}`).toBe(201);
      }
      const all: { slug: string; language: LanguageCode; level: Level; passageCount: number }[] = [];
      for (const item of catalog.items) {
        // From the store: the premium titles' publication answer is gated, and this builds every edition unasked.
        const publication = (await server.store.publication(item.slug))!.value;
        for (const e of publication.editions) all.push({ slug: item.slug, language: e.language.code, level: e.level, passageCount: e.passageCount });
      }
      expect(all.length).toBe(editionFiles.length + sources.length);

      // The narrated set: per voiced language, its shortest edition; English as the illustrated title's.
      const narrated = new Set<string>(['pip-and-the-paper-moon:en:ORIGINAL']);
      for (const language of ['es', 'ar', 'zh', 'vi', 'bn', 'ur', 'ru', 'ha', 'pt']) {
        const shortest = all.filter((e) => e.language === language).sort((a, b) => a.passageCount - b.passageCount)[0];
        narrated.add(`${shortest.slug}:${shortest.language}:${shortest.level}`);
      }
      const files: string[] = [];
      const built = new Map<string, { narratedPassages: number; passages: number; rtl: boolean }>();
      for (const e of all) {
        const key = `${e.slug}:${e.language}:${e.level}`;
        const found = await findEdition(server.store, { slug: e.slug, language: e.language, level: e.level });
        if (found.kind !== 'found') throw new Error(`${key}: ${found.kind}`);
        const mode: NarrationMode = narrated.has(key) ? 'make' : 'existing';
        const book = buildEpub(await epubSource(found, { store: server.store, narration: server.narration, mode, deadline: Date.now() + 240_000 }));
        const file = path.join(dir, `${e.slug}.${e.language}.${e.level}.epub`);
        fs.writeFileSync(file, book.bytes);
        files.push(file);
        const opf = text(unzipSync(book.bytes), 'EPUB/package.opf');
        built.set(key, { narratedPassages: book.narratedPassages, passages: e.passageCount, rtl: opf.includes('<spine page-progression-direction="rtl">') });
      }
      for (const key of narrated) {
        expect(built.get(key)!.narratedPassages, key).toBe(built.get(key)!.passages);
      }
      for (const [key, b] of built) expect(b.rtl, key).toBe(/:(ar|ur):/.test(key));

      const results = await epubcheck(files, 2);
      const problems = files.filter((f) => results.get(f)?.summary !== 'Messages: 0 fatals / 0 errors / 0 warnings / 0 infos').map((f) => results.get(f)?.report ?? `${f}: no report`);
      expect(problems).toEqual([]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
    600_000,
  );
});
