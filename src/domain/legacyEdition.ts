/**
 * SPEC §2 `legacyEditionSlug`: an older link to a title that names an edition goes to that edition's reader address.
 * Its own module, imported only by the lazy redirect (src/ui/screens/misc/LegacyEditionRedirect.tsx), so the
 * catalog's entry JS does not carry it.
 */
import { isVersionSegment, parseLegacyEditionRef } from './readerUrl';
import { LEGACY_EDITION_PARAM, paths, patterns, readerPath, withQuery } from './routes';

/** First segments that are pages of their own (every fixed page and every fixed prefix), never a title's slug. */
function fixedFirstSegments(): Set<string> {
  const addresses = [...Object.values(paths), ...Object.values(patterns).filter((p) => !p.startsWith('/:'))];
  return new Set(addresses.map((address) => address.split('/')[1]!.toLowerCase()).filter(Boolean));
}

const SLUG_SEGMENT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/i;

/**
 * Where a title's address carrying `legacyEditionSlug` goes: the reader address of that edition. A title's address
 * is /{slug}, /{slug}/overview, /{slug}/{version}, /{slug}/read or /{slug}/{version}/read; the reader opens at
 * `position` (a whole number, else 1), at that version or, without one, at the latest. The other parameters are
 * kept. A reference that names no edition ('fr-GOLD', 'blue') is the 404 page, as an unknown address is. Null when
 * there is nothing to redirect: no such parameter, or not a title's address.
 */
export function legacyEditionTarget(pathname: string, search: string): string | null {
  const params = new URLSearchParams(search);
  const ref = params.get(LEGACY_EDITION_PARAM);
  if (ref === null) return null;
  const segments = pathname.split('/').filter(Boolean);
  const [slug, second, third] = segments;
  if (!slug || !SLUG_SEGMENT.test(slug) || fixedFirstSegments().has(slug.toLowerCase()) || segments.length > 3) return null;
  let version: string | null = null;
  if (segments.length === 2) {
    if (isVersionSegment(second)) version = second;
    else if (!['read', 'overview'].includes(second.toLowerCase())) return null;
  } else if (segments.length === 3) {
    if (!isVersionSegment(second) || third.toLowerCase() !== 'read') return null;
    version = second;
  }
  const edition = parseLegacyEditionRef(ref.trim());
  if (!edition) return paths.notFound;
  const positionText = params.get('position') ?? '';
  const position = /^\d{1,9}$/.test(positionText) && Number(positionText) >= 1 ? Number(positionText) : 1;
  params.delete(LEGACY_EDITION_PARAM);
  params.delete('position');
  const reader = version
    ? readerPath({ slug, version, primary: edition, position })
    : `/${slug}/${edition.language}:${edition.level}/${position}`.toLowerCase();
  return withQuery(reader, params.toString());
}
