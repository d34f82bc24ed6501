/** XML text for the EPUB's documents: every value written into markup goes through one of these. */

/** Text content: &, < and > escaped (and characters XML 1.0 forbids dropped). */
export function xmlText(value: string): string {
  return stripForbidden(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value in double quotes: text escaping plus the quote, and whitespace kept as characters. */
export function xmlAttr(value: string): string {
  return xmlText(value).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

/** Characters outside XML 1.0's Char production (C0 controls but tab, newline and return; U+FFFE/U+FFFF; lone surrogates). */
function stripForbidden(value: string): string {
  return value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '');
}

/** A SMIL clock value in seconds with milliseconds ('12.345s'), for clipBegin and clipEnd. */
export function clockSeconds(ms: number): string {
  return `${(Math.max(0, Math.round(ms)) / 1000).toFixed(3)}s`;
}

/** A full clock value ('0:01:02.345'), for media:duration. */
export function clockFull(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = (total % 60_000) / 1000;
  return `${h}:${String(m).padStart(2, '0')}:${s.toFixed(3).padStart(6, '0')}`;
}
