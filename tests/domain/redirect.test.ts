import { describe, expect, it } from 'vitest';
import { CROSS_DOMAIN_MESSAGE, DEFAULT_AFTER_SIGN_IN, resolveRedirect, sameOriginPath } from '../../src/domain/redirect';

const ORIGIN = 'http://127.0.0.1:3000';

describe('resolveRedirect', () => {
  it('defaults to the catalog without a target', () => {
    expect(DEFAULT_AFTER_SIGN_IN).toBe('/catalog');
    for (const none of [undefined, null, '', '   ']) expect(resolveRedirect(none, ORIGIN)).toEqual({ ok: true, path: '/catalog' });
  });

  it('keeps a same-origin path with its query and hash', () => {
    expect(resolveRedirect('/the-fox-who-counted-stars/v1/en:gold/3?groupCode=X#t', ORIGIN)).toEqual({
      ok: true,
      path: '/the-fox-who-counted-stars/v1/en:gold/3?groupCode=X#t',
    });
    expect(resolveRedirect(`${ORIGIN}/catalog?p=2`, ORIGIN)).toEqual({ ok: true, path: '/catalog?p=2' });
    expect(resolveRedirect('catalog', ORIGIN)).toEqual({ ok: true, path: '/catalog' });
  });

  it.each([
    'https://evil.example/catalog',
    '//evil.example/catalog',
    '/\\evil.example/catalog',
    '\\\\evil.example',
    'https://127.0.0.1:3001/catalog',
    'https://127.0.0.1:3000/catalog',
    'javascript:alert(1)',
    'data:text/html,hi',
    'mailto:someone@example.com',
  ])('refuses %s with the SPEC message', (url) => {
    expect(resolveRedirect(url, ORIGIN)).toEqual({ ok: false, message: CROSS_DOMAIN_MESSAGE });
  });

  it('uses the SPEC wording', () => {
    expect(CROSS_DOMAIN_MESSAGE).toBe('Navigation to a different domain is blocked.');
  });

  it('does not send the user back to a sign-in page', () => {
    expect(resolveRedirect('/sign-in?redirectUrl=%2Fcatalog', ORIGIN)).toEqual({ ok: true, path: '/catalog' });
    expect(resolveRedirect('/sign-up', ORIGIN, '/x')).toEqual({ ok: true, path: '/x' });
    expect(resolveRedirect('/sign-inside', ORIGIN)).toEqual({ ok: true, path: '/sign-inside' });
  });
});

describe('sameOriginPath', () => {
  it('is null for an unparsable origin or url', () => {
    expect(sameOriginPath('/x', 'not an origin')).toBeNull();
    expect(sameOriginPath('http://[bad', ORIGIN)).toBeNull();
  });
});
