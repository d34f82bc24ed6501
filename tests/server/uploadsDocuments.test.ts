/**
 * Documents in (USER_UPLOAD) on a real server: a teacher uploads a Word document, an EPUB (3 with a navigation
 * document, 2 with an NCX) or a PDF with a text layer, and reads its passages with the sections the document
 * gave; pictures left out are reported as notes. Bad files get their status, code and message, and leave
 * nothing behind: no publication row. Every document is built in code (./documentFixtures.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { getJson, startFixtureServer } from './harness';
import type { RunningServer } from '../../server/server';
import { createOrganization, grantLicense, makeOrgAdmin, makeTeacher } from '../../server/accounts/service';
import { publications } from '../../server/db/schema';
import { UploadSchema } from '../../src/domain/schemas';
import { DOCUMENT_MESSAGES, MAX_ARCHIVE_ENTRIES, MAX_DOCUMENT_BYTES, UPLOAD_MESSAGES } from '../../server/uploads';
import {
  DOCX_TYPE,
  EPUB_TYPE,
  PDF_TYPE,
  docx,
  docxParts,
  drmEpub,
  encryptedPdf,
  epub,
  epubParts,
  imageOnlyPdf,
  lyingZip,
  strToU8,
  textPdf,
  zipBomb,
  zipSync,
  zipWithName,
  type EpubChapter,
} from './documentFixtures';

let server: RunningServer;

beforeAll(async () => {
  server = await startFixtureServer({ accounts: { env: { TRUST_PROXY: 'true' } } });
});
afterAll(async () => {
  await server?.stop();
});

let counter = 0;
const freshIp = () => `203.0.113.${(counter % 250) + 1}`;

function call(method: string, path: string, options: { cookie?: string; body?: BodyInit } = {}) {
  const headers: Record<string, string> = { 'X-Forwarded-For': freshIp(), Origin: server.url };
  if (options.cookie) headers.Cookie = options.cookie;
  return getJson(server, `/api/v1${path}`, { method, headers, body: options.body });
}

async function teacher() {
  const email = `documents.${Date.now()}.${counter++}@example.org`;
  const res = await getJson(server, '/api/v1/auth/sign-up/email', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': freshIp(), Origin: server.url },
    body: JSON.stringify({ email, password: 'amber-harbor-lantern', name: 'Dora Documents' }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const db = server.database.db;
  await makeTeacher(db, email);
  const org = await createOrganization(db, `Documents School ${Date.now()} ${counter++}`);
  await makeOrgAdmin(db, email, org.slug);
  await grantLicense(db, org.slug, ['USER_UPLOAD', 'GROUP_CODES', 'AUDIO'], null);
  return cookie;
}

function upload(cookie: string, bytes: Uint8Array, name: string, type: string, fields: Record<string, string> = {}) {
  const data = new FormData();
  data.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name, { type }));
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return call('POST', '/uploads', { cookie, body: data });
}

async function passage(cookie: string, editionId: number, position: number): Promise<{ text: string; partName: string | null; sectionName: string | null }> {
  const res = await call('GET', `/passages?editionId=${editionId}&position=${position}`, { cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function published(cookie: string, body: { slug: string }) {
  const pub = await call('GET', `/publications/${body.slug}`, { cookie });
  expect(pub.status).toBe(200);
  return pub.body as { shortcuts: { name: string; passage: number }[]; editions: { id: number; passageCount: number }[] };
}

const sentence = (i: number) => `The river ${i} carried small boats past the old mill and the quiet houses.`;
/** A paragraph of `n` sentences (14 words each). */
const paragraph = (n: number, from = 0) => Array.from({ length: n }, (_, i) => sentence(from + i)).join(' ');

