/**
 * The roster upload on Manage Organization: an org admin picks a OneRoster 1.2 CSV zip, the server
 * checks it without changing anything (a dry run), the admin reviews what would change, then applies the same file.
 * The report is the server's answer to POST /organizations/{id}/roster (src/domain/rosterSchemas.ts).
 */
import type { RosterReport } from '../../domain/rosterSchemas';
import type { ActorOutcome } from '../shared/outcome';

export type { RosterAction, RosterCounts, RosterPlannedStaff, RosterProblem, RosterReport, RosterRole } from '../../domain/rosterSchemas';

/** The picked zip: its name to show, and its bytes, sent as they are for the dry run and again for the apply. */
export interface RosterFile {
  name: string;
  body: Blob;
}

export interface RosterUploadContext {
  /** The picked file; null until one is picked, and after Cancel. @default null */
  file: RosterFile | null;
  /** The last dry run's report (reviewed, applying), or the apply's (applied). @default null */
  report: RosterReport | null;
  /** Why the last check or apply failed (an ApiError carrying the server's message). @default null */
  error: unknown;
}

export type RosterUploadEvent =
  /** A zip was picked ('Upload OneRoster file'): it is checked at once. */
  | { type: 'roster.choose'; file: RosterFile }
  /** 'Apply roster': the reviewed file is sent again, for real. */
  | { type: 'roster.apply' }
  /** 'Cancel' (or 'Dismiss'): the picked file and its dry run are dropped. */
  | { type: 'roster.cancel' }
  /** 'Try again' after a failure: the same file is checked again. */
  | { type: 'roster.retry' };

/** What the check and the apply (actors the view provides) answer. */
export type RosterUploadDone =
  | ActorOutcome<'rosterCheck', RosterReport>
  | ActorOutcome<'rosterApply', RosterReport>;

export type RosterUploadState = 'idle' | 'checking' | 'reviewed' | 'applying' | 'applied' | 'failed';

/** What the machine's runner supplies: the two requests and what to refresh after an apply. */
export interface RosterUploadPorts {
  /** POST …/roster?dryRun=true with the file's bytes. */
  check(file: RosterFile): Promise<RosterReport>;
  /** POST …/roster with the same bytes. */
  apply(file: RosterFile): Promise<RosterReport>;
  /** The staff list (and members, invitations) are fetched again. */
  refresh(): void;
}
