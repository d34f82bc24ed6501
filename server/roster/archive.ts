/**
 * Reading a OneRoster CSV bundle into the bytes of the files the import reads: a zip (an upload, or a
 * file named on the command line) or a folder of CSVs. Nothing is ever written to disk.
 *
 * A zip is untrusted input, so:
 *  - it may be at most ROSTER_MAX_UPLOAD_BYTES;
 *  - every entry name is checked: `..` segments, absolute paths, drive letters and backslashes refuse the whole zip;
 *  - the sizes its central directory declares for the files read may add up to at most ROSTER_MAX_UNCOMPRESSED_BYTES;
 *  - the files are then inflated in small steps with a running count, stopping as soon as one grows past its declared
 *    size or all of them past the cap: a zip bomb is never fully inflated, whatever its headers say.
 */
import { concatBytes } from '../kit/body';
import fs from 'node:fs';
import path from 'node:path';
import { Unzip, UnzipInflate, unzipSync, type UnzipFile } from 'fflate';
import { ROSTER_MAX_UNCOMPRESSED_BYTES, ROSTER_MAX_UPLOAD_BYTES } from '../../src/domain/rosterSchemas';

/** The files of a OneRoster CSV bundle that the import reads; any other file is left unread. */
export const ROSTER_FILES = ['manifest.csv', 'orgs.csv', 'users.csv', 'roles.csv', 'enrollments.csv', 'classes.csv'] as const;
export type RosterFileName = (typeof ROSTER_FILES)[number];

/** The bytes of the roster files found, by name. */
export type RosterFiles = Map<RosterFileName, Uint8Array>;

export interface RosterLimits {
  /** @default ROSTER_MAX_UPLOAD_BYTES (10 MB) */
  maxCompressedBytes: number;
  /** @default ROSTER_MAX_UNCOMPRESSED_BYTES (20 MB) */
  maxUncompressedBytes: number;
}

export const DEFAULT_ROSTER_LIMITS: RosterLimits = {
  maxCompressedBytes: ROSTER_MAX_UPLOAD_BYTES,
  maxUncompressedBytes: ROSTER_MAX_UNCOMPRESSED_BYTES,
};

/** A bundle that cannot be read at all (not a zip, a zip bomb, an unsafe path): nothing in it is looked at. */
export class RosterArchiveError extends Error {}

/** How much compressed data is inflated at a time: deflate expands at most ~1032×, so about 1 MB per step. */
const INFLATE_STEP_BYTES = 1024;

