/** `npm run admin -- qr print`: the URL a code encodes, which entry is printed, the files written, the errors. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, runAdmin, usageText } from '../../server/admin/commands';
import { AdminError, type AdminIo } from '../../server/cli/command';
import { DEFAULT_QR_BASE_URL, printQr, qrSvg, qrTargetUrl, selectQrEntry, type QrEntry } from '../../server/content/qr';

let tmp: string;
let contentDir: string;

/** A one-title library on disk: two QR codes, the second into passage 1 of the Spanish edition. */
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-qr-'));
  contentDir = path.join(tmp, 'content');
  const dir = path.join(contentDir, 'owl-night');
  fs.mkdirSync(path.join(dir, 'images'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'images/cover.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>');
  fs.writeFileSync(
    path.join(dir, 'publication.yaml'),
    [
      'slug: owl-night',
      'version: 1',
      'title: Owl <Night> & Day',
      'author: Test Author',
      'createdAt: 2026-01-02',
      'cover: images/cover.svg',
      'defaultReader:',
      '  left: en:ORIGINAL',
      'qr:',
      '  - code: owl-night-2',
      '    edition: en:ORIGINAL',
      '    position: 2',
      '  - code: owl-night-1',
      '    edition: en:ORIGINAL',
      '    position: 1',
      '  - code: owl-night-es',
      '    edition: es:ORIGINAL',
      '    position: 1',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'en.ORIGINAL.md'), 'Owls wake at night.\n\n---\n\nThey hunt for mice.\n');
  fs.writeFileSync(path.join(dir, 'es.ORIGINAL.md'), 'Los búhos despiertan de noche.\n\n---\n\nCazan ratones.\n');
  // A folder that does not parse: its own problems are reported, not "unknown title".
  fs.mkdirSync(path.join(contentDir, 'half-written'));
  fs.writeFileSync(path.join(contentDir, 'half-written', 'en.ORIGINAL.md'), 'Text.\n');
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the URL a code encodes', () => {
  it('is <base-url>/qr/<code>, with or without a trailing slash or a path prefix', () => {
    expect(qrTargetUrl('http://127.0.0.1:3000', 'bees-1')).toBe('http://127.0.0.1:3000/qr/bees-1');
    expect(qrTargetUrl('http://127.0.0.1:3000/', 'bees-1')).toBe('http://127.0.0.1:3000/qr/bees-1');
    expect(qrTargetUrl('https://school.example.org/lectern//', 'fox-1')).toBe('https://school.example.org/lectern/qr/fox-1');
    expect(qrTargetUrl(DEFAULT_QR_BASE_URL, 'pip-1')).toBe('http://127.0.0.1:3000/qr/pip-1');
  });

  it('refuses a base that is not an http(s) URL or carries a query', () => {
    expect(() => qrTargetUrl('127.0.0.1:3000', 'x-1')).toThrow(AdminError);
    expect(() => qrTargetUrl('not a url', 'x-1')).toThrow(/is not a URL/);
    expect(() => qrTargetUrl('ftp://example.org', 'x-1')).toThrow(/must be http or https/);
    expect(() => qrTargetUrl('https://example.org/?a=1', 'x-1')).toThrow(/query or fragment/);
  });
});

describe('which code is printed', () => {
  const entries: QrEntry[] = [
    { code: 'a-2', language: 'en', level: 'ORIGINAL', position: 2 },
    { code: 'a-1', language: 'en', level: 'ORIGINAL', position: 1 },
    { code: 'a-gold', language: 'en', level: 'GOLD', position: 3 },
  ];

  it('the first into passage 1, else the first; --edition picks that edition (level in any case)', () => {
    expect(selectQrEntry('a', entries).code).toBe('a-1');
    expect(selectQrEntry('a', [entries[0], entries[2]]).code).toBe('a-2');
    expect(selectQrEntry('a', entries, 'en:ORIGINAL').code).toBe('a-1');
    expect(selectQrEntry('a', entries, 'en:gold').code).toBe('a-gold');
  });

  it('says what exists when nothing matches', () => {
    expect(() => selectQrEntry('a', entries, 'es:ORIGINAL')).toThrow("'a' has no QR code for es:ORIGINAL; it has a-2 (en:ORIGINAL, passage 2), a-1 (en:ORIGINAL, passage 1), a-gold (en:GOLD, passage 3)");
    expect(() => selectQrEntry('a', [])).toThrow(/has no QR codes/);
    expect(() => selectQrEntry('a', entries, 'english')).toThrow(/must look like en:ORIGINAL/);
  });
});

