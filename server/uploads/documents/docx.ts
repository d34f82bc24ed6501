/**
 * Word documents (.docx) through mammoth: its headings (Heading 1–6 styles) become sections, its paragraphs,
 * list items and table cells paragraphs; pictures are left out and counted. mammoth unzips on its own, so it is
 * handed a package rebuilt from the XML parts our guarded reader inflated: a zip bomb never reaches it, and the
 * pictures (which are never read) are not even copied.
 */
import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import { parseHtmlFragment } from './dom';
import { collectBlocks, type Block } from './outline';
import { DocumentProblem, DOCUMENT_MESSAGES } from './problems';
import type { ZipArchive } from './zip';

const isXmlPart = (name: string) => name.endsWith('.xml') || name.endsWith('.rels');

export async function readDocx(zip: ZipArchive): Promise<{ blocks: Block[]; pictures: number }> {
  const parts: Record<string, Uint8Array> = {};
  for (const name of zip.names()) if (isXmlPart(name)) parts[name] = zip.read(name)!;
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(zipSync(parts, { level: 0 })) },
      {
        // A picture becomes an empty <img> (its bytes are never read); the walk below counts and drops it.
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
        externalFileAccess: false,
        ignoreEmptyParagraphs: true,
      },
    );
    html = result.value;
  } catch {
    throw new DocumentProblem(400, 'corrupt_file', DOCUMENT_MESSAGES.corrupt('docx'));
  }
  const pictures = { count: 0 };
  const blocks = collectBlocks(parseHtmlFragment(html), { pictures });
  return { blocks, pictures: pictures.count };
}
