/**
 * The one PGlite call outside its documented API that server/db/client.ts relies on: `runExclusive(fn)` (public on
 * PGliteInterface, not in PGlite's docs; it takes the private `_runExclusiveQuery` lock). A backup's `snapshot()`
 * copies the data directory under it, trusting that no statement runs meanwhile, the same lock `dumpDataDir`
 * holds. A PGlite upgrade that removes the call or changes what it excludes fails here, with a message naming the
 * version and the call, rather than as a TypeError or an inconsistent backup in production.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, pgliteQueryLock, pgliteVersion, type QueryLock } from '../../server/db/client';

const VERSION = pgliteVersion();
/** The failure message: which PGlite, which call, what broke. */
const broke = (what: string) =>
  `PGlite ${VERSION}: runExclusive(fn), the query lock server/db/client.ts's snapshot() holds while a backup copies the data directory, ${what}. ` +
  'Adapt snapshot() in server/db/client.ts to this PGlite, or stay on a version that passes this test.';

let pg: PGlite;
let queryLock: QueryLock;
beforeAll(async () => {
  pg = await PGlite.create();
  await pg.exec('create table t (n int)');
  expect(typeof (pg as unknown as { runExclusive?: unknown }).runExclusive, broke('is gone')).toBe('function');
  queryLock = pgliteQueryLock(pg);
});
afterAll(async () => {
  await pg?.close();
});

/** Give anything that is free to run several turns of the event loop to do so. */
const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe(`PGlite ${VERSION}: runExclusive(fn), the query lock of server/db/client.ts`, () => {
  it('is there, and openDatabase checks it when it opens, with a message that names the version and the call', async () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
    expect(() => pgliteQueryLock({})).toThrow(`PGlite ${VERSION} has no runExclusive(fn), which server/db/client.ts calls`);
    const database = await openDatabase({ dataDir: 'memory://' });
    await database.close();
    // A PGlite without it: openDatabase refuses at once, before any backup needs it.
    Object.defineProperty(PGlite.prototype, 'runExclusive', { value: undefined, configurable: true });
    try {
      await expect(openDatabase({ dataDir: 'memory://' })).rejects.toThrow(`PGlite ${VERSION} has no runExclusive(fn)`);
    } finally {
      delete (PGlite.prototype as { runExclusive?: unknown }).runExclusive;
    }
    expect(typeof pg.runExclusive).toBe('function');
  });

  it('keeps every kind of statement out while fn runs: query, exec, a transaction and dumpDataDir wait for it', async () => {
    const order: string[] = [];
    const pending: Promise<unknown>[] = [];
    const track = (name: string, work: () => Promise<unknown>) => pending.push(work().then(() => order.push(name)));
    const result = await queryLock(async () => {
      track('query', () => pg.query('insert into t values (1)'));
      track('exec', () => pg.exec('insert into t values (2); insert into t values (3)'));
      track('transaction', () => pg.transaction(async (tx) => tx.query('insert into t values (4)')));
      track('dumpDataDir', () => pg.dumpDataDir('none'));
      await turns();
      order.push('fn ended');
      return 'fn result';
    });
    await Promise.all(pending);
    expect(result, broke("does not return fn's result")).toBe('fn result');
    expect(order[0], broke(`let statements run while fn held it (in order: ${order.join(', ')})`)).toBe('fn ended');
    expect(order.slice(1).sort()).toEqual(['dumpDataDir', 'exec', 'query', 'transaction']);
    expect((await pg.query<{ n: number }>('select n from t order by n')).rows.map((r) => r.n)).toEqual([1, 2, 3, 4]);
  });

  it('runs one fn at a time', async () => {
    const order: string[] = [];
    const run = (name: string) =>
      queryLock(async () => {
        order.push(`${name} start`);
        await turns(5);
        order.push(`${name} end`);
      });
    await Promise.all([run('a'), run('b')]);
    expect(order, broke('let two functions run at once')).toEqual(['a start', 'a end', 'b start', 'b end']);
  });

  it("passes fn's error on and is free again afterwards", async () => {
    await expect(queryLock(async () => Promise.reject(new Error('copy failed'))), broke("does not pass fn's error on")).rejects.toThrow('copy failed');
    const after = pg.query<{ one: number }>('select 1 as one');
    const settled = await Promise.race([after.then(() => true), turns(200).then(() => false)]);
    expect(settled, broke('stays held after fn failed')).toBe(true);
  });
});
