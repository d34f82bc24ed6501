/**
 * Reader addresses (SPEC §2 Reader URL shape), as far as the interim reader needs them:
 * /{slug}/{version}/{language}:{level}[/{secondaryLanguage}:{secondaryLevel}]/{position}.
 * The URL is lowercased, levels are upper-cased when parsed, and the position defaults to 1 when it is not
 * numeric. The full reader issue should move this into src/domain (with the legacy forms) and test it there.
 */
import { isLanguageCode, type LanguageCode } from '../../../domain/languages';
import { isLevel, type Level } from '../../../domain/levels';

export interface EditionRef {
  language: LanguageCode;
  level: Level;
}

const VERSION = /^v\d+$/i;

/** 'v' followed by digits. */
export function isVersion(value: string | undefined): value is string {
  return value !== undefined && VERSION.test(value);
}

/** 'en:original' -> { language: 'en', level: 'ORIGINAL' }, or null. */
export function parseEditionSegment(segment: string): EditionRef | null {
  const match = /^([a-z]{2,3}):([a-z]+)$/i.exec(segment);
  if (!match) return null;
  const language = match[1].toLowerCase();
  const level = match[2].toUpperCase();
  if (!isLanguageCode(language) || !isLevel(level)) return null;
  return { language, level };
}

/** A legacy edition reference: 'language-LEVEL', or a bare level meaning English (SPEC §2). */
export function parseLegacyEditionRef(segment: string): EditionRef | null {
  const match = /^(?:([a-z]{2,3})-)?([a-z]+)$/i.exec(segment);
  if (!match) return null;
  const language = (match[1] ?? 'en').toLowerCase();
  const level = match[2].toUpperCase();
  if (!isLanguageCode(language) || !isLevel(level)) return null;
  return { language, level };
}

export function parsePosition(value: string | undefined): number {
  if (value === undefined || !/^-?\d+$/.test(value)) return 1;
  return Number(value);
}

export interface ReaderRest {
  primary: EditionRef | null;
  secondary: EditionRef | null;
  position: number;
}

/** The part after /{slug}/{version}/, or null when it is not a reader address. */
export function parseReaderRest(rest: string): ReaderRest | null {
  const segments = rest.split('/').filter(Boolean);
  if (segments.length === 0) return { primary: null, secondary: null, position: 1 };
  const editions: EditionRef[] = [];
  let i = 0;
  while (i < segments.length && editions.length < 2) {
    const edition = parseEditionSegment(segments[i]);
    if (!edition) break;
    editions.push(edition);
    i++;
  }
  const remaining = segments.slice(i);
  if (editions.length === 0 || remaining.length > 1) return null;
  return { primary: editions[0], secondary: editions[1] ?? null, position: parsePosition(remaining[0]) };
}

export function editionSegment(edition: EditionRef): string {
  return `${edition.language}:${edition.level.toLowerCase()}`;
}

/** '/{slug}/{version}/{language}:{level}[/{secondary}]/{position}' plus an optional query string. */
export function readerHref(
  slug: string,
  version: string,
  edition: EditionRef,
  position = 1,
  options: { secondary?: EditionRef | null; query?: string } = {},
): string {
  const secondary = options.secondary ? `/${editionSegment(options.secondary)}` : '';
  const query = options.query ? `?${options.query.replace(/^\?/, '')}` : '';
  return `/${slug}/${version.toLowerCase()}/${editionSegment(edition)}${secondary}/${position}${query}`;
}

/** Part and section joined with ' // ' (SPEC §2 Reader screen), or null when neither is set. */
export function sectionHeader(partName: string | null, sectionName: string | null): string | null {
  const parts = [partName, sectionName].filter((p): p is string => !!p && p.trim() !== '');
  return parts.length ? parts.join(' // ') : null;
}
