/**
 * Printable QR codes for a title's `qr` entries (publication.yaml). The code encodes `<base-url>/qr/<code>`: the
 * app's /qr/{code} screen asks GET /api/v1/qr/{code} where the code leads and opens the reader there.
 * Used by `npm run admin -- qr print <slug>` (server/admin/commands.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import * as QRCode from 'qrcode';
import type { LanguageCode } from '../../src/domain/languages';
import type { Level } from '../../src/domain/levels';
import { readLibrary } from './read';
import { AdminError } from '../cli/command';

/** Where a printed code points when no --base-url is given: the app as `npm start` serves it by default. */
export const DEFAULT_QR_BASE_URL = 'http://127.0.0.1:3000';
/** Error correction M (about 15% of the code can be damaged or covered and still read): usual for print. */
export const QR_ERROR_CORRECTION = 'M' as const;
/** The quiet zone around the code, in modules; 4 is what the QR standard asks for. */
export const QR_MARGIN_MODULES = 4;
/** Rendered width in pixels (PNG) and the SVG's declared size; the SVG scales without loss. */
export const QR_WIDTH_PX = 512;

export type QrFormat = 'svg' | 'png';

export interface QrEntry {
  code: string;
  language: LanguageCode;
  level: Level;
  position: number;
}

/** The URL a printed code encodes: `<base-url>/qr/<code>`, the base without its trailing slashes. */
export function qrTargetUrl(baseUrl: string, code: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new AdminError(`--base-url '${baseUrl}' is not a URL (e.g. http://127.0.0.1:3000)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AdminError(`--base-url '${baseUrl}' must be http or https`);
  if (url.search || url.hash) throw new AdminError(`--base-url '${baseUrl}' must not have a query or fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}/qr/${encodeURIComponent(code)}`;
}

/**
 * The entry to print: with an edition ('en:ORIGINAL', level in any case), the first of that edition, preferring one
 * into passage 1; without, the first into passage 1, else the first.
 */
export function selectQrEntry(slug: string, entries: readonly QrEntry[], edition?: string): QrEntry {
  if (entries.length === 0) throw new AdminError(`'${slug}' has no QR codes (add a 'qr' entry to its publication.yaml)`);
  const list = entries.map((e) => `${e.code} (${e.language}:${e.level}, passage ${e.position})`).join(', ');
  let candidates = [...entries];
  if (edition !== undefined) {
    const m = /^([a-z]+):([A-Za-z]+)$/.exec(edition);
    if (!m) throw new AdminError(`--edition '${edition}' must look like en:ORIGINAL`);
    candidates = entries.filter((e) => e.language === m[1] && e.level === m[2].toUpperCase());
    if (candidates.length === 0) throw new AdminError(`'${slug}' has no QR code for ${m[1]}:${m[2].toUpperCase()}; it has ${list}`);
  }
  return candidates.find((e) => e.position === 1) ?? candidates[0];
}

/** The QR code of a URL as SVG text, with a <title> naming what it is for. */
export async function qrSvg(url: string, title: string): Promise<string> {
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: QR_ERROR_CORRECTION, margin: QR_MARGIN_MODULES, width: QR_WIDTH_PX });
  const escaped = title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return svg.replace(/^(<svg\b[^>]*>)/, `$1<title>${escaped}</title>`);
}

/** The QR code of a URL as PNG bytes. */
export async function qrPng(url: string): Promise<Buffer> {
  return QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: QR_ERROR_CORRECTION, margin: QR_MARGIN_MODULES, width: QR_WIDTH_PX });
}

export interface PrintQrOptions {
  contentDir: string;
  slug: string;
  edition?: string;
  /** Defaults to `<code>.<format>` in `cwd`. */
  out?: string;
  /** The folder a relative `out` (and the default file) is taken from; defaults to the process's. */
  cwd?: string;
  /** Defaults to the --out file's extension, else svg. */
  format?: string;
  baseUrl?: string;
}

export interface PrintQrResult {
  file: string;
  format: QrFormat;
  code: string;
  url: string;
  bytes: number;
}

/** Reads the title from the library, renders its code and writes the file. */
export async function printQr(options: PrintQrOptions): Promise<PrintQrResult> {
  const fromExt = options.out ? path.extname(options.out).slice(1).toLowerCase() : '';
  const format = (options.format ?? (fromExt === 'png' || fromExt === 'svg' ? fromExt : 'svg')).toLowerCase();
  if (format !== 'svg' && format !== 'png') throw new AdminError(`--format '${options.format}' must be svg or png`);
  const baseUrl = options.baseUrl ?? DEFAULT_QR_BASE_URL;
  qrTargetUrl(baseUrl, 'check'); // a bad base URL fails before the library is read

  if (!fs.existsSync(options.contentDir)) throw new AdminError(`The content folder ${options.contentDir} does not exist (set CONTENT_DIR)`);
  const library = readLibrary(options.contentDir);
  const pub = library.publications.find((p) => p.slug === options.slug);
  if (!pub) {
    const ownProblems = library.problems.filter((p) => p.file.split('/')[0] === options.slug);
    if (ownProblems.length) {
      throw new AdminError(`'${options.slug}' has problems in its files:\n${ownProblems.map((p) => `  ${p.file}:${p.line}  ${p.reason}`).join('\n')}`);
    }
    const known = library.publications.map((p) => p.slug).sort();
    throw new AdminError(`Unknown title '${options.slug}' in ${options.contentDir}${known.length ? `; titles: ${known.join(', ')}` : ''}`);
  }
  const entry = selectQrEntry(pub.slug, pub.qr, options.edition);
  const url = qrTargetUrl(baseUrl, entry.code);
  const file = path.resolve(options.cwd ?? process.cwd(), options.out ?? `${entry.code}.${format}`);
  const data = format === 'svg' ? await qrSvg(url, `${pub.title}: ${url}`) : await qrPng(url);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
  return { file, format, code: entry.code, url, bytes: typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength };
}