describe('a Word document (.docx)', () => {
  it('becomes passages: headings are its parts and sections, paragraphs stay, pictures are left out with a note', async () => {
    const cookie = await teacher();
    const bytes = docx([
      { heading: 1, text: 'Rivers' },
      { heading: 2, text: 'The Mill' },
      { text: paragraph(4, 0) },
      { picture: true },
      { text: paragraph(4, 10) },
      { heading: 2, text: 'The Sea' },
      { text: '# Not a heading: the teacher typed a hash, and 2 * 3 * 4 = 24.' },
      { picture: true },
    ]);
    const res = await upload(cookie, bytes, 'Rivers_and-seas.docx', DOCX_TYPE);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const created = UploadSchema.parse(res.body);
    expect(created.title).toBe('Rivers and seas');
    expect(created.passageCount).toBe(2);
    expect(created.notes).toEqual([{ code: 'images_dropped', message: '2 pictures were left out: uploads keep the text only.' }]);

    const pub = await published(cookie, created);
    expect(pub.shortcuts).toEqual([
      { name: 'The Mill', passage: 1 },
      { name: 'The Sea', passage: 2 },
    ]);
    const first = await passage(cookie, created.editionId, 1);
    expect(first.text).toBe(`<p>${paragraph(4, 0)}</p><p>${paragraph(4, 10)}</p>`);
    expect(first).toMatchObject({ partName: 'Rivers', sectionName: 'The Mill' });
    // Text that looks like Markdown stays text: no heading, no emphasis.
    const second = await passage(cookie, created.editionId, 2);
    expect(second.sectionName).toBe('The Sea');
    expect(second.text).not.toContain('<em>');
    expect(second.text.replace(/\u2060/g, '').replace(/\u2217/g, '*')).toBe('<p># Not a heading: the teacher typed a hash, and 2 * 3 * 4 = 24.</p>');
  });

  it('a document of pictures only has no text: 400 empty_file', async () => {
    const cookie = await teacher();
    const res = await upload(cookie, docx([{ picture: true }]), 'pictures.docx', DOCX_TYPE);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ code: 'empty_file', message: DOCUMENT_MESSAGES.noText('docx') }]);
  });
});

const CHAPTERS: EpubChapter[] = [
  { file: 'text/one.xhtml', title: 'The Owl', body: `<h1>The Owl</h1><p>${paragraph(3, 0)}</p><figure><img src="../images/owl.png" alt="An owl"/></figure>` },
  { file: 'text/two.xhtml', title: 'The Fox', body: `<section><h2>The Fox</h2><p>${paragraph(2, 20)}<a epub:type="noteref" href="#n1">1</a></p><span epub:type="pagebreak" id="page7" title="7">7</span><p>${paragraph(2, 30)}</p></section>` },
];

