/**
 * The batching analytics adapter (src/adapters/analytics.ts) with a manual clock and a fake transport: when batches
 * leave, what they carry, the one-request-a-second rule, beacons on page hide, failures logged and forgotten. Also
 * the page views a new address is tracked with (src/domain/analytics.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  ANALYTICS_BATCH_SIZE,
  ANALYTICS_FLUSH_MS,
  ANALYTICS_MIN_INTERVAL_MS,
  createBatchingAnalytics,
  wireEvent,
  type AnalyticsTransport,
} from '../../src/adapters/analytics';
import { createManualClock } from '../../src/adapters/common';
import { ANALYTICS_MAX_BODY_BYTES, pageViewsOf } from '../../src/domain/analytics';
import { AnalyticsBatchSchema, type AnalyticsBatchBody } from '../../src/domain/analyticsSchema';

const CLIENT = '0b6f5f0e-5c1e-4d8e-9c51-4b1f0e2a7d10';

function setup(options: { fail?: boolean; beacon?: boolean; groupCode?: string | null } = {}) {
  const clock = createManualClock(Date.parse('2026-11-26T12:00:00Z'));
  const posts: { at: number; batch: AnalyticsBatchBody }[] = [];
  const beacons: AnalyticsBatchBody[] = [];
  const warnings: string[] = [];
  let settle: (() => void)[] = [];
  const transport: AnalyticsTransport = {
    send: (batch) => {
      posts.push({ at: clock.now(), batch });
      return new Promise<void>((resolve, reject) => settle.push(options.fail ? () => reject(new Error('offline')) : resolve));
    },
    beacon: options.beacon === false ? undefined : (batch) => (beacons.push(batch), true),
  };
  const analytics = createBatchingAnalytics({
    transport,
    clock,
    clientId: () => CLIENT,
    groupCode: () => options.groupCode ?? null,
    logger: { error: (m) => warnings.push(m), warn: (m) => warnings.push(m) },
  });
  /** Let the sends in flight answer. */
  const answer = async () => {
    const pending = settle;
    settle = [];
    pending.forEach((f) => f());
    await new Promise((r) => setTimeout(r, 0));
  };
  return { clock, posts, beacons, warnings, analytics, answer };
}

