/**
 * HTML to plain text: the text a passage's speech marks and word taps index into, and the plain text of info
 * sections. No sanitizer here (src/domain/richText.ts, src/domain/allowListHtml.ts), so the reader imports it cheaply.
 */

/**
 * The text of HTML: line breaks as spaces, tags removed, and the entities for <, >, ", ' and & decoded (&amp;
 * last, so '&amp;lt;' stays '&lt;'). Whitespace is left as it is.
 */
function htmlText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Plain text of an HTML fragment: tags removed, entities for &, <, >, " and ' decoded, whitespace collapsed. */
export function stripTags(html: string): string {
  return htmlText(html.replace(/<\/(p|li|h\d|blockquote)>/gi, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The plain text of a passage as the reader shows it: each paragraph's text (tags removed, entities decoded),
 * paragraphs joined by a newline. Speech-mark offsets are JavaScript string indices into this text, so the
 * server that makes them and the client that highlights with them agree on every character.
 */
export function passagePlainText(html: string): string {
  return html
    .split(/<\/p>/i)
    .map((p) => htmlText(p).trim())
    .filter(Boolean)
    .join('\n');
}
