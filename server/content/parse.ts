/**
 * Parses and validates the library (docs/content-format.md). Pure: it takes a publication's files as a map of
 * relative path to bytes, so the tests can feed it every kind of broken file without touching the disk.
 * Every problem carries its file, line and reason; a library with any problem is not loaded at all.
 */
import crypto from 'node:crypto';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { z } from 'zod';
import { isLanguageCode, type LanguageCode } from '../../src/domain/languages';
import { isLevel, type Level } from '../../src/domain/levels';
import { sanitizeRichText } from '../../src/domain/richText';
import { stripTags } from '../../src/domain/sanitize';
import { renderInline, wordStats } from './text';

export interface Problem {
  file: string;
  line: number;
  reason: string;
}

export interface ParsedPassage {
  position: number;
  /** HTML paragraphs. */
  html: string;
  /** Plain text, for word counts. */
  plain: string;
  /** Relative path of the illustration inside the publication folder, or null. */
  image: string | null;
  /** The illustration's alt text. */
  imageAlt: string | null;
  partName: string | null;
  sectionName: string | null;
}

export interface ParsedEdition {
  file: string;
  language: LanguageCode;
  level: Level;
  lexile: string | null;
  passages: ParsedPassage[];
  shortcuts: { name: string; passage: number }[];
  totalWords: number;
  uniqueWords: number;
}

export interface ParsedAsset {
  /** Relative path inside the publication folder, e.g. images/cover.svg. */
  path: string;
  contentType: string;
  data: Uint8Array;
  sha256: string;
}

export interface ParsedPublication {
  dir: string;
  slug: string;
  version: number;
  title: string;
  author: string;
  createdAt: Date;
  renderingMode: 'DEFAULT' | 'ILLUSTRATED';
  cover: string;
  badges: string[];
  defaultReader: { left: { language: LanguageCode; level: Level }; right: { language: LanguageCode; level: Level } };
  info: { title: string; body: string }[];
  qr: { code: string; language: LanguageCode; level: Level; position: number }[];
  editions: ParsedEdition[];
  /** Editions under sources/: imported, but built only on demand. */
  sources: ParsedEdition[];
  assets: ParsedAsset[];
  hash: string;
}

export interface ParseResult<T> {
  value: T | null;
  problems: Problem[];
  warnings: Problem[];
}

export const IMAGE_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};
/** Largest image the importer accepts. Not in the spec. @default 1 MiB */
export const MAX_IMAGE_BYTES = 1024 * 1024;
/** Longest passage the importer accepts, in characters of source. @default 5000 */
export const MAX_PASSAGE_CHARS = 5000;

/**
 * Bumped whenever the importer stores something new from the same files, so that an existing database picks
 * it up on the next start even though the source files did not change.
 */
export const IMPORT_FORMAT_VERSION = 4;

const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const EDITION_FILE_RE = /^([a-z]+)\.([A-Za-z]+)\.md$/;
const EDITION_REF_RE = /^([a-z]+):([A-Z]+)$/;

const editionRef = z.string().regex(EDITION_REF_RE, { error: "must look like 'en:ORIGINAL' (language:LEVEL)" });