describe('printQr', () => {
  it('writes an SVG with the QR path and a title, encoding <base-url>/qr/<code>', async () => {
    const out = path.join(tmp, 'out', 'owl.svg');
    const result = await printQr({ contentDir, slug: 'owl-night', out, baseUrl: 'https://school.example.org/' });
    expect(result).toMatchObject({ file: out, format: 'svg', code: 'owl-night-1', url: 'https://school.example.org/qr/owl-night-1' });
    const svg = fs.readFileSync(out, 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="512" height="512" viewBox="0 0 \d+ \d+"/);
    expect(svg).toContain('<title>Owl &lt;Night&gt; &amp; Day: https://school.example.org/qr/owl-night-1</title>');
    // The dark modules: one stroked path of runs, starting at the quiet zone (4 modules in).
    expect(svg).toMatch(/<path stroke="#000000" d="M4 4\.5h7[^"]*"\/>/);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    // Exactly the modules qrcode draws for that URL (and not for another), so the URL is what is encoded.
    expect(svg).toBe(await qrSvg('https://school.example.org/qr/owl-night-1', 'Owl <Night> & Day: https://school.example.org/qr/owl-night-1'));
    const other = await QRCode.toString('https://school.example.org/qr/owl-night-2', { type: 'svg', errorCorrectionLevel: 'M', margin: 4, width: 512 });
    const darkPath = (s: string) => /<path stroke[^>]*>/.exec(s)![0];
    expect(darkPath(svg)).not.toBe(darkPath(other));
    expect(result.bytes).toBe(Buffer.byteLength(svg));
  });

  it('writes a PNG by --format or the --out extension, and the default name in cwd', async () => {
    const png = await printQr({ contentDir, slug: 'owl-night', format: 'png', edition: 'es:ORIGINAL', cwd: tmp });
    expect(png).toMatchObject({ file: path.join(tmp, 'owl-night-es.png'), format: 'png', url: 'http://127.0.0.1:3000/qr/owl-night-es' });
    const bytes = fs.readFileSync(png.file);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(bytes.readUInt32BE(16)).toBe(512); // IHDR width

    const byExt = await printQr({ contentDir, slug: 'owl-night', out: path.join(tmp, 'code.PNG') });
    expect(byExt.format).toBe('png');
    const svgDefault = await printQr({ contentDir, slug: 'owl-night', cwd: tmp });
    expect(svgDefault.file).toBe(path.join(tmp, 'owl-night-1.svg'));
  });

  it('fails clearly for an unknown title, a folder with problems, a bad format', async () => {
    await expect(printQr({ contentDir, slug: 'no-such-book', cwd: tmp })).rejects.toThrow(new AdminError(`Unknown title 'no-such-book' in ${contentDir}; titles: owl-night`));
    await expect(printQr({ contentDir, slug: 'half-written', cwd: tmp })).rejects.toThrow(/'half-written' has problems in its files:\n {2}half-written\/publication\.yaml:1 {2}publication\.yaml is missing/);
    await expect(printQr({ contentDir, slug: 'owl-night', format: 'gif', cwd: tmp })).rejects.toThrow("--format 'gif' must be svg or png");
    await expect(printQr({ contentDir: path.join(tmp, 'nowhere'), slug: 'owl-night', cwd: tmp })).rejects.toThrow(/content folder .*nowhere does not exist/);
  });
});

describe('npm run admin', () => {
  function io() {
    const out: string[] = [];
    const err: string[] = [];
    const value: AdminIo = { out: (l) => out.push(l), err: (l) => err.push(l), contentDir, cwd: tmp };
    return { value, out, err };
  }

  it('qr print writes the file and says where the code leads', async () => {
    const { value, out, err } = io();
    expect(await runAdmin(['qr', 'print', 'owl-night', '--out', 'cli.svg', '--base-url', 'http://localhost:3100'], value)).toBe(0);
    expect(err).toEqual([]);
    expect(out).toEqual([expect.stringMatching(/^Wrote SVG cli\.svg \(\d+ bytes\): QR code 'owl-night-1' → http:\/\/localhost:3100\/qr\/owl-night-1$/)]);
    expect(fs.existsSync(path.join(tmp, 'cli.svg'))).toBe(true);
  });

  it('an unknown title is exit 1 with one line', async () => {
    const { value, err } = io();
    expect(await runAdmin(['qr', 'print', 'no-such-book'], value)).toBe(1);
    expect(err).toEqual([`error: Unknown title 'no-such-book' in ${contentDir}; titles: owl-night`]);
  });

  it('usage errors are exit 2 with the usage text; --help is exit 0', async () => {
    const cases: [string[], RegExp][] = [
      [[], /^Usage: npm run admin -- <group> <command>/],
      [['library'], /^Unknown command group 'library'\./],
      [['qr'], /^'qr' needs a command; qr has: print\./],
      [['qr', 'scan'], /^Unknown command 'qr scan'; qr has: print\./],
      [['qr', 'print'], /^qr print takes 1 argument\(s\), got 0\./],
      [['qr', 'print', 'a', 'b'], /^qr print takes 1 argument\(s\), got 2\./],
      [['qr', 'print', 'owl-night', '--colour', 'red'], /Unknown option '--colour'/],
    ];
    for (const [argv, message] of cases) {
      const { value, err } = io();
      expect(await runAdmin(argv, value), argv.join(' ')).toBe(2);
      expect(err.join('\n')).toMatch(message);
      expect(err.join('\n')).toContain('Usage: npm run admin -- ');
    }
    const help = io();
    expect(await runAdmin(['qr', 'print', '--help'], help.value)).toBe(0);
    expect(help.out.join('\n')).toContain('--base-url URL');
    const top = io();
    expect(await runAdmin(['--help'], top.value)).toBe(0);
    expect(top.out.join('\n')).toBe(usageText());
  });

  it('lists every registered command in the usage text', () => {
    for (const [group, commands] of Object.entries(COMMANDS)) for (const name of Object.keys(commands)) expect(usageText()).toContain(`  ${group} ${name} `);
  });
});
