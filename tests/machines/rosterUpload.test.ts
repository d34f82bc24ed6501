import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  appliedSummary,
  connectRosterUpload,
  countedOnly,
  dryRunSummary,
  problemText,
  provideRosterUpload,
  type RosterFile,
  type RosterReport,
} from '../../src/machines/rosterUpload';
import { planTransitionWalk } from './harness';
import { MODELS, rosterReports } from './models';

const runnerActions = ['refreshStaff'] as const;

/** The walk's machine (check and apply never settle: their answers are the walk's events) with its runner's action recorded. */
function startRecorded() {
  const log: string[] = [];
  const actions = Object.fromEntries(runnerActions.map((type) => [type, () => void log.push(type)]));
  const actor = createActor(MODELS.rosterUpload.machine.provide({ actions })).start();
  return { actor, log };
}

const plan = planTransitionWalk(MODELS.rosterUpload.machine, { events: MODELS.rosterUpload.events, serializeState: MODELS.rosterUpload.serializeState as never });

describe('rosterUpload machine: every transition', () => {
  for (const c of plan.cases) {
    it(c.description, async () => {
      const { actor, log } = startRecorded();
      await c.run(
        (expected, _step, actions) => {
          expect(actor.getSnapshot().value).toEqual(expected.value);
          expect(log).toEqual(actions.filter((a) => (runnerActions as readonly string[]).includes(a)));
          log.length = 0;
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

const zip: RosterFile = { name: 'roster.zip', body: new Blob(['PK']) };
const appliedReport: RosterReport = { ...rosterReports.clean, dryRun: false, applied: true };

/** The machine with ports that answer when the test says so, and a record of what they were asked. */
function startWithPorts() {
  const calls: string[] = [];
  const pending: { settle: (outcome: { report?: RosterReport; error?: Error }) => void }[] = [];
  const port = (kind: string) => (file: RosterFile) => {
    calls.push(`${kind} ${file.name}`);
    return new Promise<RosterReport>((resolve, reject) => pending.push({ settle: ({ report, error }) => (error ? reject(error) : resolve(report!)) }));
  };
  const actor = createActor(provideRosterUpload({ check: port('check'), apply: port('apply'), refresh: () => void calls.push('refresh') })).start();
  const api = () => connectRosterUpload(actor.getSnapshot(), (e) => actor.send(e));
  const answer = async (outcome: { report?: RosterReport; error?: Error }) => {
    pending.shift()!.settle(outcome);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { actor, api, calls, answer };
}

describe('rosterUpload machine: behaviour', () => {
  it('checks a picked file, shows the dry run, applies the same file, and refreshes the staff', async () => {
    const { api, calls, answer } = startWithPorts();
    expect(api()).toMatchObject({ status: 'idle', review: null, canChoose: true, canApply: false });
    api().choose(zip);
    expect(api()).toMatchObject({ status: 'checking', isChecking: true, fileName: 'roster.zip', review: null });
    await answer({ report: rosterReports.clean });
    expect(api().review).toEqual({
      summary: '1 to add, 1 to update, 0 unchanged, 0 to disable; 2 roles skipped.',
      countedOnly: '4 enrollments and 1 class read; they are counted, not imported.',
      rows: [
        { key: 't1', name: 'Ada Lovelace', email: 'ada@school.org', role: 'Teacher', action: 'Will be added' },
        { key: 'a1', name: 'Grace Hopper', email: 'grace@school.org', role: 'Organization admin', action: 'Will be updated' },
      ],
      problems: [],
      problemsMessage: null,
    });
    expect(api().canApply).toBe(true);
    api().apply();
    expect(api()).toMatchObject({ status: 'applying', isApplying: true, canApply: false, canCancel: false, canChoose: false });
    expect(api().review?.summary).toBe('1 to add, 1 to update, 0 unchanged, 0 to disable; 2 roles skipped.');
    await answer({ report: appliedReport });
    expect(api()).toMatchObject({ status: 'applied', review: null, appliedMessage: 'Roster applied: 1 added, 1 updated, 0 unchanged, 0 disabled.' });
    expect(calls).toEqual(['check roster.zip', 'apply roster.zip', 'refresh']);
  });

  it('keeps Apply disabled while the file has problems, and lists them by file and line', async () => {
    const { api, actor, calls, answer } = startWithPorts();
    api().choose(zip);
    await answer({ report: rosterReports.broken });
    expect(api().review?.problems).toEqual(["users.csv, line 3: 'not-an-email' is not an email address"]);
    expect(api().review?.problemsMessage).toBe('The file has 1 problem. Nothing will change until the file is fixed and uploaded again.');
    expect(api().canApply).toBe(false);
    api().apply();
    expect(actor.getSnapshot().value).toBe('reviewed');
    api().cancel();
    expect(api()).toMatchObject({ status: 'idle', fileName: null, review: null });
    expect(calls).toEqual(['check roster.zip']);
  });

  it("shows why a check failed, and 'Try again' checks the same file again", async () => {
    const { api, calls, answer } = startWithPorts();
    api().choose(zip);
    const error = new Error('The file is not a zip archive');
    await answer({ error });
    expect(api()).toMatchObject({ status: 'failed', isFailed: true, error, canRetry: true });
    api().retry();
    expect(api()).toMatchObject({ status: 'checking', error: null });
    await answer({ report: rosterReports.clean });
    expect(api().status).toBe('reviewed');
    expect(calls).toEqual(['check roster.zip', 'check roster.zip']);
  });

  it('a failed apply refreshes nothing; another file replaces a check under way', async () => {
    const { api, calls, answer } = startWithPorts();
    api().choose(zip);
    api().choose({ name: 'fixed.zip', body: new Blob(['PK2']) });
    expect(api().fileName).toBe('fixed.zip');
    // The first check was stopped; the second one answers.
    await answer({ report: rosterReports.broken });
    expect(api().status).toBe('checking');
    await answer({ report: rosterReports.clean });
    api().apply();
    await answer({ error: new Error('users.csv line 3: not an email address') });
    expect(api()).toMatchObject({ status: 'failed', review: null, appliedMessage: null });
    expect(calls).toEqual(['check roster.zip', 'check fixed.zip', 'apply fixed.zip']);
  });
});

describe('rosterUpload sentences', () => {
  const counts = { add: 3, update: 1, unchanged: 2, disable: 1, skippedRoles: 4, enrollments: 0, classes: 0 };
  it('says the counts of a dry run and of an apply', () => {
    expect(dryRunSummary(counts)).toBe('3 to add, 1 to update, 2 unchanged, 1 to disable; 4 roles skipped.');
    expect(dryRunSummary({ ...counts, skippedRoles: 1 })).toBe('3 to add, 1 to update, 2 unchanged, 1 to disable; 1 role skipped.');
    expect(dryRunSummary({ ...counts, skippedRoles: 0 })).toBe('3 to add, 1 to update, 2 unchanged, 1 to disable.');
    expect(appliedSummary(counts)).toBe('Roster applied: 3 added, 1 updated, 2 unchanged, 1 disabled.');
    expect(countedOnly(counts)).toBeNull();
    expect(countedOnly({ ...counts, enrollments: 1, classes: 2 })).toBe('1 enrollment and 2 classes read; they are counted, not imported.');
  });
  it('names a problem by file and line, or by file alone for the whole file', () => {
    expect(problemText({ file: 'users.csv', line: 4, message: 'email is missing' })).toBe('users.csv, line 4: email is missing');
    expect(problemText({ file: 'manifest.csv', line: 0, message: 'is missing' })).toBe('manifest.csv: is missing');
  });
});

