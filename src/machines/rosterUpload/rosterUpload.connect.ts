import type { SnapshotFrom } from 'xstate';
import type { rosterUploadMachine } from './rosterUpload.machine';
import type { RosterAction, RosterCounts, RosterFile, RosterPlannedStaff, RosterProblem, RosterRole, RosterUploadEvent, RosterUploadState } from './rosterUpload.types';

/** What the review's last column says each row will do. */
export const ROSTER_ACTION_LABELS: Record<RosterAction, string> = {
  add: 'Will be added',
  update: 'Will be updated',
  unchanged: 'No change',
  disable: 'Will be disabled',
};

export const ROSTER_ROLE_LABELS: Record<RosterRole, string> = { teacher: 'Teacher', admin: 'Organization admin' };

/** Said beside the problems: a file with any problem changes nothing (docs/rostering.md). */
export const ROSTER_NOTHING_CHANGES = 'Nothing will change until the file is fixed and uploaded again.';

/** Any file: what `canChoose` asks the machine about. */
const SOME_FILE: RosterFile = { name: '', body: new Blob() };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** '3 to add, 1 to update, 2 unchanged, 1 to disable; 4 roles skipped.' (the skipped roles only when there are any). */
export function dryRunSummary(counts: RosterCounts): string {
  const changes = `${counts.add} to add, ${counts.update} to update, ${counts.unchanged} unchanged, ${counts.disable} to disable`;
  return counts.skippedRoles > 0 ? `${changes}; ${plural(counts.skippedRoles, 'role', 'roles')} skipped.` : `${changes}.`;
}

/** 'Roster applied: 3 added, 1 updated, 2 unchanged, 1 disabled.' */
export function appliedSummary(counts: RosterCounts): string {
  return `Roster applied: ${counts.add} added, ${counts.update} updated, ${counts.unchanged} unchanged, ${counts.disable} disabled.`;
}

/** '12 enrollments and 3 classes read; they are counted, not imported.', or null when the file has neither. */
export function countedOnly(counts: RosterCounts): string | null {
  if (counts.enrollments === 0 && counts.classes === 0) return null;
  return `${plural(counts.enrollments, 'enrollment', 'enrollments')} and ${plural(counts.classes, 'class', 'classes')} read; they are counted, not imported.`;
}

/** 'The file has 2 problems. Nothing will change until the file is fixed and uploaded again.', or null. */
export function problemsMessage(count: number): string | null {
  return count === 0 ? null : `The file has ${plural(count, 'problem', 'problems')}. ${ROSTER_NOTHING_CHANGES}`;
}

/** 'users.csv, line 4: …', or 'manifest.csv: …' for a problem of a whole file (line 0). */
export const problemText = (problem: RosterProblem): string =>
  problem.line > 0 ? `${problem.file}, line ${problem.line}: ${problem.message}` : `${problem.file}: ${problem.message}`;

/** One row of the review table. */
export interface RosterReviewRow {
  key: string;
  name: string;
  email: string;
  role: string;
  action: string;
}

const reviewRow = (s: RosterPlannedStaff): RosterReviewRow => ({
  key: s.sourcedId,
  name: `${s.givenName} ${s.familyName}`.trim(),
  email: s.email,
  role: ROSTER_ROLE_LABELS[s.role] ?? s.role,
  action: ROSTER_ACTION_LABELS[s.action] ?? s.action,
});

/** What the review shows: the counts as sentences, the rows, and the problems. */
export interface RosterReview {
  summary: string;
  countedOnly: string | null;
  rows: RosterReviewRow[];
  problems: string[];
  /** Said above the problems, when there are any. */
  problemsMessage: string | null;
}

export function connectRosterUpload(snapshot: SnapshotFrom<typeof rosterUploadMachine>, send: (event: RosterUploadEvent) => void) {
  const { file, report, error } = snapshot.context;
  const status = snapshot.value as RosterUploadState;
  const showsReview = (status === 'reviewed' || status === 'applying') && report !== null;
  return {
    status,
    isChecking: status === 'checking',
    isApplying: status === 'applying',
    isFailed: status === 'failed',
    /** The picked file's name, while one is picked. */
    fileName: file?.name ?? null,
    review: showsReview
      ? ({
          summary: dryRunSummary(report.counts),
          countedOnly: countedOnly(report.counts),
          rows: report.staff.map(reviewRow),
          problems: report.problems.map(problemText),
          problemsMessage: problemsMessage(report.problems.length),
        } satisfies RosterReview)
      : null,
    /** The machine's own guard: no problems, and not already applying. */
    canApply: snapshot.can({ type: 'roster.apply' }),
    canCancel: snapshot.can({ type: 'roster.cancel' }),
    canRetry: snapshot.can({ type: 'roster.retry' }),
    /** Chosen files are ignored while an apply runs. */
    canChoose: snapshot.can({ type: 'roster.choose', file: SOME_FILE }),
    appliedMessage: status === 'applied' && report ? appliedSummary(report.counts) : null,
    /** Why the check or apply failed (the view shows its message). */
    error: status === 'failed' ? error : null,
    choose: (picked: RosterFile) => send({ type: 'roster.choose', file: picked }),
    apply: () => send({ type: 'roster.apply' }),
    cancel: () => send({ type: 'roster.cancel' }),
    retry: () => send({ type: 'roster.retry' }),
  };
}

export type RosterUploadApi = ReturnType<typeof connectRosterUpload>;
