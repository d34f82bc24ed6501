import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildReaderPath, parseLegacyEditionRef, parsePositionSegment, parseReaderPath } from '../../src/domain/readerUrl';
import { LANGUAGE_CODES } from '../../src/domain/languages';
import { LEVELS } from '../../src/domain/levels';

const slug = fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}$/);
const version = fc.integer({ min: 1, max: 99999 }).map((n) => `v${n}`);
const edition = fc.record({ language: fc.constantFrom(...LANGUAGE_CODES), level: fc.constantFrom(...LEVELS) });
const address = fc.record({
  slug,
  version,
  primary: edition,
  secondary: fc.option(edition, { nil: null }),
  position: fc.integer({ min: 1, max: 999_999_999 }),
});

describe('reader URLs (SPEC §2 Reader URL shape)', () => {
  it('parse(build(x)) equals x, and the built address is canonical', () => {
    fc.assert(
      fc.property(address, (x) => {
        const parsed = parseReaderPath(buildReaderPath(x));
        expect(parsed).toEqual({ ...x, needsRedirect: false });
      }),
    );
  });

  it('builds lowercase addresses', () => {
    fc.assert(
      fc.property(address, (x) => {
        expect(buildReaderPath(x)).toBe(buildReaderPath(x).toLowerCase());
      }),
    );
    expect(buildReaderPath({ slug: 'fox', version: 'v1', primary: { language: 'en', level: 'GOLD' }, position: 3 })).toBe('/fox/v1/en:gold/3');
  });

  it('upper-cases levels and lowercases the rest, flagging capitals for a redirect', () => {
    expect(parseReaderPath('/Fox/V2/EN:Gold/ES:original/4')).toEqual({
      slug: 'fox',
      version: 'v2',
      primary: { language: 'en', level: 'GOLD' },
      secondary: { language: 'es', level: 'ORIGINAL' },
      position: 4,
      needsRedirect: true,
    });
  });

  it('turns a position that is not a number into 1, and flags it', () => {
    fc.assert(
      fc.property(fc.string().filter((s) => !/^\d+$/.test(s) && !s.includes('/') && !s.includes('?') && !s.includes('#') && s.length > 0), (junk) => {
        const parsed = parseReaderPath(`/fox/v1/en:gold/${junk}`);
        if (parsed) {
          expect(parsed.position).toBe(1);
          expect(parsed.needsRedirect).toBe(true);
        }
      }),
    );
    expect(parseReaderPath('/fox/v1/en:gold/abc')?.position).toBe(1);
    // Position 0 is a number no edition has: kept as it is, so the reader says 'Passage not found' (SPEC §8).
    expect(parseReaderPath('/fox/v1/en:gold/0')).toMatchObject({ position: 0, needsRedirect: false });
    expect(parseReaderPath('/fox/v1/en:gold')).toMatchObject({ position: 1, needsRedirect: true });
  });

  it('detects old addresses without a version and flags them for a redirect', () => {
    expect(parseReaderPath('/fox/en:gold/3')).toEqual({
      slug: 'fox',
      version: null,
      primary: { language: 'en', level: 'GOLD' },
      secondary: null,
      position: 3,
      needsRedirect: true,
    });
    expect(parseReaderPath('/fox/es-GOLD/2')).toMatchObject({ version: null, primary: { language: 'es', level: 'GOLD' }, position: 2, needsRedirect: true });
    expect(parseReaderPath('/fox/silver')).toMatchObject({ primary: { language: 'en', level: 'SILVER' }, position: 1, needsRedirect: true });
  });

  it("reads an edition reference 'language-LEVEL', a bare level meaning English", () => {
    expect(parseLegacyEditionRef('es-GOLD')).toEqual({ language: 'es', level: 'GOLD' });
    expect(parseLegacyEditionRef('ORIGINAL')).toEqual({ language: 'en', level: 'ORIGINAL' });
    expect(parseLegacyEditionRef('xx-GOLD')).toBeNull();
    expect(parseLegacyEditionRef('es-BRONZE')).toBeNull();
  });

  it('rejects what is not a reader address', () => {
    for (const p of ['/', '/fox', '/fox/v1', '/fox/v1/read', '/fox/overview', '/Fox Bad/v1/en:gold/1', '/fox/v1/xx:gold/1', '/fox/v1/en:gold/1/2']) {
      expect(parseReaderPath(p), p).toBeNull();
    }
  });

  it('never throws on any input', () => {
    fc.assert(fc.property(fc.string(), (s) => void parseReaderPath(s)));
    fc.assert(fc.property(fc.array(fc.string(), { maxLength: 6 }), (parts) => void parseReaderPath('/' + parts.join('/'))));
  });
});

describe('the position rule (reader, listen and teaser addresses)', () => {
  it('keeps a whole number as written, 0 included', () => {
    expect(parsePositionSegment('12')).toEqual({ position: 12, canonical: true });
    expect(parsePositionSegment('0')).toEqual({ position: 0, canonical: true });
  });
  it('reads a number with leading zeros and asks for its written form', () => {
    expect(parsePositionSegment('007')).toEqual({ position: 7, canonical: false });
  });
  it('makes anything else, or nothing, position 1 to redirect to', () => {
    expect(parsePositionSegment('abc')).toEqual({ position: 1, canonical: false });
    expect(parsePositionSegment('-3')).toEqual({ position: 1, canonical: false });
    expect(parsePositionSegment('1234567890')).toEqual({ position: 1, canonical: false });
    expect(parsePositionSegment(undefined)).toEqual({ position: 1, canonical: false });
  });
});
