/** The address of an edition's EPUB (GET /publications/{slug}/editions/epub, docs/epub.md), for a download link. */
import { API_PREFIX } from './client';

export function editionEpubUrl(slug: string, version: string, language: string, level: string): string {
  const query = new URLSearchParams({ publicationVersion: version, language, level });
  return `${API_PREFIX}/publications/${encodeURIComponent(slug)}/editions/epub?${query}`;
}