describe('an EPUB', () => {
  it('EPUB 3: the spine in reading order, the navigation document gives the sections, pictures are left out', async () => {
    const cookie = await teacher();
    const res = await upload(cookie, epub(3, CHAPTERS), 'animals.epub', EPUB_TYPE, { title: 'Night Animals' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const created = UploadSchema.parse(res.body);
    expect(created).toMatchObject({ title: 'Night Animals', passageCount: 2 });
    expect(created.notes).toEqual([{ code: 'images_dropped', message: '1 picture was left out: uploads keep the text only.' }]);
    const pub = await published(cookie, created);
    expect(pub.shortcuts).toEqual([
      { name: 'The Owl', passage: 1 },
      { name: 'The Fox', passage: 2 },
    ]);
    // The chapter's own heading repeats the section: it is not read twice; the table of contents, note references
    // and page-break markers are not read.
    expect((await passage(cookie, created.editionId, 1)).text).toBe(`<p>${paragraph(3, 0)}</p>`);
    expect((await passage(cookie, created.editionId, 2)).text).toBe(`<p>${paragraph(2, 20)}</p><p>${paragraph(2, 30)}</p>`);
  });

  it('EPUB 2: the NCX gives the sections; XHTML with HTML entities is read too (white space becomes one space)', async () => {
    const cookie = await teacher();
    const chapters: EpubChapter[] = [
      { file: 'a.xhtml', title: 'Morning', body: '<p>The sun rose&nbsp;over the hills &amp; the birds sang.</p>' },
      { file: 'b.xhtml', title: 'Evening', body: '<div><p>The moon came up.</p><p>Everyone slept.</p></div>' },
    ];
    const res = await upload(cookie, epub(2, chapters), 'day.epub', 'application/octet-stream');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const created = UploadSchema.parse(res.body);
    expect(created.notes).toEqual([]);
    const pub = await published(cookie, created);
    expect(pub.shortcuts).toEqual([
      { name: 'Morning', passage: 1 },
      { name: 'Evening', passage: 2 },
    ]);
    expect((await passage(cookie, created.editionId, 1)).text).toBe('<p>The sun rose over the hills &amp; the birds sang.</p>');
    expect((await passage(cookie, created.editionId, 2)).text).toBe('<p>The moon came up.</p><p>Everyone slept.</p>');
  });

  it('a chapter nested far too deeply is read up to the depth the reader walks, not a server error', async () => {
    const cookie = await teacher();
    const deep = `<p>The top of the chapter.</p>${'<div>'.repeat(20_000)}<p>Lost in the depths.</p>${'</div>'.repeat(20_000)}`;
    const res = await upload(cookie, epub(3, [{ file: 'deep.xhtml', title: 'Deep', body: deep }]), 'deep.epub', EPUB_TYPE);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    expect((await passage(cookie, res.body.editionId, 1)).text).toBe('<p>The top of the chapter.</p>');
  });

  it('an EPUB that Lectern exported uploads back with its parts, sections and text', async () => {
    const cookie = await teacher();
    const exported = await fetch(`${server.url}/api/v1/publications/alpha-owls/editions/epub?language=en&level=ORIGINAL`);
    expect(exported.status).toBe(200);
    const original = (await call('GET', '/publications/alpha-owls')).body;
    const res = await upload(cookie, new Uint8Array(await exported.arrayBuffer()), 'alpha-owls.epub', EPUB_TYPE);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const pub = await published(cookie, res.body);
    expect(pub.shortcuts.map((s) => s.name)).toEqual(original.shortcuts.map((s: { name: string }) => s.name));
    const first = await passage(cookie, res.body.editionId, 1);
    // The book's own headings repeat its table of contents: they are not read as text.
    expect(first.text).toMatch(/^<p>Owls hunt at night with silent wings\./);
    expect(first).toMatchObject({ partName: 'Part One', sectionName: 'Chapter 1' });
  });

  it('fonts obfuscated as the format allows are not DRM', async () => {
    const cookie = await teacher();
    const encryption =
      '<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/><enc:CipherData><enc:CipherReference URI="OEBPS/fonts/serif.otf"/></enc:CipherData></enc:EncryptedData></encryption>';
    const res = await upload(cookie, epub(3, CHAPTERS, { 'META-INF/encryption.xml': strToU8(encryption) }), 'fonts.epub', EPUB_TYPE);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});

describe('a PDF with a text layer', () => {
  it('rebuilds paragraphs from lines, joins words hyphenated at line ends, and runs a paragraph on across pages', async () => {
    const cookie = await teacher();
    const pdf = textPdf([
      [
        { text: 'Owls hunt at night with silent wings. Their soft feath-' },
        { text: 'ers break up the air, so mice do not hear them.' },
        { text: 'An owl can turn its head a long way round, because', gap: 26 },
        { text: 'its eyes cannot move in their sockets. It sees well in the' },
        { text: '1', gap: 60 },
      ],
      [{ text: 'dark and hears even better.' }, { text: 'When morning comes, the owls fly home.', gap: 24 }],
    ]);
    const res = await upload(cookie, pdf, 'owls.pdf', PDF_TYPE);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const created = UploadSchema.parse(res.body);
    expect(created.notes).toEqual([]);
    expect(created.passageCount).toBe(1);
    expect((await passage(cookie, created.editionId, 1)).text).toBe(
      '<p>Owls hunt at night with silent wings. Their soft feathers break up the air, so mice do not hear them.</p>' +
        '<p>An owl can turn its head a long way round, because its eyes cannot move in their sockets. It sees well in the dark and hears even better.</p>' +
        '<p>When morning comes, the owls fly home.</p>',
    );
  });
});

describe('bad documents are refused and leave nothing behind', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await teacher();
  });

  const publicationCount = async () => (await server.database.db.select({ n: count() }).from(publications))[0].n;

  async function refused(bytes: Uint8Array, name: string, type: string, status: number, code: string, message: string) {
    const before = await publicationCount();
    const res = await upload(cookie, bytes, name, type);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.errors).toEqual([{ code, message }]);
    expect(await publicationCount()).toBe(before);
    expect((await call('GET', '/uploads', { cookie })).body.items).toEqual([]);
  }

  it('a damaged archive or PDF: 400 corrupt_file', async () => {
    const whole = docx([{ text: 'A sentence.' }]);
    await refused(whole.slice(0, whole.length - 40), 'cut.docx', DOCX_TYPE, 400, 'corrupt_file', DOCUMENT_MESSAGES.corrupt('docx'));
    const flipped = whole.slice();
    flipped[60] ^= 0xff; // inside the first entry's packed bytes: its CRC no longer matches
    await refused(flipped, 'flipped.docx', DOCX_TYPE, 400, 'corrupt_file', DOCUMENT_MESSAGES.corrupt('docx'));
    await refused(new TextEncoder().encode('%PDF-1.7\nnothing else'), 'broken.pdf', PDF_TYPE, 400, 'corrupt_file', DOCUMENT_MESSAGES.corrupt('pdf'));
    const { 'META-INF/container.xml': _container, ...noContainer } = epubParts(3, CHAPTERS);
    await refused(zipSync(noContainer), 'nopackage.epub', EPUB_TYPE, 400, 'corrupt_file', DOCUMENT_MESSAGES.notEpub);
  });

  it('a zip bomb: too great a ratio, too many entries, or sizes that lie (400 archive_too_large)', async () => {
    const bomb = zipBomb('word/document.xml', 24, docxParts([{ text: 'A sentence.' }]));
    expect(bomb.length).toBeLessThan(MAX_DOCUMENT_BYTES);
    await refused(bomb, 'bomb.docx', DOCX_TYPE, 400, 'archive_too_large', DOCUMENT_MESSAGES.archiveTooLarge);
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i <= MAX_ARCHIVE_ENTRIES; i++) many[`OEBPS/extra/${i}.txt`] = new Uint8Array(0);
    await refused(epub(3, CHAPTERS, many), 'many.epub', EPUB_TYPE, 400, 'archive_too_large', DOCUMENT_MESSAGES.archiveTooLarge);
    // Says it unpacks to 1000 bytes; it unpacks to 4 MiB.
    const liar = lyingZip(docxParts([{ text: 'A sentence.' }]), 'word/footer1.xml', new Uint8Array(4 * 1024 * 1024));
    await refused(liar, 'liar.docx', DOCX_TYPE, 400, 'archive_too_large', DOCUMENT_MESSAGES.archiveTooLarge);
  });

  it('entries that leave the folder (../ or an absolute path): 400 unsafe_archive', async () => {
    const parts = { ...docxParts([{ text: 'A sentence.' }]), 'word/theme/x.xml': strToU8('<x/>') };
    await refused(zipWithName(parts, 'word/theme/x.xml', '../../../../x.xm'), 'up.docx', DOCX_TYPE, 400, 'unsafe_archive', DOCUMENT_MESSAGES.unsafeArchive);
    await refused(zipWithName(parts, 'word/theme/x.xml', '/etc/cron.d/x.xm'), 'root.docx', DOCX_TYPE, 400, 'unsafe_archive', DOCUMENT_MESSAGES.unsafeArchive);
    const epubParts3 = { ...epubParts(3, CHAPTERS), 'OEBPS/x.xhtml': strToU8('<x/>') };
    await refused(zipWithName(epubParts3, 'OEBPS/x.xhtml', 'C:/Wind/x.xht'), 'drive.epub', EPUB_TYPE, 400, 'unsafe_archive', DOCUMENT_MESSAGES.unsafeArchive);
  });

  it('an EPUB with DRM (encryption.xml naming content, or rights.xml): 422 drm_protected', async () => {
    await refused(drmEpub(CHAPTERS), 'locked.epub', EPUB_TYPE, 422, 'drm_protected', DOCUMENT_MESSAGES.drm);
    const rights = epub(3, CHAPTERS, { 'META-INF/rights.xml': strToU8('<rights xmlns="http://ns.adobe.com/adept"/>') });
    await refused(rights, 'adobe.epub', EPUB_TYPE, 422, 'drm_protected', DOCUMENT_MESSAGES.drm);
  });

  it('a password-protected PDF or Word document: 422 password_protected; a scanned PDF: 422 no_text_layer', async () => {
    await refused(encryptedPdf('A secret lesson.'), 'locked.pdf', PDF_TYPE, 422, 'password_protected', DOCUMENT_MESSAGES.passwordPdf);
    // Word encrypts a protected document into an OLE compound file (this is its header and an empty sector).
    const compound = new Uint8Array(1024);
    compound.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    await refused(compound, 'locked.docx', DOCX_TYPE, 422, 'password_protected', DOCUMENT_MESSAGES.passwordWord);
    await refused(imageOnlyPdf(), 'scan.pdf', PDF_TYPE, 422, 'no_text_layer', DOCUMENT_MESSAGES.noTextLayer);
  });

  it('over the size limit: 413 file_too_large', async () => {
    const big = new Uint8Array(MAX_DOCUMENT_BYTES + 1);
    big.set(textPdf([[{ text: 'Big.' }]]));
    await refused(big, 'big.pdf', PDF_TYPE, 413, 'file_too_large', DOCUMENT_MESSAGES.tooLarge);
    // A body past the documents' limit is refused before it is read.
    await refused(new Uint8Array(MAX_DOCUMENT_BYTES + 64 * 1024), 'huge.pdf', PDF_TYPE, 413, 'file_too_large', UPLOAD_MESSAGES.bodyTooLarge);
  });

  it('a file that lies about its type: 415 file_type_mismatch; an old .doc: 415 unsupported_file_type', async () => {
    const pdf = textPdf([[{ text: 'A sentence.' }]]);
    const word = docx([{ text: 'A sentence.' }]);
    await refused(pdf, 'notes.docx', DOCX_TYPE, 415, 'file_type_mismatch', DOCUMENT_MESSAGES.mismatch('notes.docx', 'docx', 'pdf'));
    await refused(word, 'book.epub', EPUB_TYPE, 415, 'file_type_mismatch', DOCUMENT_MESSAGES.mismatch('book.epub', 'epub', 'docx'));
    await refused(word, 'scan.pdf', PDF_TYPE, 415, 'file_type_mismatch', DOCUMENT_MESSAGES.mismatch('scan.pdf', 'pdf', null));
    await refused(new TextEncoder().encode('Just text.'), 'fake.pdf', PDF_TYPE, 415, 'file_type_mismatch', DOCUMENT_MESSAGES.mismatch('fake.pdf', 'pdf', 'text'));
    await refused(word, 'notes.txt', 'text/plain', 415, 'file_type_mismatch', DOCUMENT_MESSAGES.mismatch('notes.txt', 'text', null));
    // The Content-Type contradicts the name.
    await refused(word, 'notes.docx', PDF_TYPE, 415, 'file_type_mismatch', DOCUMENT_MESSAGES.mismatch('notes.docx', 'docx', 'pdf'));
    // A zip with neither an EPUB mimetype nor word/document.xml.
    await refused(zipSync({ 'readme.txt': strToU8('hello') }), 'odd.docx', DOCX_TYPE, 415, 'file_type_mismatch', DOCUMENT_MESSAGES.mismatch('odd.docx', 'docx', null));
    await refused(word, 'old.doc', 'application/msword', 415, 'unsupported_file_type', DOCUMENT_MESSAGES.oldWord);
  });
});
