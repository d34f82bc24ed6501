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

export function createHtmlAudio(element: HTMLAudioElement = new Audio()): AudioPort {
  return {
    load(url) {
      if (url) element.src = url;
      else element.removeAttribute('src');
      element.load();
    },
    play: () => element.play(),
    pause: () => element.pause(),
    seek: (s) => void (element.currentTime = s),
    setRate: (r) => {
      // load() resets playbackRate to defaultPlaybackRate, so set both: the speed survives paging.
      element.defaultPlaybackRate = r;
      element.playbackRate = r;
    },
    currentTime: () => element.currentTime,
    duration: () => (Number.isFinite(element.duration) ? element.duration : 0),
    onEnded(listener) {
      element.addEventListener('ended', listener);
      return () => element.removeEventListener('ended', listener);
    },
  };
}

/** History navigation that wouter notices (it listens to pushState/replaceState). */
export function createHistoryNavigation(): NavigationPort {
  return {
    push: (path) => window.history.pushState(null, '', path),
    replace: (path) => window.history.replaceState(null, '', path),
    current: () => window.location.pathname + window.location.search,
  };
}

export const browserClipboard = {
  writeText: (text: string) => navigator.clipboard.writeText(text),
};
