/**
 * Decode-mode markup: every word of an English passage becomes spans whose classes carry its phonics cues.
 * Only spans are added. Tags, entities, punctuation and every letter are kept exactly, so removing the added
 * spans gives back the input, and the text the reader shows is the same with decode on or off.
 */
import { DECODE_CLASSES } from '../../src/domain/decode';
import type { Cue, WordAnalysis, WordAnalyzer } from './analyze';

// The classes decode mode writes live in src/domain/decode.ts, beside the reader's legend and allow-list, so the
// markup made here and the markup the reader lets through are one list.
export { DECODE_CLASSES };

const CUE_CLASS: Record<Cue, string> = {
  digraph: DECODE_CLASSES.digraph,
  team: DECODE_CLASSES.team,
  r: DECODE_CLASSES.r,
  silent: DECODE_CLASSES.silent,
  'silent-e': `${DECODE_CLASSES.silent} ${DECODE_CLASSES.silentE}`,
};

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
};

function decodeEntity(entity: string): string {
  const body = entity.slice(1, -1);
  if (body.startsWith('#x') || body.startsWith('#X')) return String.fromCodePoint(parseInt(body.slice(2), 16) || 0xfffd);
  if (body.startsWith('#')) return String.fromCodePoint(Number(body.slice(1)) || 0xfffd);
  return NAMED[body] ?? entity;
}

const escapeChar = (ch: string) =>
  ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch === '"' ? '&quot;' : ch === "'" ? '&#39;' : ch;

/** One character of the text with the source that spells it (itself, or an entity). */
interface Atom {
  ch: string;
  source: string;
}

const ENTITY_OR_CHAR = /&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});|[\s\S]/gu;
const LETTER = /^\p{L}$/u;
const MARK = /^\p{M}$/u;
const APOSTROPHE = /^['’ʼ]$/;

function atomsOf(text: string, html: boolean): Atom[] {
  const atoms: Atom[] = [];
  if (html) {
    for (const m of text.matchAll(ENTITY_OR_CHAR)) {
      const source = m[0];
      atoms.push({ ch: source.length > 1 && source.startsWith('&') ? decodeEntity(source) : source, source });
    }
  } else {
    for (const ch of text) atoms.push({ ch, source: escapeChar(ch) });
  }
  return atoms;
}

function renderWord(analysis: WordAnalysis, sources: readonly string[]): string {
  const syllables = analysis.syllables.map((syl) => {
    const inner = syl.segments
      .map((seg) => {
        const text = sources.slice(seg.start, seg.end).join('');
        return seg.cue ? `<span class="${CUE_CLASS[seg.cue]}">${text}</span>` : text;
      })
      .join('');
    if (analysis.syllables.length < 2) return inner;
    return `<span class="${DECODE_CLASSES.syllable}${syl.cle ? ` ${DECODE_CLASSES.cle}` : ''}">${inner}</span>`;
  });
  const cls = analysis.heart ? `${DECODE_CLASSES.word} ${DECODE_CLASSES.heart}` : DECODE_CLASSES.word;
  return `<span class="${cls}">${syllables.join('')}</span>`;
}

function decodeRun(text: string, html: boolean, analyzer: WordAnalyzer): string {
  const atoms = atomsOf(text, html);
  let out = '';
  let i = 0;
  while (i < atoms.length) {
    if (!LETTER.test(atoms[i].ch)) {
      out += atoms[i].source;
      i++;
      continue;
    }
    // A word: letters (with their combining marks), and apostrophes between letters.
    const chars: string[] = [];
    const sources: string[] = [];
    while (i < atoms.length) {
      const a = atoms[i];
      if (LETTER.test(a.ch)) {
        chars.push(a.ch);
        sources.push(a.source);
        i++;
      } else if (MARK.test(a.ch) && chars.length) {
        chars[chars.length - 1] += a.ch;
        sources[sources.length - 1] += a.source;
        i++;
      } else if (APOSTROPHE.test(a.ch) && i + 1 < atoms.length && LETTER.test(atoms[i + 1].ch)) {
        chars.push(a.ch);
        sources.push(a.source);
        i++;
      } else break;
    }
    const analysis = analyzer.analyze(chars);
    out += analysis ? renderWord(analysis, sources) : sources.join('');
  }
  return out;
}

/** Whether the text is HTML (has a tag or an entity) rather than plain text. */
export function looksLikeHtml(text: string): boolean {
  return /<[a-zA-Z/!][^>]*>/.test(text) || /&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/.test(text);
}

/**
 * Decode markup for a passage: HTML (its tags and entities kept as they are) or plain text (escaped as HTML);
 * by default, text with a tag or an entity is taken as HTML. Words the dictionary does not know stay plain text.
 */
export function decodeMarkup(input: string, analyzer: WordAnalyzer, format: 'auto' | 'html' | 'text' = 'auto'): string {
  const html = format === 'auto' ? looksLikeHtml(input) : format === 'html';
  if (!html) return decodeRun(input, false, analyzer);
  let out = '';
  let skip: string | null = null;
  for (const part of input.split(/(<[^>]*>)/)) {
    if (part.startsWith('<') && part.endsWith('>')) {
      out += part;
      const open = /^<(script|style)\b/i.exec(part);
      if (open) skip = open[1].toLowerCase();
      else if (skip && new RegExp(`^</${skip}\\s*>$`, 'i').test(part)) skip = null;
      continue;
    }
    out += skip ? part : decodeRun(part, true, analyzer);
  }
  return out;
}

/** Remove the spans decode mode added (for checks: the result must equal the input). */
export function stripDecodeMarkup(markup: string): string {
  const stack: boolean[] = [];
  return markup.replace(/<span\b[^>]*>|<\/span\s*>/gi, (tag) => {
    if (tag.startsWith('</')) return stack.pop() ? '' : tag;
    const ours = /^<span class="dc-[^"]*">$/.test(tag);
    stack.push(ours);
    return ours ? '' : tag;
  });
}
