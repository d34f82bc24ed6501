/**
 * Reader addresses (SPEC §2 Reader URL shape):
 *   /{slug}/{version}/{language}:{level}[/{secondaryLanguage}:{secondaryLevel}]/{position}
 * The URL is lowercased; the version is 'v' plus digits; levels are upper-cased when parsed; a position that is
 * not a number becomes 1 (a number is kept, so position 0 is 'Passage not found'). Older addresses without a version, or with an edition reference 'language-LEVEL' (a
 * bare level means English), are recognised and flagged for a redirect to the current form.
 */
import { DEFAULT_LANGUAGE, isLanguageCode, type LanguageCode } from './languages';
import { isLevel, type Level } from './levels';

export interface ReaderEdition {
  language: LanguageCode;
  level: Level;
}

export interface ReaderAddress {
  slug: string;
  version: string;
  primary: { language: string; level: string };
  secondary?: { language: string; level: string } | null;
  position: number;
}

export interface ParsedReaderPath {
  slug: string;
  /** 'v1'; null for an old address without a version (the latest applies). */
  version: string | null;
  primary: ReaderEdition | null;
  secondary: ReaderEdition | null;
  position: number;
  /** The address is not in canonical form (old shape, capitals, a non-numeric position): redirect. */
  needsRedirect: boolean;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const VERSION = /^v\d+$/;

/** 'v' followed by digits (any case); false for no segment. */
export function isVersionSegment(segment: string | undefined): boolean {
  return segment !== undefined && VERSION.test(segment.toLowerCase());
}

/** 'en:original' → { en, ORIGINAL }. */
export function parseEditionSegment(segment: string): ReaderEdition | null {
  const m = /^([a-z]{2,3}):([a-z]+)$/i.exec(segment);
  if (!m) return null;
  const language = m[1].toLowerCase();
  const level = m[2].toUpperCase();
  return isLanguageCode(language) && isLevel(level) ? { language, level } : null;
}

/** The old reference 'language-LEVEL', or a bare level meaning English. */
export function parseLegacyEditionRef(segment: string): ReaderEdition | null {
  const m = /^(?:([a-z]{2,3})-)?([a-z]+)$/i.exec(segment);
  if (!m) return null;
  const language = (m[1] ?? DEFAULT_LANGUAGE).toLowerCase();
  const level = m[2].toUpperCase();
  return isLanguageCode(language) && isLevel(level) ? { language, level } : null;
}

/**
 * The position rule of every address that ends in a position (the reader, listen and teaser pages): a whole number
 * is kept as it is, 0 included (a position no edition has is 'Passage not found', not passage 1, SPEC §8); anything
 * else, or nothing, is position 1. `canonical` is false when the segment is not written as that number (a leading
 * zero, letters, none): the page redirects to the written form.
 */
export function parsePositionSegment(segment: string | undefined): { position: number; canonical: boolean } {
  if (segment === undefined) return { position: 1, canonical: false };
  if (/^\d{1,9}$/.test(segment)) return { position: Number(segment), canonical: String(Number(segment)) === segment };
  return { position: 1, canonical: false };
}

/** Parse a reader path; null when it is not one. */
export function parseReaderPath(pathname: string): ParsedReaderPath | null {
  const raw = pathname.split('?')[0].split('#')[0];
  const segments = raw.split('/').filter(Boolean);
  if (segments.length < 2) return null;
  const slug = segments[0].toLowerCase();
  if (!SLUG.test(slug)) return null;
  let i = 1;
  let version: string | null = null;
  let legacy = false;
  if (isVersionSegment(segments[i])) {
    version = segments[i].toLowerCase();
    i++;
  } else {
    legacy = true;
  }
  const editions: ReaderEdition[] = [];
  while (i < segments.length && editions.length < 2) {
    const current = parseEditionSegment(segments[i]);
    const old = current ? null : parseLegacyEditionRef(segments[i]);
    if (!current && !old) break;
    if (old) legacy = true;
    editions.push((current ?? old)!);
    i++;
  }
  if (editions.length === 0) return null;
  const rest = segments.slice(i);
  if (rest.length > 1) return null;
  const { position, canonical } = parsePositionSegment(rest[0]);
  const parsed: ParsedReaderPath = {
    slug,
    version,
    primary: editions[0],
    secondary: editions[1] ?? null,
    position,
    needsRedirect: false,
  };
  parsed.needsRedirect =
    legacy || !canonical || version === null || raw !== buildReaderPath({ slug, version: version ?? 'v1', primary: parsed.primary!, secondary: parsed.secondary, position });
  return parsed;
}

export function buildReaderPath(address: ReaderAddress): string {
  const parts = [address.slug, address.version, `${address.primary.language}:${address.primary.level}`];
  if (address.secondary) parts.push(`${address.secondary.language}:${address.secondary.level}`);
  parts.push(String(Math.max(0, Math.floor(address.position))));
  return `/${parts.join('/')}`.toLowerCase();
}
