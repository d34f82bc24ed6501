/**
 * A guarded zip reader for .docx and .epub. The central directory is read and checked first (entry count, the
 * unpacked sizes the entries declare, each entry's ratio, unsafe names, encryption) before one byte is inflated;
 * then an entry is inflated in small steps and refused the moment it grows past the size it declared, so a zip
 * bomb that lies in its headers costs at most one step past its lie. CRC-32 is checked at the end of each entry.
 */
import { Inflate } from 'fflate';
import { DocumentProblem, DOCUMENT_MESSAGES, type DocumentKind } from './problems';
import { ARCHIVE_RATIO_FLOOR_BYTES, MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_RATIO, MAX_ARCHIVE_UNPACKED_BYTES } from './limits';

const EOCD_SIGNATURE = 0x06054b50;
/** The signatures that open a central directory record and a local file header. */
const SIGNATURE = { central: 0x02014b50, local: 0x04034b50 } as const;
/** Compressed bytes handed to the inflater at a time: at most about 1 MiB comes out of one step. */
const INFLATE_STEP_BYTES = 1024;

export interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  packedSize: number;
  size: number;
  localOffset: number;
}

export interface ZipArchive {
  /** Entry names, in the order of the central directory. */
  names(): string[];
  has(name: string): boolean;
  /** The entry's bytes, or null when there is no such entry. */
  read(name: string): Uint8Array | null;
  /** The entry as UTF-8 text (a leading BOM dropped), or null. */
  text(name: string): string | null;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A name that would lead out of a folder it is unpacked into: absolute, a drive, a backslash path or a `..` step. */
export function isUnsafeEntryName(name: string): boolean {
  if (!name || name.includes('\0')) return true;
  const slashed = name.split('\\').join('/');
  if (slashed.startsWith('/')) return true;
  if (slashed.length >= 2 && slashed[1] === ':' && /[A-Za-z]/.test(slashed[0])) return true;
  return slashed.split('/').some((segment) => segment === '..');
}

/** True when the bytes start as a zip does (a local file header). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export function openZip(bytes: Uint8Array, kind: DocumentKind): ZipArchive {
  const corrupt = () => new DocumentProblem(400, 'corrupt_file', DOCUMENT_MESSAGES.corrupt(kind));
  const tooLarge = () => new DocumentProblem(400, 'archive_too_large', DOCUMENT_MESSAGES.archiveTooLarge);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);

  // The end-of-central-directory record: 22 bytes and a comment of up to 65535 bytes, at the very end.
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (u32(at) === EOCD_SIGNATURE && at + 22 + u16(at + 20) === bytes.length) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw corrupt();
  const count = u16(eocd + 10);
  const directorySize = u32(eocd + 12);
  const directoryOffset = u32(eocd + 16);
  // Zip64 markers: no document within MAX_DOCUMENT_BYTES needs them.
  if (count === 0xffff || directoryOffset === 0xffffffff) throw tooLarge();
  if (count > MAX_ARCHIVE_ENTRIES) throw tooLarge();
  if (directoryOffset + directorySize > eocd) throw corrupt();

  const entries = new Map<string, ZipEntry>();
  const order: string[] = [];
  const decoder = new TextDecoder('utf-8');
  let unpacked = 0;
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || u32(at) !== SIGNATURE.central) throw corrupt();
    const flags = u16(at + 8);
    const nameLength = u16(at + 28);
    const end = at + 46 + nameLength + u16(at + 30) + u16(at + 32);
    if (end > eocd) throw corrupt();
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const entry: ZipEntry = {
      name,
      method: u16(at + 10),
      crc: u32(at + 16),
      packedSize: u32(at + 20),
      size: u32(at + 24),
      localOffset: u32(at + 42),
    };
    at = end;
    if (isUnsafeEntryName(name)) throw new DocumentProblem(400, 'unsafe_archive', DOCUMENT_MESSAGES.unsafeArchive);
    if (flags & 1) throw new DocumentProblem(422, 'encrypted_file', DOCUMENT_MESSAGES.encryptedArchive);
    unpacked += entry.size;
    if (unpacked > MAX_ARCHIVE_UNPACKED_BYTES) throw tooLarge();
    if (entry.size > ARCHIVE_RATIO_FLOOR_BYTES && entry.size > entry.packedSize * MAX_ARCHIVE_RATIO) throw tooLarge();
    if (entry.method !== 0 && entry.method !== 8) throw corrupt();
    if (!entries.has(name)) {
      entries.set(name, entry);
      order.push(name);
    }
  }

  function inflate(entry: ZipEntry): Uint8Array {
    const local = entry.localOffset;
    if (local + 30 > bytes.length || u32(local) !== SIGNATURE.local) throw corrupt();
    const start = local + 30 + u16(local + 26) + u16(local + 28);
    const packed = bytes.subarray(start, start + entry.packedSize);
    if (start + entry.packedSize > bytes.length) throw corrupt();
    let out: Uint8Array;
    if (entry.method === 0) {
      if (entry.packedSize !== entry.size) throw corrupt();
      out = packed;
    } else {
      out = new Uint8Array(entry.size);
      let written = 0;
      let grewPastItsSize = false;
      const inflater = new Inflate((chunk) => {
        if (written + chunk.length > entry.size) {
          grewPastItsSize = true;
          throw tooLarge();
        }
        out.set(chunk, written);
        written += chunk.length;
      });
      try {
        for (let offset = 0; offset < packed.length; offset += INFLATE_STEP_BYTES) {
          inflater.push(packed.subarray(offset, offset + INFLATE_STEP_BYTES), offset + INFLATE_STEP_BYTES >= packed.length);
        }
        if (packed.length === 0) inflater.push(new Uint8Array(0), true);
      } catch (e) {
        if (grewPastItsSize) throw tooLarge();
        if (e instanceof DocumentProblem) throw e;
        throw corrupt();
      }
      if (written !== entry.size) throw corrupt();
    }
    if (crc32(out) !== entry.crc) throw corrupt();
    return out;
  }

  return {
    names: () => [...order],
    has: (name) => entries.has(name),
    read(name) {
      const entry = entries.get(name);
      return entry ? inflate(entry) : null;
    },
    text(name) {
      const data = this.read(name);
      return data ? new TextDecoder('utf-8').decode(data).replace(/^\uFEFF/, '') : null;
    },
  };
}
