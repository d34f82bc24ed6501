import { assign, fromPromise, setup, spawnChild, stopChild } from 'xstate';
import type { StateMetaWithTimers } from '../shared/timers';
import type { RosterFile, RosterReport, RosterUploadContext, RosterUploadDone, RosterUploadEvent, RosterUploadPorts } from './rosterUpload.types';

/** A dry run may be applied only when the file has no problems: the server refuses it otherwise (422). */
export const isApplicable = (report: RosterReport): boolean => report.problems.length === 0;

/** A chosen file is taken and checked; a cancel puts the upload away. Both are open in every state but the apply (in `idle`, choosing only). */
const chooseOrCancel = {
  'roster.choose': { target: 'checking', actions: 'takeFile' },
  'roster.cancel': { target: 'idle', actions: 'forgetFile' },
} as const;

const notProvided = (name: string) => fromPromise<RosterReport, RosterFile>(() => Promise.reject(new Error(`${name} is provided by the view`)));

/**
 * The roster upload: a picked OneRoster zip is checked by a dry run, shown for review, and applied
 * only when the admin asks and the file has no problems; a failure names why, and the same file may be checked
 * again. The check and the apply are actors the runner provides (`provideRosterUpload`); they are spawned and
 * stopped by name, not invoked, so the machine stays walkable by createTestModel.
 */
export const rosterUploadMachine = setup({
  types: {} as { context: RosterUploadContext; events: RosterUploadEvent | RosterUploadDone; meta: StateMetaWithTimers },
  actors: {
    /** Provided by the runner: the dry run. */
    checkRoster: notProvided('checkRoster'),
    /** Provided by the runner: the apply. */
    applyRoster: notProvided('applyRoster'),
  },
  actions: {
    /** Provided by the runner: the staff list, members and invitations are fetched again. */
    refreshStaff: () => {},
    startCheck: spawnChild('checkRoster', { id: 'rosterCheck', input: ({ context }) => context.file! }),
    stopCheck: stopChild('rosterCheck'),
    startApply: spawnChild('applyRoster', { id: 'rosterApply', input: ({ context }) => context.file! }),
    stopApply: stopChild('rosterApply'),
    takeFile: assign(({ event }) => (event.type === 'roster.choose' ? { file: event.file, report: null, error: null } : {})),
    forgetError: assign({ error: null }),
    takeReport: assign(({ event }) =>
      event.type === 'xstate.done.actor.rosterCheck' || event.type === 'xstate.done.actor.rosterApply' ? { report: event.output } : {},
    ),
    takeError: assign(({ event }) =>
      event.type === 'xstate.error.actor.rosterCheck' || event.type === 'xstate.error.actor.rosterApply' ? { error: event.error } : {},
    ),
    forgetFile: assign({ file: null, report: null, error: null }),
  },
  guards: {
    /** The reviewed dry run found no problems. */
    isApplicable: ({ context }) => context.report !== null && isApplicable(context.report),
  },
}).createMachine({
  id: 'rosterUpload',
  initial: 'idle',
  context: { file: null, report: null, error: null },
  states: {
    idle: {
      meta: { description: "Nothing picked: only 'Upload OneRoster file' shows." },
      on: { 'roster.choose': chooseOrCancel['roster.choose'] },
    },
    checking: {
      meta: { description: 'The dry run of the picked file is under way; nothing changes on the server.' },
      entry: 'startCheck',
      exit: 'stopCheck',
      on: {
        'xstate.done.actor.rosterCheck': { target: 'reviewed', actions: 'takeReport' },
        'xstate.error.actor.rosterCheck': { target: 'failed', actions: 'takeError' },
        ...chooseOrCancel,
        // Re-entered, so that the check under way stops and the new file's starts.
        'roster.choose': { ...chooseOrCancel['roster.choose'], reenter: true, description: 'Another file replaces this one.' },
      },
    },
    reviewed: {
      meta: { description: "The dry run's counts, staff and problems show; 'Apply roster' is enabled only without problems." },
      on: {
        'roster.apply': { guard: 'isApplicable', target: 'applying' },
        ...chooseOrCancel,
      },
    },
    applying: {
      meta: { description: 'The reviewed file is sent again without dryRun; the review stays shown.' },
      entry: 'startApply',
      exit: 'stopApply',
      on: {
        'xstate.done.actor.rosterApply': { target: 'applied', actions: ['takeReport', 'refreshStaff'] },
        'xstate.error.actor.rosterApply': { target: 'failed', actions: 'takeError' },
      },
    },
    applied: {
      meta: { description: 'The roster was applied: what changed is said, and the staff list is fetched again.' },
      on: chooseOrCancel,
    },
    failed: {
      meta: { description: "The check or the apply failed: the server's message shows, with 'Try again' for the same file." },
      on: {
        'roster.retry': { target: 'checking', actions: 'forgetError' },
        ...chooseOrCancel,
      },
    },
  },
});

/** The machine with its I/O from the runner's ports (Manage Organization's API calls, its query client). */
export function provideRosterUpload(ports: RosterUploadPorts) {
  return rosterUploadMachine.provide({
    actors: {
      checkRoster: fromPromise<RosterReport, RosterFile>(({ input }) => ports.check(input)),
      applyRoster: fromPromise<RosterReport, RosterFile>(({ input }) => ports.apply(input)),
    },
    actions: { refreshStaff: () => ports.refresh() },
  });
}
