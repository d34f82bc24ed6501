/**
 * Reading OneRoster CSV bundles (server/roster/archive.ts, server/roster/oneroster.ts) without a database: the sample
 * roster, 1.1 files, every kind of bad input with its file and line, and the zip limits (bombs, forged sizes, unsafe
 * paths). The import against a real server is tests/server/roster.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { strToU8, zipSync } from 'fflate';
import { RosterArchiveError, readRosterFolder, readRosterPath, readRosterZip, type RosterFileName, type RosterFiles } from '../../server/roster/archive';
import { MAX_ROSTER_PROBLEMS, ONEROSTER_11_COLUMNS, ONEROSTER_12_COLUMNS, formatProblem, parseOneRoster } from '../../server/roster/oneroster';
import { formatRosterReport, rosterRemoteArgv } from '../../server/roster/adminCommands';
import { SAMPLE_DIR, bundleOf, csv, sampleBundle, zipOf, type Bundle, type Person } from './fixtures';

const filesOf = (bundle: Bundle): RosterFiles =>
  new Map(Object.entries(bundle).map(([name, body]) => [name as RosterFileName, typeof body === 'string' ? strToU8(body) : body]));
const parseBundle = (bundle: Bundle) => parseOneRoster(filesOf(bundle));
const problemLines = (bundle: Bundle) => parseBundle(bundle).problems.map(formatProblem);

const ana: Person = { sourcedId: 't1', givenName: 'Ana', familyName: 'Wren', email: 'Ana.Wren@School.org', role: 'teacher' };
const eli: Person = { sourcedId: 'a1', givenName: 'Eli', familyName: 'Morgan', email: 'eli@school.org', role: 'siteAdministrator' };

describe('the sample roster (docs/examples/oneroster)', () => {
  it('gives five enabled staff and a disabled teacher, and skips the students', () => {
    const parsed = parseOneRoster(readRosterFolder(SAMPLE_DIR));
    expect(parsed.problems).toEqual([]);
    expect(parsed.version).toBe('1.2');
    expect(parsed.counts).toEqual({ skippedRoles: 2, enrollments: 5, classes: 2 });
    expect(parsed.staff.map((s) => [s.sourcedId, s.role, s.enabled])).toEqual([
      ['t-1001', 'teacher', true],
      ['t-1002', 'teacher', true],
      ['t-1003', 'teacher', true],
      ['t-1004', 'teacher', true],
      ['a-2001', 'admin', true],
      ['t-1005', 'teacher', false],
    ]);
    expect(parsed.staff[0]).toEqual({ sourcedId: 't-1001', email: 'ana.wren@hillside.example.org', givenName: 'Ana', familyName: 'Wren', role: 'teacher', enabled: true });
    expect(JSON.stringify(parsed)).not.toMatch(/s-300\d|Gus|Hana/);
  });

  it('reads the same from a zip, at its root or in one folder, and from a path', () => {
    const fromFolder = parseOneRoster(readRosterFolder(SAMPLE_DIR));
    expect(parseOneRoster(readRosterZip(zipOf(sampleBundle())))).toEqual(fromFolder);
    expect(parseOneRoster(readRosterZip(zipOf(sampleBundle(), 'export-2026/')))).toEqual(fromFolder);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-'));
    fs.writeFileSync(path.join(dir, 'roster.zip'), zipOf(sampleBundle()));
    expect(parseOneRoster(readRosterPath(path.join(dir, 'roster.zip')))).toEqual(fromFolder);
    expect(parseOneRoster(readRosterPath(SAMPLE_DIR))).toEqual(fromFolder);
    expect(() => readRosterPath(path.join(dir, 'nothing-here'))).toThrow(/There is no file or folder at/);
  });
});

describe('OneRoster columns and roles', () => {
  it('lowercases emails, lets admin win over teacher, and counts other roles', () => {
    const bundle = bundleOf([ana, eli, { sourcedId: 'g1', givenName: 'Gil', familyName: 'Guard', email: 'g@home.org', role: 'guardian' }]);
    bundle['roles.csv'] += 'r-extra,active,,t1,secondary,principal,,,org-1,\nr-aide,active,,t1,secondary,aide,,,org-1,\n';
    const parsed = parseBundle(bundle);
    expect(parsed.problems).toEqual([]);
    expect(parsed.staff).toEqual([
      { sourcedId: 't1', email: 'ana.wren@school.org', givenName: 'Ana', familyName: 'Wren', role: 'admin', enabled: true },
      { sourcedId: 'a1', email: 'eli@school.org', givenName: 'Eli', familyName: 'Morgan', role: 'admin', enabled: true },
    ]);
    expect(parsed.counts.skippedRoles).toBe(2);
  });

  it('reads OneRoster 1.1: the role in users.csv, administrator as an admin, no roles.csv', () => {
    const users = csv(ONEROSTER_11_COLUMNS['users.csv'], [
      { sourcedId: 't1', enabledUser: 'true', role: 'teacher', givenName: 'Ana', familyName: 'Wren', email: 'ana@school.org' },
      { sourcedId: 'a1', enabledUser: 'TRUE', role: 'administrator', givenName: 'Eli', familyName: 'Morgan', email: 'eli@school.org' },
      { sourcedId: 's1', enabledUser: 'true', role: 'student', givenName: 'Gus', familyName: 'Park' },
    ]);
    const parsed = parseBundle({ 'manifest.csv': 'propertyName,value\noneroster.version,1.1\n', 'orgs.csv': bundleOf([])['orgs.csv']!, 'users.csv': users });
    expect(parsed.problems).toEqual([]);
    expect(parsed.version).toBe('1.1');
    expect(parsed.staff.map((s) => [s.sourcedId, s.role])).toEqual([['t1', 'teacher'], ['a1', 'admin']]);
    expect(parsed.counts.skippedRoles).toBe(1);
  });

  it('allows metadata.* extension columns after the binding\'s own, and status tobedeleted disables', () => {
    const bundle = bundleOf([ana]);
    bundle['users.csv'] = (bundle['users.csv'] as string).replace('pronouns\n', 'pronouns,metadata.district.badge\n').replace(/org-1,\n/, 'org-1,,B-17\n').replace(',active,', ',tobedeleted,');
    const parsed = parseBundle(bundle);
    expect(parsed.problems).toEqual([]);
    expect(parsed.staff[0]!.enabled).toBe(false);
  });

  it('names a wrong, missing or unknown column on line 1', () => {
    const swapped = bundleOf([ana]);
    swapped['users.csv'] = (swapped['users.csv'] as string).replace('givenName,familyName', 'familyName,givenName');
    expect(problemLines(swapped)).toEqual([
      "users.csv line 1: The columns must be OneRoster 1.2's, in this order: " + ONEROSTER_12_COLUMNS['users.csv'].join(',') + ". Column 7 is 'familyName' where 'givenName' belongs.",
      "roles.csv line 2: userSourcedId 't1' is not a sourcedId in users.csv.",
    ]);
    const short = bundleOf([]);
    short['roles.csv'] = 'sourcedId,status,dateLastModified,userSourcedId,roleType,role\n';
    expect(problemLines(short)).toEqual([expect.stringMatching(/^roles\.csv line 1: .*'beginDate' and the columns after it are missing\.$/)]);
    const extra = bundleOf([]);
    extra['orgs.csv'] = 'sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId,website\n';
    expect(problemLines(extra)).toEqual(["orgs.csv line 1: 'website' is not a OneRoster 1.2 column of this file (extension columns start with 'metadata.')."]);
    // A 1.1 users.csv under a 1.2 manifest.
    const mixed = bundleOf([]);
    mixed['users.csv'] = csv(ONEROSTER_11_COLUMNS['users.csv'], []);
    expect(problemLines(mixed)[0]).toMatch(/^users\.csv line 1: .*Column 5 is 'orgSourcedIds' where 'username' belongs\.$/);
  });

  it('names a missing file, a manifest without a version, and one of another version', () => {
    const { 'roles.csv': _roles, ...noRoles } = bundleOf([ana]);
    expect(problemLines(noRoles)).toEqual(['roles.csv: The file is missing: a staff import needs manifest.csv, orgs.csv, users.csv, roles.csv.']);
    const { 'manifest.csv': _manifest, ...noManifest } = bundleOf([ana]);
    expect(problemLines(noManifest)[0]).toMatch(/^manifest\.csv: The file is missing/);
    expect(problemLines({ ...bundleOf([ana]), 'manifest.csv': 'propertyName,value\nmanifest.version,1.0\n' })).toEqual([
      "manifest.csv: There is no 'oneroster.version' row: it says which OneRoster version the files follow (1.2 or 1.1).",
    ]);
    expect(problemLines({ ...bundleOf([ana]), 'manifest.csv': 'propertyName,value\noneroster.version,1.0\n' })).toEqual([
      'manifest.csv line 2: oneroster.version is 1.0; this import reads OneRoster 1.2 (and 1.1) files.',
    ]);
    const listed = bundleOf([ana]);
    listed['manifest.csv'] = (listed['manifest.csv'] as string).replace('file.classes,absent', 'file.classes,bulk');
    expect(problemLines(listed)).toEqual(['manifest.csv line 8: file.classes is bulk, but the bundle has no classes.csv.']);
  });

  it('names the first line that is not UTF-8', () => {
    const bundle = bundleOf([ana, eli]);
    const text = strToU8(bundle['users.csv'] as string);
    const at = (bundle['users.csv'] as string).indexOf('Morgan');
    text[at + 1] = 0xff;
    expect(problemLines({ ...bundle, 'users.csv': text })).toEqual([
      'users.csv line 3: This line is not UTF-8 text: save the file as CSV UTF-8 and export it again.',
      "roles.csv line 2: userSourcedId 't1' is not a sourcedId in users.csv.",
      "roles.csv line 3: userSourcedId 'a1' is not a sourcedId in users.csv.",
    ]);
  });

  it('names each bad row with its file and line, counting quoted line breaks and blank lines', () => {
    const people: Person[] = [
      ana, // line 2
      { ...eli, givenName: 'Eli\nJames' }, // lines 3-4
      { sourcedId: 't1', givenName: 'Dup', familyName: 'Id', email: 'dup@school.org', role: 'teacher' }, // 5
      { sourcedId: 't3', givenName: 'Same', familyName: 'Mail', email: 'ANA.WREN@school.org', role: 'teacher' }, // 6
      { sourcedId: 't4', givenName: 'Bad', familyName: 'Mail', email: 'not-an-address', role: 'teacher' }, // 7
      { sourcedId: 't5', givenName: 'Yes', familyName: 'Man', email: 'yes@school.org', role: 'teacher', enabledUser: 'yes' }, // 8
      { sourcedId: 't6', givenName: '', familyName: 'Noname', email: '', role: 'teacher' }, // 9
      { sourcedId: 's1', givenName: 'Gus', familyName: 'Park', email: 'not-checked', role: 'student', enabledUser: 'maybe' }, // 10
    ];
    const bundle = bundleOf(people);
    bundle['roles.csv'] += '\nr-ghost,active,,ghost,primary,teacher,,,org-1,\n';
    bundle['users.csv'] += 't7,active,,true,t7\n';
    expect(problemLines(bundle)).toEqual([
      "users.csv line 5: sourcedId 't1' is on line 2 already.",
      "users.csv line 6: email 'ana.wren@school.org' is also on line 2 (sourcedId 't1'): each staff member needs an address of their own.",
      "users.csv line 7: email 'not-an-address' is not a valid address (sourcedId 't4').",
      "users.csv line 8: enabledUser must be true or false, not 'yes' (sourcedId 't5').",
      "users.csv line 9: givenName is empty (sourcedId 't6').",
      "users.csv line 9: email is empty: staff sign in with their address (sourcedId 't6').",
      "users.csv line 11: This row has 5 values; the header has 23 columns.",
      "roles.csv line 11: userSourcedId 'ghost' is not a sourcedId in users.csv.",
    ]);
    expect(parseBundle(bundle).staff.map((s) => s.sourcedId)).toEqual(['t1', 'a1']);
  });

  it('refuses U+0000 and control characters in any cell, by file and line', () => {
    const bundle = bundleOf([
      ana, // line 2
      { ...eli, givenName: 'El\u0000i' }, // line 3
      { sourcedId: 't8', givenName: 'Bell\u0007a', familyName: 'Ray', email: 'bella@school.org', role: 'teacher' }, // line 4
    ]);
    expect(problemLines(bundle)).toEqual([
      "users.csv line 3: The value of 'givenName' must not contain U+0000 or unpaired surrogates.",
      "users.csv line 4: The value of 'givenName' must not contain control characters.",
    ]);
  });

  it('reports at most MAX_ROSTER_PROBLEMS problems, then how many more', () => {
    const people = Array.from({ length: MAX_ROSTER_PROBLEMS + 20 }, (_, i) => ({ sourcedId: `t${i}`, givenName: 'A', familyName: 'B', email: `bad${i}`, role: 'teacher' }));
    const { problems } = parseBundle(bundleOf(people));
    expect(problems).toHaveLength(MAX_ROSTER_PROBLEMS + 1);
    expect(problems.at(-1)!.message).toBe('… and 20 more problems.');
  });
});

describe('zip limits', () => {
  it('refuses what is not a zip, and a zip over the upload limit', () => {
    expect(() => readRosterZip(strToU8('sourcedId,status\n'))).toThrow(/This is not a readable zip file/);
    const zip = zipOf(sampleBundle());
    expect(() => readRosterZip(zip, { maxCompressedBytes: 100, maxUncompressedBytes: 1e6 })).toThrow(/^The zip is \d+ KB; the most a roster upload may be is 100 bytes\.$/);
  });

  it('refuses a 50 MB zip bomb by its declared size', () => {
    const bomb = zipSync({ 'manifest.csv': strToU8(bundleOf([])['manifest.csv'] as string), 'users.csv': new Uint8Array(50 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(() => readRosterZip(bomb)).toThrow(RosterArchiveError);
    expect(() => readRosterZip(bomb)).toThrow(/The roster files would unpack to 50 MB; the most is 20 MB\. This is a zip bomb/);
  });

  it('stops inflating a bomb whose headers lie about its size', () => {
    const bomb = zipSync({ 'users.csv': new Uint8Array(50 * 1024 * 1024) }, { level: 9 });
    // Forge the declared size (local header at 0, central directory entry after the data) to 100 bytes.
    const view = new DataView(bomb.buffer, bomb.byteOffset, bomb.byteLength);
    view.setUint32(22, 100, true);
    const central = bomb.length - 22 - (46 + 'users.csv'.length);
    expect(view.getUint32(central, true)).toBe(0x02014b50);
    view.setUint32(central + 24, 100, true);
    const started = process.memoryUsage().arrayBuffers;
    expect(() => readRosterZip(bomb)).toThrow(/users\.csv unpacks to more than the 100 bytes its zip header declares: the zip is damaged or forged/);
    expect(process.memoryUsage().arrayBuffers - started).toBeLessThan(20 * 1024 * 1024);
    // And with honest headers but a smaller cap, the running count stops it.
    const honest = zipSync({ 'users.csv': new Uint8Array(3 * 1024 * 1024) });
    expect(() => readRosterZip(honest, { maxCompressedBytes: 1e7, maxUncompressedBytes: 1024 * 1024 })).toThrow(/would unpack to 3 MB; the most is 1 MB/);
  });

  it('refuses unsafe paths: .., absolute, drive letters and backslashes', () => {
    for (const [name, why] of [
      ['../users.csv', "it climbs out of the zip with '..'"],
      ['roster/../../etc/users.csv', "it climbs out of the zip with '..'"],
      ['/etc/passwd', 'it is an absolute path'],
      ['C:/Windows/users.csv', 'it is an absolute path'],
      ['roster\\users.csv', 'it contains a backslash'],
    ]) {
      const zip = zipOf({ ...sampleBundle(), [name!]: 'x' });
      expect(() => readRosterZip(zip), name).toThrow(`The zip holds an unsafe path '${name}' (${why}), so it is refused.`);
    }
  });

  it('refuses a zip with two rosters in it', () => {
    const zip = zipSync({ 'a/manifest.csv': strToU8('x'), 'b/manifest.csv': strToU8('y') });
    expect(() => readRosterZip(zip)).toThrow('The zip holds 2 rosters (a manifest.csv in a/, b/): zip one roster at a time.');
  });
});

describe('random input', () => {
  /** Bytes with the zip signatures in them, so that the reader gets past its first checks. */
  const zipish = fc.oneof(
    fc.uint8Array({ maxLength: 2000 }),
    fc.tuple(fc.uint8Array({ maxLength: 300 }), fc.nat({ max: 3 })).map(([bytes, at]) => {
      const zip = zipOf(sampleBundle());
      const out = new Uint8Array(zip);
      out.set(bytes.subarray(0, Math.max(0, out.length - at * 100)), Math.min(at * 100, out.length - 1));
      return out;
    }),
  );
  const csvText = fc.array(fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('"', '\n', '\r', 't1', 'teacher', 'true', 'a@b.org', 'principal')), { maxLength: 25 }), { maxLength: 8 })
    .map((rows) => rows.map((r) => r.join(',')).join('\n'));

  it('never throws anything but a RosterArchiveError, whatever the zip holds', () => {
    fc.assert(
      fc.property(zipish, (bytes) => {
        try {
          parseOneRoster(readRosterZip(bytes));
        } catch (error) {
          expect(error).toBeInstanceOf(RosterArchiveError);
        }
      }),
      { seed: 20260828, numRuns: 300 },
    );
  });

  it('reports problems, never throws, whatever the CSVs hold', () => {
    fc.assert(
      fc.property(fc.constantFrom('users.csv', 'roles.csv', 'manifest.csv', 'orgs.csv', 'enrollments.csv'), csvText, fc.boolean(), (file, text, keepHeader) => {
        const bundle = bundleOf([ana, eli]);
        const header = (bundle[file] as string | undefined)?.split('\n')[0] ?? '';
        const parsed = parseBundle({ ...bundle, [file]: keepHeader ? `${header}\n${text}` : text });
        for (const p of parsed.problems) expect(p.line).toBeGreaterThanOrEqual(0);
      }),
      { seed: 20260828, numRuns: 300 },
    );
  });
});

