/** The app's one reader engine, built on the browser's ports. Created on first use. */
import { createReaderEngine, type ReaderEngine } from '../../engine/createReaderEngine';
import { systemClock } from '../../adapters/common';
import { browserClipboard, createHistoryNavigation, createHtmlAudio, createLocalStorage } from '../../adapters/browser';
import { createEngineApi } from '../../api/engineApi';
import { queryKeys } from '../../api/queryKeys';
import { api, queryClient } from '../platform/api';
// First-party analytics: batched to POST /api/v1/events, shared with the route's page views (src/ui/platform/analytics.ts).
import { analytics } from '../platform/analytics';

let engine: ReaderEngine | null = null;

export function getEngine(): ReaderEngine {
  if (!engine) {
    engine = createReaderEngine({
      api: createEngineApi(api, {
        // An edition created on demand changes the title's levels: its cached page and the catalog lists refresh (SPEC §7).
        onEditionCreated: (slug) => {
          void queryClient.invalidateQueries({ queryKey: queryKeys.publicationAll(slug) });
          void queryClient.invalidateQueries({ queryKey: queryKeys.publicationsAll() });
        },
      }),
      storage: createLocalStorage(),
      clock: systemClock,
      audio: typeof Audio === 'undefined' ? undefined : createHtmlAudio(),
      // The listen page's own element, so it never fights the reader's player.
      listenAudio: typeof Audio === 'undefined' ? undefined : createHtmlAudio(),
      wordAudio: typeof Audio === 'undefined' ? undefined : createHtmlAudio(),
      analytics,
      navigation: createHistoryNavigation(),
      clipboard: browserClipboard,
      logger: { error: (m, d) => console.error(m, d ?? ''), warn: (m, d) => console.warn(m, d ?? '') },
    });
    engine.start();
  }
  return engine;
}
