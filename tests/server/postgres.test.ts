/** The same server on a real PostgreSQL through DATABASE_URL: migrations, import, idempotent restart, reads. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/server';
import { getJson, silentLogger } from './harness';
import { postgresAvailable, startPgCluster, type PgCluster } from './pg-cluster';

describe.runIf(postgresAvailable())('on a real PostgreSQL (DATABASE_URL)', () => {
  let cluster: PgCluster;
  beforeAll(() => {
    cluster = startPgCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  const start = () =>
    startServer({ port: 0, host: '127.0.0.1', databaseUrl: cluster.url, contentDir: path.resolve('content'), logger: silentLogger() });

  it('migrates, imports the library, serves it, and a restart changes nothing', async () => {
    const first = await start();
    let detail: any;
    try {
      expect(first.database.kind).toBe('postgres');
      expect(first.importSummary!.added.length).toBeGreaterThanOrEqual(4);
      const list = await getJson(first, '/api/v1/publications?sort=most_recent');
      expect(list.status).toBe(200);
      expect(list.body.total).toBe(first.importSummary!.added.length);
      // The newest title that is not premium, and its free edition (src/domain/access.ts: the free tier).
      const open = list.body.items.find((item: any) => !item.badges.includes('premium'));
      detail = (await getJson(first, `/api/v1/publications/${open.slug}`)).body;
      const free = detail.editions.find((e: any) => e.language.code === 'en' && e.level === 'ORIGINAL');
      const passage = await getJson(first, `/api/v1/passages?editionId=${free.id}&position=1`);
      expect(passage.status).toBe(200);
      expect(passage.body.text).toMatch(/^<p>/);
      const image = await fetch(first.url + detail.thumbnailImageUrl);
      expect(image.status).toBe(200);
      expect(await image.text()).toContain('<svg');
    } finally {
      await first.stop();
    }
    const second = await start();
    try {
      expect(second.importSummary!.added).toEqual([]);
      expect(second.importSummary!.updated).toEqual([]);
      expect((await getJson(second, `/api/v1/publications/${detail.slug}`)).body).toEqual(detail);
    } finally {
      await second.stop();
    }
  });
});
