// @vitest-environment jsdom
/**
 * 'Staff roster' on Manage Organization in jsdom: a picked zip is checked first and its dry run shows
 * as a sentence and a table; problems are listed by file and line and keep 'Apply roster' disabled; applying sends
 * the same file and lists the staff again; a failed check shows the server's message. The API is the page's
 * organization client with its roster calls replaced (vi.spyOn).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/apiError';
import type { RosterReport, RosterStaff } from '../../src/domain/rosterSchemas';
import { organizationApi } from '../../src/ui/screens/auth/organization';
import { RosterSection } from '../../src/ui/screens/auth/RosterSection';

const ORG = 'org-1';

const report = (patch: Partial<RosterReport> = {}): RosterReport => ({
  dryRun: true,
  applied: false,
  counts: { add: 3, update: 1, unchanged: 2, disable: 1, skippedRoles: 4, enrollments: 12, classes: 3 },
  staff: [
    { sourcedId: 't1', email: 'ada@hillside.org', givenName: 'Ada', familyName: 'Lovelace', role: 'teacher', enabled: true, action: 'add' },
    { sourcedId: 't2', email: 'alan@hillside.org', givenName: 'Alan', familyName: 'Turing', role: 'teacher', enabled: true, action: 'update' },
    { sourcedId: 'a1', email: 'grace@hillside.org', givenName: 'Grace', familyName: 'Hopper', role: 'admin', enabled: false, action: 'disable' },
  ],
  problems: [],
  ...patch,
});

const staffMember = (patch: Partial<RosterStaff>): RosterStaff => ({
  sourcedId: 't1',
  email: 'ada@hillside.org',
  givenName: 'Ada',
  familyName: 'Lovelace',
  role: 'teacher',
  enabled: true,
  status: 'pending',
  ...patch,
});

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <RosterSection organizationId={ORG} />
    </QueryClientProvider>,
  );
}

/** Pick a file as the FileTrigger's hidden input would. */
function pick(file: File) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  expect(input?.accept).toBe('.zip,application/zip,application/x-zip-compressed');
  act(() => void fireEvent.change(input!, { target: { files: [file] } }));
}

/** Each row's header and data cells, as text. */
const cellsOf = (table: HTMLElement) => within(table).getAllByRole('row').map((row) => Array.from(row.querySelectorAll('th, td'), (c) => c.textContent));

