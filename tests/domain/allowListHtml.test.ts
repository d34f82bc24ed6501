import { describe, expect, it } from 'vitest';
import { createAllowListFilter } from '../../src/domain/allowListHtml';

const filter = createAllowListFilter({
  tags: { p: null, br: null, span: (a) => (a.get('lang') === 'fr' ? 'lang="fr"' : '') },
  dropWithContent: ['script', 'style'],
});

describe('the reader HTML allow-list filter', () => {
  it('writes allowed tags again, lower case, without their attributes', () => {
    expect(filter('<P CLASS="x" onclick=alert(1)>Up</P><br/>')).toBe('<p>Up</p><br>');
  });

  it("keeps only what a tag's rule returns", () => {
    expect(filter('<span lang="fr" style="x">oui</span><span lang=de>ja</span>')).toBe('<span lang="fr">oui</span><span>ja</span>');
  });

  it('escapes every < and > that is not an allowed tag, and keeps entities', () => {
    expect(filter('a < b > c &amp; &lt;d&gt;')).toBe('a &lt; b &gt; c &amp; &lt;d&gt;');
    expect(filter('<p>x<y</p>')).toBe('<p>x&lt;y</p>');
    expect(filter('end <p')).toBe('end &lt;p');
  });

  it('removes other tags and comments, keeping the text of the tags', () => {
    expect(filter('<div><a href="javascript:x">link</a></div><!-- note -->')).toBe('link');
    expect(filter('a<!-- never closed <p>b')).toBe('a');
  });

  it('removes a dropped tag with its content, to the end when it is never closed', () => {
    expect(filter('<p>a</p><SCRIPT>alert("</p>")</SCRIPT ><p>b</p>')).toBe('<p>a</p><p>b</p>');
    expect(filter('<p>a</p><style>p{}')).toBe('<p>a</p>');
  });

  it('reads a quoted attribute value holding > as part of its tag', () => {
    expect(filter('<p title="a>b">t</p>')).toBe('<p>t</p>');
  });
});