describe('the batching analytics adapter', () => {
  it('waits for more events, then sends one batch when the first has waited the flush delay', async () => {
    const { clock, posts, analytics, answer } = setup();
    analytics.track('Visited URL', { url: '/catalog' });
    clock.advance(1000);
    analytics.track('Viewed Catalog');
    clock.advance(ANALYTICS_FLUSH_MS - 1000 - 1);
    expect(posts).toHaveLength(0);
    clock.advance(1);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.batch).toEqual({
      clientId: CLIENT,
      events: [
        { name: 'Visited URL', at: '2026-11-26T12:00:00.000Z' },
        { name: 'Viewed Catalog', at: '2026-11-26T12:00:01.000Z' },
      ],
    });
    // What goes on the wire is what the server accepts.
    expect(AnalyticsBatchSchema.safeParse(posts[0]!.batch).success).toBe(true);
    expect(analytics.stats()).toEqual({ sent: 0, queued: 0, failed: 0 });
    await answer();
    expect(analytics.stats()).toEqual({ sent: 2, queued: 0, failed: 0 });
  });

  it('sends a full batch at once, and never two requests within the minimum interval', async () => {
    const { clock, posts, analytics, answer } = setup();
    for (let i = 0; i < ANALYTICS_BATCH_SIZE; i++) analytics.track('Viewed Passage', { slug: 'alpha-owls', position: i + 1 });
    expect(posts).toHaveLength(1);
    expect(posts[0]!.batch.events).toHaveLength(ANALYTICS_BATCH_SIZE);
    await answer();
    for (let i = 0; i < ANALYTICS_BATCH_SIZE; i++) analytics.track('Viewed Passage', { slug: 'alpha-owls', position: i + 1 });
    expect(posts).toHaveLength(1);
    clock.advance(ANALYTICS_MIN_INTERVAL_MS - 1);
    expect(posts).toHaveLength(1);
    clock.advance(1);
    expect(posts).toHaveLength(2);
    expect(posts[1]!.at - posts[0]!.at).toBe(ANALYTICS_MIN_INTERVAL_MS);
    await answer();
    expect(analytics.stats().sent).toBe(2 * ANALYTICS_BATCH_SIZE);
  });

  it('keeps at least the minimum interval between any two requests, whatever the traffic', async () => {
    const { clock, posts, analytics, answer } = setup();
    for (let ms = 0; ms < 60_000; ms += 100) {
      analytics.track('Visited URL');
      clock.advance(100);
      await answer();
    }
    expect(posts.length).toBeGreaterThan(10);
    for (let i = 1; i < posts.length; i++) expect(posts[i]!.at - posts[i - 1]!.at).toBeGreaterThanOrEqual(ANALYTICS_MIN_INTERVAL_MS);
    expect(posts.flatMap((p) => p.batch.events)).toHaveLength(analytics.stats().sent);
  });

  it('waits for the request in flight before the next one', async () => {
    const { clock, posts, analytics, answer } = setup();
    analytics.track('Viewed Catalog');
    clock.advance(ANALYTICS_FLUSH_MS);
    analytics.track('Viewed Novel', { slug: 'beacon-bay' });
    clock.advance(ANALYTICS_FLUSH_MS * 3);
    expect(posts).toHaveLength(1);
    await answer();
    clock.advance(ANALYTICS_FLUSH_MS);
    expect(posts).toHaveLength(2);
    expect(posts[1]!.batch.events.map((e) => e.name)).toEqual(['Viewed Novel']);
  });

  it('logs a failed send and forgets its events (SPEC §8)', async () => {
    const { clock, posts, warnings, analytics, answer } = setup({ fail: true });
    analytics.track('Viewed Catalog');
    clock.advance(ANALYTICS_FLUSH_MS);
    await answer();
    expect(warnings).toEqual(['Analytics send failed']);
    expect(analytics.stats()).toEqual({ sent: 0, queued: 0, failed: 1 });
    clock.advance(ANALYTICS_FLUSH_MS * 10);
    expect(posts).toHaveLength(1);
  });

  it('sends what waits by beacon when the page is hidden, with the class code in the body', async () => {
    const { clock, posts, beacons, analytics } = setup({ groupCode: 'ABCD1234' });
    analytics.track('Paused Audio', { slug: 'alpha-owls', editionId: 3, position: 2, seconds: 41.6 });
    analytics.flushOnHide();
    expect(beacons).toEqual([
      { clientId: CLIENT, groupCode: 'ABCD1234', events: [{ name: 'Paused Audio', at: '2026-11-26T12:00:00.000Z', publication: 'alpha-owls', editionId: 3, position: 2, seconds: 42 }] },
    ]);
    expect(AnalyticsBatchSchema.safeParse(beacons[0]).success).toBe(true);
    expect(analytics.stats()).toEqual({ sent: 1, queued: 0, failed: 0 });
    clock.advance(ANALYTICS_FLUSH_MS);
    expect(posts).toHaveLength(0);
    analytics.flushOnHide();
    expect(beacons).toHaveLength(1);
  });

  it('keeps the events for the next send when there is no beacon', () => {
    const { clock, posts, analytics } = setup({ beacon: false });
    analytics.track('Viewed Catalog');
    analytics.flushOnHide();
    expect(analytics.stats().queued).toBe(1);
    clock.advance(ANALYTICS_FLUSH_MS);
    expect(posts).toHaveLength(1);
  });

  it('tells its subscribers when the count changes', async () => {
    const { clock, analytics, answer } = setup();
    const seen: number[] = [];
    const off = analytics.subscribe(() => seen.push(analytics.stats().sent));
    analytics.track('Viewed Catalog');
    clock.advance(ANALYTICS_FLUSH_MS);
    await answer();
    off();
    analytics.track('Viewed Catalog');
    expect(seen.at(-1)).toBe(1);
  });

  it('keeps a batch within the body limit', () => {
    const { posts, analytics } = setup();
    const long = 'a'.repeat(110);
    for (let i = 0; i < ANALYTICS_BATCH_SIZE; i++) analytics.track('Viewed Passage', { slug: `${long}-${i}`, editionId: 2 ** 31 - 1, position: 999_999 });
    expect(posts).toHaveLength(1);
    expect(new TextEncoder().encode(JSON.stringify(posts[0]!.batch)).length).toBeLessThanOrEqual(ANALYTICS_MAX_BODY_BYTES);
  });
});

describe('the wire form of a tracking call', () => {
  it('carries only what the server stores: no URL, no speed, no free text', () => {
    const at = Date.parse('2026-11-26T12:00:00Z');
    expect(wireEvent('Visited URL', { url: '/catalog?search=ada' }, at)).toEqual({ name: 'Visited URL', at: '2026-11-26T12:00:00.000Z' });
    expect(wireEvent('Changed Audio Settings', { playbackSpeed: 1.5, autoPlay: true }, at)).toEqual({ name: 'Changed Audio Settings', at: '2026-11-26T12:00:00.000Z' });
    expect(wireEvent('Viewed Novel', { slug: 'Not A Slug!' }, at)).toEqual({ name: 'Viewed Novel', at: '2026-11-26T12:00:00.000Z' });
    expect(wireEvent('Resumed Audio', { slug: 'a', seconds: 9 }, at)).toEqual({ name: 'Resumed Audio', at: '2026-11-26T12:00:00.000Z', publication: 'a' });
    expect(wireEvent('Closed Audio Player', { seconds: -3 }, at).seconds).toBe(0);
  });
});

describe('page views (SPEC §4)', () => {
  it("tracks 'Visited URL' everywhere, 'Viewed Catalog' on the catalogs and 'Viewed Novel' on a publication's page", () => {
    expect(pageViewsOf('/catalog')).toEqual([{ event: 'Visited URL' }, { event: 'Viewed Catalog' }]);
    expect(pageViewsOf('/classroom-catalog')).toEqual([{ event: 'Visited URL' }, { event: 'Viewed Catalog' }]);
    expect(pageViewsOf('/alpha-owls/v1')).toEqual([{ event: 'Visited URL' }, { event: 'Viewed Novel', properties: { slug: 'alpha-owls' } }]);
    for (const path of ['/alpha-owls/v1/en:original/1', '/alpha-owls/v1/read', '/debug', '/qr/v1', '/listen/a/v1/en-original', '/sign-in', '/']) {
      expect(pageViewsOf(path)).toEqual([{ event: 'Visited URL' }]);
    }
  });
});
