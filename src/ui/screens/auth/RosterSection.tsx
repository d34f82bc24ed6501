/**
 * 'Staff roster' on Manage Organization: an org admin uploads a OneRoster 1.2 CSV zip; the server's
 * dry run shows as sentences and a table (and the file's problems, which keep 'Apply roster' disabled), then
 * 'Apply roster' sends the same bytes for real. Below, the staff imported so far with their status. The flow is the
 * rosterUpload machine (src/machines/rosterUpload), run here with Manage Organization's API calls as its ports;
 * the server owns every rule of the import (server/roster).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { Button, FileTrigger } from 'react-aria-components';
import { rosterQueryKeys, rosterStaffQuery, type RosterStaffMember } from '../../../api/organization';
import { ROSTER_MAX_UPLOAD_BYTES } from '../../../domain/rosterSchemas';
import { connectRosterUpload, provideRosterUpload, ROSTER_ROLE_LABELS, type RosterReview } from '../../../machines/rosterUpload';
import { Spinner } from '../../components/Spinner';
import { buttonStyles } from '../../components/styles';
import { FormMessage } from './AuthField';
import { messageOf } from './authForm';
import { organizationApi } from './organization';

const ACCEPTED = ['.zip', 'application/zip', 'application/x-zip-compressed'];

/** How each status of GET …/roster reads. */
export const ROSTER_STATUS_LABELS: Record<RosterStaffMember['status'], string> = {
  active: 'Signed in',
  pending: 'Awaiting first sign-in',
  disabled: 'Disabled',
};

const cell = 'py-2.5 pe-3';
const headCell = 'py-2 pe-3 text-start font-medium';

/** The caption and head row of a staff table: Name, Email, Role and the table's own last column. */
function StaffTableHead({ caption, last }: { caption: string; last: string }) {
  return (
    <>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="text-ink-muted">
          {['Name', 'Email', 'Role', last].map((label) => (
            <th key={label} scope="col" className={headCell}>
              {label}
            </th>
          ))}
        </tr>
      </thead>
    </>
  );
}

