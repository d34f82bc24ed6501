/** Port adapters for the browser. This is the only place the engine's ports meet window and the DOM. */
import type { AudioPort, NavigationPort, StoragePort } from '../engine/ports';

/** localStorage, tolerant of private mode and full quotas. */
export function createLocalStorage(): StoragePort {
  const store = (() => {
    try {
      return window.localStorage;
    } catch {
      return null;
    }
  })();
  return {
    getItem: (k) => {
      try {
        return store?.getItem(k) ?? null;
      } catch {
        return null;
      }
    },
    setItem: (k, v) => {
      try {
        store?.setItem(k, v);
      } catch {
        /* quota or private mode: the setting lives for this page only */
      }
    },
    removeItem: (k) => {
      try {
        store?.removeItem(k);
      } catch {
        /* ignore */
      }
    },
  };
}

/** What the audio adapter uses of `window`: the frame and the task that a new source waits for. */
export type FrameWindow = Pick<Window, 'requestAnimationFrame' | 'setTimeout'>;

/**
 * An audio element as the engine's audio port.
 *
 * A new source is given to the element behind the frame: with the player open, a page turn loads the next passage's
 * narration, and setting the element's source and calling its load() took 2–20 ms inside the frame that shows the
 * next passage (docs/performance.md "Every page turn within a frame"). The newest source waits for the frame, then
 * is loaded once; until then the port answers for it (time 0, no duration yet). Playing or seeking loads it first,
 * at once, so a press of Play or a seek acts on the new source within its own event.
 */
export function createHtmlAudio(element: HTMLAudioElement = new Audio(), win: FrameWindow = window): AudioPort {
  // undefined: nothing waiting; null: the source is to be removed.
  let pending: string | null | undefined;
  const flush = () => {
    if (pending === undefined) return;
    const url = pending;
    pending = undefined;
    if (url) element.src = url;
    else element.removeAttribute('src');
    element.load();
  };
  return {
    load(url) {
      if (pending === undefined) win.requestAnimationFrame(() => win.setTimeout(flush, 0));
      pending = url;
    },
    play: () => {
      flush();
      return element.play();
    },
    // An element already paused is left alone: the player pauses it again at each new track, and a call costs.
    pause: () => {
      if (!element.paused) element.pause();
    },
    seek: (s) => {
      flush();
      element.currentTime = s;
    },
    setRate: (r) => {
      // load() resets playbackRate to defaultPlaybackRate, so set both: the speed survives paging.
      element.defaultPlaybackRate = r;
      element.playbackRate = r;
    },
    currentTime: () => (pending === undefined ? element.currentTime : 0),
    duration: () => (pending === undefined && Number.isFinite(element.duration) ? element.duration : 0),
    onEnded(listener) {
      element.addEventListener('ended', listener);
      return () => element.removeEventListener('ended', listener);
    },
  };
}

/** What the history adapter uses of `window`. */
export interface HistoryWindow {
  history: Pick<History, 'pushState' | 'replaceState'>;
  location: Pick<Location, 'pathname' | 'search'>;
  requestAnimationFrame(callback: () => void): unknown;
  setTimeout(callback: () => void, ms: number): unknown;
  addEventListener(type: 'pagehide' | 'popstate', listener: () => void): void;
}

/**
 * History navigation that wouter notices (it listens to pushState/replaceState).
 *
 * A replaced address is written behind the frame: a page turn replaces the address, and Chromium's replaceState
 * (with wouter's re-render after it) cost a page turn several milliseconds inside the frame that shows the next
 * passage (docs/performance.md "Page turn"). The newest address waits for the frame after next, then is written
 * once; until then `current()` answers it, a push writes it first, leaving the page writes it at once, and going
 * back or forward drops it.
 */
export function createHistoryNavigation(win: HistoryWindow = window): NavigationPort {
  let pending: string | null = null;
  const flush = () => {
    if (pending === null) return;
    const path = pending;
    pending = null;
    win.history.replaceState(null, '', path);
  };
  win.addEventListener('pagehide', flush);
  // Back or forward before the write: the entry it was for is no longer current, so it is dropped.
  win.addEventListener('popstate', () => {
    pending = null;
  });
  return {
    push: (path) => {
      flush();
      win.history.pushState(null, '', path);
    },
    replace: (path) => {
      if (pending === null) win.requestAnimationFrame(() => win.setTimeout(flush, 0));
      pending = path;
    },
    current: () => pending ?? win.location.pathname + win.location.search,
  };
}

export const browserClipboard = {
  writeText: (text: string) => navigator.clipboard.writeText(text),
};

/**
 * Analytics as the page goes (src/adapters/analytics.ts `flushOnHide`): `navigator.sendBeacon`, which the browser
 * delivers even after the page has gone. The body is JSON sent as text/plain, a type a beacon may carry without a
 * CORS preflight (the server reads it as JSON). False when the browser refused it or has no beacons.
 */
export function sendBeacon(url: string, body: unknown, nav: Pick<Navigator, 'sendBeacon'> | undefined = globalThis.navigator): boolean {
  if (typeof nav?.sendBeacon !== 'function') return false;
  return nav.sendBeacon(url, new Blob([JSON.stringify(body)], { type: 'text/plain;charset=UTF-8' }));
}

/** Call `listener` when the page is hidden or unloaded (visibilitychange to hidden, pagehide). Returns the disposer. */
export function onPageHide(listener: () => void, doc: Document = document, win: Window = window): () => void {
  const onVisibility = () => {
    if (doc.visibilityState === 'hidden') listener();
  };
  doc.addEventListener('visibilitychange', onVisibility);
  win.addEventListener('pagehide', listener);
  return () => {
    doc.removeEventListener('visibilitychange', onVisibility);
    win.removeEventListener('pagehide', listener);
  };
}
