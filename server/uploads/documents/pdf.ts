/**
 * PDFs with a text layer, through unpdf (pdf.js). pdf.js gives positioned runs of text; they are put back into
 * lines (a run on a new baseline, or after an end of line, starts one), lines into paragraphs (a gap clearly wider
 * than the page's usual line spacing, or a change of type size, ends one), and a word hyphenated at a line end is
 * joined again. A paragraph left open at the foot of a page runs on when the next page starts in lower case.
 * A PDF has no structure we can trust for sections, so it has none; its pictures are not looked at.
 */
import { getDocumentProxy } from 'unpdf';
import { collapse } from './dom';
import { MAX_DOCUMENT_TEXT_CHARS, MAX_PDF_PAGES } from './limits';
import type { Block } from './outline';
import { DocumentProblem, DOCUMENT_MESSAGES } from './problems';

interface Run {
  str: string;
  x: number;
  y: number;
  size: number;
  width: number;
  eol: boolean;
}

interface Line {
  text: string;
  y: number;
  size: number;
}

/** A gap this many times the usual line spacing (or, on a page of few lines, the type size) ends a paragraph. */
const PARAGRAPH_GAP = 1.4;
const LONE_LINE_GAP = 1.8;

const endsSentence = (text: string) => /[.!?:;…"”’»)\]]$/.test(text);
const startsLower = (text: string) => /^\p{Ll}/u.test(text);

/** Join two lines of one paragraph, undoing a hyphen that split a word at the line end. */
export function joinLines(first: string, second: string): string {
  if (/\p{L}[-\u00ad]$/u.test(first) && startsLower(second)) return first.slice(0, -1) + second;
  return `${first} ${second}`;
}

function toLines(runs: Run[]): Line[] {
  const lines: Line[] = [];
  let current: { parts: string[]; y: number; size: number; end: number } | null = null;
  let closed = true;
  for (const run of runs) {
    const newLine = !current || closed || Math.abs(run.y - current.y) > run.size * 0.5;
    if (newLine) {
      if (current) lines.push({ text: collapse(current.parts.join('')), y: current.y, size: current.size });
      current = { parts: [run.str], y: run.y, size: run.size, end: run.x + run.width };
    } else if (current) {
      const last = current.parts[current.parts.length - 1] ?? '';
      // Runs set apart on one line without a space between them still are separate words.
      if (run.x - current.end > run.size * 0.15 && !/\s$/.test(last) && !/^\s/.test(run.str)) current.parts.push(' ');
      current.parts.push(run.str);
      current.size = Math.max(current.size, run.size);
      current.end = run.x + run.width;
    }
    closed = run.eol;
  }
  if (current) lines.push({ text: collapse(current.parts.join('')), y: current.y, size: current.size });
  return lines.filter((l) => l.text);
}

/** The usual line spacing: the lower quartile of the gaps, so that a few wide paragraph gaps do not raise it. */
function usualGap(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 4)];
}

function toParagraphs(lines: Line[]): string[] {
  const gaps = lines.slice(1).map((l, i) => lines[i].y - l.y).filter((g) => g > 0);
  const usual = usualGap(gaps);
  const paragraphs: string[] = [];
  let text = '';
  lines.forEach((line, i) => {
    const previous = lines[i - 1];
    const gap = previous ? previous.y - line.y : 0;
    const limit = usual !== null && gaps.length >= 2 ? usual * PARAGRAPH_GAP : line.size * LONE_LINE_GAP;
    const sizeChanged = previous && Math.abs(previous.size - line.size) > Math.min(previous.size, line.size) * 0.15;
    if (!previous || gap <= 0 || gap > limit + 0.01 || sizeChanged) {
      if (text) paragraphs.push(text);
      text = line.text;
    } else text = joinLines(text, line.text);
  });
  if (text) paragraphs.push(text);
  return paragraphs;
}

export async function readPdf(bytes: Uint8Array): Promise<{ blocks: Block[] }> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js may take over the buffer it is given: hand it a copy.
    pdf = await getDocumentProxy(bytes.slice(), { verbosity: 0 });
  } catch (e) {
    if ((e as { name?: string } | null)?.name === 'PasswordException') throw new DocumentProblem(422, 'password_protected', DOCUMENT_MESSAGES.passwordPdf);
    throw new DocumentProblem(400, 'corrupt_file', DOCUMENT_MESSAGES.corrupt('pdf'));
  }
  const paragraphs: string[] = [];
  let chars = 0;
  try {
    const pages = Math.min(pdf.numPages, MAX_PDF_PAGES);
    for (let number = 1; number <= pages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const runs: Run[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        const [a, b, c, d, x, y] = item.transform as number[];
        runs.push({ str: item.str, x, y, size: Math.hypot(c, d) || Math.hypot(a, b) || item.height, width: item.width, eol: item.hasEOL });
      }
      page.cleanup();
      // A page number alone on its line is not text, and must not come between a paragraph and its run-on.
      const onPage = toParagraphs(toLines(runs)).filter((p) => !/^\d+$/.test(p));
      const last = paragraphs[paragraphs.length - 1];
      if (last && onPage.length && !endsSentence(last) && startsLower(onPage[0])) paragraphs[paragraphs.length - 1] = joinLines(last, onPage.shift()!);
      paragraphs.push(...onPage);
      chars += onPage.reduce((n, p) => n + p.length, 0);
      if (chars > MAX_DOCUMENT_TEXT_CHARS) throw new DocumentProblem(400, 'document_too_long', DOCUMENT_MESSAGES.tooLong);
    }
  } catch (e) {
    if (e instanceof DocumentProblem) throw e;
    throw new DocumentProblem(400, 'corrupt_file', DOCUMENT_MESSAGES.corrupt('pdf'));
  } finally {
    await pdf.loadingTask.destroy();
  }
  if (!paragraphs.some((p) => /[\p{L}\p{N}]/u.test(p))) throw new DocumentProblem(422, 'no_text_layer', DOCUMENT_MESSAGES.noTextLayer);
  return { blocks: paragraphs.map((text) => ({ kind: 'paragraph', text })) };
}
