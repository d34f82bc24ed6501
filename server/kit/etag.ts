/** Entity tags: the one way an answer's ETag is made from its bytes, and the If-None-Match comparison. */
import crypto from 'node:crypto';

/** The ETag of a body: the first 22 characters of its SHA-1 in base64url, quoted (about 132 bits). */
export function etagOf(body: string | Uint8Array): string {
  return `"${crypto.createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

/**
 * Whether an If-None-Match header matches an ETag: `*`, or any entity tag of its list, compared weakly (RFC 9110
 * §13.1.2: a `W/` prefix on either side is ignored).
 */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag) return true;
  const strong = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === strong) return true;
  }
  return false;
}
