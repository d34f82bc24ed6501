/**
 * The app's analytics: one batching adapter (src/adapters/analytics.ts) over the API client's
 * `postEvents`, with a beacon for what is left when the page is hidden or goes. The reader engine uses it as its
 * analytics port (src/ui/engine/engine.ts), and the route's page views (`trackPageViews`) go through the same
 * port, so a catalog visit counts without loading the engine's chunk. /debug reads its count (`useAnalyticsSent`).
 */
import { useSyncExternalStore } from 'react';
import { createBatchingAnalytics, type BatchingAnalytics } from '../../adapters/analytics';
import { onPageHide, sendBeacon } from '../../adapters/browser';
import { systemClock } from '../../adapters/common';
import { API_PREFIX } from '../../api';
import { pageViewsOf } from '../../domain/analytics';
import { api } from './api';
import { getOrCreateClientId } from './clientId';
import { localStore } from './storage';
import { readStoredClassCode } from './storedClassCode';

/** Where the events go (same origin). */
export const ANALYTICS_ENDPOINT = `${API_PREFIX}/events`;

let clientId: string | undefined;

export const analytics: BatchingAnalytics = createBatchingAnalytics({
  transport: {
    send: (batch) => api.postEvents(batch),
    beacon: (batch) => sendBeacon(ANALYTICS_ENDPOINT, batch),
  },
  clock: systemClock,
  clientId: () => (clientId ??= getOrCreateClientId(localStore)),
  groupCode: readStoredClassCode,
  logger: { error: (m, d) => console.error(m, d ?? ''), warn: (m, d) => console.warn(m, d ?? '') },
});

// The page lives as long as this listener: what waits leaves by beacon whenever the page is hidden or goes.
if (typeof document !== 'undefined') onPageHide(() => analytics.flushOnHide());

/** Track the page views of a new address (src/domain/analytics.ts `pageViewsOf`). */
export function trackPageViews(path: string): void {
  for (const call of pageViewsOf(path)) analytics.track(call.event, call.properties);
}

/** Events sent this session, following the adapter. */
export function useAnalyticsSent(): number {
  return useSyncExternalStore(analytics.subscribe, () => analytics.stats().sent, () => 0);
}
