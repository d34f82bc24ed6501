/**
 * The parts of documents in that are worth checking on their own: the small XML reader, the outline written as
 * upload Markdown, PDF line joining and the unsafe zip names.
 */
import { describe, expect, it } from 'vitest';
import { parseXml, XmlError } from '../../server/uploads/documents/xml';
import { attr, findAll, textOf } from '../../server/uploads/documents/dom';
import { toUploadSource } from '../../server/uploads/documents/outline';
import { joinLines } from '../../server/uploads/documents/pdf';
import { isUnsafeEntryName } from '../../server/uploads/documents/zip';
import { MAX_MARKUP_DEPTH } from '../../server/uploads/documents/limits';
import { splitUpload } from '../../server/uploads/split';

describe('the XML reader', () => {
  it('reads declarations, a DOCTYPE with an internal subset, comments, CDATA, entities and self-closing tags', () => {
    const root = parseXml(
      '\uFEFF<?xml version="1.0"?><!DOCTYPE ncx [ <!ENTITY x "a>b"> ]><!-- a > comment --><ncx:navMap xmlns:ncx="urn:x">' +
        "<navPoint id='p1' class=\"a &amp; b\"><text>Fish &lt;&#38;&#x26;&gt; <![CDATA[<chips>]]></text><content src=\"a.xhtml\"/></navPoint></ncx:navMap>",
    );
    expect(root.name).toBe('navmap');
    const [point] = findAll(root, 'navpoint');
    expect(attr(point, 'id')).toBe('p1');
    expect(attr(point, 'class')).toBe('a & b');
    expect(textOf(point)).toBe('Fish <&&> <chips>');
    expect(attr(findAll(root, 'content')[0], 'src')).toBe('a.xhtml');
  });

  it('refuses elements nested too deeply to walk', () => {
    expect(() => parseXml(`${'<a>'.repeat(MAX_MARKUP_DEPTH + 1)}${'</a>'.repeat(MAX_MARKUP_DEPTH + 1)}`)).toThrow(XmlError);
    expect(() => parseXml(`${'<a>'.repeat(MAX_MARKUP_DEPTH - 1)}${'</a>'.repeat(MAX_MARKUP_DEPTH - 1)}`)).not.toThrow();
  });

  it('refuses what is not well-formed', () => {
    for (const bad of ['<a><b></a></b>', '<a>', '<a x=1/>', '<a>&nbsp;</a>', '<a/><b/>', 'text<a/>', '<a><!-- never closed</a>']) {
      expect(() => parseXml(bad), bad).toThrow(XmlError);
    }
  });
});

describe('an outline as upload Markdown', () => {
  it('makes the top heading level parts and deeper levels sections, and keeps text that looks like markup as text', () => {
    const source = toUploadSource([
      { kind: 'heading', level: 1, text: 'Book' },
      { kind: 'heading', level: 3, text: 'Start' },
      { kind: 'paragraph', text: '#hashtag and **not bold**' },
      { kind: 'paragraph', text: '* * *' },
      { kind: 'paragraph', text: '42' },
      { kind: 'paragraph', text: '![not an image](x.png)' },
      { kind: 'heading', level: 2, text: 'Trailing, with no text' },
    ]);
    const split = splitUpload(source, 'en');
    if (!split.ok) throw new Error(split.reasons.join('; '));
    expect(split.edition.shortcuts).toEqual([{ name: 'Start', passage: 1 }]);
    const [passage] = split.edition.passages;
    expect(passage).toMatchObject({ partName: 'Book', sectionName: 'Start' });
    expect(passage.html).not.toContain('<strong>');
    expect(passage.html.replace(/\u2060/g, '').replace(/\u2217/g, '*')).toBe('<p>#hashtag and **not bold**</p><p>42</p><p>![not an image](x.png)</p>');
  });

  it('with one heading level, every heading is a section', () => {
    const source = toUploadSource([
      { kind: 'heading', level: 1, text: 'One' },
      { kind: 'paragraph', text: 'First.' },
      { kind: 'heading', level: 1, text: 'Two' },
      { kind: 'paragraph', text: 'Second.' },
    ]);
    expect(source).toBe('## One\n\nFirst.\n\n## Two\n\nSecond.');
  });
});

describe('PDF lines', () => {
  it('joins a word hyphenated at a line end, and keeps real hyphens and capitals apart', () => {
    expect(joinLines('soft feath-', 'ers break')).toBe('soft feathers break');
    expect(joinLines('a well-', 'Known name')).toBe('a well- Known name');
    expect(joinLines('ends here.', 'next line')).toBe('ends here. next line');
  });
});

describe('zip entry names', () => {
  it('refuses names that lead out of the folder', () => {
    for (const name of ['../x', 'a/../../x', '/etc/passwd', '\\windows\\x', 'C:/x', 'c:\\x', 'a\\..\\..\\x', '', 'a\0b']) {
      expect(isUnsafeEntryName(name), name).toBe(true);
    }
    for (const name of ['word/document.xml', 'OEBPS/text/ch..1.xhtml', 'a/b/c', '[Content_Types].xml']) expect(isUnsafeEntryName(name), name).toBe(false);
  });
});
