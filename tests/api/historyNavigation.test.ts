/** The browser's history adapter (src/adapters/browser.ts): a replaced address is written behind the frame. */
import { describe, expect, it } from 'vitest';
import { createHistoryNavigation, type HistoryWindow } from '../../src/adapters/browser';

function fakeWindow(start = '/a/v1/en:original/1') {
  const writes: string[] = [];
  const frames: (() => void)[] = [];
  const tasks: (() => void)[] = [];
  const listeners = new Map<string, (() => void)[]>();
  const location = { pathname: start, search: '' };
  const win: HistoryWindow = {
    history: {
      replaceState: (_s, _t, url) => {
        writes.push(`replace ${String(url)}`);
        location.pathname = String(url);
      },
      pushState: (_s, _t, url) => {
        writes.push(`push ${String(url)}`);
        location.pathname = String(url);
      },
    },
    location,
    requestAnimationFrame: (cb) => frames.push(cb),
    setTimeout: (cb) => tasks.push(cb),
    addEventListener: (type, listener) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
  };
  const run = (queue: (() => void)[]) => queue.splice(0).forEach((f) => f());
  return {
    win,
    writes,
    /** The frame's callbacks, then the task after it. */
    nextFrame: () => {
      run(frames);
      run(tasks);
    },
    fire: (type: string) => (listeners.get(type) ?? []).forEach((l) => l()),
  };
}

describe('history navigation', () => {
  it('writes the newest replaced address once, after the frame, and answers it meanwhile', () => {
    const w = fakeWindow();
    const nav = createHistoryNavigation(w.win);
    nav.replace('/a/v1/en:original/2');
    nav.replace('/a/v1/en:original/3');
    expect(w.writes).toEqual([]);
    expect(nav.current()).toBe('/a/v1/en:original/3');
    w.nextFrame();
    expect(w.writes).toEqual(['replace /a/v1/en:original/3']);
    nav.replace('/a/v1/en:original/4');
    w.nextFrame();
    expect(w.writes).toEqual(['replace /a/v1/en:original/3', 'replace /a/v1/en:original/4']);
    expect(nav.current()).toBe('/a/v1/en:original/4');
  });

  it('a push writes the waiting address first, so the entry it leaves keeps it', () => {
    const w = fakeWindow();
    const nav = createHistoryNavigation(w.win);
    nav.replace('/a/v1/en:original/5');
    nav.push('/a');
    expect(w.writes).toEqual(['replace /a/v1/en:original/5', 'push /a']);
    w.nextFrame();
    expect(w.writes).toHaveLength(2);
  });

  it('leaving the page writes it at once; going back drops it', () => {
    const w = fakeWindow();
    const nav = createHistoryNavigation(w.win);
    nav.replace('/a/v1/en:original/6');
    w.fire('pagehide');
    expect(w.writes).toEqual(['replace /a/v1/en:original/6']);
    nav.replace('/a/v1/en:original/7');
    w.fire('popstate');
    w.nextFrame();
    expect(w.writes).toEqual(['replace /a/v1/en:original/6']);
    expect(nav.current()).toBe('/a/v1/en:original/6');
  });
});