const PublicationYamlSchema = z.strictObject({
  slug: z.string().regex(SLUG_RE, { error: 'must be lowercase letters, digits and dashes' }),
  version: z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be at least 1' }),
  title: z.string({ error: 'is required' }).trim().min(1, { error: 'must not be empty' }).max(200, { error: 'must be at most 200 characters' }),
  author: z.string({ error: 'is required' }).trim().min(1, { error: 'must not be empty' }).max(200, { error: 'must be at most 200 characters' }),
  createdAt: z.union([z.date(), z.string().regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/, { error: 'must be an ISO date like 2026-03-02' })], {
    error: 'must be an ISO date like 2026-03-02',
  }),
  renderingMode: z.enum(['DEFAULT', 'ILLUSTRATED'], { error: 'must be DEFAULT or ILLUSTRATED' }).default('DEFAULT'),
  cover: z.string({ error: 'is required' }).min(1),
  badges: z.array(z.string().regex(/^[a-z][a-z0-9-]{0,30}$/, { error: 'must be a short lowercase word' })).default([]),
  defaultReader: z.strictObject({ left: editionRef, right: editionRef.optional() }, { error: 'is required' }),
  editions: z
    .record(
      z.string(),
      z.strictObject({
        lexile: z
          .string()
          .regex(/^(BR)?\d{1,4}L$/, { error: "must be a Lexile figure such as '820L' or 'BR100L'" })
          .optional(),
      }),
    )
    .default({}),
  info: z
    .array(
      z.strictObject({
        title: z.string().trim().min(1, { error: 'must not be empty' }),
        body: z.string().trim().min(1, { error: 'must not be empty' }),
      }),
    )
    .default([]),
  qr: z
    .array(
      z.strictObject({
        code: z.string().regex(/^[a-z0-9-]{3,32}$/, { error: 'must be 3 to 32 lowercase letters, digits and dashes' }),
        edition: editionRef,
        position: z.number().int().min(1, { error: 'must be at least 1' }),
      }),
    )
    .default([]),
});

function sha256(data: Uint8Array | string): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

function decode(data: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(data).replace(/^\uFEFF/, '');
}

function lineOf(doc: Document, counter: LineCounter, path: readonly PropertyKey[]): number {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as (string | number)[], true);
    if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
  }
  return 1;
}

/** Check an SVG for anything that could run or fetch when served from our origin. */
export function svgProblems(source: string): string[] {
  const problems: string[] = [];
  if (!/<svg[\s>]/i.test(source)) problems.push('is not an SVG document');
  if (/<script/i.test(source)) problems.push('must not contain <script>');
  if (/\son[a-z]+\s*=/i.test(source)) problems.push('must not contain event-handler attributes');
  if (/(?:xlink:)?href\s*=\s*["'](?!#)/i.test(source)) problems.push('must not reference external resources');
  if (/<foreignObject/i.test(source)) problems.push('must not contain <foreignObject>');
  return problems;
}

export function parseEditionFile(
  file: string,
  source: string,
  language: LanguageCode,
  level: Level,
  hasFile: (path: string) => boolean,
): ParseResult<ParsedEdition> {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const passages: ParsedPassage[] = [];
  const shortcuts: { name: string; passage: number }[] = [];
  let partName: string | null = null;
  let sectionName: string | null = null;
  let paragraphs: string[] = [];
  let paragraph: string[] = [];
  let image: string | null = null;
  let imageAlt: string | null = null;
  let startLine = 1;
  let chars = 0;
  let inComment = false;
  const problem = (line: number, reason: string) => problems.push({ file, line, reason });

  const endParagraph = () => {
    if (paragraph.length) paragraphs.push(paragraph.join(' '));
    paragraph = [];
  };
  const endPassage = (line: number, atEnd: boolean) => {
    endParagraph();
    const position = passages.length + 1;
    if (paragraphs.length === 0) {
      if (atEnd && passages.length > 0) problem(line, 'The file ends with a passage marker: remove the last ---');
      else if (atEnd) problem(line, 'The file has no passages');
      else problem(line, `Passage ${position} has no text (two --- markers in a row?)`);
    } else {
      if (chars > MAX_PASSAGE_CHARS) problem(startLine, `Passage ${position} is longer than ${MAX_PASSAGE_CHARS} characters`);
      passages.push({
        position,
        html: paragraphs.map((p) => `<p>${renderInline(p)}</p>`).join(''),
        plain: paragraphs.join('\n'),
        image,
        imageAlt,
        partName,
        sectionName,
      });
    }
    paragraphs = [];
    image = null;
    imageAlt = null;
    chars = 0;
    startLine = line + 1;
  };

  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.trim();
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      return;
    }
    if (line.startsWith('<!--')) {
      if (!line.includes('-->')) inComment = true;
      return;
    }
    if (line === '---') {
      endPassage(lineNo, false);
      return;
    }
    const heading = /^(#{1,6})\s*(.*)$/.exec(line);
    if (heading) {
      const [, hashes, rawName] = heading;
      const name = rawName.trim();
      if (hashes.length > 2) return problem(lineNo, 'Only # (part) and ## (section) headings are allowed');
      if (!name) return problem(lineNo, 'A heading needs a name');
      if (paragraphs.length || paragraph.length || image)
        return problem(lineNo, "Headings must come before the passage's text");
      if (hashes.length === 1) {
        partName = name;
        sectionName = null;
      } else {
        sectionName = name;
        shortcuts.push({ name, passage: passages.length + 1 });
      }
      return;
    }
    if (line.startsWith('![')) {
      endParagraph();
      const m = /^!\[([^\]]*)\]\(([^)\s]+)\)$/.exec(line);
      if (!m) return problem(lineNo, 'Malformed image line: use ![alt text](images/file.svg)');
      const [, alt, target] = m;
      if (!alt.trim()) problem(lineNo, 'An image needs alt text');
      if (image) return problem(lineNo, 'A passage can have at most one image');
      const ext = target.split('.').pop()?.toLowerCase() ?? '';
      if (!IMAGE_TYPES[ext]) return problem(lineNo, `Unsupported image type '.${ext}' (use svg, png, jpg or webp)`);
      if (target.includes('..') || target.startsWith('/')) return problem(lineNo, 'Image paths must stay inside the publication folder');
      if (!hasFile(target)) return problem(lineNo, `Image file '${target}' does not exist`);
      image = target;
      imageAlt = alt.trim();
      return;
    }
    if (line === '') {
      endParagraph();
      return;
    }
    chars += line.length;
    paragraph.push(line);
  });
  if (inComment) problem(lines.length, 'A comment is never closed with -->');
  endPassage(lines.length, true);

  const { totalWords, uniqueWords } = wordStats(
    passages.map((p) => p.plain),
    language,
  );
  if (problems.length) return { value: null, problems, warnings };
  return {
    value: { file, language, level, lexile: null, passages, shortcuts, totalWords, uniqueWords },
    problems,
    warnings,
  };
}

