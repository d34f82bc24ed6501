/**
 * The exported EPUB plays as a reading system plays it: the book is downloaded through the API and unzipped here,
 * its files are served to Chromium on an origin of their own (page.route, with byte ranges for the MP3s), and a
 * section's XHTML is opened with its SMIL. For every <par>, the audio element plays the clip from clipBegin, and
 * the word our speech marks (GET /passages) say is spoken at that moment is inside the par's text fragment; each
 * clip's ends are within 50 ms of the marks of the fragment's first word and of the next fragment's.
 */
import { expect, test, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { PublicationPage } from './models/PublicationPage';

const SLUG = 'pip-and-the-paper-moon';
const BOOK_ORIGIN = 'http://epub-book.invalid';

const CONTENT_TYPES: Record<string, string> = {
  xhtml: 'application/xhtml+xml',
  smil: 'application/smil+xml',
  mp3: 'audio/mpeg',
  css: 'text/css',
  svg: 'image/svg+xml',
  opf: 'application/oebps-package+xml',
};

/** Serve the book's files on BOOK_ORIGIN, answering Range requests with 206 as a file server does. */
async function serveBook(page: Page, files: Record<string, Uint8Array>): Promise<void> {
  await page.route(`${BOOK_ORIGIN}/**`, async (route) => {
    const name = decodeURIComponent(new URL(route.request().url()).pathname.slice(1));
    const bytes = files[name];
    if (!bytes) return route.fulfill({ status: 404, body: 'not in the book' });
    const contentType = CONTENT_TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream';
    const range = /^bytes=(\d*)-(\d*)$/.exec(route.request().headers().range ?? '');
    if (range) {
      const start = range[1] ? Number(range[1]) : Math.max(0, bytes.length - Number(range[2]));
      const end = range[1] && range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
      return route.fulfill({
        status: 206,
        headers: { 'Content-Type': contentType, 'Accept-Ranges': 'bytes', 'Content-Range': `bytes ${start}-${end}/${bytes.length}` },
        body: Buffer.from(bytes.subarray(start, end + 1)),
      });
    }
    return route.fulfill({ status: 200, headers: { 'Content-Type': contentType, 'Accept-Ranges': 'bytes' }, body: Buffer.from(bytes) });
  });
}

interface ParCheck {
  fragment: string;
  clipBegin: number;
  clipEnd: number;
  /** The audio element's time once it played from clipBegin, ms. */
  playedAt: number;
  /** The id of the word our marks say is spoken then, and whether the fragment holds it. */
  spokenWord: string;
  inFragment: boolean;
}

test.describe('EPUB export', () => {
  test('a reading system plays each par: its clip speaks the words of its fragment, within 50 ms of our speech marks', async ({ page, request }) => {
    test.setTimeout(240_000);
    const answer = await request.get(`/api/v1/publications/${SLUG}/editions/epub?language=en&level=ORIGINAL`, { timeout: 200_000 });
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('application/epub+zip');
    const files = unzipSync(new Uint8Array(await answer.body()));

    const publication = await (await request.get(`/api/v1/publications/${SLUG}`)).json();
    const edition = publication.editions.find((e: { language: { code: string }; level: string }) => e.language.code === 'en' && e.level === 'ORIGINAL');
    const marksByPosition: Record<number, { offset: number; time: number }[]> = {};
    const durationByPosition: Record<number, number> = {};
    for (let position = 1; position <= edition.passageCount; position++) {
      const passage = await (await request.get(`/api/v1/passages?editionId=${edition.id}&position=${position}`)).json();
      expect(passage.audio, `passage ${position} is narrated`).not.toBeNull();
      marksByPosition[position] = passage.audio.speechMarks;
      const audio = await (await request.get(`/api/v1/passages/${passage.id}/audio?editionId=${edition.id}`)).json();
      durationByPosition[position] = audio.audio.duration;
    }

    await serveBook(page, files);
    const sections = Object.keys(files).filter((f) => /^EPUB\/smil\/.+\.smil$/.test(f));
    expect(sections.length).toBeGreaterThan(0);
    let checked = 0;
    for (const smil of sections) {
      const smilText = new TextDecoder().decode(files[smil]);
      const doc = /<text src="\.\.\/(text\/[^"#]+)#/.exec(smilText)![1];
      await page.goto(`${BOOK_ORIGIN}/EPUB/${doc}`);
      const checks = await page.evaluate(
        async ({ smilUrl, marksByPosition }) => {
          const smilDoc = new DOMParser().parseFromString(await (await fetch(smilUrl)).text(), 'application/xml');
          const results: ParCheck[] = [];
          const players = new Map<string, HTMLAudioElement>();
          const once = (target: EventTarget, type: string) => new Promise((resolve) => target.addEventListener(type, resolve, { once: true }));
          const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
          for (const par of Array.from(smilDoc.getElementsByTagName('par'))) {
            const text = par.getElementsByTagName('text')[0]!;
            const audioRef = par.getElementsByTagName('audio')[0]!;
            const fragment = text.getAttribute('src')!.split('#')[1]!;
            const src = new URL(audioRef.getAttribute('src')!, smilUrl).href;
            const clipBegin = parseFloat(audioRef.getAttribute('clipBegin')!) * 1000;
            const clipEnd = parseFloat(audioRef.getAttribute('clipEnd')!) * 1000;
            let audio = players.get(src);
            if (!audio) {
              audio = new Audio(src);
              audio.preload = 'auto';
              players.set(src, audio);
              if (audio.readyState < 1) await once(audio, 'loadedmetadata');
            }
            audio.currentTime = clipBegin / 1000;
            if (audio.seeking) await once(audio, 'seeked');
            await audio.play();
            // Wait until the clock has moved past clipBegin: the clip is playing.
            while (audio.currentTime * 1000 <= clipBegin + 1) await frame();
            audio.pause();
            const playedAt = audio.currentTime * 1000;
            const position = Number(/^s(\d+)-/.exec(fragment)![1]);
            const marks = marksByPosition[position]!;
            let spoken = -1;
            marks.forEach((m, i) => {
              if (m.time <= playedAt) spoken = i;
            });
            const spokenWord = `w${position}-${spoken + 1}`;
            const inFragment = Boolean(document.getElementById(fragment)?.contains(document.getElementById(spokenWord)));
            results.push({ fragment, clipBegin, clipEnd, playedAt, spokenWord, inFragment });
          }
          return results;
        },
        { smilUrl: `${BOOK_ORIGIN}/${smil}`, marksByPosition },
      );

      const fragments = checks.map((c) => c.fragment);
      /** The mark of a fragment's first word, found by the word span the section's markup gives it. */
      const firstWordMark = async (fragment: string) => {
        const id = await page.locator(`[id="${fragment}"] span[id^="w"]`).first().getAttribute('id');
        const [, position, n] = /^w(\d+)-(\d+)$/.exec(id!)!;
        return { position: Number(position), mark: marksByPosition[Number(position)]![Number(n) - 1]! };
      };
      for (const [i, c] of checks.entries()) {
        checked++;
        expect(c.inFragment, `${c.fragment}: at ${c.playedAt.toFixed(0)} ms the marks say ${c.spokenWord} is spoken`).toBe(true);
        expect(c.playedAt).toBeLessThan(c.clipEnd);
        const { position, mark } = await firstWordMark(c.fragment);
        expect(Math.abs(c.clipBegin - mark.time), `${c.fragment} begins at its first word`).toBeLessThanOrEqual(50);
        // It ends where the passage's next fragment begins, or with the passage's narration.
        const next = checks[i + 1] ? await firstWordMark(checks[i + 1]!.fragment) : null;
        const end = next && next.position === position ? next.mark.time : durationByPosition[position]!;
        expect(Math.abs(c.clipEnd - end), `${c.fragment} ends where the next one starts`).toBeLessThanOrEqual(50);
      }
      expect(new Set(fragments).size).toBe(fragments.length);
    }
    expect(checked).toBeGreaterThan(10);
  });

  test("the title page offers 'Download EPUB' for its editions", async ({ page }) => {
    const publication = new PublicationPage(page);
    await publication.goto(`/${SLUG}/v1`);
    await page.getByRole('button', { name: 'Download EPUB' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download EPUB' });
    const link = dialog.getByRole('link', { name: 'Download EPUB: English, Original' });
    await expect(link).toHaveAttribute('href', `/api/v1/publications/${SLUG}/editions/epub?publicationVersion=v1&language=en&level=ORIGINAL`);
    // Gold needs a license the visitor does not have: no link, the reason instead.
    await expect(dialog.getByRole('link', { name: 'Download EPUB: English, Gold' })).toHaveCount(0);
    await expect(dialog.getByText('This content requires a School License').first()).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(`${SLUG}.en.ORIGINAL.epub`);
  });
});
