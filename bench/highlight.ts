/**
 * Highlight drift for `npm run bench` (measured here, never asserted in tests): in Debian's Chromium against
 * the real server, the reader plays an English passage at speed 1 and at speed 2 (set through the
 * `playbackSpeed` query parameter), and every animation frame compares the highlighted word with the audio.
 *
 * Per frame, with t = the audio element's currentTime × 1000 (media ms), `shown` the word the reader highlights
 * (data-highlight-word, set by the reader's own requestAnimationFrame loop, src/ui/screens/reader/useSpeechHighlight.ts)
 * and `due` the word whose mark is the last at or before t:
 * - shown = due: drift 0;
 * - shown is ahead (its mark is still to come): drift = mark(shown).time − t, positive;
 * - shown is behind (the next word's mark has passed): drift = mark(shown + 1).time − t, negative.
 * At the frames where the highlight moves, the lateness is mark(shown).time − t (the "the highlighted
 * word's mark time minus the audio's currentTime"). Target: p95 ≤ 30 ms, judged on both the per-frame drift
 * (which checks the highlight logic and is 0 when it is right) and the lateness at word changes in wall-clock ms
 * (media ms divided by the speed), which is what a viewer perceives: at most one frame plus scheduling.
 *
 * The sampling loop is started after the reader's loop, so within a frame it runs after the reader has updated.
 * Run alone: `node --import tsx bench/highlight.ts [baseUrl]` against a running server (default
 * http://127.0.0.1:3000). Not part of `npm test`.
 */
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../playwright.config';
import { markIndexAt, type SpeechMark } from '../src/domain/speechMarks';
import { watchAudioElements } from '../e2e/support/audioElements';
import { percentile } from './stats';

export const HIGHLIGHT_DRIFT_TARGET_MS = 30;
/** Seconds of playback sampled at each speed. @default 8 */
export const HIGHLIGHT_SAMPLE_SECONDS = Number(process.env.BENCH_HIGHLIGHT_SECONDS ?? 8);

export interface DriftFigures {
  speed: number;
  frames: number;
  transitions: number;
  /** Absolute per-frame drift, media ms. */
  p50: number;
  p95: number;
  max: number;
  /** Absolute lateness at the frames where the highlight moved, media ms. */
  transitionP50: number;
  transitionP95: number;
}


export async function highlightDriftBench(
  baseUrl: string,
  { slug = 'the-lighthouse-keepers-apprentice', version = 'v1', language = 'en', level = 'ORIGINAL', position = 1, speeds = [1, 2] } = {},
): Promise<DriftFigures[]> {
  const detail = await (await fetch(`${baseUrl}/api/v1/publications/${slug}?publicationVersion=${version}`)).json();
  const edition = detail.editions.find((e: { id: number; language: { code: string }; level: string }) => e.language.code === language && e.level === level);
  if (!edition) throw new Error(`No ${language}:${level} edition of ${slug}`);
  const passage = await (await fetch(`${baseUrl}/api/v1/passages?editionId=${edition.id}&position=${position}`)).json();
  // Narrate it first (the first request jumps the queue), so playback starts at once.
  let marks: SpeechMark[] = [];
  for (let i = 0; i < 30 && !marks.length; i++) {
    const answer = await (await fetch(`${baseUrl}/api/v1/passages/${passage.id}/audio?editionId=${edition.id}`)).json();
    if (answer.status === 'ready') marks = answer.audio.speechMarks;
    else await new Promise((r) => setTimeout(r, 1000));
  }
  if (!marks.length) throw new Error('The passage was not narrated');

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const results: DriftFigures[] = [];
  try {
    for (const speed of speeds) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      // tsx (esbuild, keepNames) wraps named functions in __name(); give the page that helper.
      await page.addInitScript('window.__name = (f) => f;');
      await watchAudioElements(page);
      await page.goto(`${baseUrl}/${slug}/${version}/${language}:${level.toLowerCase()}/${position}?playbackSpeed=${edition.id}:${speed}`);
      await page.waitForSelector('[data-passage-text]');
      await page.getByRole('region', { name: /^(Passage|Left) column$/ }).getByRole('button', { name: 'Listen' }).click();
      await page.waitForSelector('[data-passage-text][data-highlight-word]', { timeout: 20_000 });
      const samples = await page.evaluate(
        ({ marks, seconds }) =>
          new Promise<{ t: number; shown: number; rate: number }[]>((resolve) => {
            const el = document.querySelector('[data-passage-text]') as HTMLElement;
            const audio = (window as unknown as { __audios: HTMLAudioElement[] }).__audios.find((a) => a.src)!;
            const out: { t: number; shown: number; rate: number }[] = [];
            const end = performance.now() + seconds * 1000;
            const lastTime = marks[marks.length - 1].time;
            const frame = () => {
              const t = audio.currentTime * 1000;
              if (!audio.paused && !audio.ended && t < lastTime) out.push({ t, shown: Number(el.dataset.highlightWord ?? -1), rate: audio.playbackRate });
              if (performance.now() < end && !audio.ended) requestAnimationFrame(frame);
              else resolve(out);
            };
            requestAnimationFrame(frame);
          }),
        { marks, seconds: HIGHLIGHT_SAMPLE_SECONDS },
      );
      await context.close();
      if (samples.some((s) => s.rate !== speed)) throw new Error(`The audio did not play at ${speed}×`);

      const drift: number[] = [];
      const lateness: number[] = [];
      let previous = -2;
      for (const { t, shown } of samples) {
        const due = markIndexAt(marks, t);
        let value = 0;
        if (shown > due) value = marks[shown].time - t;
        else if (shown < due) value = marks[shown + 1].time - t;
        drift.push(Math.abs(value));
        if (shown !== previous && previous !== -2 && shown >= 0) lateness.push(Math.abs(marks[shown].time - t));
        previous = shown;
      }
      results.push({
        speed,
        frames: samples.length,
        transitions: lateness.length,
        p50: percentile(drift, 50),
        p95: percentile(drift, 95),
        max: Math.max(...drift),
        transitionP50: percentile(lateness, 50),
        transitionP95: percentile(lateness, 95),
      });
    }
  } finally {
    await browser.close();
  }
  return results;
}

export function formatHighlightDrift(figures: DriftFigures[]): string {
  const lines = ['highlight drift (highlighted word vs audio currentTime, every animation frame, media ms):'];
  for (const f of figures) {
    lines.push(
      `  speed ${f.speed}: ${f.frames} frames, p50 ${f.p50.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms, max ${f.max.toFixed(1)} ms; ` +
        `at the ${f.transitions} word changes p50 ${f.transitionP50.toFixed(1)} ms, p95 ${f.transitionP95.toFixed(1)} ms (${(f.transitionP95 / f.speed).toFixed(1)} ms of wall time); ` +
        `target p95 <= ${HIGHLIGHT_DRIFT_TARGET_MS} ms (per frame and at word changes, wall time): ${Math.max(f.p95, f.transitionP95 / f.speed) <= HIGHLIGHT_DRIFT_TARGET_MS ? 'met' : 'NOT met'}`,
    );
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const base = process.argv[2] ?? 'http://127.0.0.1:3000';
  console.log(formatHighlightDrift(await highlightDriftBench(base)));
}