/** Parse one publication folder given as a map of relative path → bytes. */
export function parsePublication(dir: string, files: Map<string, Uint8Array>): ParseResult<ParsedPublication> {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const at = (file: string) => `${dir}/${file}`;

  const yamlBytes = files.get('publication.yaml');
  if (!yamlBytes) {
    return { value: null, problems: [{ file: at('publication.yaml'), line: 1, reason: 'publication.yaml is missing' }], warnings };
  }
  const yamlFile = at('publication.yaml');
  const counter = new LineCounter();
  const doc = parseDocument(decode(yamlBytes), { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  for (const error of doc.errors) {
    const line = error.linePos?.[0]?.line ?? 1;
    problems.push({ file: yamlFile, line, reason: `YAML syntax: ${error.message.split('\n')[0]}` });
  }
  if (problems.length) return { value: null, problems, warnings };

  const raw = doc.toJS() ?? {};
  const rawAt = (path: readonly PropertyKey[]) =>
    path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), raw);
  const parsedYaml = PublicationYamlSchema.safeParse(raw);
  if (!parsedYaml.success) {
    for (const issue of parsedYaml.error.issues) {
      const where = issue.path.join('.');
      let reason: string;
      if (issue.code === 'unrecognized_keys') {
        reason = `Unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${[...issue.path, k].join('.')}'`).join(', ')}`;
      } else if (issue.code === 'invalid_type' && rawAt(issue.path) === undefined) {
        reason = `'${where}' is required`;
      } else {
        reason = `'${where}' ${issue.message}`;
      }
      problems.push({ file: yamlFile, line: lineOf(doc, counter, issue.path), reason });
    }
    return { value: null, problems, warnings };
  }
  const meta = parsedYaml.data;
  const yamlLine = (...path: (string | number)[]) => lineOf(doc, counter, path);

  if (meta.slug !== dir) {
    problems.push({ file: yamlFile, line: yamlLine('slug'), reason: `'slug' must equal the folder name '${dir}'` });
  }

  // Assets: every image file in the folder.
  const assets: ParsedAsset[] = [];
  for (const [path, data] of files) {
    const ext = path.split('.').pop()?.toLowerCase() ?? '';
    if (path === 'publication.yaml' || path.endsWith('.md')) continue;
    const contentType = IMAGE_TYPES[ext];
    if (!contentType) {
      warnings.push({ file: at(path), line: 1, reason: 'Ignored: not an edition file, publication.yaml or an image' });
      continue;
    }
    if (data.byteLength > MAX_IMAGE_BYTES) {
      problems.push({ file: at(path), line: 1, reason: `Image is larger than ${MAX_IMAGE_BYTES} bytes` });
      continue;
    }
    if (ext === 'svg') {
      for (const reason of svgProblems(decode(data))) problems.push({ file: at(path), line: 1, reason: `SVG ${reason}` });
    }
    assets.push({ path, contentType, data, sha256: sha256(data) });
  }

  const coverExt = meta.cover.split('.').pop()?.toLowerCase() ?? '';
  if (!files.has(meta.cover) || !IMAGE_TYPES[coverExt]) {
    problems.push({ file: yamlFile, line: yamlLine('cover'), reason: `'cover' file '${meta.cover}' does not exist or is not an image` });
  }

  // Editions.
  const editions: ParsedEdition[] = [];
  for (const [path, data] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    if (path.includes('/') || !path.endsWith('.md')) continue;
    const m = EDITION_FILE_RE.exec(path);
    if (!m) {
      problems.push({ file: at(path), line: 1, reason: "Edition files are named <language>.<LEVEL>.md, e.g. 'en.GOLD.md'" });
      continue;
    }
    const [, language, level] = m;
    if (!isLanguageCode(language)) {
      problems.push({ file: at(path), line: 1, reason: `Unknown language '${language}' in the file name` });
      continue;
    }
    if (!isLevel(level)) {
      problems.push({ file: at(path), line: 1, reason: `Unknown level '${level}' in the file name (use GOLD, SILVER or ORIGINAL)` });
      continue;
    }
    const result = parseEditionFile(at(path), decode(data), language, level, (p) => files.has(p));
    problems.push(...result.problems);
    warnings.push(...result.warnings);
    if (result.value) editions.push(result.value);
  }
  // On-demand sources: sources/<language>.<LEVEL>.md, validated now, built when a reader asks.
  const sources: ParsedEdition[] = [];
  for (const [path, data] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    if (!path.endsWith('.md') || !path.includes('/')) continue;
    if (!path.startsWith('sources/') || path.split('/').length !== 2) {
      problems.push({ file: at(path), line: 1, reason: 'Markdown files belong at the top of the folder (editions) or in sources/ (on-demand editions)' });
      continue;
    }
    const name = path.slice('sources/'.length);
    const m = EDITION_FILE_RE.exec(name);
    if (!m || !isLanguageCode(m[1]) || !isLevel(m[2])) {
      problems.push({ file: at(path), line: 1, reason: "Source files are named sources/<language>.<LEVEL>.md, e.g. 'sources/ru.GOLD.md'" });
      continue;
    }
    const [, language, level] = m as unknown as [string, LanguageCode, Level];
    if (editions.some((e) => e.language === language && e.level === level)) {
      problems.push({ file: at(path), line: 1, reason: `${language}.${level}.md is already an edition; a source must be for an edition that does not exist` });
      continue;
    }
    const result = parseEditionFile(at(path), decode(data), language, level, (p) => files.has(p));
    problems.push(...result.problems);
    warnings.push(...result.warnings);
    if (result.value) sources.push(result.value);
  }

  if (editions.length === 0 && problems.length === 0) {
    problems.push({ file: at(''), line: 1, reason: 'A publication needs at least one edition file such as en.ORIGINAL.md' });
  }

  const findEdition = (ref: string) => {
    const [language, level] = ref.split(':');
    return editions.find((e) => e.language === language && e.level === level);
  };
  const checkRef = (ref: string | undefined, path: (string | number)[]) => {
    if (ref && !findEdition(ref) && problems.length === 0) {
      problems.push({ file: yamlFile, line: yamlLine(...path), reason: `'${path.join('.')}' names '${ref}', which has no edition file` });
    }
  };
  checkRef(meta.defaultReader.left, ['defaultReader', 'left']);
  checkRef(meta.defaultReader.right, ['defaultReader', 'right']);

  for (const [key, value] of Object.entries(meta.editions)) {
    const [language, level] = key.split('.');
    const edition = editions.find((e) => e.language === language && e.level === level);
    if (!edition) {
      if (problems.length === 0)
        problems.push({ file: yamlFile, line: yamlLine('editions', key), reason: `'editions.${key}' has no edition file ${key}.md` });
      continue;
    }
    edition.lexile = value.lexile ?? null;
  }

  meta.qr.forEach((qr, i) => {
    const edition = findEdition(qr.edition);
    if (!edition) {
      if (problems.length === 0) problems.push({ file: yamlFile, line: yamlLine('qr', i, 'edition'), reason: `'qr.${i}.edition' names '${qr.edition}', which has no edition file` });
    } else if (qr.position > edition.passages.length) {
      problems.push({ file: yamlFile, line: yamlLine('qr', i, 'position'), reason: `'qr.${i}.position' is past the last passage (${edition.passages.length})` });
    }
  });

  const counts = new Set(editions.map((e) => e.passages.length));
  if (counts.size > 1) {
    warnings.push({
      file: at(''),
      line: 1,
      reason: `Editions have different passage counts (${editions.map((e) => `${e.language}.${e.level}: ${e.passages.length}`).join(', ')})`,
    });
  }

  if (problems.length) return { value: null, problems, warnings };

  const toRef = (ref: string) => {
    const [language, level] = ref.split(':') as [LanguageCode, Level];
    return { language, level };
  };
  const hash = sha256(
    [`format:${IMPORT_FORMAT_VERSION}`, ...[...files]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([p, d]) => `${p}\0${sha256(d)}`)].join('\n'),
  );
  const createdAt = meta.createdAt instanceof Date ? meta.createdAt : new Date(meta.createdAt);
  if (Number.isNaN(createdAt.getTime())) {
    return { value: null, problems: [{ file: yamlFile, line: yamlLine('createdAt'), reason: "'createdAt' is not a real date" }], warnings };
  }
  return {
    value: {
      dir,
      slug: meta.slug,
      version: meta.version,
      title: meta.title,
      author: meta.author,
      createdAt,
      renderingMode: meta.renderingMode,
      cover: meta.cover,
      badges: meta.badges,
      defaultReader: { left: toRef(meta.defaultReader.left), right: toRef(meta.defaultReader.right ?? meta.defaultReader.left) },
      info: meta.info.map((s) => ({ title: stripTags(s.title), body: sanitizeRichText(s.body) })),
      qr: meta.qr.map((q) => ({ code: q.code, ...toRef(q.edition), position: q.position })),
      editions,
      sources,
      assets,
      hash,
    },
    problems,
    warnings,
  };
}

/** Cross-publication checks: unique slugs and QR codes. */
export function checkLibrary(publications: readonly ParsedPublication[]): Problem[] {
  const problems: Problem[] = [];
  const codes = new Map<string, string>();
  for (const pub of publications) {
    for (const qr of pub.qr) {
      const other = codes.get(qr.code);
      if (other) problems.push({ file: `${pub.dir}/publication.yaml`, line: 1, reason: `QR code '${qr.code}' is already used by ${other}` });
      else codes.set(qr.code, pub.dir);
    }
  }
  return problems;
}