describe('the CLI side', () => {
  it('sends the bundle to a running server as an absolute path, wherever the options are', () => {
    expect(rosterRemoteArgv(['roster', 'import', 'hillside', 'exports/roster.zip', '--dry-run'], { cwd: '/home/ops' })).toEqual([
      'roster', 'import', 'hillside', '/home/ops/exports/roster.zip', '--dry-run',
    ]);
    expect(rosterRemoteArgv(['roster', 'import', '--dry-run', 'hillside', '../r'], { cwd: '/home/ops' })).toEqual(['roster', 'import', '--dry-run', 'hillside', '/home/r']);
  });

  it('prints the changes as a table, the counts, then the problems', () => {
    const { out, err } = formatRosterReport(
      {
        dryRun: true,
        applied: false,
        counts: { add: 1, update: 0, unchanged: 3, disable: 1, skippedRoles: 2, enrollments: 5, classes: 2 },
        staff: [
          { sourcedId: 't1', email: 'ana@school.org', givenName: 'Ana', familyName: 'Wren', role: 'teacher', enabled: true, action: 'add' },
          { sourcedId: 't2', email: 'ben@school.org', givenName: 'Ben', familyName: 'Okafor', role: 'teacher', enabled: false, action: 'disable' },
          { sourcedId: 't3', email: 'cy@school.org', givenName: 'Cy', familyName: 'Li', role: 'teacher', enabled: true, action: 'unchanged' },
        ],
        problems: [{ file: 'users.csv', line: 4, message: 'givenName is empty.' }],
      },
      'hillside',
    );
    expect(out).toEqual([
      'Dry run for hillside (nothing was changed):',
      '  ACTION   SOURCEDID  ROLE     ENABLED  NAME         EMAIL',
      '  add      t1         teacher  yes      Wren, Ana    ana@school.org',
      '  disable  t2         teacher  no       Okafor, Ben  ben@school.org',
      '1 to add, 0 to update, 3 unchanged, 1 to disable; 2 other role(s) skipped (students and others are not imported); 5 enrollment(s) and 2 class(es) counted.',
    ]);
    expect(err).toEqual(['1 problem(s); nothing was changed:', '  users.csv line 4: givenName is empty.']);
  });
});
