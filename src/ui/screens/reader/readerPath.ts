/**
 * Reader links for the views. The address rules live once, in src/domain/readerUrl.ts (parseReaderPath,
 * buildReaderPath, which src/domain/routes.ts exposes as readerPath); this file only adapts them to the calls the publication page and older screens make.
 */
import { isVersionSegment, parseLegacyEditionRef, type ReaderEdition } from '../../../domain/readerUrl';
import { readerPath, withQuery } from '../../../domain/routes';

export { parseLegacyEditionRef };

export type EditionRef = ReaderEdition;

/** 'v' followed by digits. */
export function isVersion(value: string | undefined): value is string {
  return value !== undefined && isVersionSegment(value);
}

/** A position segment as the reader reads it: a number, else 1 (SPEC §2 Reader URL shape). */
export function parsePosition(value: string | undefined): number {
  return value !== undefined && /^\d{1,9}$/.test(value) && Number(value) >= 1 ? Number(value) : 1;
}

/** '/{slug}/{version}/{language}:{level}[/{secondary}]/{position}' plus an optional query string. */
export function readerHref(
  slug: string,
  version: string,
  edition: EditionRef,
  position = 1,
  options: { secondary?: EditionRef | null; query?: string } = {},
): string {
  return withQuery(readerPath({ slug, version, primary: edition, secondary: options.secondary ?? null, position }), options.query ?? '');
}
