/**
 * The first-paint loader (src/render/firstPaintLoader.ts) on stand-in browser globals: nothing is fetched before
 * the first contentful paint is reported; then the entry, then the ICU warm-up and the route's preloads a few per
 * task; the fallback timeout loads once; with no paint timing, a frame stands in for the paint.
 */
import { describe, expect, it } from 'vitest';
import { APP_CODE_FALLBACK_MS, appCodeScript, PRELOAD_BATCH, startFirstPaintLoader, type AppCode } from '../../src/render/firstPaintLoader';
import { firstPaintPage } from '../support/firstPaintPage';

const CODE: AppCode = { entry: '/assets/index-1.js', routeScripts: Array.from({ length: PRELOAD_BATCH * 2 + 1 }, (_, i) => `/assets/part-${i}.js`) };

/** A stand-in page whose JSON element is what the server writes for `code`. */
function fakePage({ code = CODE as AppCode | null, paintTiming = true } = {}) {
  const appCodeJson = code && /<script type="application\/json" id="[^"]+">(.*)<\/script>/.exec(appCodeScript(code))![1];
  return firstPaintPage({ appCodeJson, paintTiming, language: 'fr-CA' });
}

describe('the first-paint loader', () => {
  it('fetches nothing before the first contentful paint is reported, and leaves a fallback timeout', () => {
    const page = fakePage();
    startFirstPaintLoader(page.globals);
    page.runDue();
    expect(page.appended).toEqual([]);
    expect(page.observers).toHaveLength(1);
    expect(page.observers[0].options).toEqual({ type: 'paint', buffered: true });
    expect(page.tasks.map((t) => t.ms)).toEqual([APP_CODE_FALLBACK_MS]);
    // A paint that is not the first contentful one changes nothing.
    page.paint(['first-paint']);
    page.runDue();
    expect(page.appended).toEqual([]);
    expect(page.observers[0].disconnected).toBe(false);
  });

  it("adds the entry a task after the first contentful paint, then the route's scripts a few per task", () => {
    const page = fakePage();
    startFirstPaintLoader(page.globals);
    page.paint();
    expect(page.observers[0].disconnected).toBe(true);
    // The entry waits for a task of its own after the paint is reported.
    expect(page.appended).toEqual([]);
    const perTask = page.runDue();
    expect(page.appended[0]).toEqual({ tag: 'script', type: 'module', crossOrigin: '', src: CODE.entry });
    const preloads = page.appended.slice(1);
    expect(preloads).toEqual(CODE.routeScripts.map((href) => ({ tag: 'link', rel: 'modulepreload', crossOrigin: '', href })));
    // PRELOAD_BATCH per task, in as many tasks as that takes; never in the entry's task.
    expect(perTask.filter((n) => n > 0)).toEqual([1, PRELOAD_BATCH, PRELOAD_BATCH, 1]);
    // The browser's ICU is started in a task of its own, with the visitor's language.
    expect(page.localesAsked).toEqual(['fr-CA']);
  });

  it('loads once: the fallback timeout after the paint adds nothing more', () => {
    const page = fakePage();
    startFirstPaintLoader(page.globals);
    page.paint();
    page.runDue();
    const count = page.appended.length;
    const fallback = page.tasks.find((t) => t.ms === APP_CODE_FALLBACK_MS)!;
    fallback.run();
    page.runDue();
    expect(page.appended).toHaveLength(count);
    expect(page.appended.filter((e) => e.tag === 'script')).toHaveLength(1);
  });

  it('with no paint reported (a background tab), loads after APP_CODE_FALLBACK_MS', () => {
    const page = fakePage();
    startFirstPaintLoader(page.globals);
    page.tasks.find((t) => t.ms === APP_CODE_FALLBACK_MS)!.run();
    page.runDue();
    expect(page.appended[0]).toMatchObject({ tag: 'script', src: CODE.entry });
    expect(page.appended).toHaveLength(1 + CODE.routeScripts.length);
  });

  it('with no paint timing, loads a task after the next frame', () => {
    const page = fakePage({ paintTiming: false });
    startFirstPaintLoader(page.globals);
    page.runDue();
    expect(page.appended).toEqual([]);
    expect(page.frames).toHaveLength(1);
    page.frames[0]();
    page.runDue();
    expect(page.appended[0]).toMatchObject({ tag: 'script', src: CODE.entry });
  });

  it('does nothing on a page without its JSON', () => {
    const page = fakePage({ code: null });
    startFirstPaintLoader(page.globals);
    expect(page.tasks).toEqual([]);
    expect(page.observers).toEqual([]);
  });
});

describe('appCodeScript', () => {
  it("is JSON in a script element that no '<' can end early", () => {
    const html = appCodeScript({ entry: '/assets/</script>.js', routeScripts: ['/assets/a.js'] });
    const body = /^<script type="application\/json" id="lectern-app-code">(.*)<\/script>$/.exec(html)![1];
    expect(body).not.toContain('<');
    expect(JSON.parse(body)).toEqual({ entry: '/assets/</script>.js', routeScripts: ['/assets/a.js'] });
  });
});