/** The dry run: its counts, its problems (when any), and the staff rows with what the import does to each. */
export function RosterReviewPanel({ fileName, review }: { fileName: string | null; review: RosterReview }) {
  return (
    <div className="flex flex-col gap-3">
      <h4 className="font-medium">{fileName ? `Dry run of ${fileName}` : 'Dry run'}</h4>
      <p className="text-ink">{review.summary}</p>
      {review.countedOnly ? <p className="text-sm text-ink-muted">{review.countedOnly}</p> : null}
      {review.problemsMessage ? (
        <div className="rounded-xl bg-danger/10 px-3.5 py-2.5 text-sm text-danger">
          <p role="alert" className="font-medium">
            {review.problemsMessage}
          </p>
          <ul aria-label="Problems in the file" className="mt-1 list-disc ps-5">
            {review.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {review.rows.length > 0 ? (
        <div className="overflow-x-auto">
          <table className="w-full text-start text-sm">
            <StaffTableHead caption="Roster dry run" last="Change" />
            <tbody>
              {review.rows.map((row) => (
                <tr key={row.key} className="border-t border-line">
                  <td className={`${cell} font-medium text-ink`}>{row.name}</td>
                  <td className={`${cell} text-ink-muted`}>{row.email}</td>
                  <td className={cell}>{row.role}</td>
                  <td className={cell}>{row.action}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}

/** The upload and its review, driven by the rosterUpload machine. */
function RosterUpload({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [logic] = useState(() =>
    provideRosterUpload({
      check: (file) => organizationApi.checkRoster(organizationId, file.body),
      apply: (file) => organizationApi.applyRoster(organizationId, file.body),
      refresh: () => void queryClient.invalidateQueries({ queryKey: rosterQueryKeys.organizationAll(organizationId) }),
    }),
  );
  const actor = useActorRef(logic);
  const roster = connectRosterUpload(
    useSelector(actor, (s) => s),
    actor.send,
  );
  const choose = (files: FileList | null) => {
    const file = files?.[0];
    if (file) roster.choose({ name: file.name, body: file });
  };
  return (
    <div className="flex flex-col gap-4">
      <FileTrigger acceptedFileTypes={ACCEPTED} onSelect={choose}>
        <Button isDisabled={!roster.canChoose} className={`${buttonStyles.secondary} w-fit`}>
          Upload OneRoster file
        </Button>
      </FileTrigger>
      {roster.isChecking ? <Spinner label={`Checking ${roster.fileName ?? 'the file'}…`} /> : null}
      {roster.review ? (
        <>
          <RosterReviewPanel fileName={roster.fileName} review={roster.review} />
          <div className="flex flex-wrap gap-2">
            <Button onPress={roster.apply} isDisabled={!roster.canApply} isPending={roster.isApplying} className={buttonStyles.primary}>
              Apply roster
            </Button>
            <Button onPress={roster.cancel} isDisabled={!roster.canCancel} className={buttonStyles.ghost}>
              Cancel
            </Button>
          </div>
        </>
      ) : null}
      {roster.appliedMessage ? (
        <div className="flex flex-wrap items-center gap-2">
          <FormMessage kind="success">{roster.appliedMessage}</FormMessage>
          <Button onPress={roster.cancel} className={buttonStyles.ghost}>
            Dismiss
          </Button>
        </div>
      ) : null}
      {roster.isFailed ? (
        <div className="flex flex-col gap-2">
          <FormMessage kind="error">{messageOf(roster.error)}</FormMessage>
          <div className="flex flex-wrap gap-2">
            {roster.canRetry ? (
              <Button onPress={roster.retry} className={buttonStyles.secondary}>
                Try again
              </Button>
            ) : null}
            <Button onPress={roster.cancel} className={buttonStyles.ghost}>
              Dismiss
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

/** The staff imported from roster files, with their status. */
export function RosterStaffTable({ staff }: { staff: RosterStaffMember[] }) {
  if (staff.length === 0) return <p className="text-ink-muted">No staff imported yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-start text-sm">
        <StaffTableHead caption="Roster staff" last="Status" />
        <tbody>
          {staff.map((member) => (
            <tr key={member.sourcedId} className="border-t border-line">
              <td className={`${cell} font-medium text-ink`}>{`${member.givenName} ${member.familyName}`.trim()}</td>
              <td className={`${cell} text-ink-muted`}>{member.email}</td>
              <td className={cell}>{ROSTER_ROLE_LABELS[member.role] ?? member.role}</td>
              <td className={cell}>{ROSTER_STATUS_LABELS[member.status] ?? member.status}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RosterStaff({ organizationId }: { organizationId: string }) {
  const query = useQuery(rosterStaffQuery(organizationApi, organizationId));
  if (query.isPending) return <Spinner label="Loading roster staff…" />;
  if (query.isError) return <FormMessage kind="error">{messageOf(query.error)}</FormMessage>;
  return <RosterStaffTable staff={query.data} />;
}

export function RosterSection({ organizationId }: { organizationId: string }) {
  return (
    <div className="flex flex-col gap-3">
      <div>
        <h3 className="font-medium">Staff roster</h3>
        <p className="mt-1 text-sm text-ink-muted">
          Upload a OneRoster 1.2 CSV file (.zip, up to {Math.round(ROSTER_MAX_UPLOAD_BYTES / (1024 * 1024))} MB) from your
          student information system. Its teachers and administrators
          are checked first and shown below; nothing changes until you apply it. Students are not imported.
        </p>
      </div>
      <RosterUpload organizationId={organizationId} />
      <div>
        <h4 className="font-medium">Imported staff</h4>
        <div className="mt-2">
          <RosterStaff organizationId={organizationId} />
        </div>
      </div>
    </div>
  );
}
