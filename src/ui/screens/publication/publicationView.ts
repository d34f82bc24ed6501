/** What the publication page shows, computed from the API's publication. No React. */
import { languageInfo } from '../../../domain/languages';
import { LEVEL_ORDER, LEVEL_LABELS, sortLevels, type Level } from '../../../domain/levels';
import { LANGUAGE_CODES } from '../../../domain/languages';
import { ApiError } from '../../../api/apiError';
import { PREMIUM_CONTENT_MESSAGE } from '../../../domain/access';
import { paths, publicationReadPath, readerPath } from '../../../domain/routes';
import type { Edition, Publication } from '../../../domain/schemas';
import { isPremiumContentError } from '../../../domain/locks';

export const NOT_AVAILABLE = 'N/A';

/** A publication fetch failure that means 'no such publication'. */
export function isMissingPublication(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/**
 * A publication fetch refused because the title is premium and this reader may not open it: 403
 * `premium_content`, whose message 'Premium content' SPEC §8 names.
 */
export function isPremiumContent(error: unknown): boolean {
  if (isPremiumContentError(error)) return true;
  return error instanceof Error && error.message === PREMIUM_CONTENT_MESSAGE;
}

/**
 * The reader's own library: the Classroom Library for a class-code student (no one signed in), whose navbar has
 * no Free Library, else the Free Library. '/' picks the same way (SPEC §2 route table).
 */
export function libraryPath(signedIn: boolean, classCode: string | null): string {
  return classCode !== null && !signedIn ? paths.classroomCatalog : paths.catalog;
}

/**
 * A title's reader address, absolute: the link a teacher posts to a class stream. It opens the
 * reader at the title's default edition, as Read Online does.
 */
export function titleReaderLink(origin: string, slug: string, version: string): string {
  return `${origin.replace(/\/+$/, '')}${publicationReadPath(slug, version)}`;
}

const numberFormat = new Intl.NumberFormat('en-US');

/** A count, or 'N/A' when it is missing (0 means it was never measured). */
export function formatCount(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? numberFormat.format(value) : NOT_AVAILABLE;
}

export function formatText(value: string | null | undefined): string {
  return value && value.trim() ? value : NOT_AVAILABLE;
}

export interface EditionRow {
  key: string;
  level: Level;
  levelLabel: string;
  language: string;
  totalWords: string;
  uniqueWords: string;
  lexile: string;
  readHref: string;
  readLabel: string;
}

export interface EditionGroup {
  id: 'english' | 'other';
  caption: string;
  rows: EditionRow[];
}

function byLanguageThenLevel(a: Edition, b: Edition): number {
  const lang = LANGUAGE_CODES.indexOf(a.language.code) - LANGUAGE_CODES.indexOf(b.language.code);
  return lang !== 0 ? lang : LEVEL_ORDER.indexOf(a.level) - LEVEL_ORDER.indexOf(b.level);
}

function row(publication: Publication, edition: Edition): EditionRow {
  const language = edition.language.name || languageInfo(edition.language.code).name;
  return {
    key: `${edition.language.code}:${edition.level}`,
    level: edition.level,
    levelLabel: LEVEL_LABELS[edition.level],
    language,
    totalWords: formatCount(edition.metadata.totalWords),
    uniqueWords: formatCount(edition.metadata.uniqueWords),
    lexile: formatText(edition.lexileLevelFormatted),
    readHref: readerPath({ slug: publication.slug, version: publication.version, primary: { language: edition.language.code, level: edition.level }, position: 1 }),
    readLabel: `Read ${LEVEL_LABELS[edition.level]}, ${language}`,
  };
}

/** English editions first, then other languages (SPEC §3: the detail view splits them). Empty groups are left out. */
export function editionGroups(publication: Publication): EditionGroup[] {
  const english = [...publication.englishEditions].sort(byLanguageThenLevel);
  const others = publication.editions.filter((e) => e.language.code !== 'en').sort(byLanguageThenLevel);
  const groups: EditionGroup[] = [
    { id: 'english', caption: 'English', rows: english.map((e) => row(publication, e)) },
    { id: 'other', caption: 'Other languages', rows: others.map((e) => row(publication, e)) },
  ];
  return groups.filter((g) => g.rows.length > 0);
}

/** The levels to show as chips, easiest first. */
export function availableLevels(publication: Publication): Level[] {
  const levels = publication.levels.length ? publication.levels : [...new Set(publication.editions.map((e) => e.level))];
  return sortLevels(levels);
}
