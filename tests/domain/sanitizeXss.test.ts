// @vitest-environment jsdom
/**
 * XSS payloads through every content sanitizer, and none survives. The output is parsed with a
 * real HTML parser (jsdom) and checked for script-capable elements, on* attributes and script/data URLs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from '../../src/domain/richText';
import { sanitizePassageHtml } from '../../src/domain/passageText';
import { sanitizeDecodedHtml } from '../../src/domain/decode';
import { sanitizeHtml } from '../../src/ui/platform/html';

const SEED = 20261122;

const SANITIZERS: Array<[string, (html: string) => string]> = [
  ['sanitizeRichText (info sections on import)', sanitizeRichText],
  ['sanitizePassageHtml (passage text)', sanitizePassageHtml],
  ['sanitizeDecodedHtml (decoded passage text)', sanitizeDecodedHtml],
  ['sanitizeHtml (client, before dangerouslySetInnerHTML)', sanitizeHtml],
];

const jsUrl = fc.constantFrom(
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'java&#x09;script:alert(1)',
  '&#106;avascript:alert(1)',
  '&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'DATA:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
);
const caseMix = (s: string) => fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length })
  .map((flags) => [...s].map((c, i) => (flags[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
const tag = fc.constantFrom('script', 'iframe', 'object', 'embed', 'svg', 'img', 'a', 'p', 'style', 'math', 'base', 'form', 'body', 'video', 'details', 'template', 'noscript').chain(caseMix);
const event = fc.constantFrom('onerror', 'onload', 'onclick', 'onmouseover', 'onfocus', 'ontoggle', 'onbegin').chain(caseMix);

const vector: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '<script>alert(1)</script>',
    '<SCRIPT SRC=//x.test/x.js></SCRIPT>',
    '<img src=x onerror=alert(1)>',
    '<img src="x" onerror="alert(1)"/>',
    '<svg onload=alert(1)>',
    '<svg><script>alert(1)</script></svg>',
    '<iframe src="javascript:alert(1)"></iframe>',
    '<object data="javascript:alert(1)"></object>',
    '<embed src="data:text/html,<script>alert(1)</script>">',
    '<p style="background:url(javascript:alert(1))">x</p>',
    '<div style="width: expression(alert(1))">x</div>',
    '<scr<script>ipt>alert(1)</scr</script>ipt>',
    '<<script>script>alert(1)<</script>/script>',
    '<img src=x onerror=alert(1)//',
    '<a href="jav&#x0A;ascript:alert(1)">x</a>',
    '&lt;script&gt;alert(1)&lt;/script&gt;',
    '<!--<script>alert(1)</script>-->',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<details open ontoggle=alert(1)>',
    '<a href=javascript&colon;alert(1)>x</a>',
    '<p/onclick=alert(1)>x</p>',
    '<em onmouseover="alert(1)">x</em>',
    '<base href="javascript:alert(1)//">',
    '<form action="javascript:alert(1)"><button>x</button></form>',
    '"><script>alert(1)</script>',
    "'><img src=x onerror=alert(1)>",
  ),
  fc.tuple(tag, event, fc.constantFrom('alert(1)', '"alert(1)"', "'alert(1)'")).map(([t, e, v]) => `<${t} ${e}=${v}>x</${t}>`),
  fc.tuple(tag, fc.constantFrom('href', 'src', 'action', 'data', 'formaction', 'xlink:href'), jsUrl, fc.constantFrom('"', "'", '')).map(
    ([t, a, u, q]) => `<${t} ${a}=${q}${u}${q}>x</${t}>`,
  ),
  fc.tuple(tag, fc.string({ maxLength: 20 })).map(([t, s]) => `<${t}>${s}`),
);
const payload = fc.array(fc.oneof(vector, fc.string({ maxLength: 12 }), fc.constantFrom('<', '>', '"', "'", '/', '<p>', '</p>', '<a href="', '">')), {
  minLength: 1,
  maxLength: 8,
}).map((parts) => parts.join(''));

const BAD_ELEMENTS = 'script, iframe, object, embed, frame, frameset, base, form, style, link, meta, svg, math, template, noscript';
const URL_ATTRS = ['href', 'src', 'action', 'formaction', 'data', 'xlink:href', 'poster', 'background'];

/** What survives in `html` once a browser parses it; empty when nothing dangerous does. */
function survivors(html: string): string[] {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
  const found: string[] = [];
  for (const el of doc.body.querySelectorAll(BAD_ELEMENTS)) found.push(`<${el.tagName.toLowerCase()}>`);
  for (const el of doc.body.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on')) found.push(`${el.tagName.toLowerCase()}[${name}]`);
      if (name === 'style' && /expression|javascript:|url\(/i.test(attr.value)) found.push(`${el.tagName.toLowerCase()}[style]`);
      if (URL_ATTRS.includes(name) && /^(javascript|data|vbscript):/i.test(attr.value.replace(/[\u0000-\u0020]/g, ''))) {
        found.push(`${el.tagName.toLowerCase()}[${name}=${attr.value}]`);
      }
    }
  }
  return found;
}

describe('XSS payloads through every content sanitizer (fuzzing)', () => {
  it('the checker itself sees the raw payloads', () => {
    expect(survivors('<img src=x onerror=alert(1)>')).not.toEqual([]);
    expect(survivors('<a href="java&#x09;script:alert(1)">x</a>')).not.toEqual([]);
  });

  for (const [name, sanitize] of SANITIZERS) {
    it(`${name}: nothing script-capable survives`, () => {
      fc.assert(
        fc.property(payload, (html) => {
          const out = sanitize(html);
          expect(survivors(out), `input: ${html}\noutput: ${out}`).toEqual([]);
        }),
        { seed: SEED, numRuns: 300 },
      );
    }, 60_000);
  }
});