const zip = () => new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'hillside.zip', { type: 'application/zip' });

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the Staff roster section', () => {
  it('shows the dry run as a sentence and a table, applies the same file, and lists the staff again', async () => {
    const listed = vi.spyOn(organizationApi, 'listRosterStaff').mockResolvedValueOnce([]).mockResolvedValue([
      staffMember({}),
      staffMember({ sourcedId: 't2', email: 'alan@hillside.org', givenName: 'Alan', familyName: 'Turing', status: 'active' }),
      staffMember({ sourcedId: 'a1', email: 'grace@hillside.org', givenName: 'Grace', familyName: 'Hopper', role: 'admin', enabled: false, status: 'disabled' }),
    ]);
    const check = vi.spyOn(organizationApi, 'checkRoster').mockResolvedValue(report());
    const apply = vi.spyOn(organizationApi, 'applyRoster').mockResolvedValue(report({ dryRun: false, applied: true }));
    renderSection();
    expect(screen.getByRole('heading', { name: 'Staff roster' })).toBeTruthy();
    expect(await screen.findByText('No staff imported yet.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload OneRoster file' })).toBeTruthy();

    const file = zip();
    pick(file);
    expect(check).toHaveBeenCalledWith(ORG, file);
    expect(await screen.findByText('3 to add, 1 to update, 2 unchanged, 1 to disable; 4 roles skipped.')).toBeTruthy();
    expect(screen.getByText('12 enrollments and 3 classes read; they are counted, not imported.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Dry run of hillside.zip' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Roster dry run' });
    const rows = cellsOf(table);
    expect(rows).toEqual([
      ['Name', 'Email', 'Role', 'Change'],
      ['Ada Lovelace', 'ada@hillside.org', 'Teacher', 'Will be added'],
      ['Alan Turing', 'alan@hillside.org', 'Teacher', 'Will be updated'],
      ['Grace Hopper', 'grace@hillside.org', 'Organization admin', 'Will be disabled'],
    ]);
    expect(screen.queryByRole('list', { name: 'Problems in the file' })).toBeNull();

    const applyButton = screen.getByRole('button', { name: 'Apply roster' });
    expect((applyButton as HTMLButtonElement).disabled).toBe(false);
    act(() => void fireEvent.click(applyButton));
    expect(apply).toHaveBeenCalledWith(ORG, file);
    expect((await screen.findByRole('status')).textContent).toBe('Roster applied: 3 added, 1 updated, 2 unchanged, 1 disabled.');
    expect(screen.queryByRole('table', { name: 'Roster dry run' })).toBeNull();

    const staff = await screen.findByRole('table', { name: 'Roster staff' });
    expect(listed).toHaveBeenCalledTimes(2);
    expect(cellsOf(staff)).toEqual([
      ['Name', 'Email', 'Role', 'Status'],
      ['Ada Lovelace', 'ada@hillside.org', 'Teacher', 'Awaiting first sign-in'],
      ['Alan Turing', 'alan@hillside.org', 'Teacher', 'Signed in'],
      ['Grace Hopper', 'grace@hillside.org', 'Organization admin', 'Disabled'],
    ]);
  });

  it('lists the problems by file and line, says nothing will change, and keeps Apply disabled; Cancel drops the dry run', async () => {
    vi.spyOn(organizationApi, 'listRosterStaff').mockResolvedValue([]);
    vi.spyOn(organizationApi, 'checkRoster').mockResolvedValue(
      report({
        problems: [
          { file: 'users.csv', line: 3, message: "email 'ada.hillside.org' is not an email address" },
          { file: 'manifest.csv', line: 0, message: 'manifest.version is missing' },
        ],
      }),
    );
    const apply = vi.spyOn(organizationApi, 'applyRoster');
    renderSection();
    pick(zip());
    const problems = await screen.findByRole('list', { name: 'Problems in the file' });
    expect(within(problems).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      "users.csv, line 3: email 'ada.hillside.org' is not an email address",
      'manifest.csv: manifest.version is missing',
    ]);
    expect(screen.getByRole('alert').textContent).toBe('The file has 2 problems. Nothing will change until the file is fixed and uploaded again.');
    const applyButton = screen.getByRole('button', { name: 'Apply roster' }) as HTMLButtonElement;
    expect(applyButton.disabled).toBe(true);
    act(() => void fireEvent.click(applyButton));
    expect(apply).not.toHaveBeenCalled();

    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Cancel' })));
    expect(screen.queryByRole('table', { name: 'Roster dry run' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Apply roster' })).toBeNull();
  });

  it("shows the server's message when the file cannot be read, and 'Try again' checks it again", async () => {
    vi.spyOn(organizationApi, 'listRosterStaff').mockResolvedValue([]);
    const check = vi
      .spyOn(organizationApi, 'checkRoster')
      .mockRejectedValueOnce(new ApiError(400, [{ code: 'roster_invalid', message: 'The file is not a zip archive.' }]))
      .mockResolvedValue(report());
    renderSection();
    pick(zip());
    expect((await screen.findByRole('alert')).textContent).toBe('The file is not a zip archive.');
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    await waitFor(() => expect(screen.getByRole('table', { name: 'Roster dry run' })).toBeTruthy());
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('shows why the staff list did not load', async () => {
    vi.spyOn(organizationApi, 'listRosterStaff').mockRejectedValue(new ApiError(403, [{ code: 'forbidden', message: 'Only organization admins can do this' }]));
    renderSection();
    expect((await screen.findByRole('alert')).textContent).toBe('Only organization admins can do this');
  });
});
