/**
 * OneRoster bundles for the roster tests: the sample under docs/examples/oneroster, zips made from file maps, and
 * generated rosters of any size.
 */
import fs from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { ONEROSTER_12_COLUMNS } from '../../server/roster/oneroster';

export const SAMPLE_DIR = path.resolve(import.meta.dirname, '../../docs/examples/oneroster');

/** A bundle as file name → text (or bytes). */
export type Bundle = Record<string, string | Uint8Array>;

/** The sample roster's files. */
export function sampleBundle(): Bundle {
  return Object.fromEntries(fs.readdirSync(SAMPLE_DIR).map((name) => [name, fs.readFileSync(path.join(SAMPLE_DIR, name), 'utf8')]));
}

/** A zip of the bundle (deflated), with every name under `folder` when given; on an ArrayBuffer, as fetch and Blob want. */
export function zipOf(bundle: Bundle, folder = ''): Uint8Array<ArrayBuffer> {
  return new Uint8Array(zipSync(Object.fromEntries(Object.entries(bundle).map(([name, body]) => [folder + name, typeof body === 'string' ? strToU8(body) : body]))));
}

/** A CSV file: the header, then rows of values by column name (missing values are empty). */
export function csv(columns: readonly string[], rows: Record<string, string>[]): string {
  const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return [columns.join(','), ...rows.map((row) => columns.map((c) => quote(row[c] ?? '')).join(','))].join('\n') + '\n';
}

export const MANIFEST_12 = csv(ONEROSTER_12_COLUMNS['manifest.csv'], [
  { propertyName: 'manifest.version', value: '1.0' },
  { propertyName: 'oneroster.version', value: '1.2' },
  { propertyName: 'file.orgs', value: 'bulk' },
  { propertyName: 'file.users', value: 'bulk' },
  { propertyName: 'file.roles', value: 'bulk' },
  { propertyName: 'file.enrollments', value: 'absent' },
  { propertyName: 'file.classes', value: 'absent' },
]);

export const ORGS_12 = csv(ONEROSTER_12_COLUMNS['orgs.csv'], [{ sourcedId: 'org-1', status: 'active', name: 'Generated School', type: 'school' }]);

export interface Person {
  sourcedId: string;
  givenName: string;
  familyName: string;
  email: string;
  role: string;
  enabledUser?: string;
}

/** A OneRoster 1.2 bundle of these people (one role row each). */
export function bundleOf(people: Person[]): Bundle {
  return {
    'manifest.csv': MANIFEST_12,
    'orgs.csv': ORGS_12,
    'users.csv': csv(
      ONEROSTER_12_COLUMNS['users.csv'],
      people.map((p) => ({ sourcedId: p.sourcedId, status: 'active', enabledUser: p.enabledUser ?? 'true', givenName: p.givenName, familyName: p.familyName, email: p.email, primaryOrgSourcedId: 'org-1' })),
    ),
    'roles.csv': csv(
      ONEROSTER_12_COLUMNS['roles.csv'],
      people.map((p) => ({ sourcedId: `role-${p.sourcedId}`, status: 'active', userSourcedId: p.sourcedId, roleType: 'primary', role: p.role, orgSourcedId: 'org-1' })),
    ),
  };
}

/** `count` staff (every tenth a principal) and as many students, at `domain`. */
export function generatedStaff(count: number, domain = 'generated.example.org'): Person[] {
  const people: Person[] = [];
  for (let i = 1; i <= count; i++) {
    const n = String(i).padStart(4, '0');
    people.push({ sourcedId: `staff-${n}`, givenName: `Given${n}`, familyName: `Family${n}`, email: `staff.${n}@${domain}`, role: i % 10 === 0 ? 'principal' : 'teacher' });
    people.push({ sourcedId: `student-${n}`, givenName: `Pupil${n}`, familyName: `Family${n}`, email: '', role: 'student' });
  }
  return people;
}
