import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { DOWNLOAD_FAILED_MESSAGE, DOWNLOAD_NOT_ALLOWED_MESSAGE } from '../../src/domain/offline';
import { connectOfflineDownload, offlineDownloadMachine, type OfflineDownloadReport } from '../../src/machines/offlineDownload';
import { planTransitionWalk } from './harness';
import { MODELS } from './models';

const input = MODELS.offlineDownload.inputs[0];
const plan = planTransitionWalk(MODELS.offlineDownload.machine, { events: MODELS.offlineDownload.events, input, serializeState: MODELS.offlineDownload.serializeState as never });

describe('offlineDownload machine: every transition', () => {
  for (const c of plan.cases) {
    it(c.description, async () => {
      const actor = createActor(MODELS.offlineDownload.machine, { input }).start();
      await c.run(
        (expected) => {
          expect(actor.getSnapshot().value).toEqual(expected.value);
          expect(actor.getSnapshot().context).toEqual(expected.context);
        },
        { send: (e) => actor.send(e), stop: () => actor.stop() },
      );
    });
  }
  it('covers 100% of transitions', () => {
    console.log(plan.summary);
    expect(plan.uncovered).toEqual([]);
  });
});

/** The machine with a download actor the test drives: what it reports, and whether it was started and stopped. */
function startWithActor(passageCount = 3) {
  const runs: { report: (event: OfflineDownloadReport) => void; stopped: boolean }[] = [];
  const logic = offlineDownloadMachine.provide({
    actors: {
      downloadEdition: fromCallback<{ type: 'download.noop' }, void>(({ sendBack }) => {
        const run = { report: (event: OfflineDownloadReport) => sendBack(event), stopped: false };
        runs.push(run);
        return () => void (run.stopped = true);
      }),
    },
  });
  const actor = createActor(logic, { input: { passageCount } }).start();
  const api = () => connectOfflineDownload(actor.getSnapshot(), (e) => actor.send(e));
  return { actor, api, runs };
}

describe('offlineDownload machine: behaviour', () => {
  it('starts the download on press, shows its progress, and stops the actor once it finished', () => {
    const { actor, api, runs } = startWithActor(3);
    expect(api()).toMatchObject({ isDownloading: false, failureMessage: null });
    expect(runs).toHaveLength(0);
    api().start();
    expect(api()).toMatchObject({ isDownloading: true, progress: { done: 0, total: 3, bytes: 0 } });
    expect(runs).toHaveLength(1);
    runs[0].report({ type: 'download.progress', progress: { done: 2, total: 3, bytes: 4096 } });
    expect(api().progress).toEqual({ done: 2, total: 3, bytes: 4096 });
    runs[0].report({ type: 'download.finished' });
    expect(actor.getSnapshot().value).toBe('done');
    expect(api().isDownloading).toBe(false);
    expect(runs[0].stopped).toBe(true);
  });

  it('says why a download failed, and starts afresh from 0 when pressed again', () => {
    const { api, runs } = startWithActor(3);
    api().start();
    runs[0].report({ type: 'download.progress', progress: { done: 1, total: 3, bytes: 100 } });
    runs[0].report({ type: 'download.failed', failure: 'notAllowed' });
    expect(api()).toMatchObject({ isDownloading: false, failureMessage: DOWNLOAD_NOT_ALLOWED_MESSAGE });
    api().start();
    expect(api()).toMatchObject({ isDownloading: true, failureMessage: null, progress: { done: 0, total: 3, bytes: 0 } });
    runs[1].report({ type: 'download.failed', failure: 'failed' });
    expect(api().failureMessage).toBe(DOWNLOAD_FAILED_MESSAGE);
    expect(runs.map((r) => r.stopped)).toEqual([true, true]);
  });

  it('stops (aborts) the download when the machine stops mid-way', () => {
    const { actor, runs } = startWithActor();
    actor.send({ type: 'download.start' });
    actor.stop();
    expect(runs[0].stopped).toBe(true);
  });

  it('ignores a second press while downloading', () => {
    const { api, runs } = startWithActor();
    api().start();
    api().start();
    expect(runs).toHaveLength(1);
  });
});