/** A size for a message: 100 bytes, 12 KB, 20 MB, 1.5 MB. */
function mb(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** Why an entry name is unsafe, or null: the zip is refused as a whole for any such name. */
export function unsafeEntryName(name: string): string | null {
  if (name.includes('\\')) return 'it contains a backslash';
  if (name.includes('\0')) return 'it contains a NUL character';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'it is an absolute path';
  if (name.split('/').includes('..')) return "it climbs out of the zip with '..'";
  return null;
}

interface Entry {
  name: string;
  declaredSize: number;
  compression: number;
}

/** The entries of the zip's central directory, without inflating anything. */
function centralDirectory(zip: Uint8Array): Entry[] {
  const entries: Entry[] = [];
  try {
    unzipSync(zip, {
      filter: (file) => {
        entries.push({ name: file.name, declaredSize: file.originalSize, compression: file.compression });
        return false;
      },
    });
  } catch (error) {
    throw new RosterArchiveError(`This is not a readable zip file (${(error as Error).message}). Upload the OneRoster CSV files as a .zip.`);
  }
  return entries;
}

/** Where the roster sits in the zip: at its root, or in the folder that holds manifest.csv. */
function rosterFolder(entries: Entry[]): string {
  const manifests = entries
    .map((e) => e.name)
    .filter((name) => (name === 'manifest.csv' || name.endsWith('/manifest.csv')) && !name.startsWith('__MACOSX/'))
    .map((name) => name.slice(0, -'manifest.csv'.length));
  if (manifests.length > 1) {
    throw new RosterArchiveError(`The zip holds ${manifests.length} rosters (a manifest.csv in ${manifests.map((m) => m || 'its root').join(', ')}): zip one roster at a time.`);
  }
  return manifests[0] ?? '';
}

/** Read the roster files of a zip, within the limits. */
export function readRosterZip(zip: Uint8Array, limits: RosterLimits = DEFAULT_ROSTER_LIMITS): RosterFiles {
  if (zip.length > limits.maxCompressedBytes) {
    throw new RosterArchiveError(`The zip is ${mb(zip.length)}; the most a roster upload may be is ${mb(limits.maxCompressedBytes)}.`);
  }
  const entries = centralDirectory(zip);
  for (const entry of entries) {
    const why = unsafeEntryName(entry.name);
    if (why) throw new RosterArchiveError(`The zip holds an unsafe path '${entry.name}' (${why}), so it is refused. Zip the CSV files themselves, named like users.csv.`);
  }
  const folder = rosterFolder(entries);
  const wanted = new Map<string, { file: RosterFileName; entry: Entry }>();
  for (const file of ROSTER_FILES) {
    const entry = entries.find((e) => e.name === folder + file);
    if (!entry) continue;
    if (entry.compression !== 0 && entry.compression !== 8) {
      throw new RosterArchiveError(`${file} is compressed with method ${entry.compression}; zip it with the usual deflate compression.`);
    }
    wanted.set(entry.name, { file, entry });
  }
  const declared = [...wanted.values()].reduce((sum, w) => sum + w.entry.declaredSize, 0);
  if (declared > limits.maxUncompressedBytes) {
    throw new RosterArchiveError(
      `The roster files would unpack to ${mb(declared)}; the most is ${mb(limits.maxUncompressedBytes)}. This is a zip bomb, or far more than a roster of staff: zip only manifest.csv, orgs.csv, users.csv, roles.csv, enrollments.csv and classes.csv.`,
    );
  }
  return inflate(zip, wanted, limits.maxUncompressedBytes);
}

/** Inflate the wanted entries step by step, stopping at the first one that outgrows its declared size or the cap. */
function inflate(zip: Uint8Array, wanted: Map<string, { file: RosterFileName; entry: Entry }>, maxTotal: number): RosterFiles {
  const files: RosterFiles = new Map();
  let total = 0;
  let failure: string | null = null;
  const unzip = new Unzip((file: UnzipFile) => {
    const why = unsafeEntryName(file.name);
    if (why) failure ??= `The zip holds an unsafe path '${file.name}' (${why}), so it is refused.`;
    const target = wanted.get(file.name);
    // Entries the import does not read are never started, so never inflated.
    if (failure || !target) return;
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, data, final) => {
      if (failure) return;
      if (error) {
        failure = `${target.file} in the zip is damaged (${error.message}).`;
        return;
      }
      size += data.length;
      total += data.length;
      if (size > target.entry.declaredSize) {
        failure = `${target.file} unpacks to more than the ${mb(target.entry.declaredSize)} its zip header declares: the zip is damaged or forged, so it is refused.`;
      } else if (total > maxTotal) {
        failure = `The roster files unpack to more than ${mb(maxTotal)}, the most allowed. This is a zip bomb, or far more than a roster of staff.`;
      } else {
        chunks.push(data);
        if (final) files.set(target.file, concatBytes(chunks, size));
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < zip.length && !failure; at += INFLATE_STEP_BYTES) {
      unzip.push(zip.subarray(at, at + INFLATE_STEP_BYTES), at + INFLATE_STEP_BYTES >= zip.length);
    }
  } catch (error) {
    failure ??= `This zip cannot be read (${(error as Error).message}).`;
  }
  if (failure) throw new RosterArchiveError(failure);
  for (const { file } of wanted.values()) {
    if (!files.has(file)) throw new RosterArchiveError(`${file} in the zip could not be unpacked: the zip is damaged.`);
  }
  return files;
}

/** Read the roster files of a folder (the operator's own files), within the uncompressed cap. */
export function readRosterFolder(dir: string, limits: RosterLimits = DEFAULT_ROSTER_LIMITS): RosterFiles {
  const files: RosterFiles = new Map();
  let total = 0;
  for (const file of ROSTER_FILES) {
    const full = path.join(dir, file);
    const stat = fs.statSync(full, { throwIfNoEntry: false });
    if (!stat?.isFile()) continue;
    total += stat.size;
    if (total > limits.maxUncompressedBytes) {
      throw new RosterArchiveError(`The roster files in ${dir} add up to more than ${mb(limits.maxUncompressedBytes)}, the most allowed.`);
    }
    files.set(file, new Uint8Array(fs.readFileSync(full)));
  }
  return files;
}

/** Read a roster from a path: a folder of CSVs or a .zip file. */
export function readRosterPath(source: string, limits: RosterLimits = DEFAULT_ROSTER_LIMITS): RosterFiles {
  const stat = fs.statSync(source, { throwIfNoEntry: false });
  if (!stat) throw new RosterArchiveError(`There is no file or folder at ${source}.`);
  if (stat.isDirectory()) return readRosterFolder(source, limits);
  if (stat.size > limits.maxCompressedBytes) {
    throw new RosterArchiveError(`${source} is ${mb(stat.size)}; the most a roster zip may be is ${mb(limits.maxCompressedBytes)}.`);
  }
  return readRosterZip(new Uint8Array(fs.readFileSync(source)), limits);
}
